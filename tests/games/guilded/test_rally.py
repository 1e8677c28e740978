"""Rally phase plays: mercenaries, upstaging, the warchest, equipment, exits, the Guild Master."""

from __future__ import annotations

import pytest

from tests.games.guilded.support import Table, at, tile


def test_playing_mercenaries():
    t = at("rally")
    hand = t.seat("Ana").hand
    t.do("play_merc", player="Ana", name="Deckhand", health=5, bounty=2, armour=1, tile=tile("Ana", 1, 1))
    t.do("play_merc", player="Ana", name="Gunner", health=4, ranged=2, ranged_type="staff")
    merc = t.merc("m1")
    assert (merc.name, merc.health, merc.bounty, merc.armour, merc.tile) == ("Deckhand", 5, 2, 1, (0, 1, 1))
    assert t.merc("m2").ranged_type == "magic" and t.merc("m2").tile is None
    assert t.seat("Ana").hand == hand - 2


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"name": "X", "health": 3, "tile": tile("Ana", 3, 1)}, "back 8 tiles"),
        ({"name": "X", "health": 3, "tile": tile("Ben", 1, 1)}, "back 8 tiles"),
        ({"name": "X", "health": 3, "tile": tile("Ana", 4, 1)}, "no row 4"),
        ({"name": "X", "health": 0}, "at least 1"),
        ({"name": "X"}, '"health"'),
        ({"health": 3}, '"name"'),
        ({"name": "X", "health": 3, "ranged_type": "fire"}, "crossbow"),
        ({"name": "X", "health": 3, "guild_master": True}, "no Guild Master"),
        ({"name": "X", "health": 3, "bounty": -2}, "at least 0"),
    ],
)
def test_bad_mercenaries_are_refused(fields, message):
    t = at("rally")
    t.refused("play_merc", message, player="Ana", **fields)


def test_at_most_three_mercenaries_and_not_on_your_own():
    t = at("rally")
    t.do("play_merc", player="Ana", name="A", health=3, tile=tile("Ana", 1, 1))
    t.refused("play_merc", "already stands", player="Ana", name="B", health=3, tile=tile("Ana", 1, 1))
    t.do("play_merc", player="Ana", name="B", health=3)
    t.do("play_merc", player="Ana", name="C", health=3)
    t.refused("play_merc", "already has 3", player="Ana", name="D", health=3)


def test_upstage_pushes_an_enemy_back_one_space():
    t = at("rally")
    enemy = t.put("Ben", "Raider")
    t.patch(enemy, tile=(0, 2, 3))
    t.do("play_merc", player="Ana", name="Guard", health=4, tile=tile("Ana", 2, 3))
    assert t.merc(enemy).tile == (0, 3, 3)
    blocker = t.put("Ben", "Second")
    t.patch(blocker, tile=(0, 1, 2))
    t.patch(t.put("Ben", "Third"), tile=(0, 2, 2))
    t.refused("play_merc", "space behind", player="Ana", name="Guard", health=4, tile=tile("Ana", 1, 2))


def test_one_treasure_a_turn_to_the_warchest():
    t = at("rally")
    t.do("play_treasure", player="Ana", name="Gold Idol")
    assert t.seat("Ana").warchest == 1
    t.refused("play_treasure", "already played", player="Ana", face_down=True)
    t.next_turn()
    t.next_turn()
    t.to("rally")
    t.do("play_treasure", player="Ana", face_down=True)
    assert t.seat("Ana").warchest == 2


def test_equip_then_unequip_and_armour_counts():
    t = at("rally")
    t.do("play_treasure", player="Ana", name="Helm")
    t.do("play_merc", player="Ana", name="Guard", health=4, armour=1, tile=tile("Ana", 1, 2))
    t.do("equip", player="Ana", merc="Guard", treasure={"name": "Helm", "armour": 2})
    assert t.merc("m1").total_armour == 3 and t.seat("Ana").warchest == 0
    t.refused("equip", "already equipped", player="Ana", merc="m1", treasure="Ring")
    t.do("unequip", player="Ana", merc="m1", treasure="helm")
    assert t.merc("m1").total_armour == 1 and t.seat("Ana").warchest == 1
    t.do("play_merc", player="Ana", name="Scout", health=3, tile=tile("Ana", 1, 3))
    t.refused("equip", "before unequipping", player="Ana", merc="Scout", treasure="Helm")


def test_equip_needs_the_guild_hall_and_a_treasure():
    t = at("rally")
    t.do("play_merc", player="Ana", name="Guard", health=4, tile=tile("Ana", 2, 2))
    t.refused("equip", "Guild Hall", player="Ana", merc="m1", treasure="Helm")
    t.do("play_merc", player="Ana", name="Scout", health=4, tile=tile("Ana", 1, 2))
    t.refused("equip", "warchest is empty", player="Ana", merc="m2", treasure="Helm")


def test_play_a_mercenary_with_a_treasure_from_hand():
    t = at("rally")
    hand = t.seat("Ana").hand
    t.do("play_merc", player="Ana", name="Knight", health=6, treasure={"name": "Shield", "armour": 1})
    assert t.merc("m1").total_armour == 1 and t.seat("Ana").hand == hand - 2


def test_exit_from_the_guild_hall_costs_no_bounty():
    t = at("rally")
    t.do("play_merc", player="Ana", name="Guard", health=4, bounty=3, tile=tile("Ana", 1, 2))
    t.do("play_merc", player="Ana", name="Scout", health=4, bounty=3, tile=tile("Ana", 2, 2))
    t.refused("exit", "Guild Hall", player="Ana", merc="Scout")
    t.do("exit", player="Ana", merc="Guard")
    assert [m.name for m in t.state.mercs] == ["Scout"] and t.seat("Ana").vault == 30


def test_guild_master_comes_from_the_guild_quarters_once():
    t = Table(("Ana", "Ben", "Cy"), format="guild_master").start("Ana")
    t.to("rally")
    hand = t.seat("Ana").hand
    t.refused("play_merc", "Rare or Legendary", player="Ana", name="Boss", health=9, stars=2, guild_master=True)
    t.do("play_merc", player="Ana", name="Boss", health=9, stars=4, guild_master=True, tile=tile("Ana", 1, 1))
    assert t.seat("Ana").hand == hand, "the Guild Master does not come from the hand"
    assert t.merc("m1").role == "guild_master"
    t.refused("exit", "may not exit", player="Ana", merc="m1")
    t.refused("play_merc", "already entered", player="Ana", name="Boss", health=9, guild_master=True)
