"""The summary a screen renders: scores, who acts, the prompt and the documented detail."""

from __future__ import annotations

import json

import pytest

from companion.games import IllegalAction, guilded
from companion.games.guilded import view
from companion.games.guilded.legal import OPEN_FIELDS
from tests.games.guilded.support import Table

DETAIL_KEYS = {"format", "stage", "turn", "phase", "phase_title", "phases", "allows", "turn_players", "players",
               "mercenaries", "pillars", "fog", "clock", "reminders", "loot_log", "status_rules", "open_fields",
               "forms"}
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


# -- forms: how a screen asks for the open fields -------------------------------------------------


def _form_states() -> list[Table]:
    """Matches where every action type with a form is listed."""
    rally = Table().start("Ana")
    rally.to("rally")
    rally.do("play_merc", player="Ana", name="Deckhand", health=6, bounty=2)
    rally.state = rally.state.with_seat(0, warchest=1)  # a treasure played earlier: equip is listed
    arena = Table(format="arena")
    arena.do("roll", player="Ana", value=6)
    arena.do("roll", player="Ben", value=1)
    arena.do("go_first", player="Ana", first="Ana")
    for n, spot in enumerate(((3, 1), (3, 1), (3, 4), (3, 4))):
        placer = ("Ana", "Ben")[n % 2]
        arena.do("pillar", player=placer, tile={"side": placer, "row": spot[0], "col": spot[1]})
    return [rally, arena]


def _set(action: dict, field: str, value) -> dict:
    """``action`` with the (maybe dotted) ``field`` set to ``value``."""
    out = json.loads(json.dumps(action))
    *outer, last = field.split(".")
    holder = out
    for part in outer:
        holder = holder.setdefault(part, {})
    holder[last] = value
    return out


def _listed_with_forms() -> list[tuple[str, dict, dict, Table]]:
    """(action type:field, a listed action of that type, the field's form entry, its match), once each."""
    found: dict[str, tuple[str, dict, dict, Table]] = {}
    for t in _form_states():
        for action in guilded.legal_actions(t.state):
            for spec in view.FORMS.get(action["type"], ()):
                key = f"{action['type']}:{spec['field']}"
                present = spec.get("extra") or _has(action, spec["field"])
                if present and key not in found:
                    found[key] = (key, action, spec, t)
    return list(found.values())


def _has(action: dict, field: str) -> bool:
    holder = action
    for part in field.split("."):
        if not isinstance(holder, dict) or part not in holder:
            return False
        holder = holder[part]
    return True


def test_every_form_field_is_an_open_field_and_every_form_is_reachable():
    for kind, fields in view.FORMS.items():
        for spec in fields:
            assert spec["field"].split(".")[0] in OPEN_FIELDS[kind], (kind, spec)
            assert spec["kind"] in ("number", "text", "choice")
    reached = {key.split(":")[0] for key, *_ in _listed_with_forms()}
    assert reached == set(view.FORMS)
    assert guilded.summary(Table().state).detail["forms"] == {k: list(v) for k, v in view.FORMS.items()}


@pytest.mark.parametrize("action, spec, t", [pytest.param(*rest, id=key) for key, *rest in _listed_with_forms()])
def test_a_form_field_s_bounds_and_choices_are_the_engine_s(action, spec, t):
    if spec["kind"] == "number":
        for outside in (spec["low"] - 1, spec["high"] + 1):
            with pytest.raises(IllegalAction, match=f"{spec['field'].split('.')[-1]}.*must be at"):
                guilded.apply(t.state, _set(action, spec["field"], outside))
        for inside in (spec["low"], spec["high"], spec.get("default", spec["low"])):
            try:
                guilded.apply(t.state, _set(action, spec["field"], inside))
            except IllegalAction as exc:  # refused for another reason (a hand too small), never the range
                assert "must be at" not in str(exc), exc
    elif spec["kind"] == "choice":
        assert spec["default"] in spec["choices"]
        for choice in spec["choices"]:
            guilded.apply(t.state, _set(action, spec["field"], choice))
        with pytest.raises(IllegalAction):
            guilded.apply(t.state, _set(action, spec["field"], "catapult"))
    else:
        guilded.apply(t.state, _set(action, spec["field"], "Sea Witch"))
        with pytest.raises(IllegalAction, match="blank"):
            guilded.apply(t.state, _set(action, spec["field"], "  "))
    if spec.get("extra"):
        assert not _has(action, spec["field"]), "an extra field is one the listed action leaves out"
        assert guilded.apply(t.state, action)[0] == guilded.apply(t.state, _set(action, spec["field"],
                                                                                 spec["default"]))[0]
