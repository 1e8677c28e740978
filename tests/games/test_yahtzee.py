"""Yahtzee: every box, the upper bonus, the Yahtzee bonus and the joker rule (forced, free, none)."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction, find_game
from companion.games.scoresheet import Column, counts, options, sheet, tally

KEYS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_kind",
    "four_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
YAHTZEE = find_game("yahtzee")


def row(dice, sheet_=None):
    s = sheet_ or sheet("yahtzee")
    c = counts(dice)
    return {b.key: b.points(c) for b in s.boxes}


def expect(**nonzero):
    base = dict.fromkeys(KEYS, 0)
    base.update(nonzero)
    return base


def column_with(s, **filled):
    column = Column.empty(s)
    for key, points in filled.items():
        column = column.fill(s.index(key), points)
    return column


def test_sheet_order_and_sections():
    s = sheet("yahtzee")
    assert s.keys == KEYS
    assert s.box("ones").label == "Aces"
    assert [b.section for b in s.boxes] == ["upper"] * 6 + ["lower"] * 7


@pytest.mark.parametrize(
    "dice, expected",
    [
        ([2, 2, 2, 5, 5], expect(twos=6, fives=10, three_kind=16, full_house=25, chance=16)),  # FH is also 3K
        ([1, 2, 3, 4, 4], expect(ones=1, twos=2, threes=3, fours=8, small_straight=30, chance=14)),
        ([3, 4, 5, 6, 6], expect(threes=3, fours=4, fives=5, sixes=12, small_straight=30, chance=24)),
        ([1, 3, 4, 5, 6], expect(ones=1, threes=3, fours=4, fives=5, sixes=6, small_straight=30, chance=19)),
        (
            [1, 2, 3, 4, 5],
            expect(ones=1, twos=2, threes=3, fours=4, fives=5, small_straight=30, large_straight=40, chance=15),
        ),
        (
            [2, 3, 4, 5, 6],
            expect(twos=2, threes=3, fours=4, fives=5, sixes=6, small_straight=30, large_straight=40, chance=20),
        ),
        ([6, 6, 6, 6, 1], expect(ones=1, sixes=24, three_kind=25, four_kind=25, chance=25)),
        ([1, 1, 1, 2, 3], expect(ones=3, twos=2, threes=3, three_kind=8, chance=8)),
        ([1, 2, 4, 5, 6], expect(ones=1, twos=2, fours=4, fives=5, sixes=6, chance=18)),
    ],
)
def test_every_box(dice, expected):
    assert row(dice) == expected


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_five_of_a_kind_in_every_box_without_joker(face):
    faces = dict.fromkeys(KEYS[:6], 0)
    faces[KEYS[face - 1]] = 5 * face
    assert row([face] * 5) == expect(**faces, three_kind=5 * face, four_kind=5 * face, yahtzee=50, chance=5 * face)


@pytest.mark.parametrize("subtotal, bonus", [(0, 0), (62, 0), (63, 35), (64, 35)])
def test_upper_bonus_at_63(subtotal, bonus):
    s = sheet("yahtzee")
    # build the subtotal from legal box values
    values = {62: (2, 6, 9, 12, 15, 18), 63: (3, 6, 9, 12, 15, 18), 64: (4, 6, 9, 12, 15, 18), 0: ()}[subtotal]
    column = column_with(s, **dict(zip(KEYS, values, strict=False)))
    t = tally(s, column)
    assert (t.upper, t.upper_bonus) == (subtotal, bonus)


def opts(s, column, dice):
    return {(o.box, o.points, o.how, o.bonus) for o in options(s, [column], dice)}


def test_an_empty_sheet_offers_every_box_zeros_included():
    s = sheet("yahtzee")
    found = options(s, [Column.empty(s)], [2, 2, 2, 5, 5])
    assert len(found) == 13
    assert [(o.box, o.points) for o in found[:3]] == [("full_house", 25), ("three_kind", 16), ("chance", 16)]
    assert {o.box for o in found if o.scuttle} == {
        "ones",
        "threes",
        "fours",
        "sixes",
        "four_kind",
        "small_straight",
        "large_straight",
        "yahtzee",
    }


def test_first_yahtzee_goes_in_the_yahtzee_box_with_no_joker_values():
    s = sheet("yahtzee")
    found = {o.box: o for o in options(s, [Column.empty(s)], [4] * 5)}
    assert found["yahtzee"].points == 50 and found["yahtzee"].bonus == 0
    assert found["full_house"].points == 0 and found["full_house"].scuttle
    assert found["large_straight"].points == 0


def test_forced_joker_upper_box_open_is_the_only_choice():
    s = sheet("yahtzee")
    column = column_with(s, yahtzee=50)
    assert opts(s, column, [4] * 5) == {("fours", 20, "score", 100)}


def test_forced_joker_upper_box_filled_any_lower_box_at_full_value():
    s = sheet("yahtzee")
    column = column_with(s, yahtzee=50, fours=12, chance=22)
    assert opts(s, column, [4] * 5) == {
        ("three_kind", 20, "score", 100),
        ("four_kind", 20, "score", 100),
        ("full_house", 25, "joker", 100),
        ("small_straight", 30, "joker", 100),
        ("large_straight", 40, "joker", 100),
    }


def test_forced_joker_after_a_scratched_yahtzee_box_has_no_bonus():
    s = sheet("yahtzee")
    column = column_with(s, yahtzee=0, fours=12)
    found = opts(s, column, [4] * 5)
    assert ("full_house", 25, "joker", 0) in found
    assert all(bonus == 0 for *_, bonus in found)


def test_forced_joker_with_every_lower_box_filled_takes_a_zero_above():
    s = sheet("yahtzee")
    column = column_with(
        s,
        yahtzee=50,
        fours=12,
        three_kind=1,
        four_kind=1,
        full_house=25,
        small_straight=30,
        large_straight=40,
        chance=20,
    )
    assert opts(s, column, [4] * 5) == {(k, 0, "zero", 100) for k in ("ones", "twos", "threes", "fives", "sixes")}


def test_free_joker_any_open_box_full_values_once_its_upper_box_is_filled():
    s = sheet("yahtzee", {"joker": "free"})
    column = column_with(s, yahtzee=50, chance=22)
    found = opts(s, column, [4] * 5)
    assert len(found) == 11  # every open box
    assert ("fours", 20, "score", 100) in found and ("sixes", 0, "zero", 100) in found
    assert ("large_straight", 0, "zero", 100) in found  # Fours still open: no joker values
    found = opts(s, column_with(s, yahtzee=50, chance=22, fours=8), [4] * 5)
    assert ("large_straight", 40, "joker", 100) in found and ("full_house", 25, "joker", 100) in found
    assert ("sixes", 0, "zero", 100) in found and len(found) == 10


def test_no_joker_keeps_the_bonus_but_not_the_full_values():
    s = sheet("yahtzee", {"joker": "none"})
    column = column_with(s, yahtzee=50)
    found = {o.box: o for o in options(s, [column], [4] * 5)}
    assert found["full_house"].points == 0 and found["full_house"].bonus == 100
    assert found["fours"].points == 20 and len(found) == 12


def test_yahtzee_bonus_can_be_turned_off():
    s = sheet("yahtzee", {"joker": "none", "yahtzee_bonus": 0})
    column = column_with(s, yahtzee=50)
    assert all(o.bonus == 0 for o in options(s, [column], [4] * 5))


def test_a_game_with_a_bonus_yahtzee_and_a_joker():
    st = YAHTZEE.initial_state({}, ["Ana"], 1)
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "dice": [5, 5, 5, 5, 5]})
    st, _ = YAHTZEE.apply(st, {"type": "score", "player": "Ana", "box": "yahtzee"})
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "dice": [5, 5, 5, 2, 1]})
    st, _ = YAHTZEE.apply(st, {"type": "score", "player": "Ana", "box": "fives"})
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "dice": [5, 5, 5, 5, 5]})
    with pytest.raises(IllegalAction, match="allowed"):
        YAHTZEE.apply(st, {"type": "score", "player": "Ana", "box": "sixes"})  # forced: lower box
    st, events = YAHTZEE.apply(st, {"type": "score", "player": "Ana", "box": "large straight"})
    assert events[0]["points"] == 40 and events[0]["bonus"] == 100
    s = YAHTZEE.summary(st)
    assert s.scores == {"Ana": 50 + 15 + 40 + 100}
    assert s.detail["sheets"]["Ana"]["marks"] == 1


def test_a_whole_game_takes_thirteen_turns_and_ends():
    st = YAHTZEE.initial_state({}, ["Ana", "Ben"], 1)
    for turn in range(26):
        player = ("Ana", "Ben")[turn % 2]
        st, _ = YAHTZEE.apply(st, {"type": "roll", "player": player, "dice": [1, 1, 1, 1, 1]})
        box = YAHTZEE.legal_actions(st)[-1]["box"]  # the worst option listed
        st, events = YAHTZEE.apply(st, {"type": "score", "player": player, "box": box})
    assert st.over and events[-1]["type"] == "game_over"
    assert YAHTZEE.legal_actions(st) == []
    with pytest.raises(IllegalAction, match="over"):
        YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "dice": [1, 2, 3, 4, 5]})


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "score", "player": "Ana", "box": "chance"}, "roll before"),
        ({"type": "roll", "player": "Ben", "dice": [1, 2, 3, 4, 5]}, "Ana's turn"),
        ({"type": "roll", "player": "Ana", "dice": [1, 2, 3, 4]}, "4 dice given"),
        ({"type": "roll", "player": "Ana", "dice": [1, 2, 3, 4, 7]}, "1 to 6"),
        ({"type": "roll", "player": "Ana", "keep": [1], "dice": [1, 2, 3, 4]}, "before the first roll"),
        ({"type": "roll", "player": "Ana"}, "needs the dice"),
        ({"type": "bet", "player": "Ana"}, "no 'bet' action"),
    ],
)
def test_bad_actions_are_refused(action, message):
    st = YAHTZEE.initial_state({}, ["Ana", "Ben"], 1)
    with pytest.raises(IllegalAction, match=message):
        YAHTZEE.apply(st, action)


def test_three_rolls_then_score():
    st = YAHTZEE.initial_state({}, ["Ana", "Ben"], 1)
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "dice": [1, 2, 6, 6, 3]})
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "keep": [6, 6], "dice": [6, 2, 2]})
    assert st.turn.dice == (2, 2, 6, 6, 6)
    with pytest.raises(IllegalAction, match="cannot hold"):
        YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "keep": [5], "dice": [1, 1, 1, 1]})
    # the dice may be given as all five on the table, the held ones included
    st, _ = YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "keep": [6, 6, 6], "dice": [2, 2, 6, 6, 6]})
    assert st.turn.dice == (2, 2, 6, 6, 6) and st.turn.rolls == 3
    with pytest.raises(IllegalAction, match="3 rolls"):
        YAHTZEE.apply(st, {"type": "roll", "player": "Ana", "keep": [6, 6, 6], "dice": [1, 1]})
    st, _ = YAHTZEE.apply(st, {"type": "score", "player": "Ana", "box": "full_house"})
    assert YAHTZEE.summary(st).scores["Ana"] == 25 and st.current == 1
