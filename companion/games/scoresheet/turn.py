"""One turn's dice: up to three rolls, holding any dice between them.

The players roll real dice; Purser only records what they show. A roll action holds
``"keep": [..]`` (faces held from the dice in play; none on the first roll) and names the
dice thrown (see :mod:`companion.games.scoresheet.dice`). A camera reading it is unsure of
leaves the roll *pending* until a ``confirm`` action gives the dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.base import IllegalAction
from companion.games.scoresheet import dice as dice_mod
from companion.games.scoresheet.dice import show

MAX_ROLLS = 3


@dataclass(frozen=True)
class Pending:
    """A roll whose dice a player must confirm: what was held, how many dice may have been
    thrown, what the camera saw and why it is not trusted."""

    kept: tuple[int, ...]
    thrown: tuple[int, ...]
    seen: tuple[int, ...]
    why: str


@dataclass(frozen=True)
class Turn:
    """The dice in play (sorted), how many rolls were made, and a roll awaiting confirmation."""

    dice: tuple[int, ...] = ()
    rolls: int = 0
    pending: Pending | None = None

    @property
    def settled(self) -> bool:
        """Dice have been rolled and none wait for confirmation."""
        return self.rolls > 0 and self.pending is None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"dice": list(self.dice), "rolls": self.rolls}
        if self.pending is not None:
            data["pending"] = {
                "kept": list(self.pending.kept),
                "seen": list(self.pending.seen),
                "why": self.pending.why,
            }
        return data


def parse_keep(action: Mapping[str, Any], turn: Turn) -> tuple[int, ...]:
    """The dice held for a roll (``"keep"``, or ``"hold"``), checked against the dice in play.

    Raises:
        IllegalAction: held dice that are not on the table, every die held, or a hold on
            the first roll.
    """
    if action.get("keep") is not None and action.get("hold") is not None:
        raise IllegalAction('give the held dice once, as "keep"')
    raw = action.get("keep") if action.get("keep") is not None else action.get("hold")
    if raw is None:
        return ()
    kept = dice_mod.parse_values(raw, '"keep"')
    if not kept:
        return ()
    if turn.rolls == 0:
        raise IllegalAction("nothing can be held before the first roll")
    if not dice_mod.sub_multiset(kept, turn.dice):
        raise IllegalAction(f"cannot hold {show(kept)}: the dice in play are {show(turn.dice)}")
    if len(kept) >= len(turn.dice):
        raise IllegalAction("every die is held: there is nothing to roll (score the dice instead)")
    return kept


def throw(turn: Turn, action: Mapping[str, Any], kept: tuple[int, ...], thrown: Sequence[int]) -> Turn:
    """The turn after a roll of ``thrown`` dice (allowed numbers) with ``kept`` held.

    Raises:
        IllegalAction: the dice given do not fit the roll.
    """
    reading = dice_mod.read(action, kept, thrown)
    if reading.dice is not None:
        return Turn(reading.dice, turn.rolls + 1)
    return Turn(turn.dice, turn.rolls + 1, Pending(kept, tuple(thrown), reading.seen, reading.why))


def confirm(turn: Turn, action: Mapping[str, Any]) -> Turn:
    """Settle a pending roll with the dice a player gives (or a sure camera reading).

    Raises:
        IllegalAction: nothing pending, or dice that do not fit the roll.
    """
    pending = turn.pending
    if pending is None:
        raise IllegalAction("there is no roll waiting to be confirmed")
    reading = dice_mod.read(action, pending.kept, pending.thrown)
    if reading.dice is None:
        raise IllegalAction(f"{reading.why}: type the dice to confirm them")
    return Turn(reading.dice, turn.rolls)
