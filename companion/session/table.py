"""A table session: a game, its house rules, its players and the journal of actions.

The state is always the replay of the journal up to the cursor. Undo and redo move the
cursor; a new action drops whatever could have been redone. Every user action is one
database transaction, together with everything it implies (the finished flag and result,
titles on player profiles), and it is committed before :meth:`TableSession.apply`,
:meth:`~TableSession.undo` or :meth:`~TableSession.redo` returns: anything a player has
been shown survives a crash, and a crash never leaves half of an action.

Each write names the journal head this session saw. If another window or device changed
the game meanwhile, nothing is written, the session reloads the game as it now stands,
and :class:`~companion.store.StaleWrite` says what changed.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from companion.errors import ExitCode, PurserError
from companion.games import find_game, resolve_config
from companion.games.base import ConfigError, Event, Game, IllegalAction, Summary, check_players
from companion.session.exports import EXPORT_FORMAT, EXPORT_VERSION, ExportRefused, seal
from companion.session.hardware import Hardware, needs_hardware
from companion.session.moves import check_action
from companion.session.replay import replay
from companion.session.titles import refresh_titles, seating_rules
from companion.store import GENESIS, AlreadyStored, GameDamaged, StaleWrite, Store
from companion.store.db import MAX_INT

log = logging.getLogger(__name__)

#: Seeds are stored as 64-bit integers.
MAX_SEED = MAX_INT

__all__ = ["EXPORT_FORMAT", "EXPORT_VERSION", "HistoryEntry", "NothingToUndo", "SessionDamaged", "TableSession"]


class NothingToUndo(PurserError):
    """Undo or redo was asked for with nothing to undo or redo."""

    exit_code = ExitCode.ILLEGAL


class SessionDamaged(GameDamaged):
    """A stored journal no longer replays (an action in it is refused by the rules)."""


@dataclass(frozen=True)
class HistoryEntry:
    """One journal entry: its number (1-based), the action, its events, whether it is undone."""

    seq: int
    action: dict[str, Any]
    events: list[Event]
    undone: bool

    @property
    def text(self) -> str:
        """What happened, in words."""
        return " ".join(e.get("text", "") for e in self.events if e.get("text"))


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ConfigError(f"a seed must be a whole number from 0 to {MAX_SEED}, not {str(seed)[:30]}")
    return seed


class TableSession:
    """One game at one table, backed by a :class:`~companion.store.Store`."""

    def __init__(self, store: Store, session_id: int) -> None:
        """Load session ``session_id`` from ``store`` and replay its journal.

        Raises:
            NotFound: no such session.
            GameDamaged: its stored rows do not decode or add up.
            SessionDamaged: the journal no longer replays under the game's rules.
        """
        self.store = store
        self.id = session_id
        self._hardware: Hardware | None = None
        self._load()

    def _load(self) -> None:
        """(Re)read everything from the store; the in-memory view is replaced only on success."""
        store, session_id = self.store, self.id
        record = store.session(session_id)
        try:
            game: Game = find_game(record.game)
        except ConfigError as exc:
            raise store.damaged(session_id, f"it is a game this Purser does not know ({exc})") from None
        entries = store.journal(session_id)
        if record.cursor > len(entries):
            raise store.damaged(session_id, f"it stands at action {record.cursor} but its journal holds {len(entries)}")
        journal = [e.action for e in entries]
        try:
            states, events = replay(game, record.config, record.players, record.seed, journal)
        except (IllegalAction, ConfigError) as exc:
            raise SessionDamaged(
                f"game {session_id} cannot be replayed with this version of Purser: {exc}. "
                "Nothing was changed; the other games are unaffected.",
                session_id,
            ) from exc
        self.game = game
        self.game_name = record.game
        self.uuid = record.uuid
        self.config: dict[str, Any] = record.config
        self.players: tuple[str, ...] = record.players
        #: the names, now, of the profiles the seats count for (a renamed player's new name)
        self.profiles: tuple[str, ...] = record.profiles
        self.seed = record.seed
        self.created = record.created
        self.hardware: dict[str, Any] = record.hardware
        self._journal = journal
        self._hashes = [GENESIS] + [e.hash for e in entries]
        self._states, self._events = states, events
        self._cursor = record.cursor
        self._finished = record.finished

    def reload(self) -> None:
        """Read the game again as it now stands in the database (after a :class:`StaleWrite`).

        Raises:
            NotFound, GameDamaged: as when opening it.
        """
        self._load()

    # -- creating -----------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        game: str,
        players: Sequence[str],
        rules: Mapping[str, Any] | None = None,
        *,
        seed: int | None = None,
        hardware: Mapping[str, Any] | None = None,
    ) -> TableSession:
        """Start a new session of ``game`` for ``players`` with house ``rules``.

        Raises:
            UnknownGame, ConfigError: an unknown game, a bad seating, a bad house rule or seed.
            StoreError: it could not be saved.
        """
        engine = find_game(game)
        names = check_players(players, engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.TITLE)
        seed = random.SystemRandom().randrange(2**31) if seed is None else _check_seed(seed)
        with store.transaction():
            # titles the players hold may set rules (a Swashbuckle Captain starts); the table's own win
            config = resolve_config(engine.RULES, {**seating_rules(store, engine, names), **(rules or {})})
            engine.initial_state(config, names, seed)  # refuses a seating the rules cannot start
            sid = store.create_session(engine.NAME, config, seed, names, hardware)
        log.info("created %s session %d for %s", engine.NAME, sid, ", ".join(names))
        return cls(store, sid)

    # -- reading ------------------------------------------------------------------------

    @property
    def cursor(self) -> int:
        """How many journal actions are in effect."""
        return self._cursor

    @property
    def head(self) -> str:
        """The hash of the journal entry in effect (what this session's next write will name)."""
        return self._hashes[self._cursor]

    @property
    def state(self) -> Any:
        """The game state after the actions in effect."""
        return self._states[self._cursor]

    @property
    def can_undo(self) -> bool:
        return self._cursor > 0

    @property
    def can_redo(self) -> bool:
        return self._cursor < len(self._journal)

    @property
    def finished(self) -> bool:
        return self._finished

    def summary(self) -> Summary:
        """Scores, who must act and what the table must do next."""
        return self.game.summary(self.state)

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every action the table may take now."""
        return self.game.legal_actions(self.state)

    def history(self, include_undone: bool = False) -> list[HistoryEntry]:
        """The journal with its events in words, oldest first."""
        limit = len(self._journal) if include_undone else self._cursor
        return [HistoryEntry(i + 1, self._journal[i], self._events[i], i >= self._cursor) for i in range(limit)]

    # -- hardware -----------------------------------------------------------------------

    def resolve(self, action: Mapping[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Take the measurement an action asks for (``"from": "scale"|"camera"``).

        Blocks while the hardware works; returns the concrete action to :meth:`apply`.

        Raises:
            MalformedAction: the action is not well-formed for this game.
            IllegalAction: an unknown source.
            ScaleError, VisionError: no trustworthy measurement.
        """
        clean = check_action(self.game, action)
        if self._hardware is None:
            self._hardware = Hardware.from_config(self.hardware)
        return self._hardware.resolve(clean, timeout)

    def close(self) -> None:
        """Release the scale and camera this session opened (the store stays open)."""
        if self._hardware is not None:
            self._hardware.close()
            self._hardware = None

    # -- changing -----------------------------------------------------------------------

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Check ``action`` against the game's schema and rules, commit it, then return its events.

        Raises:
            MalformedAction: not well-formed for this game; nothing is stored or changed.
            IllegalAction: the rules refuse it; nothing is stored or changed.
            StaleWrite: the game changed elsewhere; nothing was stored, this session now
                shows the game as it stands.
            StoreError: it could not be saved; nothing is changed.
        """
        clean = check_action(self.game, action)
        if needs_hardware(clean):
            raise IllegalAction(f"take the measurement first: this action asks for the {clean['from']!r} (resolve it)")
        try:
            new_state, events = self.game.apply(self.state, clean)
        except IllegalAction:
            self._check_current()  # judged on an old view of the game? say that instead
            raise
        try:
            json.dumps(events)  # an engine must only produce JSON-ready events
        except (TypeError, ValueError) as exc:
            raise IllegalAction(f"the action cannot be recorded: {exc}") from exc
        summary = self.game.summary(new_state)
        with self._writing():
            entry = self.store.append_action(self.id, self.head, clean)
            finished = self._record_finish(summary)
        cut = self._cursor
        del self._journal[cut:]
        del self._hashes[cut + 1 :]
        del self._states[cut + 1 :]
        del self._events[cut:]
        self._journal.append(entry.action)
        self._hashes.append(entry.hash)
        self._states.append(new_state)
        self._events.append(events)
        self._cursor = entry.seq
        self._finished = finished
        return events

    def undo(self) -> HistoryEntry:
        """Take back the last action in effect; returns it.

        Raises:
            NothingToUndo: no action is in effect.
            StaleWrite, StoreError: as for :meth:`apply`.
        """
        if not self.can_undo:
            self._check_current()
            raise NothingToUndo("there is nothing to undo")
        self._move_to(self._cursor - 1)
        return HistoryEntry(self._cursor + 1, self._journal[self._cursor], self._events[self._cursor], True)

    def redo(self) -> HistoryEntry:
        """Put back the last undone action; returns it.

        Raises:
            NothingToUndo: nothing has been undone.
            StaleWrite, StoreError: as for :meth:`apply`.
        """
        if not self.can_redo:
            self._check_current()
            raise NothingToUndo("there is nothing to redo")
        self._move_to(self._cursor + 1)
        return HistoryEntry(self._cursor, self._journal[self._cursor - 1], self._events[self._cursor - 1], False)

    def _move_to(self, cursor: int) -> None:
        summary = self.game.summary(self._states[cursor])
        with self._writing():
            self.store.move_head(self.id, self.head, self._hashes[cursor])
            finished = self._record_finish(summary)
        self._cursor = cursor
        self._finished = finished

    def catch_up(self) -> str | None:
        """If the game changed elsewhere since it was read, read it again and say what
        changed ("move 3 (play by Ana) was played"); None when it did not. Reads only.

        Raises:
            StoreError: the database cannot be read (damaged, gone, unreadable).
        """
        try:
            self._check_current()
        except StaleWrite as exc:
            return exc.change or "it changed"
        return None

    def _check_current(self) -> None:
        """Raise :class:`StaleWrite` (after reloading) if the game moved on since it was read."""
        try:
            self.store.check_head(self.id, self.head)
        except StaleWrite:
            self.reload()
            raise

    @contextmanager
    def _writing(self) -> Iterator[None]:
        """One store transaction; if the game changed elsewhere, reload it before re-raising."""
        try:
            with self.store.transaction():
                yield
        except StaleWrite:
            self.reload()
            raise

    def _record_finish(self, summary: Summary) -> bool:
        """Inside the action's transaction: the finished flag, result and titles it implies."""
        if summary.over != self._finished:
            self.store.set_result(self.id, summary.to_json() if summary.over else None)
            refresh_titles(self.store, self.game)
        return summary.over

    # -- export / import ------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole session as a JSON-ready dict (journal included, redo tail too), sealed
        with its content hash (see :mod:`companion.session.exports`)."""
        return seal(
            {
                "format": EXPORT_FORMAT,
                "version": EXPORT_VERSION,
                "uuid": self.uuid,
                "game": self.game_name,
                "players": list(self.players),
                "config": self.config,
                "seed": self.seed,
                "cursor": self._cursor,
                "actions": self._journal,
                "hardware": self.hardware,
                "created": self.created,
            }
        )

    @classmethod
    def import_(cls, store: Store, data: Mapping[str, Any]) -> TableSession:
        """Store a verified export (see :func:`~companion.session.exports.read_export`) as a new
        session, in one transaction with the result and titles it implies.

        Raises:
            AlreadyStored: the same game (same ``uuid``) is already in ``store``.
            ExportRefused: the data is not a sound export, or its journal does not replay.
            StoreError: it could not be saved.
        """
        if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
            raise ExportRefused("that file is not a Purser game export")
        if not isinstance(data.get("version"), int) or data["version"] > EXPORT_VERSION:
            raise ExportRefused("that export comes from a newer version of Purser; update to import it")
        uuid = data.get("uuid")
        if isinstance(uuid, str):
            existing = store.session_with_uuid(uuid)
            if existing is not None:
                raise AlreadyStored(f"that game is already imported as game {existing}; nothing was added", existing)
        try:
            engine = find_game(str(data["game"]))
            players = check_players(list(data["players"]), engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.TITLE)
            config = resolve_config(engine.RULES, data["config"])
            seed = _check_seed(data["seed"])
            actions = [check_action(engine, a) for a in data["actions"]]
            cursor = data.get("cursor", len(actions))
            if isinstance(cursor, bool) or not isinstance(cursor, int) or not 0 <= cursor <= len(actions):
                raise ValueError(f"it stands at action {cursor} of {len(actions)}")
            if any(needs_hardware(a) for a in actions):
                raise ValueError("an action in it still asks for a measurement")
            states, _ = replay(engine, config, players, seed, actions)
            hardware = data.get("hardware") or {}
            if not isinstance(hardware, Mapping):
                raise ValueError("its hardware settings are not an object")
        except (KeyError, TypeError, ValueError) as exc:
            words = f"it lacks {exc}" if isinstance(exc, KeyError) else str(exc)
            raise ExportRefused(f"that export cannot be imported: {words}; nothing was imported") from exc
        summary = engine.summary(states[cursor])
        with store.transaction():
            sid = store.import_session(
                engine.NAME,
                config,
                seed,
                players,
                actions=actions,
                cursor=cursor,
                hardware=hardware,
                uuid=uuid if isinstance(uuid, str) else None,
            )
            if summary.over:
                store.set_result(sid, summary.to_json())
                refresh_titles(store, engine)
        return cls(store, sid)
