"""The summary a screen renders: scores, who acts, the prompt and the documented detail."""

from __future__ import annotations

import json

import pytest

from companion.games import IllegalAction, guilded
from companion.games.guilded import view
from companion.games.guilded.legal import OPEN_FIELDS
from tests.games.guilded.support import Table, tile

DETAIL_KEYS = {
    "format",
    "stage",
    "turn",
    "phase",
    "phase_title",
    "phases",
    "allows",
    "turn_players",
    "players",
    "mercenaries",
    "pillars",
    "fog",
    "battlefield",
    "tile_choices",
    "clock",
    "reminders",
    "loot_log",
    "status_rules",
    "open_fields",
    "forms",
}
MERC_KEYS = {
    "id",
    "name",
    "owner",
    "health",
    "max_health",
    "base_health",
    "bounty",
    "armour",
    "magic_armour",
    "defence",
    "defence_ready",
    "melee",
    "ranged",
    "ranged_type",
    "move",
    "movement_left",
    "stars",
    "role",
    "tile",
    "statuses",
    "banked",
    "treasures",
    "exhausted",
    "blinded",
    "frozen",
    "attacked",
    "can_move",
    "can_attack",
    "lethal_range",
    "burn_due",
}


@pytest.mark.parametrize(
    "setup, stage, to_act, words",
    [
        (lambda t: None, "roll", ["Ana", "Ben"], "Roll a d6"),
        (lambda t: t.do("roll", player="Ana", value=2), "roll", ["Ben"], "Ben to roll"),
        (
            lambda t: [t.do("roll", player="Ana", value=2), t.do("roll", player="Ben", value=4)],
            "first",
            ["Ben"],
            "Ben rolled highest",
        ),
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
        assert (
            guilded.apply(t.state, action)[0] == guilded.apply(t.state, _set(action, spec["field"], spec["default"]))[0]
        )


# -- the battlefield: which tiles the table may pick ------------------------------------------------


def _every_tile(t: Table) -> list[dict]:
    return [tile(p, r, c) for p in t.players for r in (1, 2, 3) for c in (1, 2, 3, 4)]


def _listed_for(t: Table, choice: dict) -> list[dict]:
    """The listed actions a tile choice completes (same type, player and mercenary)."""
    same = [
        a
        for a in guilded.legal_actions(t.state)
        if a["type"] == choice["type"] and all(a.get(k) == choice[k] for k in ("player", "merc") if k in choice)
    ]
    # a move is listed by spaces; the tile replaces them
    return [{k: v for k, v in a.items() if k not in ("spaces", "tile")} for a in same]


def _rally_with_neighbours() -> Table:
    """Ana's Rally: her own mercenary on row 1, Ben's on her row 2 (upstaged if played onto), one
    of Ben's on her row 1 whose space behind is taken (cannot be upstaged)."""
    t = Table().start("Ana")
    t.to("rally")
    mine = t.put("Ana")
    t.patch(mine, tile=(0, 1, 1))
    for spot in ((0, 2, 2), (0, 1, 3), (0, 2, 3)):
        t.patch(t.put("Ben"), tile=spot)
    return t


def _movement(**rules) -> Table:
    """Ana's First Movement: a mover with 2 on her row 2, an enemy in the way, a pillar in Arena."""
    t = Table(**rules).start("Ana")
    t.to("first_movement")
    mover = t.put("Ana", move=2)
    t.patch(mover, tile=(0, 2, 2))
    t.patch(t.put("Ben"), tile=(0, 3, 2))
    return t


def _arena_pillars() -> Table:
    t = Table(format="arena")
    t.do("roll", player="Ana", value=6)
    t.do("roll", player="Ben", value=1)
    t.do("go_first", player="Ana", first="Ana")
    t.do("pillar", player="Ana", tile=tile("Ben", 3, 2))
    return t


def _arena_champions() -> Table:
    """Arena Champions: a pillar on Ana's row 2, where her Champion cannot enter."""
    t = _arena_pillars()
    for placer, spot in (("Ben", tile("Ana", 2, 2)), ("Ana", tile("Ben", 3, 4)), ("Ben", tile("Ana", 3, 4))):
        t.do("pillar", player=placer, tile=spot)
    assert t.state.stage == "champions"
    return t


TILE_STATES = {
    "rally with upstaging": _rally_with_neighbours,
    "first movement": _movement,
    "arena movement": lambda: _movement(format="arena"),
    "arena pillars": _arena_pillars,
    "arena champions": _arena_champions,
}


@pytest.mark.parametrize("make", list(TILE_STATES.values()), ids=list(TILE_STATES))
def test_every_tile_choice_is_accepted_and_every_other_tile_refused(make):
    t = make()
    choices = guilded.summary(t.state).detail["tile_choices"]
    assert choices, "something on the battlefield to pick"
    for choice in choices:
        listed = _listed_for(t, choice)
        assert listed, f"{choice['type']} is listed when its tiles are offered"
        offered = choice["tiles"]
        by_tile = [
            a["tile"]
            for a in guilded.legal_actions(t.state)
            if a["type"] == choice["type"] and a.get("player") == choice.get("player") and "tile" in a
        ]
        for spot in _every_tile(t):
            action = {**listed[0], choice["field"]: spot}
            if spot in offered:
                guilded.apply(t.state, action)  # accepted as it stands
            elif by_tile:  # listed tile by tile (a fog may cover a pillar, but is not offered there)
                assert spot not in by_tile
            else:
                with pytest.raises(IllegalAction):
                    guilded.apply(t.state, action)
        assert not by_tile or sorted(map(str, by_tile)) == sorted(map(str, offered))


def test_tile_choices_name_the_tiles_players_expect():
    t = _rally_with_neighbours()
    (play,) = [c for c in t.summary().detail["tile_choices"] if c["type"] == "play_merc"]
    # her rows 1-2 but her own mercenary's tile and the enemy whose space behind is taken; the enemies
    # on row 2 can be upstaged onto the free row 3 behind them
    assert play["player"] == "Ana" and play["field"] == "tile"
    assert sorted((s["row"], s["col"]) for s in play["tiles"]) == [(1, 2), (1, 4), (2, 1), (2, 2), (2, 3), (2, 4)]
    assert all(s["side"] == "Ana" for s in play["tiles"])
    m = _movement()
    (move,) = [c for c in m.summary().detail["tile_choices"] if c["type"] == "move"]
    assert move["merc"] == "m1" and move["field"] == "to"
    spots = {(s["side"], s["row"], s["col"]) for s in move["tiles"]}
    assert ("Ana", 3, 2) not in spots and ("Ana", 2, 2) not in spots  # taken, or where it stands
    assert ("Ana", 1, 2) in spots and ("Ana", 2, 4) in spots and ("Ben", 3, 3) in spots  # 1 and 2 away
    assert ("Ben", 2, 3) not in spots and ("Ana", 2, 1) in spots  # 3 away; 1 away


@pytest.mark.parametrize(
    "make, kinds",
    [
        (Table, set()),  # the roll: nothing on the battlefield to pick
        (lambda: Table().start("Ana"), {"fog"}),  # the Beginning phase: only a card's fog
        (_arena_pillars, {"pillar"}),
    ],
)
def test_which_kinds_offer_tiles(make, kinds):
    detail = guilded.summary(make().state).detail
    assert {c["type"] for c in detail["tile_choices"]} == kinds
    assert detail["battlefield"] == {"rows": 3, "cols": 4, "guild_hall_row": 1, "rally_rows": [1, 2], "facing": True}
