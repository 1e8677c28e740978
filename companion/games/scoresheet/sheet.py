"""A score sheet as data: its boxes, its bonuses, and one player's column of scores.

A :class:`Sheet` (a preset: Swashbuckle, Yahtzee, Yacht) lists its :class:`Box` es in
printed order, each with a section (upper: Crow's Nest; lower: Bilge), whether it may take
a zero (above the waterline) and its scoring rule, plus the sheet-wide bonuses. A
:class:`Column` holds one player's filled-in scores; :func:`tally` adds it up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from companion.games.scoresheet.rules import PLAIN, Context, Counts, ExtraRoll, ScoreRule

UPPER = "upper"
LOWER = "lower"

#: What happens when five of a kind is rolled after the five-alike box has been filled.
EXTRA_FIVE_MODES = ("none", "joker_forced", "joker_free", "max_potential")
#: When a zero may be written: in any open box at any time, or only when nothing scores.
ZERO_MODES = ("any", "stuck")


@dataclass(frozen=True)
class Box:
    """One score box.

    ``scuttle``: the box may take a zero (it is above the waterline). On a cursed turn a
    box with ``cursed_allowed=False`` scores nothing and one with ``cursed_factor`` 2
    scores double.
    """

    key: str
    label: str
    section: str
    rule: ScoreRule
    scuttle: bool = True
    cursed_factor: int = 1
    cursed_allowed: bool = True

    def points(self, c: Counts, ctx: Context = PLAIN) -> int:
        """Points for dice counts ``c`` (0 when they do not qualify)."""
        if ctx.cursed and not self.cursed_allowed:
            return 0
        pts = self.rule.points(c, ctx)
        return pts * self.cursed_factor if ctx.cursed else pts

    def qualifies(self, c: Counts, ctx: Context = PLAIN) -> bool:
        """Whether these dice may be scored here (a Piracy-style box qualifies without points)."""
        if ctx.cursed and not self.cursed_allowed:
            return False
        if isinstance(self.rule, ExtraRoll):
            return self.rule.qualifies(c)
        return self.points(c, ctx) > 0

    def max_points(self) -> int:
        """The most this box can hold from one roll of five dice."""
        return self.rule.max_points()

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "section": self.section,
            "scuttle": self.scuttle,
            "rule": self.rule.describe(),
        }


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", name.casefold())


@dataclass(frozen=True)
class Sheet:
    """A score-sheet preset.

    ``upper_bonus`` is added once the upper subtotal reaches ``upper_bonus_at``.
    ``five_box`` names the five-of-a-kind box; ``extra_five`` says what a later
    five-of-a-kind does (see :data:`EXTRA_FIVE_MODES`) and ``extra_five_bonus`` what it
    earns while that box holds points. ``zeros`` is :data:`ZERO_MODES`; ``clean_bonus`` is
    earned by a finished column without a single zero.
    """

    name: str
    title: str
    boxes: tuple[Box, ...]
    upper_name: str = "Upper section"
    lower_name: str = "Lower section"
    upper_bonus: int = 0
    upper_bonus_at: int = 0
    upper_bonus_label: str = "Bonus"
    five_box: str | None = None
    extra_five: str = "none"
    extra_five_bonus: int = 0
    extra_five_label: str = "Bonus"
    zeros: str = "any"
    clean_bonus: int = 0
    clean_bonus_label: str = "No zeros"
    zero_word: str = "zero"

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(b.key for b in self.boxes)

    def index(self, key: str) -> int:
        """The position of box ``key``.

        Raises:
            KeyError: no such box.
        """
        for i, b in enumerate(self.boxes):
            if b.key == key:
                return i
        raise KeyError(key)

    def box(self, key: str) -> Box:
        """Box ``key``. Raises KeyError: no such box."""
        return self.boxes[self.index(key)]

    def find(self, name: str) -> Box | None:
        """The box called ``name``: its key or its label, ignoring case, spaces and punctuation."""
        wanted = _norm(name)
        for b in self.boxes:
            if wanted in (_norm(b.key), _norm(b.label)):
                return b
        return None

    def upper_box(self, face: int) -> int | None:
        """The index of the upper box counting ``face``, if the sheet has one."""
        for i, b in enumerate(self.boxes):
            if b.section == UPPER and getattr(b.rule, "face", None) == face and b.rule.kind == "faces":
                return i
        return None

    def to_json(self) -> dict[str, Any]:
        """The layout, for screens: boxes in printed order and the bonus rows."""
        return {
            "name": self.name,
            "title": self.title,
            "sections": {UPPER: self.upper_name, LOWER: self.lower_name},
            "boxes": [b.to_json() for b in self.boxes],
            "upper_bonus": {"label": self.upper_bonus_label, "points": self.upper_bonus, "at": self.upper_bonus_at},
            "five_box": self.five_box,
            "extra_five": {"mode": self.extra_five, "points": self.extra_five_bonus, "label": self.extra_five_label},
            "clean_bonus": {"label": self.clean_bonus_label, "points": self.clean_bonus},
        }


@dataclass(frozen=True)
class Column:
    """One column of scores: ``scores[i]`` for box ``i`` (None while open) and the
    extra five-of-a-kind ``marks`` (Yahtzee bonus chips, Swashbuckle Bonus X's)."""

    scores: tuple[int | None, ...]
    marks: int = 0

    @classmethod
    def empty(cls, sheet: Sheet) -> Column:
        return cls((None,) * len(sheet.boxes))

    def open(self) -> tuple[int, ...]:
        """Indexes of the boxes still open."""
        return tuple(i for i, s in enumerate(self.scores) if s is None)

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.scores)

    @property
    def zeros(self) -> int:
        """How many boxes hold a zero (scuttled or scratched)."""
        return sum(1 for s in self.scores if s == 0)

    def fill(self, index: int, points: int, mark: bool = False) -> Column:
        """A copy with box ``index`` holding ``points`` (and one more mark if ``mark``)."""
        if self.scores[index] is not None:
            raise ValueError(f"box {index} is already filled")
        scores = (*self.scores[:index], points, *self.scores[index + 1 :])
        return replace(self, scores=scores, marks=self.marks + (1 if mark else 0))


@dataclass(frozen=True)
class Tally:
    """A column added up, in the sheet's own rows."""

    upper: int
    upper_bonus: int
    upper_total: int
    lower: int
    extra_five_bonus: int
    clean_bonus: int
    lower_total: int
    total: int

    def to_json(self) -> dict[str, int]:
        return {
            "upper": self.upper,
            "upper_bonus": self.upper_bonus,
            "upper_total": self.upper_total,
            "lower": self.lower,
            "extra_five_bonus": self.extra_five_bonus,
            "clean_bonus": self.clean_bonus,
            "lower_total": self.lower_total,
            "total": self.total,
        }


def tally(sheet: Sheet, column: Column) -> Tally:
    """Add up ``column``: the upper bonus counts once reached, the clean bonus once the column is full."""
    upper = sum(s or 0 for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section == UPPER)
    lower = sum(s or 0 for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section != UPPER)
    upper_bonus = sheet.upper_bonus if sheet.upper_bonus and upper >= sheet.upper_bonus_at else 0
    extra = column.marks * sheet.extra_five_bonus
    clean = sheet.clean_bonus if column.full and column.zeros == 0 else 0
    lower_total = lower + extra + clean
    upper_total = upper + upper_bonus
    return Tally(upper, upper_bonus, upper_total, lower, extra, clean, lower_total, upper_total + lower_total)
