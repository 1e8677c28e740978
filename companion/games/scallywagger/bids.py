"""Scallywagger's bids: which raises are legal, and counting the dice revealed at a challenge.

A bid is "at least ``quantity`` dice showing ``face``" among every die on the table.
How a bid may be raised is a house-rule reading of the rulebook (see
:mod:`companion.games.scallywagger`):

- ``raise_rule="any_face"``: more dice of any face, or the same number of a higher face.
- ``raise_rule="no_lower_face"``: the face never goes down: more dice of the same or a
  higher face, or the same number of a higher face.
- ``ones_bids="lowest_face"``: 1 is an ordinary face, the lowest, so a bid on 1s must
  always raise the quantity; ``"never"``: nobody may bid on 1s; ``"aces"`` (only with
  wild ones): the Perudo convention, where 1s may not open, a bid on 1s needs at least
  half the quantity (rounded up), and leaving 1s needs twice the quantity plus one.

Bids are capped at the number of dice on the table (a bid above it can never be true).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import IllegalAction, shown

FACES = (1, 2, 3, 4, 5, 6)
RAISE_RULES = ("any_face", "no_lower_face")
ONES_BIDS = ("lowest_face", "never", "aces")

_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


@dataclass(frozen=True)
class BidRules:
    """The house rules that shape bidding and counting."""

    raise_rule: str = "any_face"
    ones_bids: str = "lowest_face"
    wild_ones: bool = False


@dataclass(frozen=True)
class Bid:
    """``seat`` bid that at least ``quantity`` dice show ``face``."""

    seat: int
    quantity: int
    face: int

    def words(self) -> str:
        """``five 4s``."""
        return bid_words(self.quantity, self.face)


def bid_words(quantity: int, face: int) -> str:
    """A bid in table words: ``three 2s``, ``one 6``, ``14 5s``."""
    number = _WORDS[quantity] if 0 <= quantity < len(_WORDS) else str(quantity)
    return f"{number} {face}" if quantity == 1 else f"{number} {face}s"


def refusal(previous: Bid | None, quantity: int, face: int, total: int, rules: BidRules) -> str | None:
    """Why bidding ``quantity`` x ``face`` over ``previous`` is not allowed, or None if it is.

    ``total`` is the number of dice on the table (the cap).
    """
    if face not in FACES:
        return f"a die has faces 1 to 6; there is no {face}"
    if quantity < 1:
        return "a bid is on at least one die"
    if quantity > total:
        return f"there are only {total} dice on the table, so a bid can be at most {total}"
    if face == 1 and rules.ones_bids == "never":
        return "bids on 1s are not allowed at this table (house rule ones_bids=never)"
    if previous is None:
        if face == 1 and rules.ones_bids == "aces":
            return "the bidding may not open on 1s (house rule ones_bids=aces)"
        return None
    pq, pf = previous.quantity, previous.face
    said = bid_words(quantity, face)
    if rules.ones_bids == "aces" and (face == 1 or pf == 1):
        if pf != 1:
            need = -(-pq // 2)
            if quantity < need:
                return f"a bid on 1s after {previous.words()} needs at least {bid_words(need, 1)}"
        elif face == 1:
            if quantity <= pq:
                return f"{said} does not raise {previous.words()}: bid more 1s"
        elif quantity < 2 * pq + 1:
            return f"leaving 1s after {previous.words()} needs at least {2 * pq + 1} dice of the new face"
        return None
    if quantity < pq:
        return f"{said} bids fewer dice than {previous.words()}; a raise never lowers the number of dice"
    if quantity == pq and face <= pf:
        return f"{said} does not raise {previous.words()}: bid more dice, or the same number of a higher face"
    if rules.raise_rule == "no_lower_face" and face < pf:
        return f"{said} lowers the face from {pf}s (house rule raise_rule=no_lower_face)"
    return None


def legal_bids(previous: Bid | None, total: int, rules: BidRules) -> list[tuple[int, int]]:
    """Every ``(quantity, face)`` that may be bid now, face by face, fewest dice first."""
    return [(q, f) for f in FACES for q in range(1, total + 1) if refusal(previous, q, f, total, rules) is None]


def matching(dice: Iterable[int], face: int, wild_ones: bool) -> int:
    """How many of ``dice`` count for ``face`` (1s too when wild, unless the bid is on 1s)."""
    return sum(1 for d in dice if d == face or (wild_ones and d == 1 and face != 1))


@dataclass(frozen=True)
class Reveal:
    """What was seen when the dice were revealed.

    ``dice``: every face value (None when only a count was typed); ``unsure``: indices of
    dice the camera was unsure of and no player has confirmed yet; ``count``: the typed
    number of dice counting for the bid (None when the dice were given); ``source``:
    ``camera``, ``dice`` or ``count``. When the camera saw more dice than are on the table
    (``expected``), as many of the unsure ones are something else: a player says which,
    and ``dropped`` holds their indices. When it saw fewer, the players add the faces of
    the dice it missed (``missing``), each as sure as a confirmed die.
    """

    dice: tuple[int, ...] | None
    unsure: tuple[int, ...]
    count: int | None
    source: str
    expected: int | None = None
    dropped: tuple[int, ...] = ()

    @property
    def _excess(self) -> int:
        """The dice kept less those on the table: above 0 too many seen, below 0 too few."""
        if self.dice is None or self.expected is None:
            return 0
        return len(self.dice) - len(self.dropped) - self.expected

    @property
    def surplus(self) -> int:
        """How many of the unsure dice are not dice and have not been said to be yet."""
        return max(0, self._excess)

    @property
    def missing(self) -> int:
        """How many dice on the table the camera did not see and no player has added yet."""
        return max(0, -self._excess)

    @property
    def settled(self) -> bool:
        """Whether every die is known: none unsure, none missing."""
        return not self.unsure and not self.missing

    @property
    def may_confirm(self) -> bool:
        """Whether a face may be given to an unsure die: not while every unsure die left
        must be one of the spots that are no dice."""
        return self.surplus < len(self.unsure)

    @property
    def may_drop(self) -> bool:
        """Whether an unsure die may be said to be no die: while the camera's count is too high."""
        return self.surplus > 0

    def kept(self) -> tuple[int, ...]:
        """The faces of the dice (the spots said not to be dice left out)."""
        return tuple(v for i, v in enumerate(self.dice or ()) if i not in self.dropped)

    def counted(self, face: int, wild_ones: bool) -> int:
        """The dice that count for ``face``; only meaningful once nothing is unsure."""
        if self.dice is None:
            assert self.count is not None
            return self.count
        return matching(self.kept(), face, wild_ones)

    def confirm(self, index: int, value: int) -> Reveal:
        """The reveal with die ``index`` confirmed as ``value``.

        Raises:
            IllegalAction: that die is not waiting for confirmation, or the value is not 1-6.
        """
        if self.dice is None or index not in self.unsure:
            waiting = ", ".join(str(i) for i in self.unsure) or "none"
            raise IllegalAction(f"die {index} is not waiting to be confirmed (waiting: {waiting})")
        if value not in FACES:
            raise IllegalAction(f"a die shows 1 to 6, not {value}")
        if not self.may_confirm:
            raise IllegalAction(
                f"the camera saw {self.surplus} more {dice_word(self.surplus)} than are on the table, and only "
                f"{len(self.unsure)} unsure: die {index} is one of those that are not dice"
            )
        dice = (*self.dice[:index], value, *self.dice[index + 1 :])
        return replace(self, dice=dice, unsure=tuple(i for i in self.unsure if i != index))

    def drop(self, index: int) -> Reveal:
        """The reveal with the unsure die ``index`` said to be no die (a spot, a coin).

        Raises:
            IllegalAction: that die is not waiting for confirmation, or the camera saw no
            more dice than are on the table.
        """
        if self.dice is None or index not in self.unsure:
            waiting = ", ".join(str(i) for i in self.unsure) or "none"
            raise IllegalAction(f"die {index} is not waiting to be confirmed (waiting: {waiting})")
        if not self.may_drop:
            raise IllegalAction(
                f"the camera counted as many dice as are on the table, so die {index} is a die: say what it shows"
            )
        return replace(
            self, unsure=tuple(i for i in self.unsure if i != index), dropped=tuple(sorted((*self.dropped, index)))
        )

    def add(self, value: int) -> Reveal:
        """The reveal with a die the camera missed added, showing ``value``.

        Raises:
            IllegalAction: the camera missed no die, or the value is not 1-6.
        """
        if not self.missing:
            raise IllegalAction("no die is missing: the camera saw as many dice as are on the table")
        if value not in FACES:
            raise IllegalAction(f"a die shows 1 to 6, not {value}")
        return replace(self, dice=(*(self.dice or ()), value))


def dice_word(n: int) -> str:
    """The noun for ``n`` dice: "die" (1) or "dice"."""
    return "die" if n == 1 else "dice"


def are_no_dice(n: int) -> str:
    """The verb for ``n`` spots that are not dice: "is no die" (1) or "are no dice"."""
    return "is no die" if n == 1 else "are no dice"


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what} must be a whole number, not {shown(value)}")
    return value


def reveal_from_action(action: Mapping[str, Any], total: int, bid_face: int) -> Reveal:
    """Read a reveal action: camera ``detections``, typed ``dice`` or a typed ``count``.

    ``total`` is the number of dice that must be on the table (every Captain's crewmates).

    Raises:
        IllegalAction: none or several of the three given, malformed data, or the wrong
        number of dice: typed, or more seen by the camera than it has unsure dice to
        account for (a camera that saw fewer is accepted: the players add the rest).
    """
    given = [key for key in ("detections", "dice", "count") if action.get(key) is not None]
    if len(given) != 1:
        raise IllegalAction(
            'a reveal needs exactly one of: the camera\'s "detections" (send "from": "camera"), '
            'the "dice" seen (a list of faces) or the "count" of dice showing '
            f"{bid_face}s"
        )
    key = given[0]
    if key == "count":
        count = _int(action["count"], '"count"')
        if not 0 <= count <= total:
            raise IllegalAction(f'"count" must be from 0 to {total} (the dice on the table), not {count}')
        return Reveal(dice=None, unsure=(), count=count, source="count")
    if key == "dice":
        faces = action["dice"]
        if not isinstance(faces, Sequence) or isinstance(faces, (str, bytes)):
            raise IllegalAction('"dice" must be a list of faces such as [4, 4, 2, 6, 1]')
        values = tuple(_int(v, "each die") for v in faces)
        unsure: tuple[int, ...] = ()
        source = "dice"
    else:
        values, unsure = _read_detections(action["detections"])
        source = "camera"
    if any(v not in FACES for v in values):
        raise IllegalAction("every die shows a face from 1 to 6")
    if source == "camera" and (len(values) < total or total < len(values) <= total + len(unsure)):
        # the players add the dice it missed, or say which of those it was unsure of are
        # the extra ones
        return Reveal(dice=values, unsure=unsure, count=None, source=source, expected=total)
    if len(values) != total and source == "camera":
        raise IllegalAction(
            f"the camera saw {len(values)} dice but {total} crewmates are on the table, and it was sure of "
            f"{len(values) - len(unsure)} of them; take away what is not a die, then read again "
            '(or type the "count")'
        )
    if len(values) != total:
        raise IllegalAction(
            f"the list has {len(values)} dice but {total} crewmates are on the table; give every die revealed "
            '(or type the "count")'
        )
    return Reveal(dice=values, unsure=unsure, count=None, source=source)


def _read_detections(data: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Faces and unsure indices from ``DiceDetections.to_json()`` data."""
    bad = IllegalAction(
        '"detections" must be the dice reader\'s result: {"dice": [{"value": 4, "unsure": false}, ...]}'
    )
    if not isinstance(data, Mapping) or not isinstance(data.get("dice"), Sequence) or isinstance(data.get("dice"), str):
        raise bad
    values: list[int] = []
    unsure: list[int] = []
    for i, die in enumerate(data["dice"]):
        if not isinstance(die, Mapping) or "value" not in die:
            raise bad
        values.append(_int(die["value"], "each die's value"))
        flag = die.get("unsure", False)
        if not isinstance(flag, bool):
            raise bad
        if flag:
            unsure.append(i)
    return tuple(values), tuple(unsure)
