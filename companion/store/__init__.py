"""SQLite persistence (embedded, one file per profile). Nothing else touches SQL."""

from companion.store.db import PlayerRecord, SessionRecord, Store
from companion.store.errors import (
    NotFound,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreRefused,
    StoreTooNew,
)
from companion.store.paths import data_dir, default_db_path

__all__ = [
    "NotFound",
    "PlayerRecord",
    "SessionRecord",
    "Store",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreRefused",
    "StoreTooNew",
    "data_dir",
    "default_db_path",
]
