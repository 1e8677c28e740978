"""The compiled solver against an independent, slow reference built on the score-sheet engine.

The reference knows nothing of the solver's state encoding or its keep tricks: it plays
whole turns with explicit probabilities over every reroll, asks the engine's own
``options()`` where a roll may go, and scores finished columns with the engine's
``tally()``. On small sheets that exercise every rule the solver models (upper bonus, the
joker rule forced and free, the five-of-a-kind bonus, zeros only when stuck, "max
potential", a further-roll box, a clean-sheet bonus), both must agree exactly.
"""

from __future__ import annotations

import random
from functools import cache
from math import factorial

import numpy as np
import pytest

from companion.advisor.dice import counts_of, dice_of, dice_space
from companion.advisor.kernel import roll_choices
from companion.advisor.model import build_model
from companion.advisor.table import compute_values, kernel_args
from companion.games.scoresheet import Box, Column, options, sheet, tally
from companion.games.scoresheet.rules import AllAlike, ExtraRoll, Faces, FullHouse, Straight, TotalOf
from companion.games.scoresheet.sheet import LOWER, UPPER, Sheet

HOW = ("score", "joker", "max_potential", "extra_roll", "zero")


def tiny_yahtzee(joker: str) -> Sheet:
    return Sheet(
        name="tiny",
        title="Tiny",
        boxes=(
            Box("fives", "Fives", UPPER, Faces(5)),
            Box("sixes", "Sixes", UPPER, Faces(6)),
            Box("full", "Full House", LOWER, FullHouse(25)),
            Box("yahtzee", "Yahtzee", LOWER, AllAlike(50)),
        ),
        upper_bonus=35,
        upper_bonus_at=30,
        five_box="yahtzee",
        extra_five=joker,
        extra_five_bonus=100,
    )


def tiny_swashbuckle() -> Sheet:
    return Sheet(
        name="tinyswash",
        title="Tiny Swashbuckle",
        boxes=(
            Box("sixes", "Sixes", UPPER, Faces(6)),
            Box("run", "Run", LOWER, Straight(4, 30)),
            Box("piracy", "Piracy", LOWER, ExtraRoll(4, 36, 40)),
            Box("swash", "Swashbuckle", LOWER, AllAlike(50)),
            Box("eight", "Pieces of 8", LOWER, TotalOf(8, 30), scuttle=False),
        ),
        upper_bonus=20,
        upper_bonus_at=19,
        five_box="swash",
        extra_five="max_potential",
        extra_five_bonus=50,
        zeros="stuck",
        clean_bonus=10,
    )


def transition():
    """P[keep, roll]: the chance that holding ``keep`` and rolling the rest gives ``roll``."""
    space = dice_space()
    index = {tuple(k): i for i, k in enumerate(space.keeps)}
    P = np.zeros((len(space.keeps), len(space.rolls)))
    for k, keep in enumerate(space.keeps):
        n = 5 - int(keep.sum())
        for outcome in space.keeps[space.sizes == n]:
            ways = factorial(n) / np.prod([factorial(int(c)) for c in outcome])
            P[k, index[tuple(keep + outcome)] - space.first_roll] += ways / 6**n
    return P


def reference_expected(sh: Sheet) -> float:
    space = dice_space()
    P = transition()
    rolls = [dice_of(r) for r in space.rolls]
    subkeeps = [
        sorted({space.index(tuple(min(a, b) for a, b in zip(sub, r))) for sub in np.ndindex(*(int(c) + 1 for c in r))})
        for r in space.rolls
    ]
    piracy_p = space.roll_probability

    @cache
    def value(scores: tuple, marks: int) -> float:
        column = Column(scores, marks)
        if column.full:
            return float(tally(sh, column).total)
        final = np.empty(len(rolls))
        for r, dice in enumerate(rolls):
            best = -1e18
            for o in options(sh, [column], dice):
                i = sh.index(o.box)
                if o.points is None:  # a further roll decides the points
                    # Lower boxes only add to the tally, so the mean plunder can stand in for the roll.
                    box = sh.boxes[i]
                    mean = sum(p * box.rule.plunder(counts_of(d)) for p, d in zip(piracy_p, rolls))
                    nxt = column.fill(i, 1, o.bonus > 0)
                    v = value(nxt.scores, nxt.marks) + mean - 1
                else:
                    nxt = column.fill(i, o.points, o.bonus > 0)
                    v = value(nxt.scores, nxt.marks)
                best = max(best, v)
            final[r] = best
        values = final
        for _ in range(2):
            keep = P @ values
            values = np.array([max(keep[k] for k in subkeeps[r]) for r in range(len(rolls))])
        return float(space.roll_probability @ values)

    return value(Column.empty(sh).scores, 0)


@pytest.mark.parametrize(
    "make",
    [
        lambda: tiny_yahtzee("joker_forced"),
        lambda: tiny_yahtzee("joker_free"),
        lambda: tiny_yahtzee("none"),
        tiny_swashbuckle,
    ],
    ids=["joker-forced", "joker-free", "no-joker", "swashbuckle-rules"],
)
def test_solver_equals_the_reference_on_small_sheets(make):
    sh = make()
    model = build_model(sh)
    values = compute_values(model)
    assert values[model.index(0, 0, 0, 0)] == pytest.approx(reference_expected(sh), abs=1e-9)


def kernel_choices(model, values, column, dice):
    space = dice_space()
    nb = model.n_boxes
    box, pts, val, how = np.empty(nb, np.int32), np.empty(nb, np.int32), np.empty(nb), np.empty(nb, np.int32)
    n = roll_choices(values, space.roll_index(dice), *model.state_of(column), box, pts, val, how, *kernel_args(model))
    return sorted((model.sheet.boxes[box[i]].key, None if how[i] == 3 else int(pts[i]), HOW[how[i]]) for i in range(n))


@pytest.mark.parametrize(
    "name, rules",
    [
        ("yahtzee", {"joker": "forced"}),
        ("yahtzee", {"joker": "free"}),
        ("yahtzee", {"joker": "none"}),
        ("swashbuckle", {}),
        ("yacht", {}),
    ],
)
def test_the_solvers_choices_are_exactly_the_engines_options(name, rules):
    sh = sheet(name, rules)
    model = build_model(sh)
    values = np.zeros(model.n_states)
    rng = random.Random(11)
    for _ in range(400):
        column = Column.empty(sh)
        for i in rng.sample(range(len(sh.boxes)), rng.randrange(len(sh.boxes))):
            column = column.fill(i, rng.choice([0, sh.boxes[i].max_points()]))
        dice = [rng.randint(1, 6) for _ in range(5)]
        if rng.random() < 0.3:
            dice = [rng.randint(1, 6)] * 5
        engine = sorted((o.box, o.points, o.how) for o in options(sh, [column], dice))
        assert kernel_choices(model, values, column, dice) == engine, (column, dice)
