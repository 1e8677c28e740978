"""The calibration procedure on a live balance: ask for each load, record, fit, save.

The order of loads is the empty pan, then each mass, the whole cycle ``repeats`` times
(so zero return and repeatability are measured too). Every raw reading is recorded into
a :class:`~companion.scale.calibration.Session`, and the profile is computed by replaying
that session, so the saved profile is exactly what the recorded session reproduces.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone

from companion.scale.calibration import CalibrationError, Session, Step, replay, select_window, window_ready
from companion.scale.core import DATASHEET_NOISE_COUNTS, StreamScale
from companion.scale.errors import ScaleTimeout
from companion.scale.profile import SavedProfile
from companion.scale.stable import StabilityRule

log = logging.getLogger(__name__)

#: ``ask(mass_g, step_index, total_steps)``: get ``mass_g`` onto the pan (0: empty it).
Ask = Callable[[float, int, int], None]
#: ``progress(step_index, total_steps, mass_g, readings, reason)`` while a step samples.
Progress = Callable[[int, int, float, int, str], None]


@dataclass(frozen=True)
class Plan:
    """What to calibrate: ``masses`` (grams, each once), ``repeats`` cycles, the scale
    interval and capacity the verdict is judged for, and the pan."""

    masses: tuple[float, ...]
    interval_g: float = 0.1
    capacity_g: float = 1000.0
    repeats: int = 2
    channel: int = 0
    step_timeout_s: float = 120.0

    def __post_init__(self) -> None:
        if not self.masses:
            raise CalibrationError("give at least one known mass, e.g. --masses 100,200,500")
        if any(not (math.isfinite(m) and m > 0) for m in self.masses):
            raise CalibrationError("each calibration mass must be a positive number of grams")
        if len(set(self.masses)) != len(self.masses):
            raise CalibrationError("list each mass once; use --repeats to weigh them again")
        if any(m > self.capacity_g for m in self.masses):
            raise CalibrationError(f"a mass is above the balance's capacity ({self.capacity_g:g} g)")
        if self.repeats < 1:
            raise CalibrationError("repeats must be 1 or more")

    def loads(self) -> list[float]:
        """Every load in order: empty pan, the masses, again for each repeat."""
        return ([0.0] + sorted(self.masses)) * self.repeats


def counts_rule(scale: StreamScale, plan: Plan) -> StabilityRule:
    """The stability rule in ADC counts: one interval at the balance's present calibration,
    never narrower than four times the HX711's datasheet noise."""
    cal = scale.calibration(plan.channel)
    noise = DATASHEET_NOISE_COUNTS.get(scale.rate_sps, DATASHEET_NOISE_COUNTS[80])
    band = max(plan.interval_g * abs(cal.counts_per_gram), 4.0 * noise)
    return StabilityRule(band=band, window_s=max(scale.window_s, 0.5), noise=noise)


def record_step(
    scale: StreamScale, rule: StabilityRule, mass: float, changed_from: float | None, plan: Plan,
    progress: Callable[[int, str], None] | None = None,
) -> Step:
    """Read ``plan.channel`` until the load is stable (and changed), recording every reading.

    Raises:
        CalibrationError: the load never settled, or the cell faulted.
    """
    times: list[float] = []
    raws: list[float] = []
    raw_ints: list[int] = []
    start: float | None = None
    deadline = scale.now() + plan.step_timeout_s
    try:
        for sample in scale.fresh_samples(channel=plan.channel, timeout=max(1.0, plan.step_timeout_s)):
            if sample.fault or sample.saturated:
                raise CalibrationError(
                    "the load cell faulted or overloaded while calibrating: check its wiring and the load"
                )
            if start is None:
                start = sample.t
            times.append(sample.t - start)
            raws.append(float(sample.raw))
            raw_ints.append(sample.raw)
            verdict = window_ready(times, raws, rule, changed_from)
            if progress is not None:
                progress(len(times), "stable" if verdict else "settling")
            if verdict is not None:
                return Step(mass, tuple(times), tuple(raw_ints), changed_from)
            if scale.now() > deadline:
                break
    except ScaleTimeout as exc:
        raise CalibrationError(f"the balance stopped sending readings while weighing {mass:g} g") from exc
    raise CalibrationError(
        f"the {mass:g} g load did not settle within {plan.step_timeout_s:g} s: keep the table still and try again"
    )


def calibrate(
    scale: StreamScale,
    plan: Plan,
    ask: Ask,
    progress: Progress | None = None,
    created: str | None = None,
    notes: str = "",
) -> tuple[Session, SavedProfile]:
    """Run the procedure; returns the recorded session and the profile it reproduces.

    Raises:
        CalibrationError: a load never settled, the cell faulted, or the fit is impossible.
    """
    rule = counts_rule(scale, plan)
    loads = plan.loads()
    steps: list[Step] = []
    previous: float | None = None
    stamp = created or datetime.now(timezone.utc).isoformat(timespec="seconds")
    for index, mass in enumerate(loads):
        ask(mass, index, len(loads))

        def report(n: int, reason: str, index: int = index, mass: float = mass) -> None:
            if progress is not None:
                progress(index, len(loads), mass, n, reason)

        step = record_step(scale, rule, mass, previous, plan, report)
        found = select_window(step, rule)
        if found is None:  # the replayed rule must agree with what was seen live
            raise CalibrationError("internal check failed: a recorded step does not replay")
        previous = found[1].mean
        steps.append(step)
    cal = scale.calibration(plan.channel)
    session = Session(
        device_id=scale.device_id,
        channel=plan.channel,
        interval_g=plan.interval_g,
        capacity_g=plan.capacity_g,
        created=stamp,
        rule=rule,
        steps=tuple(steps),
        backend=scale.backend,
        notes=notes or f"started from calibration {cal.id} ({cal.source})",
    )
    profile = replay(session)
    log.info("calibration of %s pan %d: %s", scale.device_id, plan.channel, profile.calibration.id)
    return session, profile


def sim_placer(scale: object, channel: int = 0) -> Ask:
    """An ``ask`` for the simulator: it puts each mass on the pan itself."""

    def ask(mass: float, _index: int, _total: int) -> None:
        scale.clear(channel)  # type: ignore[attr-defined]
        if mass:
            scale.place(mass, channel)  # type: ignore[attr-defined]

    return ask


def masses_from_text(text: str) -> tuple[float, ...]:
    """Parse ``"100,200,500"``.

    Raises:
        CalibrationError: not a list of positive numbers.
    """
    try:
        values = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise CalibrationError(f"--masses must be grams separated by commas, like 100,200,500, not {text!r}") from exc
    return values

