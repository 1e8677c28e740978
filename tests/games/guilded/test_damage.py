"""Damage maths: every damage type against every reduction, table-driven."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from companion.games.guilded.damage import DAMAGE_TYPES, DamageRules, Defender, resolve_hit

FULL = 10
REDUCTIONS = {
    "none": {},
    "armour 2": {"armour": 2},
    "magic armour 2": {"magic_armour": 2},
    "defence 2": {"defence": 2},
    "defence 2 spent": {"defence": 2, "defence_ready": False},
    "poison 3": {"poison": 3},
    "armour 1 + magic armour 1 + defence 2": {"armour": 1, "magic_armour": 1, "defence": 2},
}

# 5 damage of each type against a 10-health mercenary at full health: damage dealt.
EXPECTED = {
    #            none  armour magic  defence spent poison  all
    "physical": (5, 3, 5, 3, 5, 8, 2),
    "magic": (5, 5, 3, 3, 5, 8, 2),
    "true": (5, 5, 5, 5, 5, 8, 5),
    "pure": (5, 5, 5, 3, 5, 8, 3),
    "lethal": (0, 0, 0, 0, 0, 0, 0),  # above half health: no effect (default)
}


@pytest.mark.parametrize("damage_type", DAMAGE_TYPES)
@pytest.mark.parametrize("reduction", list(REDUCTIONS))
def test_each_type_against_each_reduction(damage_type, reduction):
    target = Defender(health=FULL, max_health=FULL, **REDUCTIONS[reduction])
    hit = resolve_hit(target, 5, damage_type)
    expected = EXPECTED[damage_type][list(REDUCTIONS).index(reduction)]
    assert hit.dealt == expected
    assert hit.health_after == FULL - expected
    assert hit.lost == expected


@pytest.mark.parametrize("damage_type", DAMAGE_TYPES)
@pytest.mark.parametrize("reduction", list(REDUCTIONS))
def test_lethal_at_half_health_ignores_every_reduction(damage_type, reduction):
    target = Defender(health=5, max_health=FULL, **REDUCTIONS[reduction])
    hit = resolve_hit(target, 1, "lethal")
    assert hit.lethal and hit.destroyed and hit.lost == 5
    assert not hit.defence_spent and hit.armour == 0 and hit.poison == 0


@pytest.mark.parametrize(
    "health, max_health, lethal",
    [(5, 10, True), (6, 10, False), (1, 1, False), (1, 2, True), (3, 7, True), (4, 7, False), (0, 4, True)],
)
def test_half_health_boundary(health, max_health, lethal):
    hit = resolve_hit(Defender(health=health, max_health=max_health), 1, "lethal")
    assert hit.lethal is lethal


@pytest.mark.parametrize(
    "rule, amount, armour, expected",
    [
        ("no_effect", 4, 1, 0),
        ("true", 4, 1, 4),  # true ignores armour
        ("physical", 4, 1, 3),  # physical: armour applies
    ],
)
def test_lethal_above_half_house_rule(rule, amount, armour, expected):
    hit = resolve_hit(
        Defender(health=10, max_health=10, armour=armour), amount, "lethal", DamageRules(lethal_above_half=rule)
    )
    assert hit.dealt == expected and not hit.lethal


@pytest.mark.parametrize(
    "damage_type, defence_reduces",
    [("physical", True), ("magic", True), ("pure", True), ("true", False)],
)
def test_defence_spends_only_when_it_reduces(damage_type, defence_reduces):
    hit = resolve_hit(Defender(health=10, max_health=10, defence=3), 2, damage_type)
    assert hit.defence_spent is defence_reduces
    assert hit.dealt == (0 if defence_reduces else 2)


def test_defence_is_not_spent_when_armour_stops_everything():
    hit = resolve_hit(Defender(health=10, max_health=10, armour=3, defence=2), 3, "physical")
    assert hit.dealt == 0 and not hit.defence_spent and hit.armour == 3


def test_true_damage_defence_house_rule():
    target = Defender(health=10, max_health=10, armour=5, defence=2)
    assert resolve_hit(target, 5, "true").dealt == 5
    hit = resolve_hit(target, 5, "true", DamageRules(true_damage_defence=True))
    assert hit.dealt == 3 and hit.defence_spent and hit.armour == 0


@pytest.mark.parametrize(
    "timing, amount, armour, poison, expected",
    [
        ("after_reduction", 4, 2, 3, 5),  # 4 - 2 = 2, + 3 poison
        ("after_reduction", 2, 2, 3, 0),  # nothing got through: poison adds nothing
        ("after_reduction", 0, 0, 3, 0),  # no damage, no poison
        ("before_reduction", 4, 2, 3, 5),  # (4 + 3) - 2
        ("before_reduction", 2, 2, 3, 3),  # (2 + 3) - 2
        ("before_reduction", 2, 9, 3, 0),  # armour stops it all
        ("before_reduction", 0, 0, 3, 0),
    ],
)
def test_poison_adds_to_damage(timing, amount, armour, poison, expected):
    hit = resolve_hit(
        Defender(health=20, max_health=20, armour=armour, poison=poison),
        amount,
        "physical",
        DamageRules(poison_timing=timing),
    )
    assert hit.dealt == expected


def test_health_never_goes_below_zero():
    hit = resolve_hit(Defender(health=3, max_health=10), 9, "pure")
    assert hit.dealt == 9 and hit.lost == 3 and hit.health_after == 0 and hit.destroyed


@pytest.mark.parametrize("amount, damage_type, message", [(-1, "physical", "negative"), (2, "fire", "fire")])
def test_bad_damage_is_refused(amount, damage_type, message):
    with pytest.raises(IllegalAction, match=message):
        resolve_hit(Defender(health=3, max_health=3), amount, damage_type)
