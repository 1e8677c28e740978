"""The root of every error Purser raises on purpose.

Each subsystem has its own root below this one (``IllegalAction`` for the game engines,
``StoreError`` for the database, ``ScaleError`` for the balance, ``VisionError`` for the
dice camera), so a caller can catch one subsystem or all of them. Messages are written
for the person at the table: they say what went wrong and what to do about it.
"""


class PurserError(Exception):
    """Base class of every error Purser raises deliberately."""
