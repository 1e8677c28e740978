"""Scoring rules for score-sheet boxes: pure, cheap functions of the dice.

A rule looks only at the *counts* of a roll (how many dice show 1, 2, ... 6, see
:func:`counts`) and an explicit :class:`Context`, so a whole table of box scores for the
252 distinct five-dice rolls can be computed once and looked up (the advisor does this).

``points(counts, ctx)`` is 0 when the dice do not qualify; every qualifying roll scores
more than 0, so "qualifies" and "scores" mean the same thing, except for
:class:`ExtraRoll`, whose points are decided by a later roll (Swashbuckle's Piracy).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Counts = tuple[int, int, int, int, int, int]
FACES = (1, 2, 3, 4, 5, 6)


def counts(dice: Iterable[int]) -> Counts:
    """How many of ``dice`` show each face: ``counts([1, 1, 3])[0] == 2``."""
    c = [0] * 6
    for d in dice:
        c[d - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


def total(c: Counts) -> int:
    """The sum of the pips on the dice counted in ``c``."""
    return sum(face * n for face, n in zip(FACES, c, strict=False))


def longest_run(c: Counts) -> int:
    """The length of the longest run of consecutive faces present (a straight)."""
    best = run = 0
    for n in c:
        run = run + 1 if n else 0
        best = max(best, run)
    return best


def five_alike(c: Counts) -> bool:
    """Whether five dice show the same face."""
    return max(c) >= 5


@dataclass(frozen=True)
class Context:
    """What a box's score may depend on besides the dice.

    ``joker``: the roll is a five-of-a-kind standing in for any combination (Yahtzee's
    joker rule), so Full House and straights score in full. ``cursed``: a Swashbuckle
    cursed turn (four dice; some boxes change, see :class:`~companion.games.scoresheet.sheet.Box`).
    """

    joker: bool = False
    cursed: bool = False


PLAIN = Context()


@dataclass(frozen=True)
class Faces:
    """Ones .. Sixes: the sum of the dice showing ``face``."""

    face: int
    kind: str = "faces"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return c[self.face - 1] * self.face

    def max_points(self) -> int:
        return 5 * self.face

    def describe(self) -> str:
        return f"the sum of the {_plural(self.face)}"


@dataclass(frozen=True)
class OfAKind:
    """At least ``n`` dice of one face; scores all the dice (``"all"``) or only the matching ``n``."""

    n: int
    scoring: str = "all"
    kind: str = "of_a_kind"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        for face in (6, 5, 4, 3, 2, 1):
            if c[face - 1] >= self.n:
                return total(c) if self.scoring == "all" else self.n * face
        return 0

    def max_points(self) -> int:
        return 30 if self.scoring == "all" else 6 * self.n

    def describe(self) -> str:
        what = "all the dice" if self.scoring == "all" else f"the {self.n} matching dice"
        return f"{self.n} or more alike: the sum of {what}"


@dataclass(frozen=True)
class FullHouse:
    """Three of one face and two of another: ``value`` points, or the sum of the dice when None.

    A five-of-a-kind counts only with ``five_alike`` or as a joker.
    """

    value: int | None
    five_alike: bool = False
    kind: str = "full_house"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        shape = sorted(n for n in c if n)
        ok = shape == [2, 3] or (five_alike(c) and (self.five_alike or ctx.joker))
        if not ok:
            return 0
        return total(c) if self.value is None else self.value

    def max_points(self) -> int:
        if self.value is not None:
            return self.value
        return 30 if self.five_alike else 28

    def describe(self) -> str:
        pts = "the sum of the dice" if self.value is None else f"{self.value} points"
        return f"three of one number and two of another: {pts}"


@dataclass(frozen=True)
class Straight:
    """A run of ``length`` consecutive faces (or exactly the faces in ``faces``): ``value`` points."""

    length: int
    value: int
    faces: tuple[int, ...] = ()
    kind: str = "straight"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        if ctx.joker and five_alike(c):
            return self.value
        if self.faces:
            ok = all(c[f - 1] for f in self.faces)
        else:
            ok = longest_run(c) >= self.length
        return self.value if ok else 0

    def max_points(self) -> int:
        return self.value

    def describe(self) -> str:
        if self.faces:
            return f"{'-'.join(map(str, self.faces))}: {self.value} points"
        return f"{self.length} numbers in a row: {self.value} points"


@dataclass(frozen=True)
class AllAlike:
    """Every one of five dice the same: fixed points."""

    value: int
    kind: str = "all_alike"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return self.value if five_alike(c) else 0

    def max_points(self) -> int:
        return self.value

    def describe(self) -> str:
        return f"five of a kind: {self.value} points"


@dataclass(frozen=True)
class Chance:
    """Any dice: their sum."""

    kind: str = "chance"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return total(c)

    def max_points(self) -> int:
        return 30

    def describe(self) -> str:
        return "any dice: their sum"


@dataclass(frozen=True)
class TotalOf:
    """The dice add up to exactly ``target``: fixed points."""

    target: int
    value: int
    kind: str = "total_of"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return self.value if total(c) == self.target else 0

    def max_points(self) -> int:
        return self.value

    def describe(self) -> str:
        return f"dice adding up to exactly {self.target}: {self.value} points"


@dataclass(frozen=True)
class AtLeastFace:
    """At least ``n`` dice showing ``face``: fixed points."""

    face: int
    n: int
    value: int
    kind: str = "at_least_face"

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return self.value if c[self.face - 1] >= self.n else 0

    def max_points(self) -> int:
        return self.value

    def describe(self) -> str:
        return f"{self.n} or more {_plural(self.face)}: {self.value} points"


@dataclass(frozen=True)
class ExtraRoll:
    """Qualifies on a run of ``length``; the points come from one more roll of all five dice.

    :meth:`points` is 0 (the score is not known from these dice); :meth:`qualifies` says
    whether the box may be chosen. ``max_points`` is the table's figure for the
    Swashbuckle Bonus "max potential" rule; ``expected`` orders it among options.
    """

    length: int
    most: int
    five_alike_points: int
    kind: str = "extra_roll"
    expected: float = 17.5

    def qualifies(self, c: Counts) -> bool:
        return longest_run(c) >= self.length

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        return 0

    def plunder(self, c: Counts) -> int:
        """The points of the extra roll itself: its sum, or the five-alike figure."""
        return self.five_alike_points if five_alike(c) else total(c)

    def max_points(self) -> int:
        return self.most

    def describe(self) -> str:
        return (
            f"{self.length} numbers in a row, then roll all five dice once more and take their sum "
            f"({self.five_alike_points} for five of a kind)"
        )


ScoreRule = Faces | OfAKind | FullHouse | Straight | AllAlike | Chance | TotalOf | AtLeastFace | ExtraRoll


def _plural(face: int) -> str:
    return ("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1]
