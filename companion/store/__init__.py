"""SQLite persistence (embedded, one file per profile). Nothing else touches SQL."""

from companion.store.db import JournalEntry, PlayerRecord, SessionRecord, Store
from companion.store.errors import (
    AlreadyStored,
    GameDamaged,
    NotFound,
    StaleWrite,
    StorageError,
    StorageFull,
    StoreBusy,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreReadOnly,
    StoreRefused,
    StoreTooNew,
    StoreUsage,
)
from companion.store.journal import GENESIS
from companion.store.paths import data_dir, default_db_path

__all__ = [
    "GENESIS",
    "AlreadyStored",
    "GameDamaged",
    "JournalEntry",
    "NotFound",
    "PlayerRecord",
    "SessionRecord",
    "StaleWrite",
    "StorageError",
    "StorageFull",
    "Store",
    "StoreBusy",
    "StoreConflict",
    "StoreCorrupt",
    "StoreError",
    "StoreReadOnly",
    "StoreRefused",
    "StoreTooNew",
    "StoreUsage",
    "data_dir",
    "default_db_path",
]
