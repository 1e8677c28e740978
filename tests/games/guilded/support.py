"""A small driver for Guilded Treasures engine tests: a table that applies actions by name."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from companion.games import IllegalAction, guilded, resolve_config
from companion.games.guilded.setup import pillar_side
from companion.games.guilded.state import PHASES, GuildedState, Merc, Seat


def tile(side: str, row: int, col: int) -> dict[str, Any]:
    return {"side": side, "row": row, "col": col}


class Table:
    """One match; ``do`` applies an action, ``refused`` checks a refusal changes nothing."""

    def __init__(self, players: tuple[str, ...] = ("Ana", "Ben"), seed: int = 1, **rules: Any) -> None:
        self.config = resolve_config(guilded.RULES, rules)
        self.players = players
        self.seed = seed
        self.state: GuildedState = guilded.initial_state(self.config, players, seed)
        self.journal: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []

    def do(self, type_: str, /, **fields: Any) -> list[dict[str, Any]]:
        action = {"type": type_, **fields}
        self.state, events = guilded.apply(self.state, action)
        self.journal.append(action)
        self.events += events
        return events

    def refused(self, type_: str, match: str, /, **fields: Any) -> None:
        before = self.state
        with pytest.raises(IllegalAction, match=match):
            guilded.apply(self.state, {"type": type_, **fields})
        assert self.state == before

    # -- set-up --------------------------------------------------------------------------

    def start(self, first: str | None = None, champions: dict[str, dict[str, Any]] | None = None) -> Table:
        """Roll (first seat wins), choose ``first``, place Arena pillars and champions, keep."""
        first = first or self.players[0]
        for i, p in enumerate(self.players):
            if not self.state.seats[i].out:
                self.do("roll", player=p, value=6 if i == 0 else 1)
        self.do("go_first", player=self.players[0], first=first)
        if self.state.stage == "pillars":
            spots = [
                tile(self.players[0], 3, 1),
                tile(self.players[1], 3, 1),
                tile(self.players[0], 3, 4),
                tile(self.players[1], 3, 4),
            ]
            for spot in spots:
                side = pillar_side(self.state)
                placer = next(p for i, p in enumerate(self.players) if self.state.sides[i] == side)
                self.do("pillar", player=placer, tile=spot)
        if self.state.stage == "champions":
            for p in self.players:
                stats = (champions or {}).get(p, {"name": f"{p} Champion", "health": 8, "melee": 2, "move": 2})
                self.do("champion", player=p, **stats)
        for p in self.players:
            self.do("keep", player=p)
        return self

    # -- the turn --------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase_name

    def turn_player(self) -> str:
        return self.state.players[self.state.active[0]]

    def to(self, phase: str) -> list[dict[str, Any]]:
        """Move the current turn on to ``phase`` (passing the turn if ``phase`` is earlier)."""
        events = []
        target = PHASES.index(phase)
        for _ in range(20):
            if self.state.phase == target:
                return events
            events += self.do("next_phase", player=self.turn_player())
        raise AssertionError(f"never reached {phase}")

    def next_turn(self) -> list[dict[str, Any]]:
        events = self.do("end_turn", player=self.turn_player()) if self.phase != "end" else []
        return events + self.do("next_phase", player=self.turn_player())

    # -- inspecting and arranging -----------------------------------------------------------

    def seat(self, player: str) -> Seat:
        return self.state.seats[self.players.index(player)]

    def merc(self, merc_id: str) -> Merc:
        return self.state.merc(merc_id)

    def put(self, owner: str, name: str = "Merc", health: int = 6, **stats: Any) -> str:
        """Place a mercenary directly (as if played earlier); returns its id."""
        seat = self.players.index(owner)
        merc_id = f"m{self.state.next_id}"
        merc = Merc(
            id=merc_id, name=name, owner=seat, base_health=health, health=health, bounty=stats.pop("bounty", 0), **stats
        )
        self.state = replace(self.state, mercs=(*self.state.mercs, merc), next_id=self.state.next_id + 1)
        return merc_id

    def patch(self, merc_id: str, **changes: Any) -> None:
        self.state = self.state.with_merc(replace(self.merc(merc_id), **changes))

    def status(self, merc_id: str, name: str) -> int:
        return self.merc(merc_id).status(name)

    def summary(self):
        return guilded.summary(self.state)


def at(phase: str, players: tuple[str, ...] = ("Ana", "Ben"), **rules: Any) -> Table:
    """A started match (Ana first) moved on to ``phase`` of turn 1."""
    t = Table(players, **rules).start("Ana")
    t.to(phase)
    return t
