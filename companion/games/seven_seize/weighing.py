"""Turning 7 Seize ``weigh`` actions into weigh-off readings.

A collection's weight arrives in one of three forms:

- ``"weighing"``: a stable weighing from the balance (``Weighing.to_json()``: grams, their
  standard uncertainty, samples, channel, calibration, raw counts). The whole dict stays
  in the journal, so a disputed result can be derived again from the raw counts;
- ``"grams"``: typed from a kitchen scale. Its uncertainty is the house rule
  ``typed_resolution_g`` / √3 (the display may be off by one step either way), unless the
  action gives ``"uncertainty_g"`` itself;
- ``"pips"``: the rulebook's no-scale option, dominoes counted by pips (exact).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, get_field, get_player, shown
from companion.games.seven_seize import plausible
from companion.games.seven_seize.plausible import Booty
from companion.games.seven_seize.state import OVER, WEIGHOFF, SeizeState
from companion.games.seven_seize.weighoff import GRAMS, PIPS, Reading

#: How far below zero a scale reading may be and still count as noise, in standard uncertainties.
NEGATIVE_SIGMAS = 3.0


def typed_uncertainty(resolution_g: float) -> float:
    """Standard uncertainty (grams) of a typed reading from a scale showing ``resolution_g`` steps."""
    return resolution_g / math.sqrt(3.0)


def reading_from_action(action: Mapping[str, Any], state: SeizeState) -> Reading:
    """The reading a ``weigh`` action carries.

    Raises:
        IllegalAction: none or several of weighing/grams/pips, a form the house rules do not
            use, or a value that cannot be a collection's weight.
    """
    forms = [k for k in ("weighing", "grams", "pips") if action.get(k) is not None]
    dominoes = state.settings.booty == "dominoes"
    if len(forms) != 1:
        need = '"pips"' if dominoes else '"weighing" (from the scale) or "grams"'
        raise IllegalAction(f"a weigh action carries exactly one of {need}")
    form = forms[0]
    if dominoes and form != "pips":
        raise IllegalAction('this game is played with dominoes: give the collection\'s "pips"')
    if not dominoes and form == "pips":
        raise IllegalAction("this game weighs booty; pips count only with the dominoes house rule")
    if form == "pips":
        pips = get_field(action, "pips", int)
        if pips < 0:
            raise IllegalAction("a domino collection cannot have fewer than 0 pips")
        return Reading(float(pips), 0.0, PIPS, source="pips")
    if form == "grams":
        grams = _number(action["grams"], "grams")
        given = action.get("uncertainty_g")
        uncertainty = (
            typed_uncertainty(state.settings.typed_resolution_g) if given is None else _number(given, "uncertainty_g")
        )
        if uncertainty < 0:
            raise IllegalAction('"uncertainty_g" cannot be negative')
        if grams < 0:
            raise IllegalAction(f"{grams:g} g is less than nothing; check the number")
        return Reading(float(grams), float(uncertainty), GRAMS, source="typed")
    weighing = action["weighing"]
    if not isinstance(weighing, Mapping):
        raise IllegalAction('"weighing" is the scale\'s stable weighing, an object with "grams" and "uncertainty_g"')
    return _from_weighing(weighing)


def _from_weighing(data: Mapping[str, Any]) -> Reading:
    if "grams" not in data or "uncertainty_g" not in data:
        raise IllegalAction('a scale "weighing" needs "grams" and "uncertainty_g"')
    grams = _number(data["grams"], "weighing grams")
    uncertainty = _number(data["uncertainty_g"], "weighing uncertainty_g")
    if uncertainty < 0:
        raise IllegalAction("a weighing's uncertainty cannot be negative")
    if grams < -NEGATIVE_SIGMAS * max(uncertainty, 0.01):
        raise IllegalAction(f"the scale read {grams:.2f} g, less than an empty pan: tare it and weigh again")
    channel = data.get("channel")
    if channel is not None and (isinstance(channel, bool) or not isinstance(channel, int) or channel < 0):
        raise IllegalAction('a weighing\'s "channel" is its pan: 0 for pan A, 1 for pan B')
    samples = data.get("samples", 0)
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 0:
        raise IllegalAction('a weighing\'s "samples" is a count')
    raw = data.get("raw_counts", [])
    if not isinstance(raw, list) or not all(isinstance(r, int) and not isinstance(r, bool) for r in raw):
        raise IllegalAction('a weighing\'s "raw_counts" is a list of whole numbers')
    calibration = data.get("calibration", "")
    if not isinstance(calibration, str):
        raise IllegalAction('a weighing\'s "calibration" is an identifier')
    return Reading(grams, uncertainty, GRAMS, source="scale", channel=channel, calibration=calibration, samples=samples)


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise IllegalAction(f'"{name}" must be a number, not {shown(value)}')
    return float(value)


class ImpossibleReading(IllegalAction):
    """A weigh-off reading the pieces on the pan cannot give; weigh (or count) again.

    The message says why and what to do, in a player's words (no JSON). ``confirmable``:
    only the house-rule piece weights rule it out, so the same reading sent again with
    ``"confirm": true`` is kept (a screen offers "keep this reading"; the command line
    says which line to send).
    """

    def __init__(self, message: str, *, confirmable: bool) -> None:
        super().__init__(message)
        self.confirmable = confirmable


def booty(state: SeizeState) -> Booty:
    """What the house rules say of the table's booty, for :mod:`.plausible`."""
    s = state.settings
    return Booty(s.lightest_piece_g, s.heaviest_piece_g, s.piece_spread, s.domino_max_pips)


def weigh(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """A collection weighed (or its pips counted) for the weigh-off.

    Raises:
        IllegalAction: not the weigh-off, a malformed reading, or one the pieces on the pan
            cannot give (see :mod:`.plausible`; a reading only the house-rule piece weights rule
            out is kept with ``"confirm": true``).
    """
    if state.phase != WEIGHOFF or state.weighoff is None:
        raise IllegalAction("collections are weighed at the end of the game, after round 7")
    name = get_player(action, state.seats)
    reading = reading_from_action(action, state)
    confirm = get_field(action, "confirm", bool, optional=True) is True
    wo = state.weighoff
    kept: list[Event] = []
    if name in wo.contestants and name in wo.waiting() and reading.unit == wo.unit:
        verdict = plausible.check(name, reading, wo, booty(state))
        if verdict is not None:
            if not (verdict.confirmable and confirm):
                raise ImpossibleReading(verdict.reason, confirmable=verdict.confirmable)
            kept.append(
                event(
                    "reading_confirmed",
                    f"{name}'s reading is kept at the table's word, though "
                    f"the house rules say it is unlikely: {verdict.why.split(': ', 1)[-1]}.",
                    player=name,
                )
            )
    weighoff, events = wo.record(name, reading)
    return replace(state, weighoff=weighoff, phase=OVER if weighoff.done else WEIGHOFF), kept + events
