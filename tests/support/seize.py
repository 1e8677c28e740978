"""Driving the 7 Seize engine directly in tests: short ways to reach a phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games import resolve_config
from companion.games import seven_seize as game
from companion.games.seven_seize.state import SeizeState

PLAYERS = ("Ana", "Ben", "Cy")


def new(players=PLAYERS, seed: int = 1, **rules: Any) -> SeizeState:
    """A fresh game with house ``rules``."""
    return game.initial_state(resolve_config(game.RULES, rules), players, seed)


def act(state: SeizeState, kind: str, player: str, **fields: Any) -> tuple[SeizeState, list[dict]]:
    """Apply one action ``{"type": kind, "player": player, **fields}``."""
    return game.apply(state, {"type": kind, "player": player, **fields})


def reveal_all(state: SeizeState, cards: Mapping[str, str]) -> tuple[SeizeState, list[dict]]:
    """Every listed seat reveals its card, in the order given; returns all events."""
    events: list[dict] = []
    for name, card in cards.items():
        state, caused = act(state, "reveal", name, card=card)
        events += caused
    return state, events


def to_seize(state: SeizeState, squabble: Mapping[str, str], red: int) -> SeizeState:
    """Squabble with ``squabble`` cards, then the Captain divvies ``red`` to Red and the rest to Black."""
    state, _ = reveal_all(state, squabble)
    assert state.pending is None, "the squabble tied; settle it in the test"
    captain = state.players[state.captain]
    state, _ = act(state, "divvy", captain, red=red)
    return state


def with_collections(state: SeizeState, collections: Mapping[str, int]) -> SeizeState:
    """The same state with some collections preset, taken from the bag so 49 stays 49."""
    cols = list(state.collections)
    for name, count in collections.items():
        cols[state.seats.index(name)] = count
    added = sum(cols) - sum(state.collections)
    return replace(state, collections=tuple(cols), start=tuple(cols), bag=state.bag - added)


def counts(state: SeizeState) -> dict[str, int]:
    """Collections by seat name."""
    return dict(zip(state.seats, state.collections))


def auto_decide(state: SeizeState) -> tuple[SeizeState, list[dict]]:
    """Take the first listed decision while the seize phase waits on one."""
    events: list[dict] = []
    while state.pending is not None:
        state, caused = game.apply(state, game.legal_actions(state)[0])
        events += caused
    return state, events
