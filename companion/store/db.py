"""SQLite persistence: one file per profile, WAL, every write durable before it returns.

Nothing outside this package touches SQL. Opening a file checks, before anything is
written, that it is a Purser database of a version this code understands and that it is
not damaged; otherwise it is refused with :class:`StoreRefused` and left exactly as it was.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from companion.store.errors import NotFound, StoreConflict, StoreCorrupt, StoreError, StoreTooNew
from companion.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger(__name__)

_SQLITE_MAGIC = b"SQLite format 3\x00"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class SessionRecord:
    """A table session as stored: ``cursor`` counts the actions in effect (the rest can be redone)."""

    id: int
    game: str
    config: dict[str, Any]
    seed: int
    players: tuple[str, ...]
    created: str
    updated: str
    cursor: int
    finished: bool
    result: dict[str, Any] | None
    hardware: dict[str, Any]


@dataclass(frozen=True)
class PlayerRecord:
    """A player profile; ``profile`` holds titles and other facts games keep on a player."""

    id: int
    name: str
    created: str
    profile: dict[str, Any]


def _check_header(path: Path) -> None:
    """Refuse a file that is not a SQLite database of ours, reading bytes only."""
    with path.open("rb") as f:
        header = f.read(100)
    if len(header) == 0:
        return  # an empty file is a new database
    if len(header) < 100 or not header.startswith(_SQLITE_MAGIC):
        raise StoreCorrupt(
            f"{path} is not a Purser database (or it is damaged). It was left untouched; "
            "move it aside or choose another file with --db."
        )
    user_version = int.from_bytes(header[60:64], "big")
    application_id = int.from_bytes(header[68:72], "big")
    if application_id not in (0, APPLICATION_ID):
        raise StoreCorrupt(
            f"{path} belongs to another program, not Purser. It was left untouched; "
            "choose another file with --db."
        )
    if user_version > SCHEMA_VERSION:
        raise StoreTooNew(
            f"{path} was written by a newer version of Purser (database version {user_version}, "
            f"this Purser understands up to {SCHEMA_VERSION}). It was left untouched; "
            "update Purser to open it."
        )


class Store:
    """A Purser database file.

    Use :meth:`open`; the object is a context manager that closes the connection.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self.path = path

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        Raises:
            StoreCorrupt: the file is damaged or not a Purser database.
            StoreTooNew: the file comes from a newer Purser.
            StoreError: the file cannot be opened at all (permissions, missing folder).
        """
        path = Path(path).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.exists():
                _check_header(path)
            conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        except OSError as exc:
            raise StoreError(f"cannot open the database {path}: {exc.strerror or exc}") from exc
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the database {path}: {exc}") from exc
        try:
            cls._verify(conn, path)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            store = cls(conn, path)
            store._migrate()
        except BaseException:
            conn.close()
            raise
        return store

    @staticmethod
    def _verify(conn: sqlite3.Connection, path: Path) -> None:
        """Integrity and version checks that run before anything is written."""
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            check = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            raise StoreCorrupt(
                f"{path} is damaged or is not a Purser database ({exc}). It was left untouched; "
                "move it aside or choose another file with --db."
            ) from exc
        if check != [("ok",)]:
            problems = "; ".join(row[0] for row in check[:3])
            raise StoreCorrupt(
                f"{path} is damaged ({problems}). It was left untouched; move it aside "
                "(a copy may be recoverable with the sqlite3 tool's .recover) or choose another file with --db."
            )
        if version > SCHEMA_VERSION:
            raise StoreTooNew(
                f"{path} was written by a newer version of Purser (database version {version}, "
                f"this Purser understands up to {SCHEMA_VERSION}). It was left untouched; update Purser to open it."
            )
        if app_id != APPLICATION_ID and (app_id != 0 or tables > 0):
            raise StoreCorrupt(
                f"{path} belongs to another program, not Purser. It was left untouched; choose another file with --db."
            )

    def _migrate(self) -> None:
        version = self._conn.execute("PRAGMA user_version").fetchone()[0]
        for target in range(version + 1, SCHEMA_VERSION + 1):
            log.info("migrating %s to schema version %d", self.path, target)
            # executescript commits any open transaction first, so the script carries
            # its own; the version bump is inside it, so a crash leaves either version.
            self._conn.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[target - 1]}\nPRAGMA user_version = {target};\nCOMMIT;"
            )

    def close(self) -> None:
        """Close the connection (everything written is already durable)."""
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise StoreConflict(f"the database is busy in another window or process ({exc}); try again") from exc
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK")
            raise StoreError(f"the database could not save: {exc}") from exc

    # -- players --------------------------------------------------------------------------

    def _player_id(self, conn: sqlite3.Connection, name: str) -> int:
        row = conn.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row:
            return int(row[0])
        return int(conn.execute("INSERT INTO players (name, created) VALUES (?, ?)", (name, _now())).lastrowid)

    def add_player(self, name: str) -> PlayerRecord:
        """The profile called ``name`` (case-insensitive), created if new."""
        with self._transaction() as conn:
            self._player_id(conn, name.strip())
        return self.player(name)

    def player(self, name: str) -> PlayerRecord:
        """The profile called ``name``.

        Raises:
            NotFound: no such player.
        """
        row = self._conn.execute(
            "SELECT id, name, created, profile FROM players WHERE name = ?", (name.strip(),)
        ).fetchone()
        if row is None:
            raise NotFound(f"there is no player called {name!r}")
        return PlayerRecord(row[0], row[1], row[2], json.loads(row[3]))

    def players(self) -> list[PlayerRecord]:
        """Every profile, by name."""
        rows = self._conn.execute("SELECT id, name, created, profile FROM players ORDER BY name").fetchall()
        return [PlayerRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def update_profiles(self, profiles: Mapping[str, Mapping[str, Any]]) -> None:
        """Replace the ``profile`` facts of several players in one transaction."""
        with self._transaction() as conn:
            for name, profile in profiles.items():
                conn.execute(
                    "UPDATE players SET profile = ? WHERE name = ?", (json.dumps(dict(profile)), name)
                )

    # -- sessions ---------------------------------------------------------------------------

    def create_session(
        self,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        players: Sequence[str],
        hardware: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a new session (creating player profiles as needed); returns its id."""
        now = _now()
        with self._transaction() as conn:
            sid = int(
                conn.execute(
                    "INSERT INTO sessions (game, config, seed, created, updated, hardware) VALUES (?, ?, ?, ?, ?, ?)",
                    (game, json.dumps(dict(config)), seed, now, now, json.dumps(dict(hardware or {}))),
                ).lastrowid
            )
            for seat, name in enumerate(players):
                conn.execute(
                    "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                    (sid, seat, self._player_id(conn, name)),
                )
        return sid

    def import_session(
        self,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        players: Sequence[str],
        actions: Sequence[Mapping[str, Any]],
        cursor: int,
        hardware: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a whole session with its journal in one transaction; returns its new id."""
        if not 0 <= cursor <= len(actions):
            raise StoreError(f"an imported game cannot stand at action {cursor} of {len(actions)}")
        now = _now()
        with self._transaction() as conn:
            sid = int(
                conn.execute(
                    "INSERT INTO sessions (game, config, seed, created, updated, cursor, hardware) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game, json.dumps(dict(config)), seed, now, now, cursor, json.dumps(dict(hardware or {}))),
                ).lastrowid
            )
            for seat, name in enumerate(players):
                conn.execute(
                    "INSERT INTO seats (session_id, seat, player_id) VALUES (?, ?, ?)",
                    (sid, seat, self._player_id(conn, name)),
                )
            conn.executemany(
                "INSERT INTO actions (session_id, seq, action, created) VALUES (?, ?, ?, ?)",
                [(sid, i + 1, json.dumps(dict(a), separators=(",", ":")), now) for i, a in enumerate(actions)],
            )
        return sid

    def _record(self, row: tuple[Any, ...]) -> SessionRecord:
        players = tuple(
            r[0]
            for r in self._conn.execute(
                "SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.session_id = ? ORDER BY s.seat",
                (row[0],),
            )
        )
        return SessionRecord(
            id=row[0],
            game=row[1],
            config=json.loads(row[2]),
            seed=row[3],
            players=players,
            created=row[4],
            updated=row[5],
            cursor=row[6],
            finished=bool(row[7]),
            result=json.loads(row[8]) if row[8] else None,
            hardware=json.loads(row[9]),
        )

    _SESSION_COLUMNS = "id, game, config, seed, created, updated, cursor, finished, result, hardware"

    def session(self, session_id: int) -> SessionRecord:
        """The session with this id.

        Raises:
            NotFound: no such session.
        """
        row = self._conn.execute(
            f"SELECT {self._SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
        ).fetchone()
        if row is None:
            raise NotFound(f"there is no game session {session_id} in {self.path}")
        return self._record(row)

    def sessions(self, game: str | None = None) -> list[SessionRecord]:
        """Every session: unfinished first, then most recently played first."""
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        rows = self._conn.execute(
            f"SELECT {self._SESSION_COLUMNS} FROM sessions {where} ORDER BY finished, updated DESC, id DESC", params
        ).fetchall()
        return [self._record(r) for r in rows]

    def actions(self, session_id: int) -> list[dict[str, Any]]:
        """The whole journal of a session in order, including actions undone but redoable."""
        rows = self._conn.execute(
            "SELECT action FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
        return [json.loads(r[0]) for r in rows]

    def _check_cursor(self, conn: sqlite3.Connection, session_id: int, expected: int) -> None:
        row = conn.execute("SELECT cursor FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game session {session_id}")
        if row[0] != expected:
            raise StoreConflict(
                f"game {session_id} was changed elsewhere (another window or process); reopen it to see the latest"
            )

    def append_action(self, session_id: int, cursor: int, action: Mapping[str, Any]) -> int:
        """Commit ``action`` as number ``cursor + 1``, dropping any redo tail; returns the new cursor.

        The write is durable (WAL, synchronous=FULL) when this returns.

        Raises:
            StoreConflict: the session's cursor is no longer ``cursor``.
        """
        text = json.dumps(dict(action), separators=(",", ":"))
        with self._transaction() as conn:
            self._check_cursor(conn, session_id, cursor)
            conn.execute("DELETE FROM actions WHERE session_id = ? AND seq > ?", (session_id, cursor))
            conn.execute(
                "INSERT INTO actions (session_id, seq, action, created) VALUES (?, ?, ?, ?)",
                (session_id, cursor + 1, text, _now()),
            )
            conn.execute(
                "UPDATE sessions SET cursor = ?, updated = ? WHERE id = ?", (cursor + 1, _now(), session_id)
            )
        return cursor + 1

    def set_cursor(self, session_id: int, old: int, new: int) -> None:
        """Move the undo/redo cursor from ``old`` to ``new`` (durable on return).

        Raises:
            StoreConflict: the session's cursor is no longer ``old``.
        """
        with self._transaction() as conn:
            self._check_cursor(conn, session_id, old)
            count = conn.execute("SELECT count(*) FROM actions WHERE session_id = ?", (session_id,)).fetchone()[0]
            if not 0 <= new <= count:
                raise StoreError(f"cannot move game {session_id} to action {new}: it has {count}")
            conn.execute("UPDATE sessions SET cursor = ?, updated = ? WHERE id = ?", (new, _now(), session_id))

    def set_result(self, session_id: int, result: Mapping[str, Any] | None) -> None:
        """Mark a session finished with its final ``result``, or unfinished when ``None``."""
        with self._transaction() as conn:
            conn.execute(
                "UPDATE sessions SET finished = ?, result = ? WHERE id = ?",
                (result is not None, json.dumps(dict(result)) if result is not None else None, session_id),
            )

    def set_hardware(self, session_id: int, hardware: Mapping[str, Any]) -> None:
        """Record which scale and camera feed this session."""
        with self._transaction() as conn:
            conn.execute("UPDATE sessions SET hardware = ? WHERE id = ?", (json.dumps(dict(hardware)), session_id))

    def delete_session(self, session_id: int) -> None:
        """Remove a session and its journal."""
        with self._transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
