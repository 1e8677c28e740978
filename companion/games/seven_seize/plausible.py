"""Whether a weigh-off reading can be what the balance (or the domino count) says.

A reading is checked against what is physically possible before the weigh-off takes it:

- **Pieces on the pan** (grams): ``n`` pieces weigh at least ``n`` times the lightest piece
  and at most ``n`` times the heaviest (house rules ``lightest_piece_g`` and
  ``heaviest_piece_g``: a table weighs its lightest and heaviest piece once and enters
  them). The first whole collections weighed narrow this further: with pieces "of similar
  but unequal weight" no piece weighs more than ``piece_spread`` times another, so a
  collection averaging ``m`` g a piece means the lightest piece weighs at least
  ``m / piece_spread`` and the heaviest at most ``m * piece_spread``.
- **Removing pieces** (a tie-break): the pieces left weigh no more than before, and less
  by at least the lightest and at most the heaviest piece for each one removed. The same
  pieces weighed again must agree with their earlier weight.
- **Dominoes** (pips, exact): ``n`` dominoes of the set show at least the ``n`` lowest and
  at most the ``n`` highest counts in it, and all the collections counted so far (they
  share one set) together too. ``domino_max_pips`` 2N means a double-N set (double-nine:
  55 dominoes; double-six: 28, so two sets for 49 pieces).

Grams carry an uncertainty: a reading is refused only when it is off by more than
:data:`SIGMAS` standard uncertainties (and :data:`RELATIVE` of the weight, for a load
cell's drift between weighings), so a true reading is practically never refused.
What only the house-rule figures rule out can be kept with ``"confirm": true`` (the
table's booty may be lighter or heavier than it thought); what no booty can do (a
removal that adds weight, the same pieces weighing differently, an impossible pip count)
cannot.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.seven_seize.weighoff import PIPS, Reading, WeighOff

#: Standard uncertainties a reading may be off before it is called impossible.
SIGMAS = 4.0
#: Share of the weight allowed for drift between two weighings of one load cell.
RELATIVE = 0.005
#: Pieces of booty in a game (7 rounds of 7).
BOOTY = 49


@dataclass(frozen=True)
class Booty:
    """What the table says of its booty: the lightest and heaviest piece (grams), how
    unequal the pieces are (0: not used), and the most pips on one domino."""

    lightest_g: float = 0.2
    heaviest_g: float = 100.0
    spread: float = 20.0
    domino_max_pips: int = 18


@dataclass(frozen=True)
class Verdict:
    """Why a reading cannot be right: ``why`` (what cannot be, and what rules it out),
    ``advice`` (what to do: weigh or count again), and whether ``"confirm": true`` may keep it."""

    why: str
    advice: str
    confirmable: bool

    @property
    def reason(self) -> str:
        """The refusal in words: why, then what to do."""
        return f"{self.why}. {self.advice}."


def domino_counts(max_pips: int) -> tuple[int, ...] | None:
    """The pip count of every domino in play, lowest first, for sets whose top domino shows
    ``max_pips`` (a double-N set, repeated until there are 49 pieces); None when no standard
    set has that top (an odd number)."""
    if max_pips < 0 or max_pips % 2:
        return None
    top = max_pips // 2
    one_set = [a + b for a in range(top + 1) for b in range(a, top + 1)]
    sets = math.ceil(BOOTY / len(one_set))
    return tuple(sorted(one_set * sets))


def pip_range(pieces: int, max_pips: int) -> tuple[int, int]:
    """The fewest and most pips ``pieces`` dominoes can show together."""
    counts = domino_counts(max_pips)
    if counts is None or pieces > len(counts):
        return 0, pieces * max_pips
    highest = counts[len(counts) - pieces :] if pieces else ()
    return sum(counts[:pieces]), sum(highest)


def _set_words(max_pips: int) -> str:
    counts = domino_counts(max_pips)
    if counts is None:
        return f"dominoes of at most {max_pips} pips"
    top = max_pips // 2
    sets = len(counts) // ((top + 1) * (top + 2) // 2)
    name = {9: "double-nine", 6: "double-six", 12: "double-twelve", 15: "double-fifteen"}.get(top, f"double-{top}")
    return f"a {name} set" if sets == 1 else f"{sets} {name} sets"


def _pieces(n: int, unit: str = "piece") -> str:
    plural = unit + ("es" if unit.endswith("o") else "s")
    return f"{n} {unit if n == 1 else plural}"


def _tolerance(*readings: Reading) -> float:
    spread = math.sqrt(sum(r.uncertainty**2 for r in readings))
    return SIGMAS * spread + RELATIVE * max(abs(r.value) for r in readings)


def check(name: str, reading: Reading, weighoff: WeighOff, booty: Booty) -> Verdict | None:
    """Why ``name``'s ``reading`` cannot be right, or None when it can.

    ``reading.pieces`` is ignored: the pieces on the pan are the weigh-off's count.
    """
    pieces = weighoff.on_pan(name)
    earlier = weighoff.earlier_readings(name)
    if reading.unit == PIPS:
        return _check_pips(name, int(reading.value), pieces, earlier, weighoff=weighoff, booty=booty)
    return _check_grams(name, reading, pieces, earlier, weighoff=weighoff, booty=booty)


def _check_pips(
    name: str, pips: int, pieces: int, earlier: Sequence[Reading], *, weighoff: WeighOff, booty: Booty
) -> Verdict | None:
    most = booty.domino_max_pips
    low, high = pip_range(pieces, most)
    again = "Count the pips again"
    if not low <= pips <= high:
        bound = f"the {pieces} lowest show {low}" if pips < low else f"the {pieces} highest show {high}"
        return Verdict(
            f"{name}'s {_pieces(pieces, 'domino')} cannot show {pips} pips: in {_set_words(most)} {bound}",
            again,
            False,
        )
    for before in earlier:
        gone = before.pieces - pieces
        if gone < 0:
            continue
        if gone == 0 and pips != before.value:
            return Verdict(
                f"{name}'s {_pieces(pieces, 'domino')} showed {before.value:g} pips before and "
                f"now {pips}: the same dominoes always show the same count",
                again,
                False,
            )
        if pips > before.value:
            return Verdict(
                f"{name}'s collection shows {pips} pips after removing {_pieces(gone, 'domino')}, more "
                f"than the {before.value:g} it showed before: removing a domino cannot add pips",
                again,
                False,
            )
        most_gone = pip_range(gone, most)[1]
        if pips < before.value - most_gone:
            return Verdict(
                f"{name}'s collection shows {pips} pips after removing {_pieces(gone, 'domino')}, "
                f"{before.value - pips:g} fewer than before, but {_pieces(gone, 'domino')} of "
                f"{_set_words(most)} show at most {most_gone}",
                again,
                False,
            )
    others = {n: r for n, r in weighoff.whole_readings().items() if n != name}
    if others and pieces == weighoff.pieces[weighoff.contestants.index(name)]:
        total_pieces = pieces + sum(r.pieces for r in others.values())
        total = pips + sum(int(r.value) for r in others.values())
        low, high = pip_range(total_pieces, most)
        if not low <= total <= high:
            return Verdict(
                f"{name}'s {pips} pips cannot be right: with the collections counted so far that makes "
                f"{total} pips on {total_pieces} dominoes, and in {_set_words(most)} "
                f"{total_pieces} dominoes show {low} to {high}",
                again,
                False,
            )
    return None


def _check_grams(
    name: str, reading: Reading, pieces: int, earlier: Sequence[Reading], *, weighoff: WeighOff, booty: Booty
) -> Verdict | None:
    grams = reading.value
    again = "Check the pan holds just those pieces and the scale is tared, then weigh again"
    for before in earlier:
        gone = before.pieces - pieces
        if gone < 0:
            continue
        slack = _tolerance(reading, before)
        if gone == 0 and abs(grams - before.value) > slack:
            return Verdict(
                f"{name}'s {_pieces(pieces)} weighed {before.value:.1f} g before and {grams:.1f} g now: "
                "the same pieces cannot change weight",
                again,
                False,
            )
        if gone > 0 and grams > before.value + slack:
            return Verdict(
                f"{name}'s collection weighs {grams:.1f} g after removing {_pieces(gone)}, more than the "
                f"{before.value:.1f} g it weighed before: removing a piece cannot add weight",
                again,
                False,
            )
    lightest, heaviest, why_light, why_heavy = _piece_range(name, weighoff, booty)
    slack = _tolerance(reading)
    if grams < pieces * lightest - slack:
        return Verdict(
            f"{name}'s {_pieces(pieces)} cannot weigh {grams:.1f} g: {why_light}, which makes at "
            f"least {pieces * lightest:.1f} g",
            again,
            True,
        )
    if grams > pieces * heaviest + slack:
        return Verdict(
            f"{name}'s {_pieces(pieces)} cannot weigh {grams:.1f} g: {why_heavy}, which makes at "
            f"most {pieces * heaviest:.1f} g",
            again,
            True,
        )
    for before in earlier:
        gone = before.pieces - pieces
        if gone <= 0:
            continue
        slack = _tolerance(reading, before)
        if grams > before.value - gone * lightest + slack:
            return Verdict(
                f"{name}'s collection weighs {grams:.1f} g after removing {_pieces(gone)}, but it weighed "
                f"{before.value:.1f} g before and {why_light}",
                again,
                True,
            )
        if grams < before.value - gone * heaviest - slack:
            return Verdict(
                f"{name}'s collection weighs {grams:.1f} g after removing {_pieces(gone)}, "
                f"{before.value - grams:.1f} g less than before, but {why_heavy}",
                again,
                True,
            )
    return None


def _piece_range(name: str, weighoff: WeighOff, booty: Booty) -> tuple[float, float, str, str]:
    """The lightest and heaviest a piece can be, from the house rules and the collections
    weighed so far, with each bound's reason in words."""
    lightest, heaviest = booty.lightest_g, booty.heaviest_g
    why_light = f"the lightest piece weighs {lightest:g} g (house rule lightest_piece_g)"
    why_heavy = f"the heaviest piece weighs {heaviest:g} g (house rule heaviest_piece_g)"
    others = {n: r for n, r in weighoff.whole_readings().items() if n != name}
    if booty.spread > 0 and others:
        means = {n: max(r.value, 0.0) / r.pieces for n, r in others.items()}
        high_name = max(means, key=lambda n: means[n])
        low_name = min(means, key=lambda n: means[n])
        learned_light = means[high_name] / booty.spread
        learned_heavy = means[low_name] * booty.spread
        rule = f"no piece weighs more than {booty.spread:g} times another (house rule piece_spread)"
        if learned_light > lightest:
            lightest = learned_light
            why_light = (
                f"{high_name}'s pieces average {means[high_name]:.2f} g and {rule}, "
                f"so a piece weighs {lightest:.2f} g or more"
            )
        if 0 < learned_heavy < heaviest:
            heaviest = learned_heavy
            why_heavy = (
                f"{low_name}'s pieces average {means[low_name]:.2f} g and {rule}, "
                f"so a piece weighs {heaviest:.1f} g or less"
            )
    return lightest, heaviest, why_light, why_heavy
