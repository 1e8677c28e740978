"""The plain score-sheet games (Yahtzee, Yacht) as engines: random legal games end after
one turn per box, the totals add up, and the journal replays."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import find_game
from companion.games.scoresheet.sheet import UPPER
from companion.session.replay import replay


def dice_of(n):
    return st.one_of(st.lists(st.integers(1, 6), min_size=n, max_size=n), st.integers(1, 6).map(lambda f: [f] * n))


def hand_total(sheet, column):
    upper = sum(s for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section == UPPER)
    lower = sum(s for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section != UPPER)
    bonus = sheet.upper_bonus if sheet.upper_bonus and upper >= sheet.upper_bonus_at else 0
    return upper + bonus + lower + column.marks * sheet.extra_five_bonus


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    name=st.sampled_from(["yahtzee", "yacht"]),
    players=st.integers(1, 3),
    joker=st.sampled_from(["forced", "free", "none"]),
)
def test_random_legal_games_end_after_one_turn_per_box(data, name, players, joker):
    game = find_game(name)
    config = {"joker": joker} if name == "yahtzee" else {}
    names = ["Ana", "Ben", "Cy"][:players]
    state = game.initial_state(config, names, 5)
    journal, scored = [], dict.fromkeys(names, 0)
    while not state.over:
        action = dict(data.draw(st.sampled_from(game.legal_actions(state))))
        if action.pop("from", None) is not None:
            action["dice"] = data.draw(dice_of(5 - len(action.get("keep", []))))
        state, events = game.apply(state, action)
        journal.append(action)
        for e in events:
            if e["type"] == "scored":
                scored[e["player"]] += 1
    boxes = len(state.sheet.boxes)
    assert scored == dict.fromkeys(names, boxes)
    summary = game.summary(state)
    for player, column in zip(names, state.columns, strict=False):
        assert column.full and summary.scores[player] == hand_total(state.sheet, column)
    json.dumps(summary.to_json())
    assert replay(game, config, names, 5, journal)[0][-1] == state


@pytest.mark.parametrize("name, boxes", [("yahtzee", 13), ("yacht", 12)])
def test_registry_and_protocol(name, boxes):
    game = find_game(name)
    assert name == game.NAME and len(game.initial_state({}, ["Ana"], 1).sheet.boxes) == boxes
    assert '"type": "roll"' in game.ACTIONS_HELP
    assert game.legal_actions(game.initial_state({}, ["Ana"], 1)) == [
        {"type": "roll", "player": "Ana", "from": "camera"}
    ]


def test_camera_roll_with_unsure_dice_is_confirmed():
    game = find_game("yahtzee")
    state = game.initial_state({}, ["Ana"], 1)
    camera = {"dice": [{"value": v, "unsure": v == 6} for v in (1, 2, 3, 4, 6)], "unsure": 1}
    state, events = game.apply(state, {"type": "roll", "player": "Ana", "detections": camera})
    assert "confirm" in events[0]["text"] and game.options(state) == []
    assert game.legal_actions(state) == [{"type": "confirm", "player": "Ana", "dice": [1, 2, 3, 4, 6]}]
    state, _ = game.apply(state, {"type": "confirm", "player": "Ana", "dice": [1, 2, 3, 4, 5]})
    assert game.options(state)[0].box == "large_straight"
