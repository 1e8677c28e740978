"""SQLite persistence: one file per profile, WAL, every write durable before it returns.

Nothing outside this package touches SQL. Opening a file checks, before anything is
written, that it is a Purser database of a version this code understands and that it is
not damaged; otherwise it is refused with :class:`StoreRefused` and left exactly as it was.
A healthy database that cannot be written (a read-only file or folder) opens read-only:
reading works, every write raises :class:`StoreReadOnly`.

Every change a user makes is one transaction (:meth:`Store.transaction`, re-entrant, so
an action, the finish flag it sets and the titles it changes commit together). Writes to
a game's journal name the head (:mod:`companion.store.journal`) the writer saw; if the
game moved on meanwhile, nothing is written and :class:`StaleWrite` says what changed.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import uuid as uuidlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.store.errors import (
    AlreadyStored,
    BadName,
    GameDamaged,
    NameTaken,
    NotFound,
    PlayedTogether,
    PlayerHasGames,
    ProfileChanged,
    StaleWrite,
    StorageError,
    StoreCorrupt,
    StoreError,
    StoreReadOnly,
    StoreTooNew,
    StoreUsage,
)
from companion.store.journal import GENESIS, canonical, chain
from companion.store.names import check_name
from companion.store.paths import data_dir
from companion.store.schema import AFTER_STEPS, APPLICATION_ID, MIGRATIONS, PYTHON_STEPS, SCHEMA_VERSION
from companion.store.sqlite_errors import error_name as _error_name
from companion.store.sqlite_errors import translate

log = logging.getLogger(__name__)

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: SQLite stores integers in 64 bits; ids and seeds outside this range cannot exist.
MAX_INT = 2**63 - 1


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


@dataclass(frozen=True)
class SessionRecord:
    """A table session as stored: ``cursor`` counts the actions in effect (the rest can be redone).

    ``players`` are the names the players had at this table, in seating order: the names
    its journal, result and exports use, never changed afterwards. ``profiles`` are the
    names, now, of the profiles those seats count for (a profile renamed or merged since
    then has another name); statistics and titles go by ``profiles``.

    ``damaged`` is empty for a sound record; otherwise it says what is wrong, and only
    ``id``, ``game``, ``players`` and ``profiles`` can be trusted (:meth:`Store.sessions`
    lists such records so they can be shown; :meth:`Store.session` refuses them).
    """

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
    uuid: str = ""
    damaged: str = ""
    profiles: tuple[str, ...] = ()


@dataclass(frozen=True)
class JournalEntry:
    """One stored action: its number (1-based), the action and its chain hash."""

    seq: int
    action: dict[str, Any]
    hash: str


@dataclass(frozen=True)
class PlayerRecord:
    """A player profile; ``profile`` holds titles and other facts games keep on a player
    (``profile["aliases"]``: the other names this player had, through renames and merges)."""

    id: int
    name: str
    created: str
    profile: dict[str, Any]

    @property
    def key(self) -> tuple[int, str]:
        """What tells this profile from any other, ever: its id and when it was created
        (an id can be given again after a profile is deleted)."""
        return (self.id, self.created)


def _check_header(path: Path) -> None:
    """Refuse a file that is not a SQLite database of ours, reading bytes only."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise StorageError(
            f"cannot read the database {path}: {exc.strerror or exc}. Check its permissions or choose another --db."
        ) from exc
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
            f"{path} belongs to another program, not Purser. It was left untouched; choose another file with --db."
        )
    if user_version > SCHEMA_VERSION:
        raise StoreTooNew(
            f"{path} was written by a newer version of Purser (database version {user_version}, "
            f"this Purser understands up to {SCHEMA_VERSION}). It was left untouched; update Purser to open it."
        )


def _loads(text: Any) -> Any:
    """Decode a stored JSON column; raises ValueError for anything that is not JSON."""
    if not isinstance(text, str):
        raise ValueError(f"not text but {type(text).__name__}")
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def _stored_text(action: Mapping[str, Any]) -> str:
    """An action as stored: compact JSON in the writer's key order (the hash uses canonical form)."""
    return json.dumps(dict(action), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _split_sql(script: str) -> list[str]:
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        statements.append(current.strip())
    return [s for s in statements if s.rstrip(";").strip()]


def _who(action: Mapping[str, Any]) -> str:
    player = action.get("player")
    return player if isinstance(player, str) and player else ""


def _move_words(seq: int, action: Mapping[str, Any]) -> str:
    who = _who(action)
    kind = action.get("type")
    what = f"{kind}" if isinstance(kind, str) else "an action"
    return f"move {seq} ({what} by {who})" if who else f"move {seq} ({what})"


class Store:
    """A Purser database file.

    Use :meth:`open`; the object is a context manager that closes the connection.
    ``read_only`` is True when the file or its folder cannot be written.
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, read_only: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.read_only = read_only
        self._depth = 0

    # -- opening ------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, create_folder: bool | None = None) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date.

        A missing folder is created only if ``create_folder`` is True, or when it is
        ``None`` and the folder is Purser's own data folder (:func:`data_dir`).

        Raises:
            StoreUsage: ``path`` is empty or a folder.
            NotFound: its folder does not exist (and is not to be created).
            StoreCorrupt: the file is damaged or not a Purser database.
            StoreTooNew: the file comes from a newer Purser.
            StoreReadOnly: the file does not exist and its folder is read-only, or it needs
                upgrading and cannot be written.
            StorageError: the file cannot be opened at all (permissions, input/output error).
        """
        if not os.fspath(path):
            raise StoreUsage("no database file was given (an empty --db or PURSER_DB); name a file or leave it out")
        path = Path(path).expanduser()
        if path.is_dir():
            raise StoreUsage(f"{path} is a folder, not a database file; name a file inside it with --db")
        folder = path.parent
        try:
            if not folder.exists():
                allowed = create_folder if create_folder is not None else _same_folder(folder, data_dir())
                if not allowed:
                    raise NotFound(
                        f"the folder {folder} does not exist, so {path.name} cannot be created there; "
                        "create the folder first or choose another --db"
                    )
                folder.mkdir(parents=True, exist_ok=True)
            exists = path.exists()
            if exists:
                _check_header(path)
            writable = os.access(folder, os.W_OK) and (not exists or os.access(path, os.W_OK))
        except OSError as exc:
            raise StorageError(f"cannot open the database {path}: {exc.strerror or exc}") from exc
        if not writable and not exists:
            raise StoreReadOnly(
                f"cannot create the database {path}: its folder is read-only. Choose a writable place with --db."
            )
        try:
            conn = cls._connect(path, writable)
        except sqlite3.Error as exc:
            raise translate(exc, path) from exc
        try:
            cls._verify(conn, path)
            if writable:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
            store = cls(conn, path, read_only=not writable)
            store._migrate()
        except sqlite3.Error as exc:
            conn.close()
            raise translate(exc, path) from exc
        except BaseException:
            conn.close()
            raise
        return store

    @staticmethod
    def _connect(path: Path, writable: bool) -> sqlite3.Connection:
        if writable:
            return sqlite3.connect(path, isolation_level=None, timeout=10.0)
        uri = "file:" + quote(str(path.absolute()))
        conn = sqlite3.connect(uri + "?mode=ro", uri=True, isolation_level=None, timeout=10.0)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            if not _error_name(exc).startswith(("SQLITE_CANTOPEN", "SQLITE_READONLY")):
                conn.close()
                raise
            # A WAL database in a folder we cannot write has no shared-memory file to
            # read through: read the file as it stands (nothing else can write it either).
            conn.close()
            log.info("%s: read-only folder, reading the database as immutable", path)
            conn = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, isolation_level=None, timeout=10.0)
        return conn

    @staticmethod
    def _verify(conn: sqlite3.Connection, path: Path) -> None:
        """Integrity and version checks that run before anything is written."""
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            check = conn.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as exc:
            if not _error_name(exc).startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")) and _error_name(exc):
                raise
            raise StoreCorrupt(
                f"{path} is damaged or is not a Purser database ({exc}). It was left untouched; "
                "move it aside or choose another file with --db."
            ) from exc
        if check != [("ok",)]:
            problems = "; ".join(str(row[0]) for row in check[:3])
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
        if version < SCHEMA_VERSION and self.read_only:
            raise StoreReadOnly(
                f"{self.path} comes from an older Purser and must be upgraded, but it is read-only. "
                "Make it writable (or copy it somewhere writable and use --db) and try again."
            )
        for target in range(version + 1, SCHEMA_VERSION + 1):
            log.info("migrating %s to schema version %d", self.path, target)
            with self.transaction() as conn:  # a crash leaves either version, never half of one
                for statement in _split_sql(MIGRATIONS[target - 1]):
                    conn.execute(statement)
                step = PYTHON_STEPS.get(target)
                if step:
                    getattr(self, f"_step_{step}")(conn)
                for statement in _split_sql(AFTER_STEPS.get(target, "")):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {target}")

    def _step_fill_ids_and_hashes(self, conn: sqlite3.Connection) -> None:
        for (sid,) in conn.execute("SELECT id FROM sessions WHERE uuid IS NULL").fetchall():
            conn.execute("UPDATE sessions SET uuid = ? WHERE id = ?", (str(uuidlib.uuid4()), sid))
        rows = conn.execute("SELECT session_id, seq, action FROM actions ORDER BY session_id, seq").fetchall()
        previous: dict[int, str] = {}
        for sid, seq, text in rows:
            try:
                digest = chain(previous.get(sid, GENESIS), _loads(text))
            except (ValueError, TypeError):
                digest = ""  # a damaged row stays damaged; reading the game says so
            previous[sid] = digest
            conn.execute("UPDATE actions SET hash = ? WHERE session_id = ? AND seq = ?", (digest, sid, seq))

    def close(self) -> None:
        """Close the connection (everything written is already durable)."""
        self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- transactions ---------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One atomic, durable change: everything written inside commits together or not at all.

        Re-entrant: a transaction opened inside another joins it. Reads inside see the
        transaction's own writes.

        Raises:
            StoreReadOnly, StorageFull, StorageError, StoreBusy: it could not be saved
                (nothing was).
        """
        if self._depth:
            self._depth += 1
            try:
                yield self._conn
            finally:
                self._depth -= 1
            return
        if self.read_only:
            raise StoreReadOnly(
                f"{self.path} is read-only (the file or its folder cannot be written); nothing was saved. "
                "Make it writable, or copy it somewhere writable and use --db."
            )
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc
        self._depth = 1
        try:
            yield conn
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            self._rollback()
            raise translate(exc, self.path) from exc
        except BaseException:
            self._rollback()
            raise
        finally:
            self._depth = 0

    def _rollback(self) -> None:
        # SQLite may already have rolled back by itself (a full disk, an I/O error).
        if self._conn.in_transaction:
            try:
                self._conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.warning("rollback of %s failed; SQLite discards the transaction on reopening", self.path)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    # -- players --------------------------------------------------------------------------

    def _player_id(self, conn: sqlite3.Connection, name: str) -> int:
        """The id of the profile called ``name`` (case-insensitive), created if new.

        Raises:
            BadName: there is no such profile and ``name`` cannot name one.
        """
        row = conn.execute("SELECT id FROM players WHERE name = ?", (name.strip(),)).fetchone()
        if row:
            return int(row[0])
        clean = check_name(name)
        return int(conn.execute("INSERT INTO players (name, created) VALUES (?, ?)", (clean, _now())).lastrowid or 0)

    def add_player(self, name: str) -> PlayerRecord:
        """The profile called ``name`` (case-insensitive), created if new.

        Raises:
            BadName: ``name`` cannot name a player (empty, too long, control characters).
        """
        clean = check_name(name)
        with self.transaction() as conn:
            self._player_id(conn, clean)
        return self.player(clean)

    def _player(self, row: Sequence[Any]) -> PlayerRecord:
        try:
            profile = _loads(row[3])
            if not isinstance(profile, dict):
                raise ValueError("not an object")
        except ValueError:
            log.warning("player %r has a damaged profile; shown without titles", row[1])
            profile = {}
        return PlayerRecord(row[0], row[1], row[2], profile)

    def player(self, name: str) -> PlayerRecord:
        """The profile called ``name``.

        Raises:
            BadName: ``name`` is empty.
            NotFound: no such player.
        """
        _given(name)
        rows = self._read("SELECT id, name, created, profile FROM players WHERE name = ?", (name.strip(),))
        if not rows:
            raise NotFound(f"there is no player called {name!r}")
        return self._player(rows[0])

    def players(self) -> list[PlayerRecord]:
        """Every profile, by name."""
        return [self._player(r) for r in self._read("SELECT id, name, created, profile FROM players ORDER BY name")]

    def update_profiles(self, profiles: Mapping[str, Mapping[str, Any]]) -> None:
        """Replace the ``profile`` facts of several players in one transaction."""
        with self.transaction() as conn:
            for name, profile in profiles.items():
                conn.execute("UPDATE players SET profile = ? WHERE name = ?", (canonical(dict(profile)), name))

    # -- renaming, merging and deleting profiles ---------------------------------------------
    #
    # A game's journal, result and exports name the players as they were called at that
    # table (``seats.name``); a seat counts for a profile through ``seats.player_id``. So a
    # rename or a merge changes profiles and seat links only: no journal row, hash, result
    # or export changes, a game open elsewhere keeps its head, and replays stay valid.

    def player_sessions(self, name: str) -> list[int]:
        """The ids of the games the profile called ``name`` sat in, oldest first.

        Raises:
            NotFound: no such player.
        """
        pid = self.player(name).id
        return [
            int(r[0])
            for r in self._read("SELECT DISTINCT session_id FROM seats WHERE player_id = ? ORDER BY session_id", (pid,))
        ]

    def _profile_row(self, conn: sqlite3.Connection, name: str, seen: tuple[int, str] | None) -> PlayerRecord:
        """The profile called ``name``, read inside a write.

        Raises:
            BadName: ``name`` is empty.
            NotFound: no such player (and ``seen`` was not given).
            ProfileChanged: ``seen`` is not the key of the profile now called ``name``.
        """
        _given(name)
        row = conn.execute("SELECT id, name, created, profile FROM players WHERE name = ?", (name.strip(),)).fetchone()
        if seen is not None and (row is None or (int(row[0]), str(row[2])) != tuple(seen)):
            raise ProfileChanged(
                f"the player {_quoted(name)} was renamed, merged or deleted in another window or process "
                "since you looked; nothing was changed. Look at the players again."
            )
        if row is None:
            raise NotFound(f"there is no player called {_quoted(name)}; nothing was changed")
        return self._player(row)

    def rename_player(self, name: str, new_name: str, *, seen: tuple[int, str] | None = None) -> PlayerRecord:
        """Give the profile called ``name`` the name ``new_name``, in one transaction.

        Its games, statistics and titles stay with it (they go by the profile, not the
        name); its games keep the name they were played under. The old name is kept in
        ``profile["aliases"]``. A change of capitals only ("ana" -> "Ana") is allowed.
        ``seen`` is the profile's :attr:`PlayerRecord.key` as the caller saw it (refused if
        the name now belongs to another profile).

        Raises:
            BadName: ``new_name`` cannot name a player.
            NotFound: no player is called ``name``.
            NameTaken: another player is already called ``new_name`` (merge them instead).
            ProfileChanged: ``seen`` no longer matches (changed elsewhere).
            StorageError, StoreBusy: it could not be saved.
        """
        clean = check_name(new_name)
        with self.transaction() as conn:
            me = self._profile_row(conn, name, seen)
            pid, old, profile = me.id, me.name, me.profile
            other = conn.execute("SELECT name FROM players WHERE name = ? AND id != ?", (clean, pid)).fetchone()
            if other is not None:
                raise NameTaken(
                    f"there is already a player called {_quoted(str(other[0]))}; nothing was changed. "
                    f"If {old} and {other[0]} are the same person, merge them instead."
                )
            if clean != old:
                profile = _with_aliases(profile, [old], clean)
                conn.execute("UPDATE players SET name = ?, profile = ? WHERE id = ?", (clean, canonical(profile), pid))
                log.info("player %d renamed from %r to %r", pid, old, clean)
        return self.player(clean)

    def merge_players(
        self, into: str, other: str, *, seen: tuple[tuple[int, str], tuple[int, str]] | None = None
    ) -> PlayerRecord:
        """Merge the profile called ``other`` into the one called ``into``, in one transaction:
        every seat of ``other`` counts for ``into`` from now on, ``into`` keeps its name and
        facts (and takes those of ``other`` it lacks), and ``other`` leaves the list (its
        names join ``into``'s aliases). Games keep the names they were played under.

        Titles derived from games must be worked out again afterwards, in the same
        transaction (``companion.session.profiles`` does both).

        ``seen`` are the two profiles' keys as the caller saw them.

        Raises:
            BadName: ``into`` and ``other`` are the same player.
            NotFound: either player does not exist.
            PlayedTogether: they sat in the same game, so they are two people.
            ProfileChanged: ``seen`` no longer match (changed elsewhere).
            StorageError, StoreBusy: it could not be saved.
        """
        with self.transaction() as conn:
            kept = self._profile_row(conn, into, seen[0] if seen else None)
            dropped = self._profile_row(conn, other, seen[1] if seen else None)
            keep, keep_name, keep_profile = kept.id, kept.name, kept.profile
            drop, drop_name, drop_profile = dropped.id, dropped.name, dropped.profile
            if keep == drop:
                raise BadName(f"{_quoted(into)} and {_quoted(other)} are the same player; name two players to merge")
            shared = tuple(
                int(r[0])
                for r in conn.execute(
                    "SELECT DISTINCT a.session_id FROM seats a JOIN seats b ON a.session_id = b.session_id "
                    "WHERE a.player_id = ? AND b.player_id = ? ORDER BY a.session_id",
                    (keep, drop),
                ).fetchall()
            )
            if shared:
                raise PlayedTogether(
                    f"{keep_name} and {drop_name} sat at the same table in {_games_words(shared)}, so they are "
                    "two people and cannot be merged; nothing was changed",
                    shared,
                )
            profile = {**drop_profile, **keep_profile}
            profile.pop(ALIASES, None)
            aliases = [*aliases_of(keep_profile), drop_name, *aliases_of(drop_profile)]
            profile = _with_aliases(profile, aliases, keep_name)
            conn.execute("UPDATE seats SET player_id = ? WHERE player_id = ?", (keep, drop))
            conn.execute("UPDATE players SET profile = ? WHERE id = ?", (canonical(profile), keep))
            conn.execute("DELETE FROM players WHERE id = ?", (drop,))
            log.info("player %d (%r) merged into %d (%r)", drop, drop_name, keep, keep_name)
        return self.player(keep_name)

    def delete_player(self, name: str, *, seen: tuple[int, str] | None = None) -> PlayerRecord:
        """Delete the profile called ``name``, which must have no games (one transaction).

        A player with games is refused: the games (journals, results, exports) keep
        their name, and statistics and titles need a profile to count for. Merge a
        duplicate into the right profile instead. Returns the profile as it was.

        Raises:
            NotFound: no such player.
            PlayerHasGames: they sat in at least one game.
            ProfileChanged: ``seen`` no longer matches (changed elsewhere).
            StorageError, StoreBusy: it could not be saved.
        """
        with self.transaction() as conn:
            record = self._profile_row(conn, name, seen)
            pid, old = record.id, record.name
            games = tuple(
                int(r[0])
                for r in conn.execute(
                    "SELECT DISTINCT session_id FROM seats WHERE player_id = ? ORDER BY session_id", (pid,)
                ).fetchall()
            )
            if games:
                raise PlayerHasGames(has_games_message(old, games), games)
            conn.execute("DELETE FROM players WHERE id = ?", (pid,))
            log.info("player %d (%r) deleted", pid, old)
        return record

    # -- sessions ---------------------------------------------------------------------------

    def create_session(
        self,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        players: Sequence[str],
        hardware: Mapping[str, Any] | None = None,
    ) -> int:
        """Store a new session (creating player profiles as needed); returns its id.

        Raises:
            StoreError: ``seed`` does not fit in the database (outside ±2**63).
        """
        return self._insert_session(
            game, config, seed, players, actions=(), cursor=0, hardware=hardware, uuid=str(uuidlib.uuid4())
        )

    def import_session(
        self,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        players: Sequence[str],
        *,
        actions: Sequence[Mapping[str, Any]],
        cursor: int,
        hardware: Mapping[str, Any] | None = None,
        uuid: str | None = None,
    ) -> int:
        """Store a whole session with its journal in one transaction; returns its new id.

        Raises:
            AlreadyStored: a game with this ``uuid`` is already here (nothing is added).
            StoreError: ``cursor`` or ``seed`` out of range.
        """
        if not 0 <= cursor <= len(actions):
            raise StoreError(f"an imported game cannot stand at action {cursor} of {len(actions)}")
        return self._insert_session(
            game,
            config,
            seed,
            players,
            actions=actions,
            cursor=cursor,
            hardware=hardware,
            uuid=uuid or str(uuidlib.uuid4()),
        )

    def _insert_session(
        self,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        players: Sequence[str],
        *,
        actions: Sequence[Mapping[str, Any]],
        cursor: int,
        hardware: Mapping[str, Any] | None,
        uuid: str,
    ) -> int:
        if isinstance(seed, bool) or not -MAX_INT - 1 <= seed <= MAX_INT:
            raise StoreError(f"a seed must be a whole number from 0 to {MAX_INT}, not {seed}")
        now = _now()
        with self.transaction() as conn:
            row = conn.execute("SELECT id FROM sessions WHERE uuid = ?", (uuid,)).fetchone()
            if row is not None:
                raise AlreadyStored(f"that game is already here as game {row[0]}; nothing was added", int(row[0]))
            sid = int(
                conn.execute(
                    "INSERT INTO sessions (game, config, seed, created, updated, cursor, hardware, uuid) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (game, canonical(dict(config)), seed, now, now, cursor, canonical(dict(hardware or {})), uuid),
                ).lastrowid
                or 0
            )
            for seat, name in enumerate(players):
                conn.execute(
                    "INSERT INTO seats (session_id, seat, player_id, name) VALUES (?, ?, ?, ?)",
                    (sid, seat, self._player_id(conn, name), name.strip()),
                )
            head = GENESIS
            rows = []
            for i, action in enumerate(actions):
                head = chain(head, action)
                rows.append((sid, i + 1, _stored_text(action), now, head))
            conn.executemany(
                "INSERT INTO actions (session_id, seq, action, created, hash) VALUES (?, ?, ?, ?, ?)", rows
            )
        return sid

    def session_with_uuid(self, uuid: str) -> int | None:
        """The id of the game whose lasting id is ``uuid``, if it is here."""
        rows = self._read("SELECT id FROM sessions WHERE uuid = ?", (uuid,))
        return int(rows[0][0]) if rows else None

    _SESSION_COLUMNS = "id, game, config, seed, created, updated, cursor, finished, result, hardware, uuid"

    def _record(self, row: Sequence[Any]) -> SessionRecord:
        sid = int(row[0])
        seats = self._read(
            "SELECT COALESCE(s.name, p.name), p.name FROM seats s JOIN players p ON p.id = s.player_id "
            "WHERE s.session_id = ? ORDER BY s.seat",
            (sid,),
        )
        players = tuple(str(r[0]) for r in seats)
        problem = ""
        config: Any = {}
        result: Any = None
        hardware: Any = {}
        try:
            config = _loads(row[2])
            if not isinstance(config, dict):
                raise ValueError("its house rules are not a JSON object")
        except ValueError as exc:
            problem, config = f"its house rules cannot be read ({exc})", {}
        try:
            hardware = _loads(row[9])
            if not isinstance(hardware, dict):
                raise ValueError("not a JSON object")
        except ValueError as exc:
            problem, hardware = problem or f"its hardware settings cannot be read ({exc})", {}
        if row[8] is not None:
            try:
                result = _loads(row[8])
                if not isinstance(result, dict):
                    raise ValueError("not a JSON object")
            except ValueError as exc:
                problem, result = problem or f"its result cannot be read ({exc})", None
        if not isinstance(row[3], int) or not isinstance(row[6], int):
            problem = problem or "its seed or position is not a whole number"
        elif row[6] < 0:
            problem = problem or f"it stands at action {row[6]}, below zero"
        if not isinstance(row[1], str):
            problem = problem or "its game name is not text"
        return SessionRecord(
            id=sid,
            game=str(row[1]),
            config=config,
            seed=row[3] if isinstance(row[3], int) else 0,
            players=players,
            created=str(row[4]),
            updated=str(row[5]),
            cursor=row[6] if isinstance(row[6], int) and not problem else 0,
            finished=bool(row[7]),
            result=result,
            hardware=hardware,
            uuid=str(row[10] or ""),
            damaged=problem,
            profiles=tuple(str(r[1]) for r in seats),
        )

    def damaged(self, session_id: int, what: str) -> GameDamaged:
        """The error for game ``session_id`` being damaged in the way ``what`` says."""
        return GameDamaged(
            f"game {session_id} in {self.path} is damaged: {what}. Nothing was changed and the other games "
            "are unaffected; restore it from an export if you have one.",
            session_id,
        )

    def session(self, session_id: int) -> SessionRecord:
        """The session with this id.

        Raises:
            NotFound: no such session.
            GameDamaged: its stored row does not decode.
        """
        if isinstance(session_id, bool) or not 0 < session_id <= MAX_INT:
            raise NotFound(f"there is no game session {session_id} in {self.path}")
        rows = self._read(f"SELECT {self._SESSION_COLUMNS} FROM sessions WHERE id = ?", (session_id,))
        if not rows:
            raise NotFound(f"there is no game session {session_id} in {self.path}")
        record = self._record(rows[0])
        if record.damaged:
            raise self.damaged(session_id, record.damaged)
        return record

    def sessions(self, game: str | None = None) -> list[SessionRecord]:
        """Every session: unfinished first, then most recently played first (damaged ones flagged)."""
        where, params = ("WHERE game = ?", (game,)) if game else ("", ())
        rows = self._read(
            f"SELECT {self._SESSION_COLUMNS} FROM sessions {where} ORDER BY finished, updated DESC, id DESC", params
        )
        return [self._record(r) for r in rows]

    def journal(self, session_id: int) -> list[JournalEntry]:
        """The whole journal of a session in order, including actions undone but redoable.

        Raises:
            GameDamaged: an entry does not decode, is missing, or its hash does not chain.
        """
        rows = self._read("SELECT seq, action, hash FROM actions WHERE session_id = ? ORDER BY seq", (session_id,))
        entries = []
        head = GENESIS
        for number, (seq, text, digest) in enumerate(rows, start=1):
            if seq != number:
                raise self.damaged(session_id, f"its journal skips from action {number - 1} to {seq}")
            try:
                action = _loads(text)
                if not isinstance(action, dict):
                    raise ValueError("not a JSON object")
                head = chain(head, action)
            except (ValueError, TypeError) as exc:
                raise self.damaged(session_id, f"its action {seq} cannot be read ({exc})") from None
            if digest != head:
                raise self.damaged(session_id, f"its action {seq} was altered after it was saved")
            entries.append(JournalEntry(seq, action, head))
        return entries

    def actions(self, session_id: int) -> list[dict[str, Any]]:
        """The whole journal of a session in order (actions only); see :meth:`journal`."""
        return [e.action for e in self.journal(session_id)]

    # -- the journal: writes that name the head they saw -------------------------------------

    def _head(self, conn: sqlite3.Connection, session_id: int) -> tuple[int, str]:
        """(cursor, head hash) as stored now."""
        row = conn.execute("SELECT cursor FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise NotFound(f"there is no game session {session_id} in {self.path}")
        cursor = row[0]
        count = conn.execute("SELECT count(*) FROM actions WHERE session_id = ?", (session_id,)).fetchone()[0]
        if not isinstance(cursor, int) or not 0 <= cursor <= count:
            raise self.damaged(session_id, f"it stands at action {cursor} but its journal holds {count}")
        if cursor == 0:
            return 0, GENESIS
        head = conn.execute(
            "SELECT hash FROM actions WHERE session_id = ? AND seq = ?", (session_id, cursor)
        ).fetchone()
        return cursor, str(head[0] if head else "")

    def _stale(self, conn: sqlite3.Connection, session_id: int, seen: str, cursor: int) -> StaleWrite:
        """What changed since a writer saw head ``seen``, as the error to raise."""
        rows = conn.execute(
            "SELECT seq, action, hash FROM actions WHERE session_id = ? ORDER BY seq", (session_id,)
        ).fetchall()
        seqs = {str(r[2]): int(r[0]) for r in rows}
        seen_at = 0 if seen == GENESIS else seqs.get(seen)
        latest: dict[str, Any] = {}
        if cursor:
            try:
                latest = _loads(rows[cursor - 1][1])
            except (ValueError, IndexError):
                latest = {}
        by = _who(latest) if isinstance(latest, dict) else ""
        if seen_at is not None and seen_at < cursor:
            if seen_at + 1 == cursor:
                change = f"{_move_words(cursor, latest)} was played"
            else:
                change = f"moves {seen_at + 1} to {cursor} were played, the last {_move_words(cursor, latest)}"
        elif seen_at is not None and seen_at > cursor:
            change = (
                f"move {seen_at} was taken back"
                if seen_at == cursor + 1
                else f"moves {cursor + 1} to {seen_at} were taken back"
            )
            by = ""
        elif cursor:
            change = f"moves you saw were taken back and {_move_words(cursor, latest)} was played instead"
        else:
            change = "every move was taken back"
            by = ""
        return StaleWrite(
            f"game {session_id} changed in another window or process since you looked: {change}. "
            "Nothing was saved; look at the game again and repeat your move if it is still legal.",
            session_id,
            cursor,
            by,
            change,
        )

    def check_head(self, session_id: int, head: str) -> None:
        """Refuse, as a write would, if game ``session_id`` no longer stands at ``head`` (reads only).

        Raises:
            StaleWrite: it moved on; the message says how.
        """
        try:
            cursor, now_head = self._head(self._conn, session_id)
            if now_head != head:
                raise self._stale(self._conn, session_id, head, cursor)
        except sqlite3.Error as exc:
            raise translate(exc, self.path) from exc

    def append_action(self, session_id: int, head: str, action: Mapping[str, Any]) -> JournalEntry:
        """Commit ``action`` right after the entry whose hash is ``head``, dropping any redo tail.

        The write is durable (WAL, synchronous=FULL) when the outermost transaction ends.

        Raises:
            StaleWrite: the game no longer stands at ``head`` (nothing is written).
            GameDamaged: the stored game does not add up.
        """
        text = _stored_text(action)
        with self.transaction() as conn:
            cursor, now_head = self._head(conn, session_id)
            if now_head != head:
                raise self._stale(conn, session_id, head, cursor)
            digest = chain(head, action)
            conn.execute("DELETE FROM actions WHERE session_id = ? AND seq > ?", (session_id, cursor))
            conn.execute(
                "INSERT INTO actions (session_id, seq, action, created, hash) VALUES (?, ?, ?, ?, ?)",
                (session_id, cursor + 1, text, _now(), digest),
            )
            conn.execute("UPDATE sessions SET cursor = ?, updated = ? WHERE id = ?", (cursor + 1, _now(), session_id))
        return JournalEntry(cursor + 1, json.loads(text), digest)

    def move_head(self, session_id: int, head: str, target: str) -> int:
        """Undo or redo: move a game that stands at ``head`` to the entry whose hash is ``target``.

        ``target`` must be in the journal (``GENESIS`` for the start). Returns the new cursor.

        Raises:
            StaleWrite: the game no longer stands at ``head``, or no entry has hash ``target``.
        """
        with self.transaction() as conn:
            cursor, now_head = self._head(conn, session_id)
            if now_head != head:
                raise self._stale(conn, session_id, head, cursor)
            if target == GENESIS:
                new = 0
            else:
                row = conn.execute(
                    "SELECT seq FROM actions WHERE session_id = ? AND hash = ?", (session_id, target)
                ).fetchone()
                if row is None:
                    raise self._stale(conn, session_id, head, cursor)
                new = int(row[0])
            conn.execute("UPDATE sessions SET cursor = ?, updated = ? WHERE id = ?", (new, _now(), session_id))
        return new

    def set_result(self, session_id: int, result: Mapping[str, Any] | None) -> None:
        """Mark a session finished with its final ``result``, or unfinished when ``None``."""
        with self.transaction() as conn:
            conn.execute(
                "UPDATE sessions SET finished = ?, result = ? WHERE id = ?",
                (result is not None, canonical(dict(result)) if result is not None else None, session_id),
            )

    def set_hardware(self, session_id: int, hardware: Mapping[str, Any]) -> None:
        """Record which scale and camera feed this session."""
        with self.transaction() as conn:
            conn.execute("UPDATE sessions SET hardware = ? WHERE id = ?", (canonical(dict(hardware)), session_id))

    def delete_session(self, session_id: int) -> None:
        """Remove a session and its journal."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))


#: The profile key that lists a player's other names (renamed from, merged in).
ALIASES = "aliases"
#: At most this many aliases are kept on a profile (the most recent).
MAX_ALIASES = 16


def _given(name: object) -> None:
    """Refuse an empty name where a player is named (the name of no one)."""
    if not isinstance(name, str) or not name.strip():
        raise BadName("name a player: the name given is empty")


def _quoted(name: str) -> str:
    text = name.strip()
    return repr(text if len(text) <= 40 else text[:37] + "...")


def aliases_of(profile: Mapping[str, Any]) -> list[str]:
    """The other names a player had (renamed from, merged in), oldest first, from their profile."""
    found = profile.get(ALIASES)
    return [a for a in found if isinstance(a, str)] if isinstance(found, list) else []


def _with_aliases(profile: Mapping[str, Any], new: Sequence[str], name: str) -> dict[str, Any]:
    """``profile`` with ``new`` added to its aliases (no repeats, never its own ``name``)."""
    seen = {name.casefold()}
    aliases = []
    for alias in [*aliases_of(profile), *new]:
        if alias.casefold() not in seen:
            seen.add(alias.casefold())
            aliases.append(alias)
    out = {k: v for k, v in profile.items() if k != ALIASES}
    if aliases:
        out[ALIASES] = aliases[-MAX_ALIASES:]
    return out


def _games_words(games: Sequence[int]) -> str:
    """ "game 4", "games 1, 4 and 7", "12 games (1, 4, 7 and 9 more)"."""
    ids = [str(g) for g in games]
    if len(ids) == 1:
        return f"game {ids[0]}"
    if len(ids) <= 4:
        return f"games {', '.join(ids[:-1])} and {ids[-1]}"
    return f"{len(ids)} games ({', '.join(ids[:3])} and {len(ids) - 3} more)"


def has_games_message(name: str, games: Sequence[int]) -> str:
    """Why the player called ``name``, who sat in ``games``, cannot be deleted (one line)."""
    return (
        f"{name} cannot be deleted: {name} sat in {_games_words(games)}, "
        f"which {'keeps' if len(games) == 1 else 'keep'} that name. "
        f"If {name} is a second name for someone else, merge {name} into that player instead; nothing was changed"
    )


def _same_folder(a: Path, b: Path) -> bool:
    try:
        return a.expanduser().resolve() == b.expanduser().resolve()
    except OSError:
        return False
