"""Where a roll may be scored: every legal box with its points, best first.

This is what the tablet shows after each roll. :func:`options` applies the sheet's rules
for zeros (any open box, or only when nothing scores: a Swashbuckle scuttle), for a later
five of a kind (Yahtzee's joker, forced or free; Swashbuckle's "max potential"), and the
extra five-of-a-kind bonus each choice earns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.scoresheet.rules import PLAIN, Context, ExtraRoll, counts, five_alike
from companion.games.scoresheet.sheet import LOWER, UPPER, Column, Sheet

#: How an option scores: the dice as they are, as a joker, the "max potential" of a bonus
#: five of a kind, a further roll (Piracy), or a zero (scuttle / scratch).
HOW = ("score", "joker", "max_potential", "extra_roll", "zero")


@dataclass(frozen=True)
class Option:
    """One legal place for a roll: ``points`` is None when a further roll decides them.

    ``column`` counts from 0 here and from 1 in :meth:`to_json` (as players number them).
    """

    box: str
    label: str
    points: int | None
    how: str = "score"
    column: int = 0
    bonus: int = 0
    expected: float | None = None

    @property
    def scuttle(self) -> bool:
        """A zero written in an open box."""
        return self.how == "zero"

    @property
    def rank_value(self) -> float:
        return float(self.points) if self.points is not None else float(self.expected or 0.0)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "box": self.box,
            "label": self.label,
            "points": self.points,
            "scuttle": self.scuttle,
            "how": self.how,
            "column": self.column + 1,
            "bonus": self.bonus,
        }
        if self.expected is not None:
            data["expected"] = self.expected
        return data

    def words(self, zero_word: str = "zero") -> str:
        """``Full Boat: 25`` / ``Ones: scuttle (0)`` / ``Piracy: roll again``."""
        if self.how == "zero":
            text = f"{self.label}: {zero_word} (0)"
        elif self.how == "extra_roll":
            text = f"{self.label}: roll all five again and take their sum"
        elif self.how == "max_potential":
            text = f"{self.label}: {self.points} (max potential)"
        elif self.how == "joker":
            text = f"{self.label}: {self.points} (joker)"
        else:
            text = f"{self.label}: {self.points}"
        return text + (f" +{self.bonus} bonus" if self.bonus else "")


def _column_options(sheet: Sheet, column: Column, col: int, dice: Sequence[int], cursed: bool) -> list[Option]:
    """Scoring options in one column, and zeros where the sheet allows them anytime."""
    c = counts(dice)
    open_ = column.open()
    found: list[Option] = []
    five = len(dice) == 5 and five_alike(c) and not cursed
    five_index = sheet.index(sheet.five_box) if sheet.five_box else None
    five_filled = five and five_index is not None and column.scores[five_index] is not None
    five_scored = five_filled and (column.scores[five_index] or 0) > 0  # type: ignore[index]
    bonus = sheet.extra_five_bonus if five_scored else 0
    mode = sheet.extra_five if five_filled else "none"
    ctx = Context(cursed=cursed)

    if mode in ("joker_forced", "joker_free"):
        face = c.index(5) + 1
        own = sheet.upper_box(face)
        # Free choice (Verhoeff's reading): any open box, but a joker scores in full only
        # once the upper box of its number is filled.
        joker = PLAIN if mode == "joker_free" and own is not None and own in open_ else Context(joker=True)
        allowed: Sequence[int] = open_
        if mode == "joker_forced":
            lower_open = [i for i in open_ if sheet.boxes[i].section == LOWER]
            if own is not None and own in open_:
                allowed = [own]
            elif lower_open:
                allowed = lower_open
            else:
                allowed = [i for i in open_ if sheet.boxes[i].section == UPPER]
        for i in allowed:
            box = sheet.boxes[i]
            pts = box.points(c, joker)
            how = "zero" if pts == 0 else ("joker" if pts > box.points(c, PLAIN) else "score")
            found.append(Option(box.key, box.label, pts, how, col, bonus))
        return found

    for i in open_:
        box = sheet.boxes[i]
        if isinstance(box.rule, ExtraRoll):
            if box.qualifies(c, ctx) and len(dice) == 5:
                found.append(Option(box.key, box.label, None, "extra_roll", col, bonus, box.rule.expected))
            continue
        pts = box.points(c, ctx)
        if pts > 0:
            found.append(Option(box.key, box.label, pts, "score", col, bonus))
        elif sheet.zeros == "any":
            found.append(Option(box.key, box.label, 0, "zero", col, bonus))

    if mode == "max_potential" and five_scored and not any(o.how != "zero" for o in found):
        found = [
            Option(sheet.boxes[i].key, sheet.boxes[i].label, sheet.boxes[i].max_points(), "max_potential", col, bonus)
            for i in open_
        ]
    return found


def options(sheet: Sheet, columns: Sequence[Column], dice: Sequence[int], *, cursed: bool = False) -> list[Option]:
    """Every legal box for ``dice`` across a player's ``columns``, best first.

    Ties keep the sheet's printed order (column by column). On a sheet that allows a zero
    only when nothing scores (Swashbuckle), the zeros are offered only then, in boxes above
    the waterline; if every open box is below it, any open box may take the zero, since a
    box must be filled every turn. A full sheet has no options.

    Raises:
        ValueError: a die outside 1-6.
    """
    if any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"dice show 1 to 6, not {list(dice)}")
    found: list[Option] = []
    for col, column in enumerate(columns):
        found.extend(_column_options(sheet, column, col, dice, cursed))
    if sheet.zeros == "stuck" and not found:
        zeros = [
            Option(sheet.boxes[i].key, sheet.boxes[i].label, 0, "zero", col)
            for col, column in enumerate(columns)
            for i in column.open()
            if sheet.boxes[i].scuttle
        ]
        if not zeros:
            zeros = [
                Option(sheet.boxes[i].key, sheet.boxes[i].label, 0, "zero", col)
                for col, column in enumerate(columns)
                for i in column.open()
            ]
        found = zeros
    order = {key: i for i, key in enumerate(sheet.keys)}
    return sorted(found, key=lambda o: (-o.rank_value, o.how == "zero", o.column, order[o.box]))
