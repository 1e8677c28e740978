"""Movement phases: spaces, the two-sided battlefield, pillars, revealing stealth."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.games.guilded.support import at, tile


def test_moves_count_spaces_and_carry_over_to_second_movement():
    t = at("rally")
    t.do("play_merc", player="Ana", name="Runner", health=4, move=3, tile=tile("Ana", 1, 1))
    t.refused("move", "Movement phase", player="Ana", merc="m1", spaces=1)
    t.to("first_movement")
    t.do("move", player="Ana", merc="m1", to=tile("Ana", 2, 2))
    assert t.merc("m1").tile == (0, 2, 2) and t.merc("m1").moved == 2
    t.refused("move", "1 movement left", player="Ana", merc="m1", spaces=2)
    t.to("second_movement")
    t.do("move", player="Ana", merc="m1", spaces=1, to=tile("Ana", 3, 2))
    t.refused("move", "no movement left", player="Ana", merc="m1", spaces=1)


def test_moving_across_to_the_enemy_side_counts_the_whole_battlefield():
    t = at("first_movement")
    m = t.put("Ana", move=6)
    t.patch(m, tile=(0, 3, 1))
    t.do("move", player="Ana", merc=m, to=tile("Ben", 1, 4))  # Ben's column 4 faces Ana's column 1
    assert t.merc(m).moved == 3


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"to": tile("Ana", 2, 1), "spaces": 0}, "at least 1"),
        ({"to": tile("Ana", 3, 3)}, "4 movement left|3 movement left"),
        ({"to": tile("Ana", 2, 2), "spaces": 1}, "2 spaces away"),
        ({}, '"spaces"'),
        ({"to": tile("Ana", 1, 1)}, "already there"),
    ],
)
def test_bad_moves(fields, message):
    t = at("first_movement")
    m = t.put("Ana", move=3)
    t.patch(m, tile=(0, 1, 1))
    t.refused("move", message, player="Ana", merc=m, **fields)


def test_pillars_and_exhausted_mercenaries_do_not_move():
    t = at("first_movement")
    m = t.put("Ana", move=3)
    t.patch(m, tile=(0, 1, 1))
    t.state = replace(t.state, pillars=((0, 1, 2),))
    t.refused("move", "pillar", player="Ana", merc=m, to=tile("Ana", 1, 2))
    t.do("add_status", target=m, status="exhaust")
    t.refused("move", "exhausted", player="Ana", merc=m, spaces=1)


def test_reveal_spends_one_movement():
    t = at("first_movement")
    a = t.put("Ana", move=2)
    b = t.put("Ben")
    t.patch(a, tile=(0, 3, 1))
    t.patch(b, tile=(1, 3, 3))  # faces Ana's column 2: diagonal
    t.do("add_status", target=b, status="stealth")
    t.do("reveal", player="Ana", merc=a, target=b)
    assert t.status(b, "stealth") == 0 and t.merc(a).moved == 1
    t.refused("reveal", "not stealthed", player="Ana", merc=a, target=b)
