"""Status counters: how each status stacks and comes off, table-driven (timing is in test_phases)."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from companion.games.guilded import statuses
from companion.games.guilded.statuses import STATUSES, effective, find_status, reduce, stack

# (status, stored before, added, stored after under "drop", stored after under "bank", acting after under "bank")
STACKING = [
    # exhaust: no limit
    ("exhaust", 0, 0, 0, 0, 0),
    ("exhaust", 0, 1, 1, 1, 1),
    ("exhaust", 2, 3, 5, 5, 5),
    # bleed: up to 5, then only in fives
    ("bleed", 0, 0, 0, 0, 0),
    ("bleed", 0, 1, 1, 1, 1),
    ("bleed", 2, 2, 4, 4, 4),
    ("bleed", 4, 1, 5, 5, 5),
    ("bleed", 4, 3, 5, 7, 5),
    ("bleed", 5, 1, 5, 6, 5),
    ("bleed", 5, 4, 5, 9, 5),
    ("bleed", 5, 5, 10, 10, 10),
    ("bleed", 3, 7, 10, 10, 10),
    ("bleed", 10, 4, 10, 14, 10),
    ("bleed", 10, 5, 15, 15, 15),
    ("bleed", 9, 1, 10, 10, 10),  # a banked 9 (acting 5) plus 1 makes a whole ten
    # poison: up to 3, then only in threes
    ("poison", 0, 0, 0, 0, 0),
    ("poison", 0, 2, 2, 2, 2),
    ("poison", 2, 1, 3, 3, 3),
    ("poison", 2, 2, 3, 4, 3),
    ("poison", 3, 1, 3, 4, 3),
    ("poison", 3, 3, 6, 6, 6),
    ("poison", 6, 2, 6, 8, 6),
    ("poison", 5, 1, 6, 6, 6),
    # frost and burn: 1 to 3
    ("frost", 0, 1, 1, 1, 1),
    ("frost", 2, 1, 3, 3, 3),
    ("frost", 2, 5, 3, 3, 3),
    ("frost", 3, 1, 3, 3, 3),
    ("burn", 0, 2, 2, 2, 2),
    ("burn", 1, 2, 3, 3, 3),
    ("burn", 3, 3, 3, 3, 3),
    # flags: on, whatever is added
    ("blind", 0, 1, 1, 1, 1),
    ("blind", 1, 3, 1, 1, 1),
    ("fog", 0, 1, 1, 1, 1),
    ("silence", 1, 1, 1, 1, 1),
    ("stealth", 0, 2, 1, 1, 1),
    ("leech", 0, 1, 1, 1, 1),
    # levels: Regen X adds up; Fortify 1-4
    ("regen", 0, 2, 2, 2, 2),
    ("regen", 2, 1, 3, 3, 3),
    ("fortify", 0, 1, 1, 1, 1),
    ("fortify", 1, 2, 3, 3, 3),
    ("fortify", 3, 3, 4, 4, 4),
]


@pytest.mark.parametrize("name, before, added, drop, bank, bank_acting", STACKING)
def test_stacking(name, before, added, drop, bank, bank_acting):
    assert stack(name, before, added, "drop") == drop
    assert effective(name, drop) == drop, "under drop the stored count is always one that acts"
    assert stack(name, before, added, "bank") == bank
    assert effective(name, bank) == bank_acting


def test_every_status_has_a_stacking_case():
    assert {row[0] for row in STACKING} == set(STATUSES)


@pytest.mark.parametrize(
    "name, stored, removed, overflow, left",
    [
        ("bleed", 0, None, "drop", 0),
        ("bleed", 10, None, "drop", 0),
        ("bleed", 10, 5, "drop", 5),
        ("bleed", 10, 1, "drop", 5),  # 9 bleed is not a count bleed can have: it acts as 5
        ("bleed", 10, 1, "bank", 9),
        ("bleed", 3, 1, "drop", 2),
        ("poison", 6, 3, "drop", 3),
        ("poison", 2, 5, "drop", 0),
        ("exhaust", 3, 1, "drop", 2),
        ("frost", 2, 1, "drop", 1),
        ("blind", 1, 1, "drop", 0),
        ("regen", 3, 1, "drop", 2),
    ],
)
def test_removing_counters(name, stored, removed, overflow, left):
    assert reduce(name, stored, removed, overflow) == left


@pytest.mark.parametrize("level, bonus", [(0, 0), (1, 1), (2, 3), (3, 6), (4, 9)])
def test_fortify_bonus(level, bonus):
    assert statuses.fortify_bonus(level) == bonus


@pytest.mark.parametrize("count, penalty", [(0, 0), (1, 1), (2, 2), (3, None)])
def test_frost_penalty(count, penalty):
    assert statuses.frost_penalty(count) == penalty


@pytest.mark.parametrize(
    "count, effect", [(0, (0, "true", False)), (1, (1, "true", False)), (2, (2, "true", False)), (3, (4, "pure", True))]
)
def test_burn_effect(count, effect):
    assert statuses.burn_effect(count) == effect


@pytest.mark.parametrize("name", ["", "bleeding", "poisson"])
def test_unknown_status_names_are_refused(name):
    with pytest.raises(IllegalAction, match="no status"):
        find_status(name)


def test_status_names_are_case_insensitive():
    assert find_status(" Bleed ").name == "bleed"


def test_groups_match_the_rulebook():
    groups = {g: sorted(n for n, s in STATUSES.items() if s.group == g) for g in statuses.GROUPS}
    assert groups == {
        "physical": ["bleed", "blind", "exhaust", "poison"],
        "magical": ["burn", "fog", "frost", "silence", "stealth"],
        "beneficial": ["fortify", "leech", "regen"],
    }
