"""Invariants of 7 Seize over random legal games: booty is conserved, replay rebuilds the state."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction, resolve_config
from companion.games import seven_seize as game
from companion.games.seven_seize.phases import table_cards
from companion.session.replay import replay

RULE_CHOICES = {
    "seize_tie": ["captain", "suit"],
    "squabble_tie": ["previous_captain", "suit"],
    "quartermaster_return": ["whole_collection", "previous_collection"],
    "strumpet_steal": ["same_colour", "any_player"],
    "balance": ["one_pan", "two_pans"],
    "cursed": [False, True],
    "tie_pieces": ["return", "stay_out"],
    "interloper_weighs": [True, False],
}

rules_st = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in RULE_CHOICES.items()})


def _weigh(action: dict, state, weights: dict, data: st.DataObject) -> dict:
    """A concrete weigh action for a listed ``"from": "scale"`` one: typed grams or a weighing.

    Each collection is real booty: pieces of 1-8 g drawn once, and a tie-break takes the
    last pieces off first, so every reading is one the pieces on the pan can give.
    """
    name = action["player"]
    wo = state.weighoff
    if name not in weights:
        count = wo.pieces[wo.contestants.index(name)]
        weights[name] = [data.draw(st.floats(1.0, 8.0), label="piece") for _ in range(count)]
    grams = round(sum(weights[name][: wo.on_pan(name)]), 2)
    if data.draw(st.booleans(), label="from scale"):
        u = data.draw(st.floats(0.001, 0.5), label="u")
        weighing = {
            "grams": grams,
            "uncertainty_g": u,
            "samples": 40,
            "channel": action["channel"],
            "calibration": "test",
            "raw_counts": [1, 2, 3],
        }
        return {"type": "weigh", "player": action["player"], "weighing": weighing}
    return {"type": "weigh", "player": action["player"], "grams": grams}


def _random_game(n: int, rules: dict, data: st.DataObject):
    config = resolve_config(game.RULES, rules)
    players = [f"P{i}" for i in range(n)]
    state = game.initial_state(config, players, seed=n)
    states, journal = [state], []
    weights: dict = {}
    while True:
        actions = game.legal_actions(state)
        if not actions:
            break
        action = actions[data.draw(st.integers(0, len(actions) - 1), label="action")]
        if "from" in action:
            action = _weigh(action, state, weights, data)
        state, events = game.apply(state, action)
        json.dumps(events)
        journal.append(action)
        states.append(state)
        assert len(journal) < 2000, "the game does not end"
    return config, players, states, journal


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 7), rules=rules_st, data=st.data())
def test_random_games_conserve_booty_and_replay(n, rules, data):
    config, players, states, journal = _random_game(n, rules, data)
    for state in states:
        assert state.bag + state.red + state.black + sum(state.collections) == 49
        assert min(state.collections) >= 0 and state.red >= 0 and state.black >= 0
        assert 0 <= state.bag <= 49 and state.bag % 7 == 0
    final = states[-1]
    summary = game.summary(final)
    assert summary.over and summary.winners and final.bag == 0
    assert summary.detail["booty_total"] == 49
    json.dumps(summary.to_json())
    # Replaying the journal (through JSON, as stored) rebuilds every state exactly.
    stored = json.loads(json.dumps(journal))
    replayed, _ = replay(game, config, players, n, stored)
    assert replayed == states


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 5), rules=rules_st, data=st.data())
def test_cards_in_play_are_never_revealed_twice_before_a_reshuffle(n, rules, data):
    _, _, states, _ = _random_game(n, rules, data)
    for state in states:
        seen = list(state.deck.discard) + list(table_cards(state))
        assert len(seen) == len(set(seen))
        assert 0 <= state.deck.draw <= 52


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 60) | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
fields = st.sampled_from(
    [
        "player",
        "card",
        "red",
        "black",
        "captain",
        "order",
        "choice",
        "victim",
        "for",
        "returned",
        "pieces",
        "stash",
        "grams",
        "uncertainty_g",
        "pips",
        "weighing",
    ]
)
kinds = st.sampled_from(["reveal", "captain", "divvy", "order", "quartermaster", "strumpet", "pick", "weigh", "x"])


@settings(max_examples=300, deadline=None)
@given(
    kind=kinds,
    body=st.dictionaries(fields, json_values | st.sampled_from(["Ana", "Ben", "QH", "red"]), max_size=5),
    phase=st.integers(0, 4),
)
def test_arbitrary_actions_are_refused_cleanly_or_accepted(kind, body, phase):
    state = _states()[phase]
    try:
        new, events = game.apply(state, {"type": kind, **body})
    except IllegalAction:
        return
    assert new.booty_total == 49
    json.dumps(events)


_CACHE: list = []


def _states():
    """A few states across the game: squabble, divvy, seize reveals, a pending decision, the weigh-off."""
    if not _CACHE:
        from tests.support.seize import new, reveal_all, to_seize, with_collections

        s0 = new(("Ana", "Ben", "Cy"))
        s1, _ = reveal_all(s0, {"Ana": "9S", "Ben": "8S", "Cy": "7S"})
        s2 = to_seize(new(("Ana", "Ben", "Cy")), {"Ana": "9S", "Ben": "8S", "Cy": "7S"}, red=3)
        s3, _ = reveal_all(with_collections(s2, {"Ben": 2}), {"Ana": "QH", "Ben": "5D", "Cy": "6C"})
        s4 = new(("Ana", "Ben"))
        while s4.phase != "weighoff":
            s4, _ = game.apply(s4, game.legal_actions(s4)[0])
        _CACHE.extend([s0, s1, s2, s3, s4])
    return _CACHE
