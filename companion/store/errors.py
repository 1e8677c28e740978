"""The database's exception tree."""

from companion.errors import ExitCode, PurserError


class StoreError(PurserError):
    """The database cannot do what was asked."""


class StoreRefused(StoreError):
    """A database file Purser will not open (damaged, another program's, or too new).

    The file is never modified when this is raised.
    """

    exit_code = ExitCode.DAMAGED


class StoreCorrupt(StoreRefused):
    """The file is damaged or is not a Purser database."""


class StoreTooNew(StoreRefused):
    """The file was written by a newer Purser than this one."""


class StoreConflict(StoreError):
    """Another window or process changed the same game at the same moment."""

    exit_code = ExitCode.STALE


class NotFound(StoreError, LookupError):
    """No game or player with that id or name."""

    exit_code = ExitCode.NOT_FOUND
