"""Refusals are one short line: a huge input is never echoed back in full."""

from __future__ import annotations

import json

import pytest

from companion.games import IllegalAction, find_game, game_names, resolve_config
from companion.games.base import MESSAGE_LIMIT, shown

HUGE = "x" * 100_000
PLAYERS = {"swashbuckle": ("Ana", "Ben"), "yahtzee": ("Ana", "Ben"), "yacht": ("Ana", "Ben")}


def test_shown_quotes_short_values_and_cuts_long_ones():
    assert shown("QH") == "'QH'"
    assert shown(HUGE) == "'" + "x" * 40 + "…' (100000 characters)"
    assert shown("it's" * 20).endswith('…" (80 characters)')
    assert len(shown(list(range(10_000)))) <= 41


def test_a_refusal_message_is_never_longer_than_the_limit():
    assert len(str(IllegalAction("y" * 10_000))) == MESSAGE_LIMIT


@pytest.mark.parametrize("name", game_names())
def test_a_huge_value_in_any_field_of_a_listed_action_is_not_echoed(name):
    game = find_game(name)
    state = game.initial_state(resolve_config(game.RULES), PLAYERS.get(name, ("Ana", "Ben", "Cy")), 1)
    actions = game.legal_actions(state)[:12] or [{"type": "play", "player": "Ana"}]
    tried = 0
    for action in actions:
        for key in list(action):
            bad = {**action, key: HUGE}
            try:
                _, events = game.apply(state, bad)
            except IllegalAction as exc:
                message = str(exc)
                assert len(message) <= MESSAGE_LIMIT and HUGE[:200] not in message, (bad.keys(), message[:200])
                assert "\n" not in message
            else:
                assert HUGE[:200] not in json.dumps(events), f"{name} accepted a huge {key!r} and repeats it"
            tried += 1
    assert tried >= len(actions)


def test_a_huge_card_in_seven_seize_is_refused_briefly():
    game = find_game("seven-seize")
    state = game.initial_state(resolve_config(game.RULES), ("Ana", "Ben", "Cy"), 1)
    with pytest.raises(IllegalAction) as caught:
        game.apply(state, {"type": "reveal", "player": "Ana", "card": HUGE})
    assert "(100000 characters)" in str(caught.value) and len(str(caught.value)) < 200


def test_a_huge_cause_in_guilded_is_refused_not_stored():
    from tests.games.guilded.support import at

    t = at("rally")
    merc = t.put("Ben", "Target", health=10)
    t.refused("damage", "at most 80 characters", target=merc, amount=1, damage_type="true", cause=HUGE)
