"""The app's settings: hardware URLs, the tray marked for each camera, house-rule defaults
per game, theme.

Kept as a small JSON file next to the database (``purser.settings.json`` beside
``purser.db``), written atomically so a crash never leaves half a file. A file that
cannot be read is set aside (renamed ``.bad``) and the defaults are used; the app says so.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from companion.session.hardware import DEFAULT_CAMERA_URL, DEFAULT_SCALE_URL
from companion.ui.theme import DEFAULT_THEME, THEME_NAMES

log = logging.getLogger(__name__)


def settings_path(db_path: str | os.PathLike[str]) -> Path:
    """Where the settings for the database at ``db_path`` live."""
    db = Path(db_path).expanduser()
    return db.with_name(db.stem + ".settings.json")


@dataclass
class Settings:
    """What a table sets once: which hardware, which house rules, which look."""

    scale_url: str = DEFAULT_SCALE_URL
    camera_url: str = DEFAULT_CAMERA_URL
    theme: str = DEFAULT_THEME
    #: game name -> rule key -> value the new-game form starts with.
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: camera address (without ``tray=``) -> the tray marked for it ("" for the whole picture).
    trays: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> tuple[Settings, str]:
        """Read ``path``; returns the settings and a warning for the player ('' if none).

        A missing file gives the defaults. An unreadable one is renamed ``*.bad`` (never
        deleted) and the defaults are used.
        """
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return cls(), ""
        except OSError as exc:
            return cls(), f"Settings could not be read ({exc.strerror}); using the defaults."
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise ValueError("not an object")
            settings = cls(
                scale_url=str(data.get("scale_url") or DEFAULT_SCALE_URL),
                camera_url=str(data.get("camera_url") or DEFAULT_CAMERA_URL),
                theme=str(data.get("theme") or DEFAULT_THEME),
                rules={str(g): dict(r) for g, r in dict(data.get("rules") or {}).items()},
                trays={str(k): str(v) for k, v in dict(data.get("trays") or {}).items()},
            )
        except (ValueError, TypeError) as exc:
            bad = path.with_name(path.name + ".bad")
            try:
                os.replace(path, bad)
            except OSError:
                log.exception("could not move %s aside", path)
            log.warning("settings file %s unreadable (%s); moved to %s", path, exc, bad)
            return cls(), f"The settings file was damaged; it was kept as {bad.name} and the defaults are used."
        if settings.theme not in THEME_NAMES:
            settings.theme = DEFAULT_THEME
        return settings, ""

    def save(self, path: Path) -> None:
        """Write the settings atomically (temporary file, fsync, rename).

        Raises:
            OSError: the folder cannot be written.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(asdict(self), f, indent=2, sort_keys=True)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
