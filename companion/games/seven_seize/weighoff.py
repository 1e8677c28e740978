"""The 7 Seize weigh-off, as a pure procedure: readings in, bracket and winner out.

The rulebook: two players contest their collections and the lighter one is eliminated
(the heavier one with Cursed Treasure) until one remains. When no clear winner can be
told by weight, both remove one piece and re-weigh, as often as needed.

How Purser runs it:

- **One pan** (a single load cell): every collection is weighed once, whole. The
  heaviest (lightest when cursed) then defends against each other collection, weakest
  first, so only collections close to the top ever need a tie-break, and the
  eliminations come out in ranking order. No extra weighing is needed unless a contest
  is a tie.
- **Two pans** (two load cells, one collection on each): collections contest in seat
  order: the first two, then the survivor against the next, and so on; each contest
  weighs both pans afresh.
- **A tie** is a difference no larger than ``k`` times the combined standard uncertainty
  ``sqrt(u_a² + u_b²)``, where ``k`` is the two-sided coverage factor for the confidence
  level (1.96 for 95 %). Readings are treated as independent, which over-states the
  uncertainty of a difference when both come from one calibration: a tie is then called
  a little more often, never less. Purser never decides a tie: it asks both players to
  remove one piece and re-weigh, and repeats. Dominoes (pips) are exact: only equal
  counts tie.
- A side with no piece left cannot remove one; if neither side has a piece left and
  they are still level, the contest is *drawn* and both stay in (a shared win if no one
  beats them).
- Whether the removed pieces go back after the contest (``pieces_return``) is a house
  rule; when they stay out, the shortened collection's last weight is what it carries into
  its next contest.
- An empty collection weighs exactly 0 and is never put on the pan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.pans import pan_name

GRAMS, PIPS = "g", "pips"


def coverage_factor(confidence: float) -> float:
    """The two-sided normal coverage factor ``k`` for a confidence level (0.95 -> 1.96).

    Raises:
        ValueError: ``confidence`` is not strictly between 0 and 1.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"a confidence level lies between 0 and 1, not {confidence}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


@dataclass(frozen=True)
class Reading:
    """One collection's weight: ``value`` in ``unit`` (grams or pips) with its standard uncertainty.

    ``pieces`` is how many pieces were on the pan; ``source`` says where the number came
    from (``scale``, ``typed``, ``pips``, ``empty``); ``channel``, ``calibration`` and
    ``samples`` come from the balance when it made the reading.
    """

    value: float
    uncertainty: float = 0.0
    unit: str = GRAMS
    pieces: int = 0
    source: str = "typed"
    channel: int | None = None
    calibration: str = ""
    samples: int = 0

    def to_json(self) -> dict[str, Any]:
        """A plain dict for screens."""
        return {
            "value": self.value,
            "uncertainty": self.uncertainty,
            "unit": self.unit,
            "pieces": self.pieces,
            "source": self.source,
            "channel": self.channel,
            "calibration": self.calibration,
            "samples": self.samples,
        }

    def words(self) -> str:
        """``"153.2 ± 0.4 g"`` or ``"41 pips"``."""
        if self.unit == PIPS:
            return f"{self.value:g} pips"
        digits = _digits(self.uncertainty)
        if self.uncertainty > 0:
            return f"{self.value:.{digits}f} ± {self.uncertainty:.{digits}f} g"
        return f"{self.value:.{digits}f} g"


@dataclass(frozen=True)
class Comparison:
    """Two readings compared: ``outcome`` is ``"a"`` or ``"b"`` (who stays in) or ``"tie"``.

    ``difference`` is ``a - b``; ``threshold`` = coverage factor x ``combined`` uncertainty.
    """

    difference: float
    combined: float
    threshold: float
    outcome: str

    def to_json(self) -> dict[str, Any]:
        return {
            "difference": self.difference,
            "combined_uncertainty": self.combined,
            "threshold": self.threshold,
            "outcome": self.outcome,
        }


def compare(a: Reading, b: Reading, confidence: float, cursed: bool = False) -> Comparison:
    """Which of two collections stays in: the heavier (lighter when ``cursed``), or a tie.

    A difference no larger than ``k * sqrt(u_a² + u_b²)`` is a tie; equal readings always
    tie, even with no uncertainty at all.
    """
    difference = a.value - b.value
    combined = math.hypot(a.uncertainty, b.uncertainty)
    threshold = coverage_factor(confidence) * combined
    if abs(difference) <= threshold:
        outcome = "tie"
    elif (difference > 0) != cursed:
        outcome = "a"
    else:
        outcome = "b"
    return Comparison(difference, combined, threshold, outcome)


@dataclass(frozen=True)
class Bout:
    """One weighing of a contested pair: both readings, pieces set aside, the comparison."""

    readings: tuple[Reading, Reading]
    removed: tuple[int, int]
    comparison: Comparison

    def to_json(self, pair: tuple[str, str]) -> dict[str, Any]:
        return {
            "readings": {pair[0]: self.readings[0].to_json(), pair[1]: self.readings[1].to_json()},
            "removed": {pair[0]: self.removed[0], pair[1]: self.removed[1]},
            **self.comparison.to_json(),
        }


@dataclass(frozen=True)
class Contest:
    """Two collections contested: ``pair`` is (holder, challenger).

    ``winner`` stays in; ``eliminated`` lists who went out (the holder's co-holders too,
    after a drawn contest); both empty while the contest runs or when it was ``drawn``.
    """

    pair: tuple[str, str]
    bouts: tuple[Bout, ...] = ()
    winner: str = ""
    eliminated: tuple[str, ...] = ()
    drawn: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "pair": list(self.pair),
            "bouts": [b.to_json(self.pair) for b in self.bouts],
            "winner": self.winner or None,
            "eliminated": list(self.eliminated),
            "drawn": self.drawn,
            "tie_breaks": max(0, len(self.bouts) - 1),
        }


@dataclass(frozen=True)
class WeighOff:
    """The weigh-off in progress. Build it with :meth:`start`; feed it with :meth:`record`.

    Per contestant (same order as ``contestants``): ``pieces`` in the collection,
    ``full`` its first whole-collection reading, ``current`` the reading it carries into
    its next contest (one pan), ``removed`` the pieces set aside now.
    """

    contestants: tuple[str, ...]
    pieces: tuple[int, ...]
    pans: int = 1
    cursed: bool = False
    confidence: float = 0.95
    unit: str = GRAMS
    pieces_return: bool = True
    full: tuple[Reading | None, ...] = ()
    current: tuple[Reading | None, ...] = ()
    removed: tuple[int, ...] = ()
    champions: tuple[str, ...] = ()
    queue: tuple[str, ...] = ()
    contest: Contest | None = None
    bout: tuple[Reading | None, Reading | None] = (None, None)
    contests: tuple[Contest, ...] = ()
    eliminated: tuple[str, ...] = ()
    ladder_started: bool = False

    # -- building -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        contestants: Sequence[str],
        pieces: Sequence[int],
        *,
        pans: int = 1,
        cursed: bool = False,
        confidence: float = 0.95,
        unit: str = GRAMS,
        pieces_return: bool = True,
    ) -> tuple[WeighOff, list[Event]]:
        """A new weigh-off between ``contestants`` holding ``pieces`` pieces each.

        Raises:
            ValueError: fewer than one contestant, mismatched lengths, a bad pan count,
                unit or confidence.
        """
        names = tuple(contestants)
        counts = tuple(int(p) for p in pieces)
        if not names or len(names) != len(counts) or len(set(names)) != len(names):
            raise ValueError("a weigh-off needs distinct contestants, each with a piece count")
        if pans not in (1, 2):
            raise ValueError(f"a balance has one or two pans, not {pans}")
        if unit not in (GRAMS, PIPS):
            raise ValueError(f"weights are in grams or pips, not {shown(unit)}")
        if any(c < 0 for c in counts):
            raise ValueError("a collection cannot hold fewer than no pieces")
        coverage_factor(confidence)
        empty = tuple(_empty_reading(unit) if c == 0 else None for c in counts)
        wo = cls(
            contestants=names,
            pieces=counts,
            pans=pans,
            cursed=cursed,
            confidence=confidence,
            unit=unit,
            pieces_return=pieces_return,
            full=empty,
            current=empty,
            removed=(0,) * len(names),
        )
        goal = "lightest" if cursed else "heaviest"
        how = "weigh each collection once" if pans == 1 else "contest them in pairs on the two pans"
        events = [
            event(
                "weighoff",
                f"The weigh-off begins: the {goal} collection wins; {how}.",
                contestants=list(names),
                pans=pans,
                cursed=cursed,
            )
        ]
        for name, count in zip(names, counts, strict=False):
            if count == 0:
                events.append(
                    event(
                        "weighed",
                        f"{name} has no booty: 0 without weighing.",
                        player=name,
                        reading=_empty_reading(unit).to_json(),
                    )
                )
        return wo._advance(events)

    # -- reading --------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """Whether a winner (or a shared win) is settled."""
        return self.ladder_started and self.contest is None and not self.queue

    @property
    def winners(self) -> tuple[str, ...]:
        """Who won (more than one only after a drawn contest); empty until done."""
        return self.champions if self.done else ()

    def on_pan(self, name: str) -> int:
        """Pieces of ``name``'s collection that go on the pan now (collection less set-aside)."""
        i = self._index(name)
        return self.pieces[i] - self.removed[i]

    def earlier_readings(self, name: str) -> list[Reading]:
        """Readings of ``name``'s collection made with every piece on the pan now (and maybe
        more): its first whole reading, the reading it carries when set-aside pieces stay out,
        and this contest's bouts. Pieces only ever leave the pan between these, so each
        weighed at least what is on the pan now."""
        i = self._index(name)
        found = [r for r in (self.full[i],) if r is not None and r.source != "empty"]
        carried = self.current[i]
        if not self.pieces_return and carried is not None and carried.source != "empty":
            found.append(carried)
        if self.contest is not None and name in self.contest.pair:
            slot = self.contest.pair.index(name)
            found += [b.readings[slot] for b in self.contest.bouts if b.readings[slot].source != "empty"]
        return found

    def whole_readings(self) -> dict[str, Reading]:
        """Each collection's first whole reading so far (empty collections left out)."""
        return {
            n: r
            for n, r in zip(self.contestants, self.full, strict=True)
            if r is not None and r.source != "empty" and r.pieces > 0
        }

    def waiting(self) -> tuple[str, ...]:
        """Whose collections must be weighed now, in order (for two pans: pan A, then pan B)."""
        if not self.ladder_started:
            return tuple(n for n, r in zip(self.contestants, self.full, strict=False) if r is None)
        if self.contest is None:
            return ()
        return tuple(n for n, r in zip(self.contest.pair, self.bout, strict=False) if r is None)

    def pan_for(self, name: str) -> int:
        """The pan (channel) ``name``'s collection goes on: 0 (pan A), or 1 (pan B) for a
        challenger on two pans."""
        if self.pans == 2 and self.contest is not None and name == self.contest.pair[1]:
            return 1
        return 0

    def instruction(self) -> str:
        """What the table must do now, in words."""
        if self.done:
            names = " and ".join(self.champions)
            return f"{names} win{'s' * (len(self.champions) == 1)} the weigh-off." if names else ""
        who = self.waiting()
        if self.contest is not None and self.contest.bouts:
            a, b = self.contest.pair
            last = self.contest.bouts[-1].comparison
            if self.unit == GRAMS:
                level = (
                    f"level within {last.threshold:.{_digits(last.threshold)}f} g ({self.confidence:.0%} confidence)"
                )
                again = "re-weigh"
            else:  # pips are counted exactly: only an equal count is level
                level = f"level on {self.contest.bouts[-1].readings[0].value:g} pips each"
                again = "count again"
            then = f"and {again} ({_and(who)})" if who else "(nothing is left to weigh)"
            return f"No clear winner: {a} and {b} are {level}. Both remove one piece of booty {then}."
        if self.pans == 2 and self.contest is not None:
            a, b = self.contest.pair
            return f"{a} on pan {pan_name(0)}, {b} on pan {pan_name(1)}: weigh both."
        if who:
            return f"Weigh the collection{'s' * (len(who) > 1)} of {_and(who)}, one at a time."
        return ""

    def ranking(self) -> list[dict[str, Any]]:
        """Everyone, best first: winners share 1st place; the rest by their whole weight.

        Neighbours whose whole weights are level at the confidence level share a place:
        no place is decided by noise.
        """
        rows: list[dict[str, Any]] = []
        for name in self.champions if self.done else ():
            rows.append(self._row(name, 1))
        others = [n for n in self.contestants if n not in {r["player"] for r in rows}]
        known = [n for n in others if self.full[self._index(n)] is not None]
        known.sort(key=lambda n: self.full[self._index(n)].value, reverse=not self.cursed)  # type: ignore[union-attr]
        place = len(rows)
        previous: Reading | None = None
        for name in known:
            reading = self.full[self._index(name)]
            assert reading is not None
            level = previous is not None and compare(previous, reading, self.confidence, self.cursed).outcome == "tie"
            if not level:
                place = len(rows) + 1
            rows.append(self._row(name, place))
            previous = reading
        for name in others:
            if name not in known:
                rows.append(self._row(name, None))
        return rows

    def to_json(self) -> dict[str, Any]:
        """Everything a weigh-off screen shows, JSON-ready (see the module docstring)."""
        return {
            "pans": self.pans,
            "unit": self.unit,
            "cursed": self.cursed,
            "confidence": self.confidence,
            "coverage_factor": coverage_factor(self.confidence),
            "pieces_return": self.pieces_return,
            "weights": {n: (r.to_json() if r else None) for n, r in zip(self.contestants, self.full, strict=False)},
            "pieces": dict(zip(self.contestants, self.pieces, strict=False)),
            "removed": dict(zip(self.contestants, self.removed, strict=False)),
            "waiting": list(self.waiting()),
            "pans_for": {n: self.pan_for(n) for n in self.waiting()},
            "instruction": self.instruction(),
            "contest": self.contest.to_json() if self.contest else None,
            "contests": [c.to_json() for c in self.contests],
            "eliminated": list(self.eliminated),
            "holders": list(self.champions),
            "queue": list(self.queue),
            "ranking": self.ranking(),
            "winners": list(self.winners),
            "done": self.done,
        }

    # -- changing -------------------------------------------------------------------------

    def record(self, name: str, reading: Reading) -> tuple[WeighOff, list[Event]]:
        """Take ``name``'s weighing and run the contests as far as the readings allow.

        ``reading.pieces`` is set to the pieces on the pan now.

        Raises:
            IllegalAction: ``name`` is not due on the pan, the unit is wrong, or on two pans
                both collections of a contest were read from the same pan.
        """
        if self.done:
            raise IllegalAction("the weigh-off is over")
        if name not in self.contestants:
            raise IllegalAction(f"{name} has no collection in the weigh-off")
        due = self.waiting()
        if name not in due:
            if due:
                raise IllegalAction(f"{name}'s collection is not due on the pan now; weigh {_and(due)}")
            raise IllegalAction(f"{name}'s collection is not due on the pan now")
        if reading.unit != self.unit:
            need = "domino pips" if self.unit == PIPS else "grams"
            raise IllegalAction(f"this weigh-off counts {need}, not {reading.unit}")
        reading = replace(reading, pieces=self.on_pan(name))
        text = f"{name}'s collection ({_pieces(reading.pieces)}) weighs {reading.words()}."
        events = [event("weighed", text, player=name, reading=reading.to_json())]
        i = self._index(name)
        if not self.ladder_started:
            full = _set(self.full, i, reading)
            return replace(self, full=full, current=_set(self.current, i, reading))._advance(events)
        assert self.contest is not None
        slot = self.contest.pair.index(name)
        other = self.bout[1 - slot]
        if self.pans == 2 and other is not None and reading.channel is not None and other.channel == reading.channel:
            raise IllegalAction(
                f"both collections were read from pan {pan_name(reading.channel)}; on a two-pan balance "
                "put one collection on each pan"
            )
        bout = (reading, self.bout[1]) if slot == 0 else (self.bout[0], reading)
        wo = replace(self, bout=bout)
        if self.pans == 2 and self.removed[i] == 0 and self.full[i] is None:
            wo = replace(wo, full=_set(wo.full, i, reading))
        return wo._advance(events)

    # -- the procedure --------------------------------------------------------------------

    def _advance(self, events: list[Event]) -> tuple[WeighOff, list[Event]]:
        wo = self
        while True:
            if not wo.ladder_started:
                if wo.pans == 1 and any(r is None for r in wo.full):
                    return wo, events
                wo = wo._begin_ladder(events)
                continue
            if wo.contest is None:
                if not wo.queue:
                    if wo.champions:
                        events.append(event("weighoff_won", wo.instruction(), winners=list(wo.champions)))
                    return wo, events
                wo = wo._open_contest(events)
                continue
            if any(r is None for r in wo.bout):
                return wo, events
            wo = wo._settle_bout(events)

    def _begin_ladder(self, events: list[Event]) -> WeighOff:
        names = list(self.contestants)
        if self.pans == 2:
            return replace(self, ladder_started=True, champions=(names[0],), queue=tuple(names[1:]))
        sign = 1.0 if self.cursed else -1.0
        best_first = sorted(names, key=lambda n: (sign * self.full[self._index(n)].value, names.index(n)))  # type: ignore[union-attr]
        holder, rest = best_first[0], best_first[1:]
        queue = tuple(reversed(rest))  # weakest first
        if rest:
            goal = "lightest" if self.cursed else "heaviest"
            events.append(
                event(
                    "bracket",
                    f"{holder}'s collection is the {goal}: it defends against {_and(queue)}, in that order.",
                    holder=holder,
                    queue=list(queue),
                )
            )
        return replace(self, ladder_started=True, champions=(holder,), queue=queue)

    def _open_contest(self, events: list[Event]) -> WeighOff:
        holder, challenger = self.champions[0], self.queue[0]
        contest = Contest((holder, challenger))
        if self.pans == 1:
            bout = (self.current[self._index(holder)], self.current[self._index(challenger)])
        else:
            bout = (self._zero_if_empty(holder), self._zero_if_empty(challenger))
            events.append(
                event(
                    "contest",
                    f"{holder} (pan {pan_name(0)}) and {challenger} (pan {pan_name(1)}) contest their collections.",
                    pair=[holder, challenger],
                    pans={holder: 0, challenger: 1},
                )
            )
        return replace(self, contest=contest, bout=bout)

    def _settle_bout(self, events: list[Event]) -> WeighOff:
        assert self.contest is not None
        a_name, b_name = self.contest.pair
        ia, ib = self._index(a_name), self._index(b_name)
        a, b = self.bout
        assert a is not None and b is not None
        comparison = compare(a, b, self.confidence, self.cursed)
        bout = Bout((a, b), (self.removed[ia], self.removed[ib]), comparison)
        contest = replace(self.contest, bouts=(*self.contest.bouts, bout))
        wo = replace(self, contest=contest)
        if comparison.outcome != "tie":
            winner, loser = (a_name, b_name) if comparison.outcome == "a" else (b_name, a_name)
            return wo._finish(winner, loser, events)
        if self.on_pan(a_name) == 0 and self.on_pan(b_name) == 0:
            return wo._finish("", "", events)
        removed = list(self.removed)
        for i in (ia, ib):
            if self.pieces[i] - removed[i] > 0:
                removed[i] += 1
        wo = replace(wo, removed=tuple(removed))
        wo = replace(wo, bout=(wo._zero_if_empty(a_name, keep=a), wo._zero_if_empty(b_name, keep=b)))
        events.append(
            event(
                "tie",
                wo.instruction(),
                pair=[a_name, b_name],
                comparison=comparison.to_json(),
                waiting=list(wo.waiting()),
                pans={n: wo.pan_for(n) for n in wo.waiting()},
                removed={a_name: removed[ia], b_name: removed[ib]},
            )
        )
        return wo

    def _finish(self, winner: str, loser: str, events: list[Event]) -> WeighOff:
        assert self.contest is not None
        holder, challenger = self.contest.pair
        last = self.contest.bouts[-1]
        champions: tuple[str, ...]
        out: tuple[str, ...]
        if not winner:
            contest = replace(self.contest, drawn=True)
            champions, out = (*self.champions, challenger), ()
            events.append(
                event(
                    "drawn",
                    f"{holder} and {challenger} are still level with no piece left to remove: both stay in.",
                    pair=[holder, challenger],
                )
            )
        elif winner == challenger:
            out = self.champions
            champions = (challenger,)
            contest = replace(self.contest, winner=winner, eliminated=out)
        else:
            out = (challenger,)
            champions = self.champions
            contest = replace(self.contest, winner=winner, eliminated=out)
        for name in out:
            events.append(
                event(
                    "eliminated",
                    f"{name} is eliminated: {winner}'s collection "
                    f"{'wins' if winner else 'stays'} ({_bout_words(last)}).",
                    player=name,
                    by=winner,
                )
            )
        removed, current = list(self.removed), list(self.current)
        for name, reading in zip(self.contest.pair, last.readings, strict=False):
            i = self._index(name)
            if self.pieces_return:
                if removed[i]:
                    events.append(
                        event(
                            "pieces_back",
                            f"{name} puts the {_pieces(removed[i])} set aside back.",
                            player=name,
                            pieces=removed[i],
                        )
                    )
                removed[i] = 0
                current[i] = self.full[i]
            else:
                current[i] = reading
        return replace(
            self,
            contest=None,
            bout=(None, None),
            contests=(*self.contests, contest),
            champions=champions,
            queue=self.queue[1:],
            eliminated=self.eliminated + out,
            removed=tuple(removed),
            current=tuple(current),
        )

    # -- small helpers --------------------------------------------------------------------

    def _index(self, name: str) -> int:
        return self.contestants.index(name)

    def _zero_if_empty(self, name: str, keep: Reading | None = None) -> Reading | None:
        """An exact 0 for a side with nothing on the pan (a side that had nothing keeps its reading)."""
        if self.on_pan(name) > 0:
            return None
        return keep if keep is not None and keep.pieces == 0 else _empty_reading(self.unit)

    def _row(self, name: str, place: int | None) -> dict[str, Any]:
        reading = self.full[self._index(name)]
        return {
            "place": place,
            "player": name,
            "value": reading.value if reading else None,
            "uncertainty": reading.uncertainty if reading else None,
            "unit": self.unit,
            "pieces": self.pieces[self._index(name)],
        }


def _digits(grams: float) -> int:
    """Decimals worth showing for a figure of about ``grams``: 1, or 2 below 0.5 g."""
    return 2 if 0 < grams < 0.5 else 1


def _empty_reading(unit: str) -> Reading:
    return Reading(0.0, 0.0, unit, 0, "empty")


def _set(values: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*values[:i], value, *values[i + 1 :])


def _and(names: Sequence[str]) -> str:
    names = list(names)
    if not names:
        return ""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pieces(n: int) -> str:
    return f"{n} piece{'s' * (n != 1)}"


def _bout_words(bout: Bout) -> str:
    a, b = bout.readings
    return f"{a.words()} against {b.words()}"
