"""Moving through the turn, who may act, and the Acquire phase."""

from __future__ import annotations

import pytest

from companion.games import guilded
from tests.games.guilded.support import at


@pytest.mark.parametrize("cards, vault, hand, deck", [(0, 30, 8, 32), (1, 29, 9, 31), (4, 26, 12, 28)])
def test_acquire_costs_one_loot_a_card(cards, vault, hand, deck):
    t = at("acquire")
    t.do("acquire", player="Ana", cards=cards)
    s = t.seat("Ana")
    assert (s.vault, s.hand, s.deck) == (vault, hand, deck)
    if cards:
        assert t.state.loot_log[-1].reason == f"Acquire {cards} card{'s' * (cards != 1)}"


@pytest.mark.parametrize(
    "fields, setup, message",
    [
        ({"cards": 5}, {}, "at most 4"),
        ({"cards": -1}, {}, "at least 0"),
        ({"cards": 3}, {"deck": 2}, "only 2 cards"),
        ({"cards": 3}, {"vault": 3}, "empty Ana's Vault"),
        ({}, {}, '"cards"'),
    ],
)
def test_acquire_refusals(fields, setup, message):
    t = at("acquire")
    if setup:
        t.state = t.state.with_seat(0, **setup)
    t.refused("acquire", message, player="Ana", **fields)


def test_acquire_once_per_turn_and_only_in_its_phase():
    t = at("acquire")
    t.do("acquire", player="Ana", cards=1)
    t.refused("acquire", "already acquired", player="Ana", cards=1)
    t.to("rally")
    t.refused("acquire", "Acquire phase", player="Ana", cards=1)


def test_no_abilities_in_the_acquire_phase():
    t = at("acquire")
    t.refused("ability", "Acquire phase", player="Ben", kind="instant", card="Counterspell")


def test_only_the_turn_player_acts():
    t = at("acquire")
    t.refused("acquire", "Ana's turn", player="Ben", cards=1)
    t.refused("next_phase", "Ana's turn", player="Ben")


def test_acquiring_the_last_loot_is_a_house_rule():
    t = at("acquire")
    t.state = t.state.with_seat(0, vault=3)
    assert max(a["cards"] for a in guilded.legal_actions(t.state) if a["type"] == "acquire") == 2
    t.refused("acquire", "acquire_last_loot=refuse", player="Ana", cards=3)
    t = at("acquire", acquire_last_loot="allow")
    t.state = t.state.with_seat(0, vault=3)
    assert max(a["cards"] for a in guilded.legal_actions(t.state) if a["type"] == "acquire") == 4
    t.do("acquire", player="Ana", cards=3)
    assert t.seat("Ana").vault == 0 and t.seat("Ana").out and t.state.winners == (1,)
