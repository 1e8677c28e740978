"""Hints: the best dice to hold or box to score, with the expected final score of every choice.

>>> advisor = Advisor(sheet("yahtzee"))            # computes or loads the table
>>> advisor.hint(column, [4, 4, 4, 2, 6], rolls_left=2).best.words()
'hold 4 4 4: 212.4 expected'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from companion.advisor.dice import counts_of, dice_of, dice_space
from companion.advisor.table import Progress, Table, kernel_args, load_table
from companion.games.scoresheet.sheet import Column, Sheet

HOW = ("score", "joker", "max_potential", "extra_roll", "zero")


@dataclass(frozen=True)
class Choice:
    """One move and the expected final score (points already banked included) that follows it.

    A *keep* (``hold`` is the dice held; all five means "stop rolling and score") or a *box*
    (``box`` key, ``label``, ``points``: None when a further roll decides them, ``how``).
    """

    expected: float
    hold: tuple[int, ...] | None = None
    box: str | None = None
    label: str = ""
    points: int | None = None
    how: str = "score"

    def words(self) -> str:
        """``hold the 4 4 4: 212.4 expected`` / ``Full House 25: 212.4 expected``."""
        if self.hold is not None:
            if len(self.hold) == 5:
                what = "keep all five and score"
            elif not self.hold:
                what = "reroll all five"
            else:
                what = "hold " + " ".join(map(str, self.hold))
        elif self.how == "extra_roll":
            what = f"{self.label}: roll again"
        elif self.how == "zero":
            what = f"{self.label} 0 (scratch)"
        else:
            what = f"{self.label} {self.points}"
        return f"{what}: {self.expected:.1f} expected"

    def to_json(self) -> dict:
        data: dict = {"expected": round(self.expected, 4), "text": self.words()}
        if self.hold is not None:
            data["hold"] = list(self.hold)
        else:
            data.update(box=self.box, label=self.label, points=self.points, how=self.how)
        return data


@dataclass(frozen=True)
class Hint:
    """Every choice open now, best first (``choices[0]`` is the advice)."""

    rolls_left: int
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        return self.choices[0]

    def to_json(self) -> dict:
        return {
            "rolls_left": self.rolls_left,
            "best": self.best.to_json(),
            "choices": [c.to_json() for c in self.choices],
        }


class Advisor:
    """Optimal solitaire play for one sheet (preset and settings)."""

    def __init__(self, sheet: Sheet, progress: Progress | None = None, table: Table | None = None) -> None:
        """Load (or compute and cache, reporting ``progress`` 0-1) the sheet's table."""
        self.table = table or load_table(sheet, progress)
        self.model = self.table.model
        self.sheet = sheet
        self._args = kernel_args(self.model)
        self._values = np.ascontiguousarray(self.table.values, dtype=np.float32)

    def expected(self) -> float:
        """The expected final score of a fresh game under optimal play."""
        return self.table.expected

    def state_value(self, column: Column) -> float:
        """Expected final score from the start of a turn with ``column`` filled as it is."""
        mask, up, five, zero = self.model.state_of(column)
        return self.model.banked(column) + float(self._values[self.model.index(mask, up, five, zero)])

    def hint(self, column: Column, dice: Sequence[int], rolls_left: int) -> Hint:
        """Every choice for ``dice`` with ``rolls_left`` rerolls still allowed, best first.

        With rerolls left the choices are the dice to hold; with none, the boxes to score.

        Raises:
            ValueError: not five dice 1-6, a bad ``rolls_left``, or a full column.
        """
        from companion.advisor.kernel import best_keeps, final_roll_values, keep_values, roll_choices

        if not 0 <= rolls_left <= 2:
            raise ValueError("rolls_left is 0, 1 or 2 (a turn has three rolls)")
        if column.full:
            raise ValueError("that score column is full: the game is over")
        space = dice_space()
        r = space.roll_index(list(dice))
        state = self.model.state_of(column)
        banked = self.model.banked(column)
        nb = self.model.n_boxes
        box, pts, val, how = (np.empty(nb, np.int32), np.empty(nb, np.int32), np.empty(nb), np.empty(nb, np.int32))
        values = np.empty(len(space.rolls))
        final_roll_values(self._values, *state, values, box, pts, val, how, np.empty(64), *self._args)
        if rolls_left == 0:
            n = roll_choices(self._values, r, *state, box, pts, val, how, *self._args)
            boxes = self.sheet.boxes
            choices = [
                Choice(
                    banked + float(val[i]),
                    box=boxes[box[i]].key,
                    label=boxes[box[i]].label,
                    points=None if how[i] == 3 else int(pts[i]),
                    how=HOW[how[i]],
                )
                for i in range(n)
            ]
        else:
            score_now = float(values[r])
            E, M = np.empty(len(space.keeps)), np.empty(len(space.keeps))
            for _ in range(rolls_left - 1):
                keep_values(values, E, space.add, space.first_roll)
                best_keeps(E, M, space.sub, space.first_roll, values)
            keep_values(values, E, space.add, space.first_roll)
            choices = []
            for held in _sub_multisets(counts_of(list(dice))):
                k = space.index(held)
                value = score_now if sum(held) == 5 else float(E[k])
                choices.append(Choice(banked + value, hold=tuple(dice_of(held))))
        choices.sort(key=lambda c: -c.expected)
        return Hint(rolls_left, tuple(choices))


def _sub_multisets(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct set of dice that can be held from a roll (face counts), largest first."""
    found = [tuple(c) for c in product(*(range(n + 1) for n in counts))]
    return sorted(found, key=lambda c: -sum(c))
