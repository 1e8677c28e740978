"""Properties every registered game must have, checked on random legal games.

- every action ``legal_actions`` lists is accepted by ``apply`` (the UI offers exactly these);
- the state is the replay of the journal, also after reopening the database;
- undo all the way, then redo all the way, gives back the same state;
- ``apply`` never changes the state it was given.
"""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import find_game, game_names
from companion.session import TableSession, replay
from companion.store import Store

MAX_STEPS = 40


def _players(game, extra: int) -> list[str]:
    n = min(game.MIN_PLAYERS + extra, game.MAX_PLAYERS)
    return ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"][:n]


def _playable(actions):
    # Actions that ask for a measurement are resolved by the session, not by the engine.
    return [a for a in actions if "from" not in a]


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), extra=st.integers(0, 3), seed=st.integers(0, 2**31 - 1))
def test_random_legal_games_replay_undo_and_redo(name, data, extra, seed):
    game = find_game(name)
    players = _players(game, extra)
    with tempfile.TemporaryDirectory() as tmp, Store.open(Path(tmp) / "p.db") as store:
        session = TableSession.create(store, name, players, seed=seed)
        for _ in range(MAX_STEPS):
            legal = _playable(session.legal_actions())
            if not legal:
                break
            action = data.draw(st.sampled_from(legal), label="action")
            given = session.state
            snapshot = copy.deepcopy(given)
            session.apply(action)
            assert given == snapshot, "apply changed the state it was given"
        journal = [e.action for e in session.history()]
        states, _ = replay(game, session.config, session.players, session.seed, journal)
        assert states[-1] == session.state
        final = session.state
        while session.can_undo:
            session.undo()
        assert session.state == states[0]
        while session.can_redo:
            session.redo()
        assert session.state == final
        assert TableSession(store, session.id).state == final
