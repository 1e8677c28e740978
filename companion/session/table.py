"""A table session: a game, its house rules, its players and the journal of actions.

The state is always the replay of the journal up to the cursor. Undo and redo move the
cursor; a new action drops whatever could have been redone. Every accepted action is
committed to the store before :meth:`TableSession.apply` returns, so anything a player
has been shown survives a crash.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.errors import ExitCode, PurserError
from companion.games import find_game, resolve_config
from companion.games.base import Event, Game, IllegalAction, Summary, check_players
from companion.session.hardware import Hardware, needs_hardware
from companion.session.replay import replay
from companion.session.titles import refresh_titles, seating_rules
from companion.store import Store, StoreError

log = logging.getLogger(__name__)

EXPORT_FORMAT = "purser-session"
EXPORT_VERSION = 1


class NothingToUndo(PurserError):
    """Undo or redo was asked for with nothing to undo or redo."""

    exit_code = ExitCode.ILLEGAL


class SessionDamaged(StoreError):
    """A stored journal no longer replays (an action in it is refused by the rules)."""

    exit_code = ExitCode.DAMAGED


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


def _as_json_object(action: Any) -> dict[str, Any]:
    """A detached, JSON-clean copy of ``action``.

    Raises:
        IllegalAction: it is not a JSON object.
    """
    if not isinstance(action, Mapping):
        raise IllegalAction('an action must be a JSON object such as {"type": "..."}')
    try:
        return json.loads(json.dumps(action))
    except (TypeError, ValueError) as exc:
        raise IllegalAction(f"the action cannot be stored: {exc}") from exc


class TableSession:
    """One game at one table, backed by a :class:`~companion.store.Store`."""

    def __init__(self, store: Store, session_id: int) -> None:
        """Load session ``session_id`` from ``store`` and replay its journal.

        Raises:
            NotFound: no such session.
            SessionDamaged: the journal no longer replays under the game's rules.
        """
        record = store.session(session_id)
        self.store = store
        self.id = record.id
        self.game: Game = find_game(record.game)
        self.game_name = record.game
        self.config: dict[str, Any] = record.config
        self.players: tuple[str, ...] = record.players
        self.seed = record.seed
        self.created = record.created
        self.hardware: dict[str, Any] = record.hardware
        self._journal = store.actions(session_id)
        try:
            self._states, self._events = replay(self.game, self.config, self.players, self.seed, self._journal)
        except IllegalAction as exc:
            raise SessionDamaged(
                f"game {session_id} cannot be replayed with this version of Purser: {exc}. "
                "Nothing was changed; export it with `purser export` to keep a copy."
            ) from exc
        self._cursor = record.cursor
        self._finished = record.finished
        self._hardware: Hardware | None = None

    # -- creating -----------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        store: Store,
        game: str,
        players: Sequence[str],
        rules: Mapping[str, Any] | None = None,
        seed: int | None = None,
        hardware: Mapping[str, Any] | None = None,
    ) -> TableSession:
        """Start a new session of ``game`` for ``players`` with house ``rules``.

        Raises:
            UnknownGame, ConfigError: an unknown game, a bad seating or a bad house rule.
        """
        engine = find_game(game)
        names = check_players(players, engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.TITLE)
        # titles the players hold may set rules (a Swashbuckle Captain starts); the table's own win
        config = resolve_config(engine.RULES, {**seating_rules(store, engine, names), **(rules or {})})
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
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
        return [
            HistoryEntry(i + 1, self._journal[i], self._events[i], i >= self._cursor) for i in range(limit)
        ]

    # -- hardware -----------------------------------------------------------------------

    def resolve(self, action: Mapping[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Take the measurement an action asks for (``"from": "scale"|"camera"``).

        Blocks while the hardware works; returns the concrete action to :meth:`apply`.

        Raises:
            IllegalAction: an unknown source.
            ScaleError, VisionError: no trustworthy measurement.
        """
        if self._hardware is None:
            self._hardware = Hardware.from_config(self.hardware)
        return self._hardware.resolve(_as_json_object(action), timeout)

    def close(self) -> None:
        """Release the scale and camera this session opened (the store stays open)."""
        if self._hardware is not None:
            self._hardware.close()
            self._hardware = None

    # -- changing -----------------------------------------------------------------------

    def apply(self, action: Mapping[str, Any]) -> list[Event]:
        """Check ``action`` against the rules, commit it, then return its events.

        Raises:
            IllegalAction: the rules refuse it; nothing is stored or changed.
            StoreError: it could not be saved; nothing is changed.
        """
        clean = _as_json_object(action)
        if needs_hardware(clean):
            raise IllegalAction(f'take the measurement first: this action asks for the {clean["from"]!r} (resolve it)')
        new_state, events = self.game.apply(self.state, clean)
        json.dumps(events)  # an engine must only produce JSON-ready events
        self._cursor = self.store.append_action(self.id, self._cursor, clean)
        del self._journal[self._cursor - 1 :]
        del self._states[self._cursor :]
        del self._events[self._cursor - 1 :]
        self._journal.append(clean)
        self._states.append(new_state)
        self._events.append(events)
        self._sync_finished()
        return events

    def undo(self) -> HistoryEntry:
        """Take back the last action in effect; returns it.

        Raises:
            NothingToUndo: no action is in effect.
        """
        if not self.can_undo:
            raise NothingToUndo("there is nothing to undo")
        self.store.set_cursor(self.id, self._cursor, self._cursor - 1)
        self._cursor -= 1
        self._sync_finished()
        return HistoryEntry(self._cursor + 1, self._journal[self._cursor], self._events[self._cursor], True)

    def redo(self) -> HistoryEntry:
        """Put back the last undone action; returns it.

        Raises:
            NothingToUndo: nothing has been undone.
        """
        if not self.can_redo:
            raise NothingToUndo("there is nothing to redo")
        self.store.set_cursor(self.id, self._cursor, self._cursor + 1)
        self._cursor += 1
        self._sync_finished()
        return HistoryEntry(self._cursor, self._journal[self._cursor - 1], self._events[self._cursor - 1], False)

    def _sync_finished(self) -> None:
        summary = self.summary()
        if summary.over != self._finished:
            self.store.set_result(self.id, summary.to_json() if summary.over else None)
            self._finished = summary.over
            refresh_titles(self.store, self.game)

    # -- export / import ------------------------------------------------------------------

    def export(self) -> dict[str, Any]:
        """The whole session as a JSON-ready dict (journal included, redo tail too)."""
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "game": self.game_name,
            "players": list(self.players),
            "config": self.config,
            "seed": self.seed,
            "cursor": self._cursor,
            "actions": self._journal,
            "hardware": self.hardware,
            "created": self.created,
        }

    @classmethod
    def import_(cls, store: Store, data: Mapping[str, Any]) -> TableSession:
        """Store an exported session as a new session; its journal is replayed first.

        Raises:
            StoreError: the data is not a Purser export or does not replay.
        """
        if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
            raise StoreError("that file is not a Purser game export")
        if data.get("version", 0) > EXPORT_VERSION:
            raise StoreError("that export comes from a newer version of Purser; update to import it")
        try:
            engine = find_game(str(data["game"]))
            players = check_players(list(data["players"]), engine.MIN_PLAYERS, engine.MAX_PLAYERS, engine.TITLE)
            config = resolve_config(engine.RULES, data["config"])
            seed = int(data["seed"])
            actions = [_as_json_object(a) for a in data["actions"]]
            cursor = int(data.get("cursor", len(actions)))
            replay(engine, config, players, seed, actions)
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"that export cannot be imported: {exc}") from exc
        sid = store.import_session(engine.NAME, config, seed, players, actions, cursor, data.get("hardware"))
        session = cls(store, sid)
        session._sync_finished()
        return session
