"""The database's exception tree."""

from companion.errors import PurserError


class StoreError(PurserError):
    """The database cannot do what was asked."""


class StoreRefused(StoreError):
    """A database file Purser will not open (damaged, another program's, or too new).

    The file is never modified when this is raised.
    """


class StoreCorrupt(StoreRefused):
    """The file is damaged or is not a Purser database."""


class StoreTooNew(StoreRefused):
    """The file was written by a newer Purser than this one."""


class StoreConflict(StoreError):
    """Another window or process changed the same game at the same moment."""


class NotFound(StoreError, LookupError):
    """No game or player with that id or name."""
