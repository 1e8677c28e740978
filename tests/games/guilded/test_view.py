"""The summary a screen renders: scores, who acts, the prompt and the documented detail."""

from __future__ import annotations

import json

import pytest

from companion.games import guilded
from companion.games.guilded import view
from tests.games.guilded.support import Table

DETAIL_KEYS = {"format", "stage", "turn", "phase", "phase_title", "phases", "allows", "turn_players", "players",
               "mercenaries", "pillars", "fog", "clock", "reminders", "loot_log", "status_rules", "open_fields"}
MERC_KEYS = {"id", "name", "owner", "health", "max_health", "base_health", "bounty", "armour", "magic_armour",
             "defence", "defence_ready", "melee", "ranged", "ranged_type", "move", "movement_left", "stars", "role",
             "tile", "statuses", "banked", "treasures", "exhausted", "blinded", "frozen", "attacked", "can_move",
             "can_attack", "lethal_range", "burn_due"}


@pytest.mark.parametrize(
    "setup, stage, to_act, words",
    [
        (lambda t: None, "roll", ["Ana", "Ben"], "Roll a d6"),
        (lambda t: t.do("roll", player="Ana", value=2), "roll", ["Ben"], "Ben to roll"),
        (lambda t: [t.do("roll", player="Ana", value=2), t.do("roll", player="Ben", value=4)], "first", ["Ben"],
         "Ben rolled highest"),
        (lambda t: t.start("Ben"), "play", ["Ben"], "Turn 1, Ben: Beginning phase"),
    ],
)
def test_prompts_through_setup(setup, stage, to_act, words):
    t = Table()
    setup(t)
    s = guilded.summary(t.state)
    assert t.state.stage == stage and list(s.to_act) == to_act and words in s.prompt


def test_detail_has_every_documented_key_and_is_json():
    t = Table(format="arena").start("Ana")
    t.do("add_status", target="m1", status="bleed", count=2)
    t.do("fog", tile={"side": "Ana", "row": 2, "col": 2})
    s = guilded.summary(t.state)
    assert set(s.detail) == DETAIL_KEYS
    assert all(set(m) == MERC_KEYS for m in s.detail["mercenaries"])
    assert len(s.detail["pillars"]) == 4 and s.detail["fog"] == [{"side": "Ana", "row": 2, "col": 2}]
    assert s.detail["mercenaries"][0]["statuses"] == {"bleed": 2}
    json.dumps(s.to_json())
    for key in DETAIL_KEYS:
        assert f"``{key}``" in view.__doc__, f"{key} is documented for screens"


def test_mercenary_view_in_the_attack_phase():
    t = Table().start("Ana")
    t.to("attack")
    a = t.put("Ana", melee=2, health=8)
    t.put("Ben")
    t.do("damage", target=a, amount=4, damage_type="pure")
    shown = view.merc_json(t.state, t.merc(a))
    assert shown["can_attack"] and not shown["can_move"] and shown["lethal_range"]
    t.do("attack", player="Ana", merc=a, target="m2")
    shown = view.merc_json(t.state, t.merc(a))
    assert not shown["can_attack"] and shown["exhausted"] and shown["statuses"] == {"exhaust": 1}
