"""When ability cards may be played, silence, and their cost."""

from __future__ import annotations

import pytest

from tests.games.guilded.support import at


@pytest.mark.parametrize(
    "phase, kind, player, ok",
    [
        ("beginning", "instant", "Ben", True),
        ("acquire", "instant", "Ana", False),
        ("rally", "event", "Ana", True),
        ("first_movement", "event", "Ana", True),
        ("attack", "event", "Ana", False),
        ("rally", "event", "Ben", False),
        ("attack", "attack", "Ana", True),
        ("rally", "attack", "Ana", False),
        ("end", "instant", "Ana", True),
    ],
)
def test_when_abilities_may_be_played(phase, kind, player, ok):
    t = at(phase)
    m = t.put(player, melee=1)
    fields = {"player": player, "kind": kind, "card": "Spell", "merc": m}
    if ok:
        hand = t.seat(player).hand
        t.do("ability", **fields)
        assert t.seat(player).hand == hand - 1
    else:
        t.refused("ability", "phase|turn", **fields)


def test_silenced_mercenaries_cannot_use_ability_cards_but_keep_active_abilities():
    t = at("rally")
    m = t.put("Ana")
    t.do("add_status", target=m, status="silence")
    t.refused("ability", "silenced", player="Ana", kind="instant", card="Spell", merc=m)
    t.do("ability", player="Ana", kind="active", merc=m)


def test_ability_cost_cannot_exceed_the_warchest():
    t = at("rally")
    t.refused("ability", "warchest holds 0", player="Ana", kind="event", card="Rally Cry", cost=1)
