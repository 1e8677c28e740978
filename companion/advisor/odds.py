"""Bid odds for hidden-dice bidding (Scallywagger): exact binomial sums, no simulation.

A bid "``quantity`` x ``face``" is true when at least ``quantity`` of all the dice on the
table count for ``face``; a Parlay on it is right when exactly ``quantity`` do. The asker
knows their own dice; every other die is a fair six-sided die they cannot see. With wild
ones a 1 counts for every face except in a bid on 1s, so an unseen die counts with
probability 2/6 instead of 1/6.

Results are :class:`fractions.Fraction` (exact); ``float()`` them for display.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

from companion.errors import ExitCode, PurserError

FACES = range(1, 7)


class OddsError(PurserError, ValueError):
    """A question about odds that has no answer: a die face outside 1-6, more own dice than
    dice on the table, a bid on no dice."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class BidOdds:
    """The odds of one bid for one asker.

    ``unseen``: dice the asker cannot see; ``own_count``: the asker's dice that count for
    the face; ``need``: how many of the unseen dice must count for the bid to be true;
    ``p_die``: the chance one unseen die counts; ``at_least``: P(bid true);
    ``exact``: P(a Parlay on it is right).
    """

    dice: int
    quantity: int
    face: int
    own: tuple[int, ...]
    wild_ones: bool
    unseen: int
    own_count: int
    need: int
    p_die: Fraction
    at_least: Fraction
    exact: Fraction

    def to_json(self) -> dict[str, object]:
        """Plain data: probabilities as floats and as exact ``"n/d"`` fractions."""
        return {
            "dice": self.dice,
            "bid": {"quantity": self.quantity, "face": self.face},
            "own": list(self.own),
            "wild_ones": self.wild_ones,
            "unseen": self.unseen,
            "own_count": self.own_count,
            "need": self.need,
            "at_least": float(self.at_least),
            "exact": float(self.exact),
            "at_least_fraction": str(self.at_least),
            "exact_fraction": str(self.exact),
        }


def die_probability(face: int, wild_ones: bool = False) -> Fraction:
    """The chance one unseen die counts for ``face``: 1/6, or 2/6 with wild ones (not for 1s).

    Raises:
        OddsError: ``face`` is not 1-6.
    """
    _check_face(face)
    return Fraction(2, 6) if wild_ones and face != 1 else Fraction(1, 6)


def binomial_pmf(n: int, k: int, p: Fraction) -> Fraction:
    """P(exactly ``k`` of ``n`` independent dice count), each with chance ``p``; 0 outside 0..n."""
    if k < 0 or k > n:
        return Fraction(0)
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def binomial_at_least(n: int, k: int, p: Fraction) -> Fraction:
    """P(at least ``k`` of ``n`` dice count); 1 when ``k`` <= 0, 0 when ``k`` > ``n``."""
    if k <= 0:
        return Fraction(1)
    if k > n:
        return Fraction(0)
    # Sum whichever tail is shorter; both are exact.
    if k > n // 2:
        return sum((binomial_pmf(n, i, p) for i in range(k, n + 1)), Fraction(0))
    return 1 - sum((binomial_pmf(n, i, p) for i in range(0, k)), Fraction(0))


def counting(dice: Sequence[int], face: int, wild_ones: bool = False) -> int:
    """How many of ``dice`` count for ``face`` (1s too when wild, unless the face is 1)."""
    return sum(1 for d in dice if d == face or (wild_ones and d == 1 and face != 1))


def bid_odds(dice: int, quantity: int, face: int, own: Sequence[int] = (), wild_ones: bool = False) -> BidOdds:
    """The chance that ``quantity`` x ``face`` is true (at least) and exact, for an asker
    holding ``own`` among ``dice`` dice on the table.

    Raises:
        OddsError: a face outside 1-6, a quantity below 1, fewer dice than the asker holds.
    """
    _check_face(face)
    if dice < 0:
        raise OddsError(f"the number of dice on the table cannot be negative ({dice})")
    if quantity < 1:
        raise OddsError(f"a bid is on at least one die, not {quantity}")
    own_dice = tuple(int(d) for d in own)
    for d in own_dice:
        if d not in FACES:
            raise OddsError(f"your dice show faces 1 to 6; {d} is not one")
    if len(own_dice) > dice:
        raise OddsError(f"you hold {len(own_dice)} dice but only {dice} are on the table")
    unseen = dice - len(own_dice)
    own_count = counting(own_dice, face, wild_ones)
    need = quantity - own_count
    p = die_probability(face, wild_ones)
    return BidOdds(
        dice=dice,
        quantity=quantity,
        face=face,
        own=own_dice,
        wild_ones=wild_ones,
        unseen=unseen,
        own_count=own_count,
        need=need,
        p_die=p,
        at_least=binomial_at_least(unseen, need, p),
        exact=binomial_pmf(unseen, need, p),
    )


def parse_bid(text: str) -> tuple[int, int]:
    """``"5x4"`` (five 4s) as ``(5, 4)``; also ``5X4`` and ``5*4``.

    Raises:
        OddsError: not QUANTITYxFACE with a face 1-6.
    """
    cleaned = text.strip().lower().replace("*", "x").replace("×", "x")
    quantity, sep, face = cleaned.partition("x")
    try:
        if not sep:
            raise ValueError(text)
        q, f = int(quantity), int(face.rstrip("s").rstrip("'"))
    except ValueError:
        raise OddsError(f"write a bid as QUANTITYxFACE, e.g. 5x4 for five 4s (not {text!r})") from None
    _check_face(f)
    if q < 1:
        raise OddsError(f"a bid is on at least one die, not {q}")
    return q, f


def parse_dice(text: str) -> tuple[int, ...]:
    """``"4,4,2,6,1"`` as a tuple of faces (blank: none).

    Raises:
        OddsError: an entry that is not a face 1-6.
    """
    faces = []
    for part in text.replace(" ", ",").split(","):
        if not part.strip():
            continue
        try:
            value = int(part)
        except ValueError:
            raise OddsError(f"your dice are faces 1 to 6 separated by commas, e.g. 4,4,2,6,1 (not {part!r})") from None
        if value not in FACES:
            raise OddsError(f"your dice show faces 1 to 6; {value} is not one")
        faces.append(value)
    return tuple(faces)


def _check_face(face: int) -> None:
    if face not in FACES:
        raise OddsError(f"a die has faces 1 to 6; there is no {face}")
