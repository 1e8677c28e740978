"""Reading dice out of actions: typed values, or the camera's detections.

A roll names the dice just thrown. They may be given as ``"dice": [2, 6]`` (typed, or a
player's confirmation) or as ``"detections"`` (a DiceDetections as JSON, filled in by the
session from the camera). Either may list just the thrown dice or every die in play, the
held ones included. The camera's reading only counts when every die was read surely and
the number of dice is right; otherwise the roll waits for a player to confirm it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from typing import Any

from companion.games.base import IllegalAction


def show(dice: Sequence[int]) -> str:
    """Dice in words: ``1 1 3 3 5``."""
    return " ".join(str(d) for d in dice) if dice else "no dice"


def sub_multiset(part: Sequence[int], whole: Sequence[int]) -> bool:
    """Whether every die in ``part`` can be found in ``whole`` (counting repeats)."""
    return not (Counter(part) - Counter(whole))


def remove(whole: Sequence[int], part: Sequence[int]) -> tuple[int, ...]:
    """``whole`` without the dice in ``part`` (which must be in it), sorted."""
    return tuple(sorted((Counter(whole) - Counter(part)).elements()))


def parse_values(value: Any, what: str = '"dice"') -> tuple[int, ...]:
    """A list of die faces 1-6, sorted.

    Raises:
        IllegalAction: not a list of whole numbers 1 to 6.
    """
    if not isinstance(value, (list, tuple)):
        raise IllegalAction(f"{what} must be a list of die faces such as [3, 5], not {json.dumps(value, default=str)}")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise IllegalAction(f"{what} must hold die faces 1 to 6, not {json.dumps(v, default=str)}")
    return tuple(sorted(value))


def all_rolls(n: int = 5) -> list[tuple[int, ...]]:
    """Every distinct roll of ``n`` dice, sorted (252 for five)."""
    return list(combinations_with_replacement(range(1, 7), n))


def keeps(dice: Sequence[int]) -> list[tuple[int, ...]]:
    """Every distinct set of dice that can be held from ``dice`` before re-rolling the rest.

    Holding every die is left out (there would be nothing to roll).
    """
    found: set[tuple[int, ...]] = set()
    dice = tuple(sorted(dice))
    for size in range(len(dice)):
        for idx in combinations(range(len(dice)), size):
            found.add(tuple(dice[i] for i in idx))
    return sorted(found, key=lambda k: (len(k), k))


@dataclass(frozen=True)
class Reading:
    """What a roll action says about the dice: ``dice`` (all in play, sorted) when certain,
    else ``seen`` (what the camera read) and ``why`` it must be confirmed."""

    dice: tuple[int, ...] | None
    seen: tuple[int, ...] = ()
    why: str = ""


def _fit(values: tuple[int, ...], kept: tuple[int, ...], thrown: Sequence[int]) -> tuple[int, ...] | None:
    """The dice in play after a throw reported as ``values`` (thrown only, or everything)."""
    if len(values) in thrown:
        return tuple(sorted(kept + values))
    if kept and len(values) - len(kept) in thrown and sub_multiset(kept, values):
        return values
    return None


def _expected(kept: tuple[int, ...], thrown: Sequence[int]) -> str:
    counts = " or ".join(str(n) for n in thrown)
    held = f" (or all {' or '.join(str(n + len(kept)) for n in thrown)} with the {show(kept)} held)" if kept else ""
    return f"{counts} dice{held}"


def read(action: Mapping[str, Any], kept: tuple[int, ...], thrown: Sequence[int]) -> Reading:
    """The dice a roll (or confirm) action reports; ``thrown`` lists the allowed numbers thrown.

    Raises:
        IllegalAction: no dice given, typed dice of the wrong number or faces, or camera
            data that is not readable at all.
    """
    if action.get("dice") is not None:
        values = parse_values(action["dice"])
        fitted = _fit(values, kept, thrown)
        if fitted is None:
            raise IllegalAction(f"{len(values)} dice given ({show(values)}); expected {_expected(kept, thrown)}")
        return Reading(fitted)
    detections = action.get("detections")
    if detections is None:
        raise IllegalAction('a roll needs the dice: "dice": [..] as read from the table, or "from": "camera"')
    seen, unsure = _parse_detections(detections)
    fitted = _fit(seen, kept, thrown)
    if unsure:
        return Reading(None, seen, f"the camera is unsure of {unsure} {'die' if unsure == 1 else 'dice'}")
    if fitted is None:
        why = f"the camera saw {len(seen)} dice ({show(seen)}), expected {_expected(kept, thrown)}"
        return Reading(None, seen, why)
    return Reading(fitted)


def _parse_detections(data: Any) -> tuple[tuple[int, ...], int]:
    """Face values and the number of unsure dice from DiceDetections JSON.

    Raises:
        IllegalAction: the data does not have that shape.
    """
    bad = IllegalAction('the camera data is not readable (expected {"dice": [{"value": 1-6, "unsure": ...}, ...]})')
    if not isinstance(data, Mapping) or not isinstance(data.get("dice"), list):
        raise bad
    values = []
    unsure = 0
    for die in data["dice"]:
        if not isinstance(die, Mapping):
            raise bad
        v = die.get("value")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise bad
        flag = die.get("unsure", False)
        if not isinstance(flag, bool):
            raise bad
        values.append(v)
        unsure += flag
    return tuple(sorted(values)), unsure
