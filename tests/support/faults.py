"""Faults for the fault-injection tests: small and read-only file systems, damaged rows.

Read-only and full file systems are real: as root (CI, the dev machines) a tmpfs of a
few hundred kilobytes, or a read-only bind mount; as another user, permission bits
(a full disk needs root: the test says so when it cannot run).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run(*cmd: str) -> None:
    subprocess.run(cmd, check=True, capture_output=True, text=True)


@contextmanager
def small_filesystem(folder: Path, kilobytes: int = 512) -> Iterator[Path]:
    """A tmpfs of ``kilobytes`` mounted on ``folder`` (needs root)."""
    if not IS_ROOT:
        pytest.skip("a small file system needs root (mount -t tmpfs)")
    folder.mkdir(parents=True, exist_ok=True)
    _run("mount", "-t", "tmpfs", "-o", f"size={kilobytes}k", "tmpfs", str(folder))
    try:
        yield folder
    finally:
        _run("umount", "-l", str(folder))


def fill(folder: Path) -> Path:
    """Fill the file system holding ``folder`` to the last byte; returns the filler file."""
    filler = folder / "filler"
    with open(filler, "ab") as f:
        try:
            for size in (65536, 4096, 512, 1):
                while True:
                    f.write(b"\0" * size)
                    f.flush()
        except OSError:
            pass
    return filler


@contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """``path`` (a file or a folder) read-only for the duration: a read-only bind mount as
    root (root ignores permission bits), else its permission bits."""
    if IS_ROOT:
        _run("mount", "--bind", str(path), str(path))
        try:
            _run("mount", "-o", "remount,bind,ro", str(path))
            yield path
        finally:
            _run("umount", "-l", str(path))
    else:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield path
        finally:
            path.chmod(mode)


def poke(db: Path, sql: str, *params: object) -> None:
    """Change a database behind Purser's back (to damage a row), then checkpoint it."""
    conn = sqlite3.connect(db)
    try:
        conn.execute(sql, params)
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
