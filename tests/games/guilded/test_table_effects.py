"""Card effects entered by the table: damage, statuses, mend and cleanse, corrections."""

from __future__ import annotations

import pytest

from companion.games import guilded
from tests.games.guilded.support import Table


def table() -> tuple[Table, str]:
    t = Table().start("Ana")
    t.to("rally")
    return t, t.put("Ben", "Target", health=10, bounty=2)


def test_defence_is_one_use_until_restored():
    t, m = table()
    t.patch(m, defence=2)
    t.do("damage", target=m, amount=3, damage_type="physical")
    t.do("damage", target=m, amount=3, damage_type="physical")
    assert t.merc(m).health == 10 - 1 - 3 and not t.merc(m).defence_ready
    t.do("restore_defence", target=m)
    t.refused("restore_defence", "not spent", target=m)
    t.do("damage", target=m, amount=3, damage_type="magic")
    assert t.merc(m).health == 5


def test_poison_adds_to_every_hit_including_bleed():
    t, m = table()
    t.do("add_status", target=m, status="poison", count=2)
    t.do("damage", target=m, amount=1, damage_type="true")
    assert t.merc(m).health == 7
    t.do("add_status", target=m, status="bleed", count=1)
    t.to("end")
    assert t.merc(m).health == 4


def test_stack_limit_is_announced():
    t, m = table()
    t.do("add_status", target=m, status="bleed", count=4)
    events = t.do("add_status", target=m, status="bleed", count=3)
    assert t.status(m, "bleed") == 5
    assert events[-1]["type"] == "stack_limit" and "4 + 3 counts as 5" in events[-1]["text"]


def test_banked_counters_show_in_the_summary():
    t = Table(stack_overflow="bank").start("Ana")
    m = t.put("Ben", health=30)
    t.do("add_status", target=m, status="bleed", count=8)
    shown = t.summary().detail["mercenaries"][0]
    assert shown["statuses"]["bleed"] == 5 and shown["banked"] == {"bleed": 8}
    t.do("add_status", target=m, status="bleed", count=2)
    assert t.status(m, "bleed") == 10


@pytest.mark.parametrize(
    "verb, status, present, left",
    [
        ("mend", "bleed", {"bleed": 3, "poison": 2, "frost": 1}, {"poison": 2, "frost": 1}),
        ("mend", None, {"bleed": 3, "poison": 2, "exhaust": 1, "blind": 1, "frost": 1}, {"frost": 1}),
        ("cleanse", "frost", {"frost": 2, "burn": 1, "bleed": 1}, {"burn": 1, "bleed": 1}),
        ("cleanse", None, {"frost": 2, "burn": 1, "silence": 1, "stealth": 1, "fog": 1, "regen": 2}, {"regen": 2}),
    ],
)
def test_mend_and_cleanse(verb, status, present, left):
    t, m = table()
    for name, count in present.items():
        t.do("add_status", target=m, status=name, count=count, untargeted=True)
    fields = {"status": status} if status else {}
    events = t.do(verb, target=m, **fields)
    assert {k: t.status(m, k) for k in present if t.status(m, k)} == left
    done = {"mend": "is mended", "cleanse": "is cleansed"}[verb]
    assert done in events[0]["text"] and "mendd" not in events[0]["text"]


@pytest.mark.parametrize(
    "verb, status, message",
    [
        ("mend", "frost", "physical statuses; frost is magical"),
        ("cleanse", "bleed", "bleed is physical"),
        ("mend", None, "no physical status"),
        ("cleanse", None, "no magical status"),
    ],
)
def test_mend_and_cleanse_refusals(verb, status, message):
    t, m = table()
    fields = {"status": status} if status else {}
    t.refused(verb, message, target=m, **fields)


@pytest.mark.parametrize(
    "rule, levels, health_after",
    [
        # 10 health, fortify 3 (+6 = 16 of 16), 12 damage taken (4 left), then fortify removed
        ("cap", [3, 0], 4),
        ("remove_bonus", [3, 0], 0),
        # fortify 4 (19), 12 damage (7 left), lowered to 1 (max 11)
        ("cap", [4, 1], 7),
        ("remove_bonus", [4, 1], -1),
    ],
)
def test_fortify_raises_health_and_its_loss_follows_the_house_rule(rule, levels, health_after):
    t = Table(fortify_loss=rule).start("Ana")
    m = t.put("Ben", health=10)
    t.do("add_status", target=m, status="fortify", count=levels[0])
    assert t.merc(m).health == t.merc(m).max_health == 10 + (6 if levels[0] == 3 else 9)
    t.do("damage", target=m, amount=12, damage_type="pure")
    if levels[1]:
        t.do("remove_status", target=m, status="fortify", count=levels[0] - levels[1])
    else:
        t.do("remove_status", target=m, status="fortify")
    if health_after <= 0:
        assert not any(x.id == m for x in t.state.mercs)
        assert t.seat("Ben").vault == 30
    else:
        assert t.merc(m).health == health_after


def test_stealthed_targets_need_an_untargeted_effect():
    t, m = table()
    t.do("add_status", target=m, status="stealth")
    t.refused("damage", "untargeted", target=m, amount=2, damage_type="pure")
    t.refused("add_status", "untargeted", target=m, status="bleed")
    t.do("add_status", target=m, status="regen", count=1)
    t.do("damage", target=m, amount=2, damage_type="pure", untargeted=True)
    assert t.merc(m).health == 8


def test_damage_with_a_stealthed_source_is_true_damage():
    t, m = table()
    src = t.put("Ana", "Assassin")
    t.patch(m, armour=3)
    t.do("add_status", target=src, status="stealth")
    t.do("damage", target=m, amount=4, damage_type="physical", source=src)
    assert t.merc(m).health == 6 and t.status(src, "stealth") == 0


def test_destroy_effect_with_and_without_bounty():
    t, m = table()
    other = t.put("Ben", "Other", bounty=4)
    t.do("destroy", target=m, bounty=False)
    assert t.seat("Ben").vault == 30
    t.do("destroy", target=other)
    assert t.seat("Ben").vault == 26


def test_set_merc_corrections():
    t, m = table()
    t.do("set_merc", target=m, health=4, armour=2)
    assert (t.merc(m).health, t.merc(m).armour) == (4, 2)
    t.refused("set_merc", "above", target=m, health=11)
    t.refused("set_merc", "say what", target=m)
    t.do("set_merc", target=m, health=0)
    assert t.state.mercs == () and t.seat("Ben").vault == 28


def test_counts_draw_and_discard():
    t, _ = table()
    t.do("counts", player="Ben", hand=3, deck=10, warchest=2)
    t.do("draw", player="Ben", cards=2)
    assert (t.seat("Ben").hand, t.seat("Ben").deck) == (5, 8)
    t.refused("discard", "counts 5", player="Ben", cards=6)
    t.do("discard", player="Ben", cards=5)
    assert t.seat("Ben").hand == 0


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "damage", "target": "m9", "amount": 1, "damage_type": "pure"}, "no mercenary 'm9'"),
        ({"type": "damage", "target": "Target", "amount": 1, "damage_type": "fire"}, "fire"),
        ({"type": "damage", "target": "Target", "amount": -1, "damage_type": "pure"}, "at least 0"),
        ({"type": "damage", "target": 3, "amount": 1, "damage_type": "pure"}, "name the target"),
        ({"type": "add_status", "target": "Target", "status": "curse"}, "no status"),
        ({"type": "add_status", "target": "Target", "status": "bleed", "count": 0}, "at least 1"),
        ({"type": "remove_status", "target": "Target", "status": "bleed"}, "has no bleed"),
        ({"type": "loot", "player": "Ben", "amount": 0}, "not 0"),
        ({"type": "fog", "tile": {"side": "Zed", "row": 1, "col": 1}}, "nobody called"),
        ({"type": "fog", "tile": {"side": "Ana", "row": 1, "col": 5}}, "no col 5"),
        ({"type": "heal", "target": "Target"}, '"amount"'),
        ({"type": "clock"}, '"at"'),
        ({"type": "clock", "at": -5}, "time in seconds"),
        ({"type": "clock", "at": True}, "time in seconds"),
    ],
)
def test_malformed_effects_change_nothing(action, message):
    t, _ = table()
    t.refused(action.pop("type"), message, **action)


def test_two_mercenaries_with_one_name_need_ids():
    t, m = table()
    t.put("Ben", "Target")
    t.refused("damage", "more than one", target="Target", amount=1, damage_type="pure")
    t.do("damage", target=m, amount=1, damage_type="pure")
    assert t.merc(m).health == 9


@pytest.mark.parametrize(
    "status, first, message",
    [
        ("frost", 3, "already has 3 frost counters, the most there can be"),
        ("burn", 3, "already has 3 burn counters, the most there can be"),
        ("fortify", 4, "already has fortify 4, the highest level"),
        ("blind", 1, "is already blind"),
        ("silence", 1, "is already silenced"),
    ],
)
def test_a_status_that_cannot_grow_is_refused_not_saved_blank(status, first, message):
    t, m = table()
    t.do("add_status", target=m, status=status, count=first, untargeted=True)
    before = len(t.journal)
    t.refused("add_status", f"{message}: nothing changes", target=m, status=status, count=1, untargeted=True)
    assert len(t.journal) == before
    listed = [a for a in guilded.legal_actions(t.state) if a["type"] == "add_status" and a["target"] == m]
    assert status not in {a["status"] for a in listed}, "the table is not offered a change that changes nothing"


def test_bleed_past_five_is_explained_when_it_does_not_grow():
    t, m = table()
    t.do("add_status", target=m, status="bleed", count=5)
    events = t.do("add_status", target=m, status="bleed", count=1)
    assert [e["type"] for e in events] == ["stack_limit"] and "5 + 1 counts as 5" in events[0]["text"]
