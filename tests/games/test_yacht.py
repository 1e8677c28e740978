"""Yacht (the classic game): every box, no bonus, a whole game."""

from __future__ import annotations

import pytest

from companion.games import find_game
from companion.games.scoresheet import Column, counts, options, sheet, tally

KEYS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "full_house",
    "four_kind",
    "little_straight",
    "big_straight",
    "choice",
    "yacht",
)
YACHT = find_game("yacht")


def row(dice):
    c = counts(dice)
    return {b.key: b.points(c) for b in sheet("yacht").boxes}


def expect(**nonzero):
    base = dict.fromkeys(KEYS, 0)
    base.update(nonzero)
    return base


def test_twelve_boxes_in_order():
    assert sheet("yacht").keys == KEYS


@pytest.mark.parametrize(
    "dice, expected",
    [
        ([2, 2, 2, 5, 5], expect(twos=6, fives=10, full_house=16, choice=16)),  # Full House scores the sum
        ([5, 5, 5, 5, 2], expect(twos=2, fives=20, four_kind=20, choice=22)),  # only the four matching dice
        ([1, 2, 3, 4, 5], expect(ones=1, twos=2, threes=3, fours=4, fives=5, little_straight=30, choice=15)),
        ([2, 3, 4, 5, 6], expect(twos=2, threes=3, fours=4, fives=5, sixes=6, big_straight=30, choice=20)),
        ([1, 2, 3, 4, 6], expect(ones=1, twos=2, threes=3, fours=4, sixes=6, choice=16)),  # no straight
        ([1, 2, 3, 4, 4], expect(ones=1, twos=2, threes=3, fours=8, choice=14)),  # no small straight here
        ([3, 3, 3, 1, 1], expect(ones=2, threes=9, full_house=11, choice=11)),
    ],
)
def test_every_box(dice, expected):
    assert row(dice) == expected


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_five_of_a_kind_in_every_box(face):
    faces = dict.fromkeys(KEYS[:6], 0)
    faces[KEYS[face - 1]] = 5 * face
    # Four of a Kind takes the four matching dice; five alike is not a Full House
    assert row([face] * 5) == expect(**faces, four_kind=4 * face, choice=5 * face, yacht=50)


def test_no_bonus_for_a_high_upper_section():
    s = sheet("yacht")
    column = Column.empty(s)
    for i, points in enumerate((5, 10, 15, 20, 25, 30)):
        column = column.fill(i, points)
    t = tally(s, column)
    assert (t.upper, t.upper_bonus, t.total) == (105, 0, 105)


def test_a_later_yacht_has_no_bonus_and_no_joker():
    s = sheet("yacht")
    column = Column.empty(s).fill(s.index("yacht"), 50)
    found = {o.box: o for o in options(s, [column], [3] * 5)}
    assert found["threes"].points == 15 and found["threes"].bonus == 0
    assert found["big_straight"].points == 0


def test_a_whole_game_is_twelve_turns_each():
    st = YACHT.initial_state({}, ["Ana", "Ben"], 3)
    turns = 0
    while not st.over:
        player = st.players[st.current]
        st, _ = YACHT.apply(st, {"type": "roll", "player": player, "dice": [2, 3, 4, 5, 6]})
        choice = YACHT.options(st)[0]
        st, _ = YACHT.apply(st, {"type": "score", "player": player, "box": choice.box})
        turns += 1
    assert turns == 24
    s = YACHT.summary(st)
    # each: Big Straight 30, Choice 20, then the faces 6, 5, 4, 3, 2, then zeros
    assert s.scores == {"Ana": 30 + 20 + 6 + 5 + 4 + 3 + 2, "Ben": 30 + 20 + 6 + 5 + 4 + 3 + 2}
    assert s.over and s.winners == ("Ana", "Ben")
