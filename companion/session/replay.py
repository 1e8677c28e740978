"""Replaying a journal: the one way a game's state is ever derived."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Event, Game


def replay(
    game: Game,
    config: Mapping[str, Any],
    players: Sequence[str],
    seed: int,
    actions: Sequence[Mapping[str, Any]],
) -> tuple[list[Any], list[list[Event]]]:
    """Every state along a journal and the events each action caused.

    Returns ``(states, events)`` where ``states[i]`` is the state after ``i`` actions
    (``states[0]`` is the initial state) and ``events[i]`` the events of action ``i``.

    Raises:
        IllegalAction: an action in the journal is not legal where it stands.
    """
    state = game.initial_state(config, players, seed)
    states = [state]
    events: list[list[Event]] = []
    for action in actions:
        state, caused = game.apply(state, action)
        states.append(state)
        events.append(caused)
    return states, events
