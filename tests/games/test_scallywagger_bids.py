"""Scallywagger bids: raise legality under each reading, counting, and reading a reveal."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction
from companion.games.scallywagger.bids import (
    Bid,
    BidRules,
    Reveal,
    bid_words,
    legal_bids,
    matching,
    refusal,
    reveal_from_action,
)

DEFAULT = BidRules()
NO_LOWER = BidRules(raise_rule="no_lower_face")
NO_ONES = BidRules(ones_bids="never")
ACES = BidRules(ones_bids="aces", wild_ones=True)


def detections(values, unsure=()):
    return {
        "dice": [
            {
                "value": v,
                "box": [10.0 * i, 0.0, 9.0, 9.0],
                "confidence": 0.5 if i in unsure else 0.98,
                "unsure": i in unsure,
            }
            for i, v in enumerate(values)
        ],
        "unsure": len(unsure),
    }


@pytest.mark.parametrize(
    "rules, previous, bid, allowed",
    [
        # opening bids: anything from one die up to the dice on the table
        (DEFAULT, None, (1, 6), True),
        (DEFAULT, None, (3, 2), True),
        (DEFAULT, None, (20, 6), True),
        (DEFAULT, None, (21, 6), False),  # more than the dice on the table
        (DEFAULT, None, (0, 4), False),
        (DEFAULT, None, (3, 7), False),
        (DEFAULT, None, (3, 0), False),
        (DEFAULT, None, (2, 1), True),  # 1 is an ordinary (lowest) face
        # the rulebook's examples after "three 2s"
        (DEFAULT, (3, 2), (4, 2), True),
        (DEFAULT, (3, 2), (3, 5), True),
        (DEFAULT, (3, 2), (4, 5), True),
        (DEFAULT, (3, 2), (3, 2), False),  # the same bid raises nothing
        (DEFAULT, (3, 2), (2, 6), False),  # fewer dice, whatever the face
        (DEFAULT, (3, 2), (3, 1), False),  # same number on 1s: no variable raised
        (DEFAULT, (3, 2), (4, 1), True),  # more dice on 1s is a raise
        (DEFAULT, (3, 5), (4, 2), True),  # any_face: more dice may lower the face
        (DEFAULT, (3, 5), (3, 4), False),
        # no_lower_face: the face never goes down
        (NO_LOWER, (3, 5), (4, 2), False),
        (NO_LOWER, (3, 5), (4, 5), True),
        (NO_LOWER, (3, 5), (3, 6), True),
        (NO_LOWER, (3, 5), (4, 1), False),
        # ones_bids=never: no bid on 1s at all
        (NO_ONES, None, (2, 1), False),
        (NO_ONES, (3, 2), (5, 1), False),
        (NO_ONES, (3, 2), (4, 3), True),
        # aces (Perudo, wild 1s)
        (ACES, None, (2, 1), False),  # no opening on 1s
        (ACES, (5, 4), (3, 1), True),  # half, rounded up
        (ACES, (5, 4), (2, 1), False),
        (ACES, (6, 4), (3, 1), True),
        (ACES, (3, 1), (4, 1), True),
        (ACES, (3, 1), (3, 1), False),
        (ACES, (3, 1), (7, 4), True),  # twice plus one to leave 1s
        (ACES, (3, 1), (6, 6), False),
        (ACES, (3, 4), (3, 5), True),  # ordinary faces raise as usual
    ],
)
def test_raise_legality(rules, previous, bid, allowed):
    prev = Bid(0, *previous) if previous else None
    why = refusal(prev, bid[0], bid[1], 20, rules)
    assert (why is None) == allowed, why


@pytest.mark.parametrize(
    "previous, total, expected",
    [
        (None, 0, 0),  # no dice on the table: nothing to bid
        (None, 1, 6),  # one die: "one 1" to "one 6"
        (None, 20, 120),
        ((20, 6), 20, 0),  # the top bid cannot be raised: call or Parlay
        ((20, 5), 20, 1),
        ((3, 2), 20, 17 * 6 + 4),  # four to twenty of any face, or three 3s-6s
    ],
)
def test_number_of_legal_bids(previous, total, expected):
    prev = Bid(0, *previous) if previous else None
    bids = legal_bids(prev, total, DEFAULT)
    assert len(bids) == expected
    assert all(refusal(prev, q, f, total, DEFAULT) is None for q, f in bids)


@given(q1=st.integers(1, 12), f1=st.integers(1, 6), rules=st.sampled_from([DEFAULT, NO_LOWER, NO_ONES, ACES]))
@settings(max_examples=60, deadline=None)
def test_every_legal_bid_is_strictly_higher_and_never_fewer_dice(q1, f1, rules):
    prev = Bid(0, q1, f1)
    for q, f in legal_bids(prev, 12, rules):
        assert (q, f) != (q1, f1)
        if rules.ones_bids != "aces" or (f != 1 and f1 != 1):
            assert q > q1 or (q == q1 and f > f1)


@pytest.mark.parametrize(
    "dice, face, wild, expected",
    [
        ([], 4, False, 0),
        ([4, 4, 2, 6, 1], 4, False, 2),
        ([4, 4, 2, 6, 1], 4, True, 3),
        ([1, 1, 1], 1, True, 3),  # a bid on 1s counts only 1s, wild or not
        ([1, 1, 2], 2, True, 3),
        ([1, 1, 2], 2, False, 1),
    ],
)
def test_matching(dice, face, wild, expected):
    assert matching(dice, face, wild) == expected


@pytest.mark.parametrize("q, f, words", [(3, 2, "three 2s"), (1, 6, "one 6"), (14, 5, "14 5s"), (12, 1, "twelve 1s")])
def test_bid_words(q, f, words):
    assert bid_words(q, f) == words


# -- reading a reveal ------------------------------------------------------------------------


def test_reveal_from_camera_detections_keeps_unsure_dice_waiting():
    r = reveal_from_action({"type": "reveal", "detections": detections([4, 4, 2, 6, 1], unsure=(1, 3))}, 5, 4)
    assert r.dice == (4, 4, 2, 6, 1) and r.unsure == (1, 3) and r.source == "camera"
    r = r.confirm(1, 3)
    assert r.dice == (4, 3, 2, 6, 1) and r.unsure == (3,)
    r = r.confirm(3, 4)
    assert r.unsure == () and r.counted(4, False) == 2 and r.counted(4, True) == 3


@pytest.mark.parametrize(
    "index, value, message", [(0, 4, "not waiting"), (9, 4, "not waiting"), (1, 7, "1 to 6"), (1, 0, "1 to 6")]
)
def test_confirming_something_not_waiting_is_refused(index, value, message):
    r = reveal_from_action({"detections": detections([4, 4, 2], unsure=(1,))}, 3, 4)
    with pytest.raises(IllegalAction, match=message):
        r.confirm(index, value)


@pytest.mark.parametrize(
    ("seen", "unsure", "accepted"),
    [(4, (1, 2), True), (5, (1, 2), True), (6, (1, 2), False), (4, (), False), (3, (0,), True)],
)
def test_the_camera_may_see_more_dice_than_are_there_only_among_its_unsure_ones(seen, unsure, accepted):
    action = {"detections": detections([4] * seen, unsure=unsure)}
    if not accepted:
        with pytest.raises(IllegalAction, match=f"camera saw {seen} dice but 3 crewmates"):
            reveal_from_action(action, 3, 4)
        return
    r = reveal_from_action(action, 3, 4)
    assert r.surplus == seen - 3 and r.missing == 0
    assert r.settled is (not unsure)


@pytest.mark.parametrize(("seen", "unsure"), [(0, ()), (2, ()), (2, (0,))])
def test_dice_the_camera_missed_are_added_by_the_players(seen, unsure):
    r = reveal_from_action({"detections": detections([4] * seen, unsure=unsure)}, 3, 4)
    assert r.missing == 3 - seen and r.surplus == 0 and not r.settled
    assert not r.may_drop
    with pytest.raises(IllegalAction, match="1 to 6, not 7"):
        r.add(7)
    for _ in range(3 - seen):
        r = r.add(1)
    assert r.missing == 0 and r.dice == (4,) * seen + (1,) * (3 - seen) and r.settled is (not unsure)
    with pytest.raises(IllegalAction, match="no die is missing"):
        r.add(4)
    assert r.counted(4, False) == seen and r.counted(4, True) == 3


def test_typed_dice_are_never_short():
    with pytest.raises(IllegalAction, match="list has 2 dice but 3 crewmates"):
        reveal_from_action({"dice": [4, 4]}, 3, 4)
    with pytest.raises(IllegalAction, match="no die is missing"):
        reveal_from_action({"dice": [4, 4, 4]}, 3, 4).add(4)


def test_dropped_spots_do_not_count():
    r = reveal_from_action({"detections": detections([4, 1, 4, 4], unsure=(2, 3))}, 3, 4)
    r = r.drop(3)
    assert r.surplus == 0 and r.unsure == (2,) and r.dropped == (3,)
    with pytest.raises(IllegalAction, match="is a die: say what it shows"):
        r.drop(2)
    r = r.confirm(2, 4)
    assert r.kept() == (4, 1, 4) and r.counted(4, False) == 2 and r.counted(4, True) == 3


def test_typed_dice_and_count():
    assert reveal_from_action({"dice": [2, 2, 5]}, 3, 2).counted(2, False) == 2
    r = reveal_from_action({"count": 0}, 3, 2)
    assert r.dice is None and r.counted(2, True) == 0 and r.source == "count"
    assert reveal_from_action({"dice": []}, 0, 2) == Reveal(dice=(), unsure=(), count=None, source="dice")


@pytest.mark.parametrize(
    "action, message",
    [
        ({}, "exactly one of"),
        ({"count": 2, "dice": [1, 2, 3]}, "exactly one of"),
        ({"count": 4}, "0 to 3"),
        ({"count": -1}, "0 to 3"),
        ({"count": "two"}, "whole number"),
        ({"count": True}, "whole number"),
        ({"dice": [1, 2]}, "list has 2 dice but 3 crewmates"),
        ({"dice": [1, 2, 7]}, "1 to 6"),
        ({"dice": "123"}, "list of faces"),
        ({"dice": [1, 2, 2.5]}, "whole number"),
        ({"detections": detections([4, 4, 4, 4])}, "camera saw 4 dice but 3 crewmates .* sure of 4"),
        ({"detections": {"dice": "lots"}}, "dice reader"),
        ({"detections": [4, 4, 4]}, "dice reader"),
        ({"detections": {"dice": [{"value": 4}, {"value": 4}, {"unsure": True}]}}, "dice reader"),
        ({"detections": {"dice": [{"value": 4, "unsure": "maybe"}] * 3}}, "dice reader"),
        ({"detections": {"dice": [{"value": 9}] * 3}}, "1 to 6"),
    ],
)
def test_bad_reveals_are_refused_with_a_reason(action, message):
    with pytest.raises(IllegalAction, match=message):
        reveal_from_action(action, 3, 4)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.dictionaries(st.sampled_from(["dice", "value", "unsure", "count", "x"]), inner, max_size=4)
        ),
        max_leaves=12,
    )
)
@settings(max_examples=150, deadline=None)
def test_reveal_reader_never_crashes_on_arbitrary_json(data):
    for key in ("detections", "dice", "count"):
        with contextlib.suppress(IllegalAction):
            reveal_from_action({key: data}, 3, 4)
