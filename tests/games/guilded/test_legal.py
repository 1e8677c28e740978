"""Every action listed as legal is accepted exactly as it stands, at every stage and phase."""

from __future__ import annotations

import pytest

from companion.games import guilded
from companion.games.guilded.legal import OPEN_FIELDS
from companion.games.guilded.state import PHASES
from tests.games.guilded.support import Table, at


def all_accepted(t: Table) -> list[dict]:
    legal = guilded.legal_actions(t.state)
    for action in legal:
        assert all(v is not None for v in action.values()), action
        guilded.apply(t.state, action)  # raises IllegalAction if the list lies
    return legal


@pytest.mark.parametrize(
    "players, rules, steps",
    [
        (("Ana", "Ben"), {}, 0),
        (("Ana", "Ben"), {}, 1),
        (("Ana", "Ben"), {}, 2),
        (("Ana", "Ben"), {"format": "draft"}, 0),
        (("Ana", "Ben"), {"format": "arena"}, 2),
        (("Ana", "Ben"), {"format": "arena"}, 3),
        (("Ana", "Ben"), {"format": "arena"}, 7),
        (("Ana", "Ben", "Cy"), {"format": "guild_master"}, 1),
        (("Ana", "Ben"), {"deck_check": "required"}, 2),
    ],
)
def test_setup_stages(players, rules, steps):
    t = Table(players, **rules)
    if t.state.stage == "building":
        all_accepted(t)
        t.do("decks_ready")
    for _ in range(steps):
        legal = all_accepted(t)
        kinds = [a for a in legal if a["type"] not in ("deck", "concede", "mulligan")]
        t.do(kinds[0]["type"], **{k: v for k, v in kinds[0].items() if k != "type"})
    all_accepted(t)


@pytest.mark.parametrize("phase", PHASES)
def test_every_phase_with_mercenaries_on_both_sides(phase):
    t = at(phase)
    a = t.put("Ana", melee=2, ranged=1, move=2)
    b = t.put("Ben", health=9, defence=1)
    t.patch(a, tile=(1, 1, 1))
    t.do("add_status", target=b, status="bleed", count=2)
    t.do("damage", target=b, amount=2, damage_type="physical")
    t.state = t.state.with_seat(0, warchest=1)
    legal = all_accepted(t)
    assert {"type": "next_phase", "player": "Ana"} in legal


def test_blinded_attacker_lists_both_coin_results_when_the_table_flips():
    t = at("attack", coin_flips="table")
    a = t.put("Ana", melee=2)
    t.put("Ben")
    t.do("add_status", target=a, status="blind")
    legal = all_accepted(t)
    coins = {a.get("coin") for a in legal if a["type"] == "attack"}
    assert coins == {"won", "lost"}


def test_stealthed_targets_are_listed_as_untargeted_effects_only():
    t = at("attack")
    t.put("Ana", melee=2)
    hidden = t.put("Ben")
    t.do("add_status", target=hidden, status="stealth")
    legal = all_accepted(t)
    assert not [a for a in legal if a["type"] == "attack"]
    aimed = [a for a in legal if a["type"] in ("damage", "add_status") and a["target"] == hidden]
    assert aimed and all(a.get("untargeted") for a in aimed if a.get("status") not in ("regen", "fortify", "leech"))


def test_over_means_nothing_is_legal():
    t = Table().start("Ana")
    t.do("concede", player="Ben")
    assert guilded.legal_actions(t.state) == []


def test_open_fields_name_real_fields():
    for kind, fields in OPEN_FIELDS.items():
        assert kind in guilded.ACTIONS_HELP
        for field in fields:
            assert f'"{field}"' in guilded.ACTIONS_HELP, (kind, field)
