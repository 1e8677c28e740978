"""The root of every error Purser raises on purpose, and the exit code of each kind.

Each subsystem has its own root below this one (``IllegalAction`` for the game engines,
``StoreError`` for the database, ``ScaleError`` for the balance, ``VisionError`` for the
dice camera), so a caller can catch one subsystem or all of them. Messages are written
for the person at the table: they say what went wrong and what to do about it.

Every kind carries the exit code the command line ends with when it stops a command
(``exit_code``); the README lists them.
"""

import enum


class ExitCode(enum.IntEnum):
    """The command line's exit codes, one per kind of failure."""

    OK = 0
    ERROR = 1  #: any other refusal
    USAGE = 2  #: a command, option or setting that does not exist or cannot take that value
    ILLEGAL = 3  #: a move the rules do not allow now, or nothing to undo/redo
    STALE = 4  #: the game moved on since it was read (another window or device wrote first)
    DAMAGED = 5  #: a database, game or file that is damaged, tampered with or too new
    STORAGE = 6  #: the disk is full or the database cannot be written (read-only)
    HARDWARE = 7  #: the balance or the camera is missing, faulty or not answering
    NOT_FOUND = 8  #: no game, player or file by that name
    INTERRUPTED = 130  #: Ctrl-C


class PurserError(Exception):
    """Base class of every error Purser raises deliberately."""

    exit_code: ExitCode = ExitCode.ERROR
