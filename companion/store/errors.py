"""The database's exception tree.

Every kind carries the command line's exit code (see :class:`companion.errors.ExitCode`).
Whatever is raised from a write, nothing of that write was saved.
"""

from __future__ import annotations

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


class StoreUsage(StoreError):
    """A database path that cannot name a database (empty, a folder)."""

    exit_code = ExitCode.USAGE


class StoreConflict(StoreError):
    """Another window or process got in the way of a write; nothing was saved."""

    exit_code = ExitCode.STALE


class StoreBusy(StoreConflict):
    """Another window or process held the database for too long; trying again may work."""


class StaleWrite(StoreConflict):
    """The game moved on since the writer read it (another window or device wrote first).

    ``session_id`` is the game, ``seq`` the number of actions now in effect, ``by`` who
    made the latest of them ("" when unknown or when it was an undo), ``change`` what
    happened in words ("move 3 (play by Ana) was played"; "" when unknown).
    """

    def __init__(self, message: str, session_id: int, seq: int, by: str = "", change: str = "") -> None:
        super().__init__(message)
        self.session_id = session_id
        self.seq = seq
        self.by = by
        self.change = change


class StorageError(StoreError):
    """The database file cannot be written (disk full, read-only, input/output error)."""

    exit_code = ExitCode.STORAGE


class StorageFull(StorageError):
    """The disk (or the database's size limit) is full."""


class StoreReadOnly(StorageError):
    """The database file or its folder is read-only; it can be read but not changed."""


class GameDamaged(StoreError):
    """One stored game is damaged (a row that does not decode or does not add up).

    The other games in the same file stay usable. ``session_id`` names the game.
    """

    exit_code = ExitCode.DAMAGED

    def __init__(self, message: str, session_id: int) -> None:
        super().__init__(message)
        self.session_id = session_id


class AlreadyStored(StoreError):
    """An imported game is already in the database (same game id); nothing was added."""

    def __init__(self, message: str, session_id: int) -> None:
        super().__init__(message)
        self.session_id = session_id


class NotFound(StoreError, LookupError):
    """No game, player or folder with that id or name."""

    exit_code = ExitCode.NOT_FOUND


class BadName(StoreUsage):
    """A name no player can have (empty, too long, control characters); nothing was changed."""


class ProfileChanged(StoreConflict):
    """A player profile was renamed, merged or deleted elsewhere since the writer looked."""


class PlayerRefused(StoreError):
    """A change to player profiles that would make the stored games wrong; nothing was changed."""

    exit_code = ExitCode.ERROR


class NameTaken(PlayerRefused):
    """Another profile already has that name."""


class PlayedTogether(PlayerRefused):
    """Two profiles that sat at the same table are different people and cannot be merged.

    ``games`` holds the ids of the games they shared.
    """

    def __init__(self, message: str, games: tuple[int, ...]) -> None:
        super().__init__(message)
        self.games = games


class PlayerHasGames(PlayerRefused):
    """A profile with games cannot be deleted (the games keep its name).

    ``games`` holds the ids of its games.
    """

    def __init__(self, message: str, games: tuple[int, ...]) -> None:
        super().__init__(message)
        self.games = games
