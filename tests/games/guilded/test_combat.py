"""The Attack phase: attacks, blinded coin flips, stealth, leech, bounty and plunder."""

from __future__ import annotations

import pytest

from companion.games import guilded
from tests.games.guilded.support import Table, at, tile


def test_melee_and_ranged_attacks_exhaust_the_attacker():
    t = at("attack")
    a = t.put("Ana", "Brute", melee=3, ranged=2, ranged_type="magic")
    b = t.put("Ben", "Target", health=10, armour=2, magic_armour=1)
    c = t.put("Ana", "Second", melee=3)
    t.do("attack", player="Ana", merc=a, target=b, **{"with": "ranged"})
    assert t.merc(b).health == 9, "2 magic less 1 magic armour"
    assert t.status(a, "exhaust") == 1 and t.merc(a).attacked
    t.refused("attack", "exhausted", player="Ana", merc=a, target=b)
    t.do("attack", player="Ana", merc=c, target=b, **{"with": "melee"})
    assert t.merc(b).health == 8, "3 physical less 2 armour"


@pytest.mark.parametrize(
    "target_owner, target_status, message",
    [("Ana", None, "on Ana's side"), ("Ben", "stealth", "stealthed")],
)
def test_bad_targets(target_owner, target_status, message):
    t = at("attack")
    a = t.put("Ana", melee=3)
    b = t.put(target_owner)
    if target_status:
        t.do("add_status", target=b, status=target_status)
    t.refused("attack", message, player="Ana", merc=a, target=b)


def test_attack_with_no_such_stat_or_out_of_phase():
    t = at("rally")
    a = t.put("Ana", melee=2)
    b = t.put("Ben")
    t.refused("attack", "Attack phase", player="Ana", merc=a, target=b)
    t.to("attack")
    t.refused("attack", "no ranged attack", player="Ana", merc=a, target=b, **{"with": "ranged"})
    t.refused("attack", "Ana's turn", player="Ben", merc=b, target=a)


def test_destroying_a_mercenary_takes_its_bounty_from_its_owner():
    t = at("attack")
    a = t.put("Ana", melee=5)
    b = t.put("Ben", health=4, bounty=3)
    events = t.do("attack", player="Ana", merc=a, target=b)
    assert not any(m.id == b for m in t.state.mercs)
    assert t.seat("Ben").vault == 27
    assert [e["type"] for e in events] == ["attack", "damage", "destroyed", "loot"]


@pytest.mark.parametrize("coin, health", [("won", 7), ("lost", 10)])
def test_blind_attacker_needs_a_won_coin(coin, health):
    t = at("attack")
    a = t.put("Ana", melee=3)
    b = t.put("Ben", health=10)
    t.do("add_status", target=a, status="blind")
    t.do("attack", player="Ana", merc=a, target=b, coin=coin)
    assert t.merc(b).health == health and t.status(a, "exhaust") == 1


def test_fogged_tile_blinds_and_purser_flips_from_the_seed():
    results = set()
    for seed in range(1, 12):
        t = Table(seed=seed).start("Ana")
        t.to("attack")
        a = t.put("Ana", melee=3)
        b = t.put("Ben", health=10)
        t.patch(a, tile=(0, 2, 2))
        t.do("fog", tile=tile("Ana", 2, 2))
        events = t.do("attack", player="Ana", merc=a, target=b)
        coin = next(e for e in events if e["type"] == "coin")
        assert coin["by"] == "Purser's coin"
        assert t.merc(b).health == (7 if coin["won"] else 10)
        results.add(coin["won"])
    assert results == {True, False}, "eleven seeds give both results"


def test_table_coin_rule_requires_the_coin():
    t = at("attack", coin_flips="table")
    a = t.put("Ana", melee=3)
    b = t.put("Ben")
    t.do("add_status", target=a, status="blind")
    t.refused("attack", '"coin"', player="Ana", merc=a, target=b)
    t.refused("attack", "won.*lost", player="Ana", merc=a, target=b, coin="heads-ish")


def test_stealthed_attacker_strikes_true_and_loses_stealth():
    t = at("attack")
    a = t.put("Ana", melee=3)
    b = t.put("Ben", health=10, armour=2, defence=1)
    t.do("add_status", target=a, status="stealth")
    t.do("attack", player="Ana", merc=a, target=b)
    assert t.merc(b).health == 7 and t.merc(b).defence_ready
    assert t.status(a, "stealth") == 0 and not t.merc(a).next_true


def test_leech_heals_the_attacker_by_the_damage_dealt():
    t = at("attack")
    a = t.put("Ana", health=10, melee=4)
    b = t.put("Ben", health=3)
    t.do("damage", target=a, amount=6, damage_type="pure")
    t.do("add_status", target=a, status="leech")
    t.do("attack", player="Ana", merc=a, target=b)
    assert t.merc(a).health == 7, "leech heals the 3 health actually taken"


# -- plunder --------------------------------------------------------------------------------


def test_plunder_from_an_enemy_guild_hall():
    t = at("attack")
    a = t.put("Ana", bounty=3)
    t.patch(a, tile=(1, 1, 2))
    t.do("plunder", player="Ana", merc=a)
    assert t.seat("Ben").vault == 27 and t.seat("Ana").vault == 33
    assert t.status(a, "exhaust") == 1
    reasons = [e.reason for e in t.state.loot_log]
    assert reasons == ["plundered by Ana's Merc (m1)", "plunder by Merc"]
    b = t.put("Ana", bounty=3)
    t.refused("plunder", "already plundered", player="Ana", merc=b, opponent="Ben")


@pytest.mark.parametrize(
    "rules, tile_, message",
    [
        ({}, (1, 2, 2), "enemy Guild Hall"),
        ({}, (0, 1, 2), "enemy Guild Hall"),
        ({"format": "arena"}, (1, 1, 2), "no plundering"),
    ],
)
def test_plunder_refusals(rules, tile_, message):
    t = Table(**rules).start("Ana")
    t.to("attack")
    a = t.put("Ana", bounty=3)
    t.patch(a, tile=tile_)
    t.refused("plunder", message, player="Ana", merc=a)


@pytest.mark.parametrize("rule, ana, ben", [("to_plunderer", 32, 28), ("lost", 30, 28)])
def test_plunder_loot_house_rule(rule, ana, ben):
    t = at("attack", plunder_loot=rule)
    a = t.put("Ana", bounty=2)
    t.do("plunder", player="Ana", merc=a)
    assert (t.seat("Ana").vault, t.seat("Ben").vault) == (ana, ben)


# -- reach and line of sight (1v1, positions known) ------------------------------------------------


def _placed(**rules):
    """Ana's Archer on her row 3 column 2 and Knight on row 2 column 2; Ben's mercenaries
    placed by the test. On the 1v1 battlefield Ana's row 3 faces Ben's row 3; Ben's column 3
    faces Ana's column 2."""
    t = at("attack", **rules)
    archer = t.put("Ana", "Archer", melee=2, ranged=3, tile=(0, 3, 2))
    knight = t.put("Ana", "Knight", melee=3, tile=(0, 2, 2))
    return t, archer, knight


def test_melee_reaches_adjacent_tiles_only():
    t, archer, knight = _placed()
    near = t.put("Ben", "Near", health=20, tile=(1, 3, 3))  # straight across from the Archer
    far = t.put("Ben", "Far", health=20, tile=(1, 1, 3))
    t.do("attack", player="Ana", merc=archer, target=near, **{"with": "melee"})
    t.refused(
        "attack",
        "4 tiles away from Ana's Knight .*: a melee attack reaches an adjacent tile",
        player="Ana",
        merc=knight,
        target=far,
        **{"with": "melee"},
    )


def test_ranged_reaches_two_to_four_tiles_in_a_line():
    t, archer, _ = _placed()
    adjacent = t.put("Ben", "Adjacent", health=20, tile=(1, 3, 3))
    t.refused(
        "attack",
        "1 tile away .* a ranged attack reaches 2 to 4 tiles away",
        player="Ana",
        merc=archer,
        target=adjacent,
        **{"with": "ranged"},
    )
    t.patch(adjacent, tile=(1, 3, 1))  # Ben's column 1 faces Ana's column 4: two across, one along: no line
    t.refused(
        "attack", "not in a straight or diagonal line", player="Ana", merc=archer, target=adjacent, **{"with": "ranged"}
    )
    t.patch(adjacent, tile=(1, 2, 1))  # two rows up, two columns across: a diagonal
    t.do("attack", player="Ana", merc=archer, target=adjacent, **{"with": "ranged"})
    assert t.merc(adjacent).health == 17


def test_a_mercenary_between_blocks_the_line_of_sight():
    t, archer, _knight = _placed()
    target = t.put("Ben", "Target", health=20, tile=(1, 2, 3))  # two tiles straight ahead of the Archer
    blocker = t.put("Ben", "Blocker", health=20, tile=(1, 3, 3))
    t.refused(
        "attack",
        "Ben's Blocker .* stands between Ana's Archer .* and Ben's Target .*line of sight",
        player="Ana",
        merc=archer,
        target=target,
        **{"with": "ranged"},
    )
    legal = guilded.legal_actions(t.state)
    assert not [a for a in legal if a["type"] == "attack" and a["target"] == target]
    assert [a for a in legal if a["type"] == "attack" and a["target"] == blocker and a["merc"] == archer]
    t.refused(
        "attack",
        "line of sight",
        player="Ana",
        merc=archer,
        target=target,
        amount=4,
        damage_type="magic",
        card="Fireball",
        **{"with": "ranged"},
    )
    t.patch(blocker, tile=(1, 3, 4))
    t.do("attack", player="Ana", merc=archer, target=target, **{"with": "ranged"})


def test_reach_is_the_tables_to_judge_when_the_house_rule_says_so_or_positions_are_unknown():
    t, _, knight = _placed(attack_range="table")
    far = t.put("Ben", "Far", health=20, tile=(1, 1, 3))
    t.do("attack", player="Ana", merc=knight, target=far, **{"with": "melee"})
    t, _, knight = _placed()
    nowhere = t.put("Ben", "Nowhere", health=20)
    t.do("attack", player="Ana", merc=knight, target=nowhere, **{"with": "melee"})
