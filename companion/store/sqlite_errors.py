"""What a SQLite error means for the person at the table: the :class:`StoreError` to raise."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.store.errors import (
    StorageError,
    StorageFull,
    StoreBusy,
    StoreCorrupt,
    StoreError,
    StoreReadOnly,
)


def error_name(exc: sqlite3.Error) -> str:
    return str(getattr(exc, "sqlite_errorname", "") or "")


#: Below this many free bytes, an input/output error on the database's disk is a full disk.
_NEARLY_FULL = 256 * 1024


def _disk_nearly_full(path: Path) -> bool:
    try:
        stats = os.statvfs(path.parent)
    except OSError:
        return False
    return stats.f_bavail * stats.f_frsize < _NEARLY_FULL


def translate(exc: sqlite3.Error, path: Path) -> StoreError:
    """The :class:`StoreError` a SQLite error stands for, with a message for the user."""
    name = error_name(exc)
    text = str(exc)
    full = name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN")) and _disk_nearly_full(path)
    if full or name.startswith("SQLITE_FULL") or "full" in text:
        return StorageFull(
            f"the disk holding {path} is full ({text}); nothing was saved. Free some space and try again."
        )
    if name.startswith("SQLITE_READONLY") or "readonly" in text:
        return StoreReadOnly(
            f"{path} cannot be written: it or its folder is read-only ({text}); nothing was saved. "
            "Make it writable or copy it somewhere writable and use --db."
        )
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")) or "locked" in text:
        return StoreBusy(
            f"{path} is busy in another window or process ({text}); nothing was saved. Try again in a moment."
        )
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return StoreCorrupt(
            f"{path} is damaged ({text}). Nothing was saved; move it aside "
            "(a copy may be recoverable with the sqlite3 tool's .recover) or choose another file with --db."
        )
    if name.startswith(("SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return StorageError(
            f"{path} could not be read or written ({text}); nothing was saved. "
            "Check the disk and the file's permissions, then try again."
        )
    return StoreError(f"the database {path} failed ({text}); nothing was saved")
