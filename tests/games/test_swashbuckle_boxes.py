"""Every box of the Swashbuckle sheet, table-driven, and the Crow's Nest tallies."""

from __future__ import annotations

import pytest

from companion.games.scoresheet import Column, Context, counts, sheet, tally
from companion.games.scoresheet.rules import ExtraRoll

SHEET = sheet("swashbuckle")
KEYS = (
    "ones",
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "three_alike",
    "four_alike",
    "aces_high",
    "full_boat",
    "succession_4",
    "succession_5",
    "pieces_of_8",
    "flotsam",
    "piracy",
    "swashbuckle",
)


def row(dice, cursed=False, sheet_=SHEET):
    """Each box's points for ``dice``; Piracy, whose points come later, says whether it qualifies."""
    c = counts(dice)
    ctx = Context(cursed=cursed)
    found = {}
    for box in sheet_.boxes:
        if isinstance(box.rule, ExtraRoll):
            found[box.key] = box.qualifies(c, ctx)
        else:
            found[box.key] = box.points(c, ctx)
    return found


def expect(**nonzero):
    """A full row: every box 0 (Piracy not qualifying) except those given."""
    base = dict.fromkeys(KEYS, 0)
    base["piracy"] = False
    base.update(nonzero)
    return base


def test_the_sheet_has_sixteen_boxes_in_printed_order_with_crows_nest_and_bilge():
    assert SHEET.keys == KEYS
    assert [b.section for b in SHEET.boxes] == ["upper"] * 6 + ["lower"] * 10
    assert (SHEET.upper_name, SHEET.lower_name) == ("Crow's Nest", "Bilge")
    assert all(b.scuttle for b in SHEET.boxes)  # default waterline: under Swashbuckle


@pytest.mark.parametrize(
    "dice, expected",
    [
        # the rulebook's worked example: 5 scoring options
        ([1, 1, 1, 3, 3], expect(ones=3, threes=6, three_alike=9, full_boat=25, flotsam=9)),
        # a Full Boat that is also 3 Alike
        ([2, 2, 2, 5, 5], expect(twos=6, fives=10, three_alike=16, full_boat=25, flotsam=16)),
        ([6, 6, 6, 1, 1], expect(ones=2, sixes=18, three_alike=20, full_boat=25, flotsam=20)),
        # straights with a pair
        ([1, 2, 3, 4, 4], expect(ones=1, twos=2, threes=3, fours=8, succession_4=30, flotsam=14)),
        ([3, 4, 5, 6, 6], expect(threes=3, fours=4, fives=5, sixes=12, succession_4=30, flotsam=24)),
        ([1, 3, 4, 5, 6], expect(ones=1, threes=3, fours=4, fives=5, sixes=6, succession_4=30, flotsam=19)),
        ([1, 2, 3, 5, 6], expect(ones=1, twos=2, threes=3, fives=5, sixes=6, flotsam=17)),  # no run of 4
        # five in a row: Succession of 5, also of 4, and Piracy
        (
            [1, 2, 3, 4, 5],
            expect(
                ones=1, twos=2, threes=3, fours=4, fives=5, succession_4=30, succession_5=40, flotsam=15, piracy=True
            ),
        ),
        (
            [2, 3, 4, 5, 6],
            expect(
                twos=2, threes=3, fours=4, fives=5, sixes=6, succession_4=30, succession_5=40, flotsam=20, piracy=True
            ),
        ),
        # four alike (not five)
        ([5, 5, 5, 5, 2], expect(twos=2, fives=20, three_alike=22, four_alike=22, flotsam=22)),
        # Aces High: four or more ones, exactly
        ([1, 1, 1, 1, 6], expect(ones=4, sixes=6, three_alike=10, four_alike=10, aces_high=40, flotsam=10)),
        ([1, 1, 1, 6, 6], expect(ones=3, sixes=12, three_alike=15, full_boat=25, flotsam=15)),
        # Pieces of 8: the dice add up to exactly 8
        (
            [1, 1, 1, 1, 4],
            expect(ones=4, fours=4, three_alike=8, four_alike=8, aces_high=40, pieces_of_8=30, flotsam=8),
        ),
        ([1, 1, 2, 2, 2], expect(ones=2, twos=6, three_alike=8, full_boat=25, pieces_of_8=30, flotsam=8)),
        ([1, 1, 1, 2, 3], expect(ones=3, twos=2, threes=3, three_alike=8, pieces_of_8=30, flotsam=8)),
        ([1, 1, 1, 1, 3], expect(ones=4, threes=3, three_alike=7, four_alike=7, aces_high=40, flotsam=7)),  # 7
        ([1, 1, 1, 1, 5], expect(ones=4, fives=5, three_alike=9, four_alike=9, aces_high=40, flotsam=9)),  # 9
        # nothing but Flotsam and the faces
        ([1, 2, 4, 5, 6], expect(ones=1, twos=2, fours=4, fives=5, sixes=6, flotsam=18)),
    ],
)
def test_every_box_for_a_roll(dice, expected):
    assert row(dice) == expected


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_five_of_a_kind_in_every_box(face):
    faces = dict(zip(KEYS[:6], [0] * 6, strict=False))
    faces[KEYS[face - 1]] = 5 * face
    expected = expect(
        **faces,
        three_alike=5 * face,
        four_alike=5 * face,
        flotsam=5 * face,
        swashbuckle=50,
        aces_high=40 if face == 1 else 0,
    )
    # not a Full Boat ("full house for card players"), no straight, never a total of 8
    assert row([face] * 5) == expected


def test_five_alike_counts_as_full_boat_only_when_the_table_says_so():
    table = sheet("swashbuckle", {"full_boat_five_alike": True})
    assert row([4] * 5, sheet_=table)["full_boat"] == 25
    assert row([4, 4, 4, 4, 2], sheet_=table)["full_boat"] == 0


@pytest.mark.parametrize(
    "dice, expected",
    [
        # cursed turns roll four dice: 4 Alike doubles, Swashbuckle takes nothing
        ([4, 4, 4, 4], expect(fours=16, three_alike=16, four_alike=32, flotsam=16)),
        ([1, 1, 1, 1], expect(ones=4, three_alike=4, four_alike=8, aces_high=40, flotsam=4)),
        ([2, 2, 2, 2], expect(twos=8, three_alike=8, four_alike=16, pieces_of_8=30, flotsam=8)),
        ([1, 2, 3, 4], expect(ones=1, twos=2, threes=3, fours=4, succession_4=30, flotsam=10)),
        ([3, 3, 3, 5], expect(threes=9, fives=5, three_alike=14, flotsam=14)),
        ([2, 2, 5, 5], expect(twos=4, fives=10, flotsam=14)),  # no Full Boat with four dice
    ],
)
def test_cursed_four_dice(dice, expected):
    assert row(dice, cursed=True) == expected


@pytest.mark.parametrize(
    "key, setting, value",
    [
        ("succession_4", "succession_4_points", 25),
        ("succession_5", "succession_5_points", 35),
        ("aces_high", "aces_high_points", 50),
        ("pieces_of_8", "pieces_of_8_points", 8),
        ("full_boat", "full_boat_points", 30),
        ("swashbuckle", "swashbuckle_points", 60),
    ],
)
def test_open_point_values_are_settings(key, setting, value):
    table = sheet("swashbuckle", {setting: value})
    dice = {
        "succession_4": [1, 2, 3, 4, 6],
        "succession_5": [1, 2, 3, 4, 5],
        "aces_high": [1, 1, 1, 1, 2],
        "pieces_of_8": [1, 1, 2, 2, 2],
        "full_boat": [3, 3, 3, 2, 2],
        "swashbuckle": [2] * 5,
    }[key]
    assert row(dice, sheet_=table)[key] == value


@pytest.mark.parametrize(
    "upper, subtotal, blimey",
    [
        ((), 0, 0),  # empty sheet
        ((3, 6, 9, 16, 15, 18), 67, 0),  # 67 is not higher than 67
        ((4, 6, 9, 16, 15, 18), 68, 45),  # 68 is
        ((5, 10, 15, 20, 25, 30), 105, 45),
    ],
)
def test_blimey_bonus_when_the_crows_nest_is_higher_than_67(upper, subtotal, blimey):
    column = Column.empty(SHEET)
    for i, points in enumerate(upper):
        column = column.fill(i, points)
    t = tally(SHEET, column)
    assert (t.upper, t.upper_bonus, t.upper_total) == (subtotal, blimey, subtotal + blimey)


def test_blimey_threshold_is_a_setting():
    table = sheet("swashbuckle", {"blimey_threshold": 62, "blimey_bonus": 35})
    column = Column.empty(table)
    for i, points in enumerate((3, 6, 9, 12, 15, 18)):  # 63
        column = column.fill(i, points)
    assert tally(table, column).upper_bonus == 35


def test_smooth_sailing_only_for_a_full_column_without_scuttles():
    column = Column.empty(SHEET)
    for i in range(15):
        column = column.fill(i, 5)
    assert tally(SHEET, column).clean_bonus == 0  # not finished yet
    clean = column.fill(15, 50)
    scuttled = column.fill(15, 0)
    assert tally(SHEET, clean).clean_bonus == 10
    assert tally(SHEET, scuttled).clean_bonus == 0
    assert tally(SHEET, clean).total == 15 * 5 + 50 + 10  # upper 30: no Blimey


def test_swashbuckle_bonus_tally_is_50_per_mark():
    column = Column.empty(SHEET).fill(15, 50).fill(13, 30, mark=True).fill(6, 30, mark=True)
    t = tally(SHEET, column)
    assert (column.marks, t.extra_five_bonus, t.lower_total) == (2, 100, 50 + 30 + 30 + 100)


@pytest.mark.parametrize(
    "after, scuttleable",
    [
        ("swashbuckle", KEYS),
        ("flotsam", KEYS[:14]),
        ("sixes", KEYS[:6]),
    ],
)
def test_waterline_setting_decides_which_boxes_can_be_scuttled(after, scuttleable):
    table = sheet("swashbuckle", {"waterline_after": after})
    assert tuple(b.key for b in table.boxes if b.scuttle) == scuttleable
