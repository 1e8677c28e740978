"""Hidden information stays hidden: over random games, no public output (the summary, the
legal actions the tablet turns into buttons, the events of each action, the journal entry
as the history shows it) names a card that is concealed at that moment. Also: every
accepted action says in words what it did (no blank history line)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction, find_game, game_names, resolve_config
from companion.games.views import private_view, public_action, public_history, public_view

PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: One copy of each Adventure card, each name found nowhere else: any public mention of a
#: name while its card is concealed is a leak.
ADVENTURES = ("Kraken", "Mutiny", "Sirens", "Maelstrom", "Doldrums")
SCALLY_RULES = {
    "crewmates": 2,
    "first_captain": "first_seat",
    "treasure_cards": "Map:2,Powder:1:target-1:anytime,Rum:1:self+1",
    "adventure_cards": "Kraken:1:others-1,Mutiny:1:self-1,Sirens:1:target-1,Maelstrom:1,Doldrums:1:self+1",
}


def _public_outputs(game: Any, state: Any, action: dict[str, Any], events: list[dict[str, Any]]) -> str:
    view = public_view(game, state)
    history = public_history(game, [(action, events)])
    return json.dumps([view, events, history])


def _concealed(game: Any, state: Any) -> set[str]:
    return {card for p in state.players for card in private_view(game, state, p).concealed}


@PROFILE
@given(data=st.data(), n=st.integers(2, 4), seed=st.integers(0, 2**31 - 1))
def test_no_public_output_of_scallywagger_names_a_concealed_adventure_card(data, n, seed):
    game = find_game("scallywagger")
    players = ("Ana", "Ben", "Cy", "Dee")[:n]
    state = game.initial_state(resolve_config(game.RULES, SCALLY_RULES), players, seed)
    seen_concealed = 0
    for _ in range(150):
        legal = [a for a in game.legal_actions(state) if "from" not in a]
        private = [a for p in players for a in private_view(game, state, p).actions]
        if not legal:
            break
        action = dict(data.draw(st.sampled_from(legal + private), label="action"))
        if action["type"] == "draw" and action["deck"] == "adventure" and data.draw(st.booleans(), label="named"):
            action["card"] = data.draw(st.sampled_from(ADVENTURES), label="card")  # a real deck: the card drawn
        try:
            state, events = game.apply(state, action)
        except IllegalAction:
            assert "card" in action and action["type"] == "draw", f"every listed action is accepted: {action}"
            continue
        assert any(e.get("text") for e in events), f"{action} left no words in the history"
        concealed = _concealed(game, state)
        seen_concealed += bool(concealed)
        public = _public_outputs(game, state, action, events)
        for card in concealed:
            assert card not in public, f"{card} is concealed but public after {action}"
    assert seen_concealed >= 0


def test_the_random_scallywagger_games_do_conceal_cards():
    """The property above is not empty: a plain game reaches concealed Adventure cards."""
    game = find_game("scallywagger")
    state = game.initial_state(resolve_config(game.RULES, SCALLY_RULES), ("Ana", "Ben"), 3)
    for action in (
        {"type": "bid", "player": "Ana", "quantity": 1, "face": 6},
        {"type": "call", "player": "Ben"},
        {"type": "reveal", "count": 0},
        {"type": "draw", "player": "Ben", "deck": "adventure"},
    ):
        state, events = game.apply(state, action)
    concealed = _concealed(game, state)
    assert len(concealed) == 1 and concealed <= set(ADVENTURES)
    assert not concealed & set(_public_outputs(game, state, action, events).split('"'))


deck_cards = st.lists(
    st.fixed_dictionaries(
        {
            "name": st.text("abcdefghij", min_size=6, max_size=10).map(lambda s: "Secret" + s),
            "stars": st.integers(1, 3),
            "count": st.integers(1, 4),
        }
    ),
    min_size=1,
    max_size=12,
)


@PROFILE
@given(cards=deck_cards, master=st.text("klmnop", min_size=5, max_size=8).map(lambda s: "Master" + s))
def test_a_guilded_deck_list_is_public_only_as_its_size(cards, master):
    game = find_game("guilded")
    total = sum(c["count"] for c in cards)
    for fmt, extra in (("standard", {}), ("guild_master", {"guild_master": {"name": master, "stars": 3}})):
        state = game.initial_state(
            resolve_config(game.RULES, {"format": fmt, "deck_size": total, "deck_size_exact": True}), ("Ana", "Ben"), 1
        )
        action = {"type": "deck", "player": "Ana", "cards": cards, **extra}
        try:
            state, events = game.apply(state, action)
        except IllegalAction:
            events = []
        public = _public_outputs(game, state, action, events)
        hidden = {c["name"] for c in cards} | ({master} if extra else set())
        assert not [name for name in hidden if name in public]
        assert public_action(game, action)["cards"] == total


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_a_public_and_a_private_view(name):
    game = find_game(name)
    players = ("Ana", "Ben")
    state = game.initial_state(resolve_config(game.RULES), players, 1)
    view = public_view(game, state)
    json.dumps(view)
    assert set(view) == {"summary", "legal_actions"}
    mine = private_view(game, state, "ana")
    assert mine.player == "Ana" and mine.concealed == ()
    with pytest.raises(IllegalAction, match="nobody called"):
        private_view(game, state, "Zed")
    listed = view["legal_actions"][0] if view["legal_actions"] else {"type": "x"}
    assert public_action(game, listed) == listed, "an action naming nothing concealed is shown as it is"


# -- every accepted action says what it did ---------------------------------------------------------------


def _concrete(game: Any, state: Any, action: dict[str, Any], data: st.DataObject) -> list[dict[str, Any]]:
    """Ways to send a listed action that asks for a measurement: the dice typed (a camera
    read), a plausible weight typed (a balance read)."""
    action = {k: v for k, v in action.items() if k != "from"}
    if action["type"] in ("roll", "roll_off"):
        kept = len(action.get("keep", []))
        return [
            {**action, "dice": data.draw(st.lists(st.integers(1, 6), min_size=n, max_size=n), label="dice")}
            for n in (5 - kept, 4 - kept, 1)
            if n > 0
        ]
    if action["type"] == "weigh":
        pieces = state.weighoff.on_pan(action["player"])
        return [{**action, "grams": round(pieces * 4.0 + data.draw(st.floats(0, 1), label="g"), 2)}]
    return []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("name", game_names())
def test_every_accepted_action_leaves_words_in_the_history(name, data):
    game = find_game(name)
    state = game.initial_state(
        resolve_config(game.RULES),
        ("Ana", "Ben", "Cy") if name != "guilded" else ("Ana", "Ben"),
        data.draw(st.integers(0, 999), label="seed"),
    )
    for _ in range(80):
        legal = game.legal_actions(state)
        if not legal:
            break
        action = data.draw(st.sampled_from(legal), label="action")
        candidates = _concrete(game, state, action, data) if "from" in action else [action]
        for candidate in candidates:
            try:
                state, events = game.apply(state, candidate)
            except IllegalAction:
                continue
            assert any(isinstance(e.get("text"), str) and e["text"].strip() for e in events), candidate
            break
