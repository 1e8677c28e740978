"""The export file: one game as JSON, sealed with a content hash.

Format (version 2; the README's "Export format" section is the reference)::

    {"format": "purser-session", "version": 2, "uuid": "...", "game": "seven",
     "players": [...], "config": {...}, "seed": 7, "cursor": 3, "actions": [...],
     "hardware": {...}, "created": "...", "sha256": "<64 hex digits>"}

``sha256`` is the SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) of every
other field. ``uuid`` is the game's lasting id: importing a game whose id is already in
the database adds nothing. Version 1 files (no ``uuid``, no ``sha256``) still import;
their id is derived from their content, so importing one twice adds it once.
"""

from __future__ import annotations

import hashlib
import uuid as uuidlib
from collections.abc import Mapping
from typing import Any

from companion.errors import ExitCode
from companion.session.moves import BadJSON, parse_json
from companion.store import StoreError
from companion.store.journal import canonical

EXPORT_FORMAT = "purser-session"
EXPORT_VERSION = 2
#: The largest export file read, in bytes.
MAX_EXPORT_BYTES = 32 * 1024 * 1024
#: Version 1 files get an id derived from their content, in this namespace.
_LEGACY_NAMESPACE = uuidlib.UUID("6c1f2f5e-3f4b-4e43-9b1e-707572736572")

_INT64 = {"type": "integer", "minimum": -(2**63), "maximum": 2**63 - 1}
EXPORT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "version", "game", "players", "config", "seed", "actions"],
    "properties": {
        "format": {"const": EXPORT_FORMAT},
        "version": {"type": "integer", "minimum": 1},
        "uuid": {"type": "string", "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"},
        "game": {"type": "string", "minLength": 1, "maxLength": 64},
        "players": {"type": "array", "items": {"type": "string", "maxLength": 64}, "maxItems": 16},
        "config": {"type": "object", "maxProperties": 128},
        "seed": _INT64,
        "cursor": {"type": "integer", "minimum": 0},
        "actions": {"type": "array", "items": {"type": "object"}, "maxItems": 100_000},
        "hardware": {
            "type": "object",
            "additionalProperties": {"type": ["string", "null"], "maxLength": 1000},
            "maxProperties": 8,
        },
        "created": {"type": "string", "maxLength": 64},
        "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
    "additionalProperties": False,
}


class ExportRefused(StoreError):
    """A file that is not a sound Purser export (damaged, tampered with, or too new).

    Nothing is imported when this is raised.
    """

    exit_code = ExitCode.DAMAGED


def content_hash(data: Mapping[str, Any]) -> str:
    """The SHA-256 (hex) of an export's canonical JSON without its ``sha256`` field."""
    body = {k: v for k, v in data.items() if k != "sha256"}
    return hashlib.sha256(canonical(body).encode("utf-8")).hexdigest()


def seal(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with its ``sha256`` field set."""
    body = {k: v for k, v in data.items() if k != "sha256"}
    return {**body, "sha256": content_hash(body)}


def read_export(raw: bytes | str, name: str = "that file") -> dict[str, Any]:
    """Parse and verify an export file's content; returns it with ``uuid`` always set.

    Raises:
        ExportRefused: not JSON, not an export, from a newer Purser, the wrong shape, or
            changed since it was exported (the hash does not match).
    """
    if len(raw) > MAX_EXPORT_BYTES:
        raise ExportRefused(f"{name} is too large for a Purser game export (over {MAX_EXPORT_BYTES >> 20} MB)")
    try:
        data = parse_json(raw)
    except BadJSON as exc:
        raise ExportRefused(f"{name} is not a Purser game export ({exc}); nothing was imported") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ExportRefused(f"{name} is not a Purser game export; nothing was imported")
    version = data.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > EXPORT_VERSION:
        raise ExportRefused(
            f"{name} comes from a newer version of Purser (export version {version}); update Purser to import it"
        )
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    error = best_match(Draft202012Validator(EXPORT_SCHEMA).iter_errors(data))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the file"
        raise ExportRefused(
            f"{name} is a damaged Purser game export ({where}: {error.message[:120]}); nothing was imported"
        )
    if version == 1:
        data["uuid"] = str(uuidlib.uuid5(_LEGACY_NAMESPACE, content_hash(data)))
        return data
    if "sha256" not in data or "uuid" not in data:
        raise ExportRefused(
            f"{name} is a damaged Purser game export (its checksum or game id is missing); nothing was imported"
        )
    if content_hash(data) != data["sha256"]:
        raise ExportRefused(
            f"{name} was changed after it was exported (its checksum does not match), so it cannot be trusted; "
            "nothing was imported. Export the game again from the original."
        )
    return data
