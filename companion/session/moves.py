"""Moves checked at the edge, before any engine or the database sees them.

Every action a screen, the command line or an import hands to a session passes
:func:`check_action`: it must be plain JSON of bounded size and depth, of a type the
game knows, with only the fields that type takes, each of the right kind and range
(:mod:`companion.session.move_schemas`, checked with ``jsonschema``). Text that should
become an action goes through :func:`parse_json` first, which refuses what ``json``
alone would choke on (invalid UTF-8, absurd nesting, numbers with thousands of digits,
NaN).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from companion.errors import ExitCode
from companion.games.base import Game, IllegalAction
from companion.session.move_schemas import SCHEMAS, Schema

#: The longest action accepted, in bytes of compact JSON (a camera reading is ~10 kB).
MAX_ACTION_BYTES = 64 * 1024
#: The deepest nesting of objects and arrays in an action.
MAX_DEPTH = 8
#: The most digits a number may be written with.
MAX_DIGITS = 40


class MalformedAction(IllegalAction):
    """An action that is not well-formed for its game (a wrong field, type, range or size)."""

    exit_code = ExitCode.USAGE


class BadJSON(ValueError):
    """Text that is not acceptable JSON; the message says why, for the person who typed it."""


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadJSON(f"a number with {len(text.lstrip('-'))} digits is far too large")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10:
        raise BadJSON(f"a number written with {len(text)} characters is far too long")
    value = float(text)
    if not math.isfinite(value):
        raise BadJSON(f"the number {text[:20]} is too large")
    return value


def _parse_constant(text: str) -> Any:
    raise BadJSON(f"{text} is not a number JSON allows")


def parse_json(data: str | bytes) -> Any:
    """Decode untrusted JSON text (or UTF-8 bytes).

    Raises:
        BadJSON: not UTF-8, not JSON, nested too deeply, or a number out of all proportion.
    """
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadJSON(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at position {exc.start + 1})") from None
    else:
        text = data
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise BadJSON(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except RecursionError:
        raise BadJSON("not valid JSON (nested far too deeply)") from None
    except BadJSON:
        raise
    except ValueError as exc:  # int() refusing a huge literal, a lone surrogate ...
        raise BadJSON(f"not valid JSON ({exc})") from None


def _depth(value: Any, limit: int) -> int:
    """How deeply ``value`` nests (a scalar is 0); stops counting past ``limit``."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            level += 1
            deepest = max(deepest, level)
            if deepest > limit:
                return deepest
            stack.extend((v, level) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _words(kind: Any) -> str:
    kinds = [kind] if isinstance(kind, str) else [k for k in kind if k != "null"]
    names = {
        "integer": "a whole number",
        "number": "a number",
        "string": "text",
        "boolean": "true or false",
        "array": "a list",
        "object": "an object",
    }
    return " or ".join(names.get(k, k) for k in kinds)


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(path: list[Any]) -> str:
    if not path:
        return "the action"
    words = f'"{path[0]}"'
    for part in path[1:]:
        words += f" item {part + 1}" if isinstance(part, int) else f' field "{part}"'
    return words


_VALIDATORS: dict[tuple[str, str], Any] = {}


def _table_for(game: Game) -> dict[str, Schema]:
    declared = getattr(game, "ACTION_SCHEMAS", None)
    return declared if isinstance(declared, dict) else SCHEMAS.get(game.NAME, {})


def _validator(game: Game, table: dict[str, Schema], kind: str) -> Any:
    key = (game.NAME, kind)
    if key not in _VALIDATORS:
        from jsonschema import Draft202012Validator

        schema: Schema = {
            "type": "object",
            "properties": {"type": {"const": kind}, **table.get("*", {}), **table[kind]},
            "additionalProperties": False,
        }
        _VALIDATORS[key] = Draft202012Validator(schema)
    return _VALIDATORS[key]


def _message(error: Any, title: str, kind: str, fields: list[str]) -> str:
    where = _where(list(error.absolute_path))
    rule = error.validator
    value = error.validator_value
    if rule == "additionalProperties" and not error.absolute_path:
        extra = sorted(set(error.instance) - {"type", *fields})
        takes = ", ".join(f'"{f}"' for f in fields) or "no other field"
        return f'{title} has no field {_show(extra[0]) if extra else ""} in a "{kind}" action (it takes {takes})'
    if rule == "additionalProperties":
        return f"{where} has a field that does not belong there"
    if rule == "type":
        return f"{where} must be {_words(value)}, not {_show(error.instance)}"
    if rule in ("enum", "const"):
        options = [v for v in (value if rule == "enum" else [value]) if v is not None]
        return f"{where} must be {' or '.join(_show(v) for v in options)}, not {_show(error.instance)}"
    if rule == "minimum":
        return f"{where} must be at least {value:g}, not {_show(error.instance)}"
    if rule == "maximum":
        return f"{where} must be at most {value:g}, not {_show(error.instance)}"
    if rule == "minLength":
        return f"{where} must not be empty"
    if rule == "maxLength":
        return f"{where} is too long (at most {value} characters)"
    if rule == "maxItems":
        return f"{where} has too many items (at most {value})"
    if rule == "maxProperties":
        return f"{where} has too many fields (at most {value})"
    return f"{where}: {error.message}"


def check_action(game: Game, action: Any) -> dict[str, Any]:
    """A detached copy of ``action`` once it has the shape ``game``'s actions have.

    Raises:
        MalformedAction: not a JSON object, too large or deep, an unknown type, a field
            that type does not take, or a value of the wrong kind or out of range.
    """
    if not isinstance(action, Mapping):
        raise MalformedAction('an action must be a JSON object such as {"type": "..."}')
    try:
        text = json.dumps(action, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        raise MalformedAction(f"the action is not plain JSON ({exc})") from None
    if len(text.encode("utf-8")) > MAX_ACTION_BYTES:
        size, most = len(text) // 1024, MAX_ACTION_BYTES // 1024
        raise MalformedAction(f"the action is too large ({size} kB; at most {most} kB)")
    if _depth(action, MAX_DEPTH) > MAX_DEPTH:
        raise MalformedAction(f"the action nests too deeply (at most {MAX_DEPTH} levels)")
    clean: dict[str, Any] = json.loads(text)
    kind = clean.get("type")
    if not isinstance(kind, str) or not kind:
        raise MalformedAction('the action has no "type"')
    table = _table_for(game)
    if not table:
        return clean  # a game without a table yet: the engine alone judges it
    if kind not in table or kind == "*":
        known = ", ".join(sorted(k for k in table if k != "*"))
        raise MalformedAction(f"{game.TITLE} has no {kind[:40]!r} action (its actions: {known})")
    validator = _validator(game, table, kind)
    from jsonschema.exceptions import best_match

    error = best_match(validator.iter_errors(clean))
    if error is not None:
        fields = sorted({*table.get("*", {}), *table[kind]})
        raise MalformedAction(_message(error, game.TITLE, kind, fields))
    return clean
