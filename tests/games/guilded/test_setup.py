"""Before the first turn: deck building, the roll for first, pillars, Champions, mulligans."""

from __future__ import annotations

import pytest

from companion.games import guilded
from tests.games.guilded.support import Table, tile


@pytest.mark.parametrize(
    "rolls, winner, rerolls",
    [
        ([("Ana", 5), ("Ben", 3)], "Ana", 0),
        ([("Ana", 2), ("Ben", 6)], "Ben", 0),
        ([("Ana", 4), ("Ben", 4), ("Ana", 1), ("Ben", 3)], "Ben", 1),
        ([("Ana", 6), ("Ben", 6), ("Ana", 2), ("Ben", 2), ("Ana", 5), ("Ben", 1)], "Ana", 2),
    ],
)
def test_roll_off_highest_chooses_ties_reroll(rolls, winner, rerolls):
    t = Table()
    for player, value in rolls:
        t.do("roll", player=player, value=value)
    assert t.state.stage == "first" and t.state.players[t.state.roll_winner] == winner
    assert sum(e["type"] == "reroll" for e in t.events) == rerolls


def test_ties_reroll_only_among_the_tied():
    t = Table(("Ana", "Ben", "Cy"), format="guild_master")
    for player, value in (("Ana", 5), ("Ben", 5), ("Cy", 2)):
        t.do("roll", player=player, value=value)
    assert t.state.contenders == (0, 1)
    t.refused("roll", "not in this roll-off", player="Cy", value=6)
    t.do("roll", player="Ben", value=3)
    t.do("roll", player="Ana", value=1)
    assert t.state.players[t.state.roll_winner] == "Ben"


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"value": 7}, "at most 6"),
        ({"value": 0}, "at least 1"),
        ({"dice": [3, 4]}, "exactly one die"),
        ({"detections": {"dice": [{"value": 4, "unsure": True}]}}, "not sure"),
        ({"detections": {"dice": []}}, "sees 0 dice"),
        ({"detections": "4"}, "no dice list"),
    ],
)
def test_bad_rolls(fields, message):
    Table().refused("roll", message, player="Ana", **fields)


def test_camera_and_purser_rolls():
    t = Table(seed=3)
    t.do(
        "roll",
        player="Ana",
        detections={"dice": [{"value": 4, "box": [1, 2, 3, 4], "confidence": 0.9, "unsure": False}], "unsure": 0},
    )
    assert t.seat("Ana").roll == 4
    events = t.do("roll", player="Ben")
    rolled = events[0]
    assert rolled["player"] == "Ben" and 1 <= rolled["value"] <= 6 and "Purser's die" in rolled["text"]
    assert t.state.rng == 1
    again = Table(seed=3)
    for action in t.journal:
        again.do(action["type"], **{k: v for k, v in action.items() if k != "type"})
    assert again.state == t.state, "Purser's die comes from the seed"
    values = {Table(seed=s).do("roll", player="Ana")[0]["value"] for s in range(40)}
    assert values == {1, 2, 3, 4, 5, 6}


def test_only_the_winner_chooses_who_goes_first():
    t = Table()
    t.do("roll", player="Ana", value=1)
    t.do("roll", player="Ben", value=2)
    t.refused("go_first", "Ben rolled highest", player="Ana", first="Ana")
    t.do("go_first", player="Ben", first="Ana")
    assert t.state.stage == "hands"


@pytest.mark.parametrize("mulligans, allowed", [(0, 0), (1, 1), (2, 2)])
def test_mulligans_keep_the_deck_count(mulligans, allowed):
    t = Table(mulligans=mulligans)
    t.do("roll", player="Ana", value=6)
    t.do("roll", player="Ben", value=1)
    t.do("go_first", player="Ana", first="Ana")
    for _ in range(allowed):
        t.do("mulligan", player="Ana")
    t.refused("mulligan", "keep this hand", player="Ana")
    assert (t.seat("Ana").hand, t.seat("Ana").deck, t.seat("Ana").mulligans) == (7, 33, allowed)
    t.do("keep", player="Ana")
    t.refused("mulligan", "already kept", player="Ana")


def test_draft_builds_decks_first():
    t = Table(format="draft")
    assert "deck building" in guilded.summary(t.state).prompt.lower()
    t.refused("roll", "not the time", player="Ana", value=3)
    t.do("decks_ready")
    assert t.state.stage == "roll"
    t.refused("decks_ready", "already over")


def test_arena_pillars_alternate_from_the_roll_winner_then_champions():
    t = Table(format="arena")
    t.do("roll", player="Ana", value=2)
    t.do("roll", player="Ben", value=5)
    t.do("go_first", player="Ben", first="Ana")
    assert t.state.stage == "pillars"
    t.refused("pillar", "Ben places pillar 1", player="Ana", tile=tile("Ana", 3, 1))
    t.do("pillar", player="Ben", tile=tile("Ana", 3, 1))
    t.refused("pillar", "already stands", player="Ana", tile=tile("Ana", 3, 1))
    t.do("pillar", player="Ana", tile=tile("Ben", 3, 1))
    t.do("pillar", player="Ben", tile=tile("Ana", 2, 4))
    t.do("pillar", player="Ana", tile=tile("Ben", 2, 4))
    assert t.state.stage == "champions" and len(t.state.pillars) == 4
    t.refused("champion", "back 8 tiles|pillar", player="Ana", name="Champ", health=9, tile=tile("Ana", 2, 4))
    t.do("champion", player="Ana", name="Champ", health=9, melee=3, move=2, tile=tile("Ana", 1, 1))
    t.refused("champion", "already in play", player="Ana", name="Champ", health=9)
    t.do("champion", player="Ben", name="Brute", health=10, melee=2)
    assert t.state.stage == "hands"
    assert [m.role for m in t.state.mercs] == ["champion", "champion"]


def test_setup_actions_out_of_order_are_refused():
    t = Table()
    t.refused("go_first", "not being chosen", player="Ana", first="Ana")
    t.refused("keep", "after choosing", player="Ana")
    t.refused("pillar", "only before an Arena", player="Ana", tile=tile("Ana", 1, 1))
    t.refused("next_phase", "not started", player="Ana")
    t.refused("damage", "not started", target="m1", amount=1, damage_type="pure")
