"""Where Purser keeps its files by default."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "purser"


def data_dir() -> Path:
    """The user's Purser data folder (``PURSER_DATA_DIR`` overrides it)."""
    override = os.environ.get("PURSER_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_db_path() -> Path:
    """The database used when no ``--db`` is given (``PURSER_DB`` overrides it)."""
    override = os.environ.get("PURSER_DB")
    return Path(override) if override else data_dir() / "purser.db"
