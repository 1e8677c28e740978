"""Reading dice from actions: typed dice, camera detections, holds, confirmation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction
from companion.games.scoresheet import dice as dice_mod
from companion.games.scoresheet import turn as turn_mod
from companion.games.scoresheet.turn import Turn


def det(*values, unsure=()):
    return {
        "dice": [
            {"value": v, "box": [0, 0, 10, 10], "confidence": 0.9, "unsure": i in unsure} for i, v in enumerate(values)
        ],
        "unsure": len(unsure),
    }


def test_all_rolls_and_keeps():
    assert len(dice_mod.all_rolls()) == 252
    assert len(dice_mod.keeps([1, 2, 3, 4, 5])) == 31  # every subset but all five
    assert dice_mod.keeps([6, 6, 6, 6, 6]) == [(), (6,), (6, 6), (6, 6, 6), (6, 6, 6, 6)]
    assert dice_mod.keeps([]) == []


@pytest.mark.parametrize(
    "action, kept, thrown, dice",
    [
        ({"dice": [5, 1, 3, 3, 1]}, (), (5,), (1, 1, 3, 3, 5)),  # sorted
        ({"dice": [2, 6]}, (4, 4, 4), (2,), (2, 4, 4, 4, 6)),  # thrown dice only
        ({"dice": [4, 2, 4, 6, 4]}, (4, 4, 4), (2,), (2, 4, 4, 4, 6)),  # everything on the table
        ({"dice": [1, 2, 3, 4]}, (), (4, 5), (1, 2, 3, 4)),  # a cursed first roll may be 4 or 5
        ({"detections": det(6, 6, 1)}, (2, 2), (3,), (1, 2, 2, 6, 6)),
        ({"detections": det(6, 6, 1, 2, 2)}, (2, 2), (3,), (1, 2, 2, 6, 6)),
    ],
)
def test_sure_readings(action, kept, thrown, dice):
    assert dice_mod.read(action, kept, thrown).dice == dice


@pytest.mark.parametrize(
    "detections, kept, thrown, why",
    [
        (det(1, 2, 3, 4, 5, unsure=(2,)), (), (5,), "unsure of 1 die"),
        (det(1, 2, 3, 4, 5, unsure=(0, 1)), (), (5,), "unsure of 2 dice"),
        (det(1, 2, 3, 4), (), (5,), "saw 4 dice"),
        (det(1, 2, 3, 4, 5, 6), (), (5,), "saw 6 dice"),
        (det(3, 3, 3, 3, 3), (1, 1), (3,), "saw 5 dice"),  # the held 1s are not on the table
        (det(), (), (5,), "saw 0 dice"),
    ],
)
def test_unsure_or_miscounted_camera_readings_wait_for_confirmation(detections, kept, thrown, why):
    reading = dice_mod.read({"detections": detections}, kept, thrown)
    assert reading.dice is None and why in reading.why


@pytest.mark.parametrize(
    "action, message",
    [
        ({}, "needs the dice"),
        ({"dice": [1, 2, 3]}, "3 dice given"),
        ({"dice": [1, 2, 3, 4, 9]}, "1 to 6"),
        ({"dice": [1, 2, 3, 4, True]}, "1 to 6"),
        ({"dice": "12345"}, "must be a list"),
        ({"detections": {"dice": "lots"}}, "not readable"),
        ({"detections": {"dice": [{"value": 7}]}}, "not readable"),
        ({"detections": [1, 2]}, "not readable"),
    ],
)
def test_bad_dice_are_refused_in_words(action, message):
    with pytest.raises(IllegalAction, match=message):
        dice_mod.read(action, (), (5,))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(st.sampled_from(["dice", "value", "unsure", "x"]), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(payload=json_values, field=st.sampled_from(["dice", "detections"]))
def test_reading_never_crashes_on_arbitrary_json(payload, field):
    try:
        reading = dice_mod.read({field: payload}, (), (5,))
    except IllegalAction:
        return
    assert reading.dice is None or (len(reading.dice) == 5 and all(1 <= d <= 6 for d in reading.dice))


def test_a_pending_roll_is_confirmed_with_typed_dice():
    turn = turn_mod.throw(Turn(), {"detections": det(1, 2, 3, 4, 5, unsure=(4,))}, (), (5,))
    assert turn.rolls == 1 and turn.pending is not None and not turn.settled
    assert turn.pending.seen == (1, 2, 3, 4, 5)
    with pytest.raises(IllegalAction, match="4 dice given"):
        turn_mod.confirm(turn, {"dice": [1, 2, 3, 4]})
    with pytest.raises(IllegalAction, match="unsure"):
        turn_mod.confirm(turn, {"detections": det(1, 2, 3, 4, 5, unsure=(0,))})
    done = turn_mod.confirm(turn, {"dice": [1, 2, 3, 4, 6]})
    assert done.settled and done.dice == (1, 2, 3, 4, 6) and done.rolls == 1
    with pytest.raises(IllegalAction, match="no roll waiting"):
        turn_mod.confirm(done, {"dice": [1, 2, 3, 4, 6]})


@pytest.mark.parametrize(
    "keep, message",
    [
        ([6, 6, 6], "cannot hold 6 6 6"),
        ([1, 2, 3, 6, 6], "nothing to roll"),
        ("66", "must be a list"),
    ],
)
def test_bad_holds(keep, message):
    turn = Turn((1, 2, 3, 6, 6), 1)
    with pytest.raises(IllegalAction, match=message):
        turn_mod.parse_keep({"keep": keep}, turn)


def test_hold_may_be_called_keep_or_hold_but_not_both():
    turn = Turn((1, 2, 3, 6, 6), 1)
    assert turn_mod.parse_keep({"hold": [6, 6]}, turn) == (6, 6)
    assert turn_mod.parse_keep({"keep": []}, turn) == ()
    with pytest.raises(IllegalAction, match="once"):
        turn_mod.parse_keep({"hold": [6], "keep": [6]}, turn)
