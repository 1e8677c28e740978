"""The dice space of one turn: every roll of five dice and every set of dice a player can keep.

Dice are handled as *counts* (how many show 1, 2, ... 6), so order never matters: there
are 252 distinct rolls of five dice and 462 distinct keeps (multisets of 0 to 5 dice).
Keeps are numbered by size, smallest first; the last 252 are the rolls.

Two index tables make a turn cheap to evaluate without any 462x252 transition matrix:

- ``add[k, f]``: keep ``k`` with one more die showing ``f + 1`` (-1 for full keeps). Rolling
  ``n`` dice is rolling one die, then ``n - 1``, so the expected value of a keep is the mean
  of its six one-die extensions.
- ``sub[k, j]``: keep ``k`` with one die of its ``j``-th distinct face put back (-1 padding),
  which walks every smaller keep inside a roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import factorial

import numpy as np

DICE = 5
FACES = 6


def _multisets(size: int) -> list[tuple[int, ...]]:
    found: list[tuple[int, ...]] = []

    def walk(prefix: list[int], left: int) -> None:
        if len(prefix) == FACES - 1:
            found.append((*prefix, left))
            return
        for n in range(left, -1, -1):
            walk([*prefix, n], left - n)

    walk([], size)
    return sorted(found, reverse=True)


@dataclass(frozen=True)
class DiceSpace:
    """Index tables over keeps and rolls (see the module docstring); arrays are read-only."""

    keeps: np.ndarray  # (462, 6) counts
    sizes: np.ndarray  # (462,) dice in each keep
    add: np.ndarray  # (462, 6) int32
    sub: np.ndarray  # (462, 6) int32, -1 padded
    first_roll: int  # index of the first 5-dice keep
    roll_probability: np.ndarray  # (252,) chance of each roll from five fresh dice

    @property
    def rolls(self) -> np.ndarray:
        """(252, 6) counts of every distinct roll of five dice."""
        return self.keeps[self.first_roll :]

    def index(self, counts: tuple[int, ...] | list[int] | np.ndarray) -> int:
        """The keep number of these face counts.

        Raises:
            ValueError: not the counts of 0 to 5 dice.
        """
        key = tuple(int(n) for n in counts)
        try:
            return _index_of()[key]
        except KeyError:
            raise ValueError(f"{list(key)} are not the counts of up to five dice") from None

    def roll_index(self, dice: list[int] | tuple[int, ...]) -> int:
        """The roll number (0-251) of five dice values.

        Raises:
            ValueError: not five dice showing 1-6.
        """
        if len(dice) != DICE or any(not 1 <= d <= FACES for d in dice):
            raise ValueError(f"a roll is five dice showing 1 to 6, not {list(dice)}")
        return self.index(counts_of(dice)) - self.first_roll


def counts_of(dice: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Face counts of dice values 1-6."""
    c = [0] * FACES
    for d in dice:
        c[d - 1] += 1
    return tuple(c)


def dice_of(counts: tuple[int, ...] | np.ndarray) -> list[int]:
    """Dice values, sorted, from face counts."""
    return [face + 1 for face in range(FACES) for _ in range(int(counts[face]))]


@lru_cache(maxsize=1)
def _index_of() -> dict[tuple[int, ...], int]:
    keeps = [k for size in range(DICE + 1) for k in _multisets(size)]
    return {k: i for i, k in enumerate(keeps)}


@lru_cache(maxsize=1)
def dice_space() -> DiceSpace:
    """The (cached) dice space of five six-sided dice."""
    index = _index_of()
    keeps = np.array(sorted(index, key=index.__getitem__), dtype=np.int64)
    n = len(keeps)
    add = np.full((n, FACES), -1, dtype=np.int32)
    sub = np.full((n, FACES), -1, dtype=np.int32)
    for i, k in enumerate(keeps):
        if k.sum() < DICE:
            for f in range(FACES):
                bigger = k.copy()
                bigger[f] += 1
                add[i, f] = index[tuple(bigger)]
        j = 0
        for f in range(FACES):
            if k[f]:
                smaller = k.copy()
                smaller[f] -= 1
                sub[i, j] = index[tuple(smaller)]
                j += 1
    sizes = keeps.sum(axis=1)
    first_roll = int(np.argmax(sizes == DICE))
    ways = np.array(
        [factorial(DICE) / np.prod([factorial(int(c)) for c in k]) for k in keeps[first_roll:]], dtype=np.float64
    )
    for arr in (keeps, sizes, add, sub, ways):
        arr.setflags(write=False)
    return DiceSpace(keeps, sizes, add, sub, first_roll, ways / FACES**DICE)
