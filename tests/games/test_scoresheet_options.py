"""Scoring options: what the tablet lists after a roll (Swashbuckle's rules for scuttles,
the Swashbuckle Bonus "max potential", Piracy, curses, several columns)."""

from __future__ import annotations

import pytest

from companion.games.scoresheet import Column, options, sheet

SWASH = sheet("swashbuckle")


def filled(s=SWASH, **boxes):
    column = Column.empty(s)
    for key, points in boxes.items():
        column = column.fill(s.index(key), points)
    return column


def listed(found):
    return [(o.box, o.points, o.how) for o in found]


def test_the_rulebook_worked_example_has_exactly_five_options_best_first():
    found = options(SWASH, [Column.empty(SWASH)], [1, 1, 1, 3, 3])
    assert listed(found) == [
        ("full_boat", 25, "score"),
        ("three_alike", 9, "score"),
        ("flotsam", 9, "score"),
        ("threes", 6, "score"),
        ("ones", 3, "score"),
    ]
    assert not any(o.scuttle for o in found)


def test_the_worked_example_with_boxes_used_drops_them():
    found = options(SWASH, [filled(full_boat=25, ones=2)], [1, 1, 1, 3, 3])
    assert [o.box for o in found] == ["three_alike", "flotsam", "threes"]


def test_scuttle_only_when_nothing_scores_and_then_any_open_box():
    column = filled(ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6, three_alike=10, flotsam=20)
    # 2 3 4 6 6: only faces, 3 Alike and Flotsam would score, all filled -> scuttle
    found = options(SWASH, [column], [2, 3, 4, 6, 6])
    assert all(o.scuttle and o.points == 0 for o in found)
    assert [o.box for o in found] == [k for k in SWASH.keys if column.scores[SWASH.index(k)] is None]


def test_scuttles_respect_the_waterline_unless_only_boxes_below_it_are_open():
    table = sheet("swashbuckle", {"waterline_after": "flotsam"})
    column = filled(table, ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6, three_alike=10, flotsam=20)
    found = options(table, [column], [2, 3, 4, 6, 6])
    assert {o.box for o in found} == {
        "four_alike",
        "aces_high",
        "full_boat",
        "succession_4",
        "succession_5",
        "pieces_of_8",
    }
    only_below = Column((1, 2, 3, 4, 5, 6, 10, 0, 0, 0, 0, 0, 0, 20, None, None))
    found = options(table, [only_below], [2, 3, 4, 6, 6])
    assert {o.box for o in found} == {"piracy", "swashbuckle"}  # a box must be filled every turn


def test_piracy_is_offered_on_five_in_a_row_with_its_points_still_to_roll():
    found = options(SWASH, [Column.empty(SWASH)], [2, 3, 4, 5, 6])
    piracy = next(o for o in found if o.box == "piracy")
    assert (piracy.points, piracy.how, piracy.expected) == (None, "extra_roll", 17.5)
    assert [o.box for o in found][:4] == ["succession_5", "succession_4", "flotsam", "piracy"]
    assert not any(o.box == "piracy" for o in options(SWASH, [Column.empty(SWASH)], [1, 2, 3, 4, 6]))


def test_a_bonus_swashbuckle_that_fits_a_box_scores_there_with_the_x():
    column = filled(swashbuckle=50)
    found = options(SWASH, [column], [3] * 5)
    assert listed(found) == [
        ("threes", 15, "score"),
        ("three_alike", 15, "score"),
        ("four_alike", 15, "score"),
        ("flotsam", 15, "score"),
    ]
    assert all(o.bonus == 50 for o in found)


def test_a_bonus_swashbuckle_that_fits_nowhere_takes_max_potential_in_any_open_box():
    column = filled(swashbuckle=50, sixes=18, three_alike=20, four_alike=22, flotsam=20)
    found = options(SWASH, [column], [6] * 5)
    assert {(o.box, o.points) for o in found} == {
        ("ones", 5),
        ("twos", 10),
        ("threes", 15),
        ("fours", 20),
        ("fives", 25),
        ("aces_high", 40),
        ("full_boat", 25),
        ("succession_4", 30),
        ("succession_5", 40),
        ("pieces_of_8", 30),
        ("piracy", 36),
    }
    assert all(o.how == "max_potential" and o.bonus == 50 for o in found)


def test_after_a_scuttled_swashbuckle_five_alike_plays_as_normal():
    column = filled(swashbuckle=0, sixes=18, three_alike=20, four_alike=22, flotsam=20)
    found = options(SWASH, [column], [6] * 5)
    assert all(o.scuttle and o.bonus == 0 for o in found)


def test_cursed_dice_cannot_go_in_swashbuckle_and_four_alike_doubles():
    found = options(SWASH, [Column.empty(SWASH)], [5, 5, 5, 5], cursed=True)
    assert listed(found) == [
        ("four_alike", 40, "score"),
        ("fives", 20, "score"),
        ("three_alike", 20, "score"),
        ("flotsam", 20, "score"),
    ]


def test_a_cursed_player_may_still_scuttle_swashbuckle_when_nothing_scores():
    column = Column((1, 2, 3, 4, 5, 6, 10, 10, 40, 25, 30, 40, 30, 20, 20, None))
    found = options(SWASH, [column], [2, 3, 5, 6], cursed=True)
    assert listed(found) == [("swashbuckle", 0, "zero")]


def test_several_columns_offer_the_open_boxes_of_each_ties_column_by_column():
    one = filled(full_boat=25)
    two = Column.empty(SWASH)
    found = options(SWASH, [one, two], [1, 1, 1, 3, 3])
    assert [(o.box, o.column) for o in found][:5] == [
        ("full_boat", 1),
        ("three_alike", 0),
        ("flotsam", 0),
        ("three_alike", 1),
        ("flotsam", 1),
    ]
    assert len(found) == 4 + 5


def test_with_several_columns_a_scuttle_only_when_no_column_scores():
    full_upper = filled(ones=1, twos=2, threes=3, fours=4, fives=5, sixes=6, three_alike=10, flotsam=20)
    found = options(SWASH, [full_upper, Column.empty(SWASH)], [2, 3, 4, 6, 6])
    assert not any(o.scuttle for o in found) and {o.column for o in found} == {1}
    found = options(SWASH, [full_upper, full_upper], [2, 3, 4, 6, 6])
    assert all(o.scuttle for o in found) and len(found) == 16


def test_a_full_sheet_has_no_options():
    column = Column(tuple(range(1, 17)))
    assert options(SWASH, [column], [1, 2, 3, 4, 5]) == []


def test_dice_outside_one_to_six_are_refused():
    with pytest.raises(ValueError):
        options(SWASH, [Column.empty(SWASH)], [0, 1, 2, 3, 4])


def test_option_json_and_words():
    o = options(SWASH, [filled(swashbuckle=50)], [3] * 5)[0]
    assert o.to_json() == {
        "box": "threes",
        "label": "Threes",
        "points": 15,
        "scuttle": False,
        "how": "score",
        "column": 1,
        "bonus": 50,
    }
    assert o.words() == "Threes: 15 +50 bonus"
