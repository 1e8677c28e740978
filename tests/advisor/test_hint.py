"""Hints: the advice agrees with the table, with the engine's options, and with play itself."""

from __future__ import annotations

import random
import statistics

import numpy as np
import pytest

from companion.advisor.dice import dice_of, dice_space
from companion.advisor.hint import Advisor
from companion.advisor.table import RESOLUTION
from companion.games.scoresheet import Column, options, tally


@pytest.fixture(scope="module")
def advisor(yahtzee_free):
    return Advisor(yahtzee_free.model.sheet, table=yahtzee_free)


def test_the_hint_for_three_fours_on_a_fresh_sheet(advisor):
    hint = advisor.hint(Column.empty(advisor.sheet), [4, 4, 4, 2, 6], rolls_left=2)
    assert hint.best.hold == (4, 4, 4)
    assert hint.best.words().startswith("hold 4 4 4: ")
    assert [c.expected for c in hint.choices] == sorted((c.expected for c in hint.choices), reverse=True)
    assert len({c.hold for c in hint.choices}) == len(hint.choices) == 16  # every distinct hold, once


def test_the_first_roll_averages_back_to_the_tables_value(advisor):
    column = Column.empty(advisor.sheet).fill(0, 3).fill(12, 22)
    space = dice_space()
    average = sum(
        p * advisor.hint(column, dice_of(r), 2).best.expected for p, r in zip(space.roll_probability, space.rolls)
    )
    # the table keeps values to the hundredth of a point (RESOLUTION): one step either way
    assert average == pytest.approx(advisor.state_value(column), abs=1.0 / RESOLUTION)


@pytest.mark.parametrize("dice", [[6, 6, 6, 6, 6], [1, 2, 3, 4, 5], [2, 2, 3, 3, 3], [1, 1, 2, 5, 6]])
def test_box_choices_are_the_engines_options(advisor, dice):
    column = Column.empty(advisor.sheet).fill(advisor.sheet.index("yahtzee"), 50).fill(5, 24)
    hint = advisor.hint(column, dice, rolls_left=0)
    engine = {(o.box, o.points) for o in options(advisor.sheet, [column], dice)}
    assert {(c.box, c.points) for c in hint.choices} == engine


@pytest.mark.parametrize("bad, message", [([1, 2, 3, 4], "five dice"), ([0, 1, 2, 3, 4], "five dice")])
def test_bad_dice_are_refused(advisor, bad, message):
    with pytest.raises(ValueError, match=message):
        advisor.hint(Column.empty(advisor.sheet), bad, 1)


def test_a_full_sheet_has_no_hint(advisor):
    column = Column(tuple(0 for _ in advisor.sheet.boxes))
    with pytest.raises(ValueError, match="full"):
        advisor.hint(column, [1, 2, 3, 4, 5], 0)


def play_out(advisor, column, dice, rolls_left, choice, rng):
    """Play ``choice``, then the advice, to the end of the game; the final score."""
    sh = advisor.sheet
    while True:
        if choice.hold is not None and len(choice.hold) < 5:
            dice = list(choice.hold) + [rng.randint(1, 6) for _ in range(5 - len(choice.hold))]
            rolls_left -= 1
        else:
            if choice.hold is not None:  # keep all five: score them now
                choice = advisor.hint(column, dice, 0).best
            bonus = next(o.bonus for o in options(sh, [column], dice) if o.box == choice.box)
            column = column.fill(sh.index(choice.box), choice.points, bonus > 0)
            if column.full:
                return tally(sh, column).total
            dice, rolls_left = [rng.randint(1, 6) for _ in range(5)], 2
        choice = advisor.hint(column, dice, rolls_left).best


def test_no_alternative_beats_the_hint_in_play(advisor):
    """On random late-game positions, simulated play confirms the hinted move and its expected score."""
    rng = random.Random(5)
    sh = advisor.sheet
    for _ in range(4):
        column = Column.empty(sh)
        for i in rng.sample(range(len(sh.boxes)), len(sh.boxes) - 2):
            column = column.fill(i, rng.choice([0, sh.boxes[i].max_points()]))
        dice, rolls_left = [rng.randint(1, 6) for _ in range(5)], rng.randint(0, 2)
        hint = advisor.hint(column, dice, rolls_left)
        rival = hint.choices[rng.randrange(1, len(hint.choices))] if len(hint.choices) > 1 else hint.best
        for choice in (hint.best, rival):
            finals = [play_out(advisor, column, dice, rolls_left, choice, rng) for _ in range(300)]
            mean, error = statistics.fmean(finals), statistics.stdev(finals) / np.sqrt(len(finals)) + 1e-9
            assert abs(mean - choice.expected) < 4.5 * error, (choice, mean, error)
        assert hint.best.expected >= rival.expected
