"""The calibration procedure on a live balance: ask for each load, record, fit, check, save.

The order of loads: the empty pan, then each fit mass, the whole cycle ``repeats`` times
(so zero return and repeatability are measured too); then the check loads, which verify
the fit and are never part of it (without any, the last cycle of fit masses checks the
fit made from the others); then, when asked for, the corner test (one mass at the centre
and on each corner) and the creep test (one mass left on the pan for ``creep_s``
seconds). Every raw reading is recorded into a :class:`~companion.scale.calibration.Session`,
and the profile is computed by replaying that session, so the saved profile is exactly
what the recorded session reproduces.

Reference masses carry a tolerance: ``MASS+-TOL`` in the mass list, or the tolerance of
their class (OIML R111 test weights F2, M1, M2, M3, or coins).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.pans import pan_name
from companion.scale.base import Scale
from companion.scale.calibration import (
    BadPlan,
    CalibrationError,
    Session,
    Step,
    replay,
    select_window,
    window_ready,
    write_session,
)
from companion.scale.core import StreamScale
from companion.scale.errors import ScaleError, ScaleTimeout
from companion.scale.profile import SavedProfile, profile_path, save_profile
from companion.scale.stable import StabilityRule

if TYPE_CHECKING:
    from companion.scale.sim import SimScale

log = logging.getLogger(__name__)

#: ``ask(mass_g, step_index, total_steps)``: get ``mass_g`` onto the pan (0: empty it).
Ask = Callable[[float, int, int], None]
#: ``progress(step_index, total_steps, mass_g, readings, reason)`` while a step samples.
Progress = Callable[[int, int, float, int, str], None]

#: Maximum permissible errors of OIML R111-1 test weights (milligrams) by nominal mass (grams).
R111_MG: dict[str, dict[int, float]] = {
    "F2": {1: 0.3, 2: 0.4, 5: 0.5, 10: 0.6, 20: 0.8, 50: 1.0, 100: 1.6, 200: 3, 500: 8, 1000: 16, 2000: 30, 5000: 80},
    "M1": {1: 1.0, 2: 1.2, 5: 1.6, 10: 2, 20: 2.5, 50: 3, 100: 5, 200: 10, 500: 25, 1000: 50, 2000: 100, 5000: 250},
    "M2": {1: 3, 2: 4, 5: 5, 10: 6, 20: 8, 50: 10, 100: 16, 200: 30, 500: 80, 1000: 160, 2000: 300, 5000: 800},
    "M3": {1: 10, 2: 12, 5: 16, 10: 20, 20: 25, 50: 30, 100: 50, 200: 100, 500: 250, 1000: 500, 2000: 1000, 5000: 2500},
}
#: Mass classes ``--mass-class`` knows: the R111 classes, coins (a stack of clean coins is
#: good to about 0.5 % of its nominal mass) and exact (the simulator, which places exact
#: masses itself).
MASS_CLASSES = ("F2", "M1", "M2", "M3", "coins", "exact")
COINS_REL = 0.005


def class_tolerance(mass_g: float, mass_class: str) -> float:
    """How far a reference mass of ``mass_g`` may be off in ``mass_class`` (grams): the R111
    maximum permissible error of the nearest nominal mass at or above it, scaled."""
    if mass_class == "exact":
        return 0.0
    if mass_class == "coins":
        return COINS_REL * mass_g
    table = R111_MG.get(mass_class)
    if table is None:
        raise BadPlan(f"mass class {mass_class!r} is not one of {', '.join(MASS_CLASSES)}")
    nominal = min((m for m in table if m >= mass_g), default=max(table))
    return table[nominal] / 1000.0 * max(1.0, mass_g / nominal)


@dataclass(frozen=True)
class LoadStep:
    """One load to put on the pan: ``mass_g`` at ``position`` ("centre" or a corner), what
    it is for (``kind``: fit, check, corner or creep), the mass's tolerance, and for the
    creep test how long to leave it (``hold_s``)."""

    mass_g: float
    kind: str = "fit"
    position: str = "centre"
    tolerance_g: float = 0.0
    hold_s: float = 0.0
    moved: bool = False

    def words(self) -> str:
        """What to do, for a prompt ("Put 200 g on the front-left corner of the pan")."""
        if self.mass_g == 0:
            return "Empty the pan"
        if self.moved:
            where = "the middle of the pan" if self.position == "centre" else f"the {self.position} corner of the pan"
            text = f"Lift the {self.mass_g:g} g and put it on {where}"
        else:
            where = (
                "in the middle of the pan" if self.position == "centre" else f"on the {self.position} corner of the pan"
            )
            text = f"Put {self.mass_g:g} g {where} (nothing else)"
        if self.kind == "creep":
            text += f" and leave it there for {self.hold_s:g} s"
        return text


@dataclass(frozen=True)
class Plan:
    """What to calibrate: ``masses`` (grams, each once, fitted), ``checks`` (grams, kept
    apart to verify the fit), ``repeats`` cycles, the scale interval and capacity the
    verdict is judged for, the pan, the reference masses' tolerances (``tolerances``
    grams per mass, else their ``mass_class``), and the corner and creep tests."""

    masses: tuple[float, ...]
    interval_g: float = 0.1
    capacity_g: float = 1000.0
    repeats: int = 2
    channel: int = 0
    step_timeout_s: float = 120.0
    checks: tuple[float, ...] = ()
    mass_class: str = "M3"
    tolerances: tuple[tuple[float, float], ...] = ()
    corner: bool = False
    corner_mass_g: float | None = None
    creep_s: float = 0.0

    def __post_init__(self) -> None:
        if not self.masses:
            raise BadPlan("give at least one known mass, e.g. --masses 100,200,500")
        every = (*self.masses, *self.checks)
        if any(not (math.isfinite(m) and m > 0) for m in every):
            raise BadPlan("each calibration mass must be a positive number of grams")
        if len(set(self.masses)) != len(self.masses) or len(set(self.checks)) != len(self.checks):
            raise BadPlan("list each mass once; use --repeats to weigh them again")
        if any(m > self.capacity_g for m in every):
            raise BadPlan(f"a mass is above the balance's capacity ({self.capacity_g:g} g)")
        if self.repeats < 1:
            raise BadPlan("repeats must be 1 or more")
        if self.mass_class not in MASS_CLASSES:
            raise BadPlan(f"mass class {self.mass_class!r} is not one of {', '.join(MASS_CLASSES)}")
        if any(not (math.isfinite(t) and t >= 0) for _, t in self.tolerances):
            raise BadPlan("a mass's tolerance must be zero or more grams")
        if not (math.isfinite(self.creep_s) and self.creep_s >= 0):
            raise BadPlan("the creep test's time must be zero or more seconds")
        if self.corner_mass_g is not None and not 0 < self.corner_mass_g <= self.capacity_g:
            raise BadPlan("the corner test's mass must be positive and within the capacity")

    def tolerance(self, mass_g: float) -> float:
        """The tolerance (grams) of the reference mass ``mass_g``."""
        given = dict(self.tolerances)
        return given[mass_g] if mass_g in given else class_tolerance(mass_g, self.mass_class)

    def corner_load(self) -> float:
        """The corner test's mass: as given, else the fit or check mass nearest a third of
        the capacity (OIML R76 tests off-centre loading with about Max / 3)."""
        if self.corner_mass_g is not None:
            return self.corner_mass_g
        return min((*self.masses, *self.checks), key=lambda m: abs(m - self.capacity_g / 3.0))

    def steps(self) -> list[LoadStep]:
        """Every load in order (see the module docstring)."""
        fit = sorted(self.masses)
        out: list[LoadStep] = []
        for cycle in range(self.repeats):
            kind = "check" if not self.checks and self.repeats >= 2 and cycle == self.repeats - 1 else "fit"
            out += [LoadStep(m, kind, tolerance_g=self.tolerance(m) if m else 0.0) for m in [0.0, *fit]]
        if self.checks:
            out += [
                LoadStep(m, "check", tolerance_g=self.tolerance(m) if m else 0.0) for m in [0.0, *sorted(self.checks)]
            ]
        last = out[-1].mass_g
        if self.corner:
            m = self.corner_load()
            for i, position in enumerate(("centre", "front-left", "front-right", "back-left", "back-right")):
                out.append(LoadStep(m, "corner", position, self.tolerance(m), moved=i > 0 or last == m))
            last = m
        if self.creep_s > 0:
            m = max(self.masses)
            out.append(LoadStep(m, "creep", "centre", self.tolerance(m), self.creep_s, moved=last == m))
        return out

    def loads(self) -> list[float]:
        """Every load's mass in order (see :meth:`steps`)."""
        return [s.mass_g for s in self.steps()]


def counts_rule(scale: StreamScale, plan: Plan) -> StabilityRule:
    """The stability rule in ADC counts: one interval at the balance's present calibration,
    widened to four times the noise measured on the balance, over a window long enough to
    average that noise (the same rule as weighing uses)."""
    cal = scale.calibration(plan.channel)
    grams = scale.stability_rule(plan.channel)
    cpg = abs(cal.counts_per_gram)
    band = max(plan.interval_g * cpg, grams.band * cpg)
    return StabilityRule(band=band, window_s=max(grams.window_s, 0.5), noise=scale.noise_counts(plan.channel))


def record_step(
    scale: StreamScale,
    rule: StabilityRule,
    step: LoadStep | float,
    changed_from: float | None,
    plan: Plan,
    *,
    progress: Callable[[int, str], None] | None = None,
    must_leave: float | None = None,
) -> Step:
    """Read ``plan.channel`` until the load is stable (and changed, or lifted and put back
    for ``must_leave``), recording every reading; a creep step reads on for its hold time.

    Raises:
        CalibrationError: the load never settled, or the cell faulted.
    """
    load = step if isinstance(step, LoadStep) else LoadStep(float(step))
    times: list[float] = []
    raws: list[float] = []
    raw_ints: list[int] = []
    start: float | None = None
    settled_at: float | None = None
    # The same question select_window asks, one reading at a time (so replay agrees).
    lifted_at: int | None = None if must_leave is not None and changed_from is not None else -1
    deadline = scale.now() + plan.step_timeout_s + load.hold_s

    def recorded() -> Step:
        return Step(
            load.mass_g,
            tuple(times),
            tuple(raw_ints),
            changed_from,
            load.kind,
            load.position,
            load.tolerance_g,
            load.hold_s,
            must_leave,
        )

    try:
        for sample in scale.fresh_samples(channel=plan.channel, timeout=max(1.0, plan.step_timeout_s)):
            if sample.fault or sample.saturated or sample.raw is None:
                raise CalibrationError(
                    "the load cell faulted or overloaded while calibrating: check its wiring and the load"
                )
            if start is None:
                start = sample.t
            times.append(sample.t - start)
            raws.append(float(sample.raw))
            raw_ints.append(sample.raw)
            if settled_at is None:
                found = None
                if lifted_at is None:
                    assert must_leave is not None and changed_from is not None
                    if abs(raws[-1] - changed_from) > must_leave:
                        lifted_at = len(raws) - 1
                elif len(raws) - (lifted_at + 1) >= rule.min_samples:
                    first = lifted_at + 1
                    found = window_ready(times[first:], raws[first:], rule, changed_from if first == 0 else None)
                if progress is not None:
                    progress(len(times), "stable" if found else "settling")
                if found is not None:
                    settled_at = times[-1]
                    if load.hold_s <= 0:
                        return recorded()
            elif times[-1] - settled_at >= load.hold_s:
                if progress is not None:
                    progress(len(times), "stable")
                return recorded()
            if scale.now() > deadline:
                break
    except ScaleTimeout as exc:
        raise CalibrationError(f"the balance stopped sending readings while weighing {load.mass_g:g} g") from exc
    raise CalibrationError(
        f"the {load.mass_g:g} g load did not settle within {plan.step_timeout_s:g} s: "
        "keep the table still and try again"
    )


def wait_for_noise(scale: StreamScale, channel: int, timeout_s: float = 10.0) -> None:
    """Read the empty pan until the balance has measured its noise (at most ``timeout_s``)."""
    if scale.noise_measured(channel):
        return
    deadline = scale.now() + timeout_s
    try:
        for _ in scale.fresh_samples(channel=channel, timeout=max(1.0, timeout_s)):
            if scale.noise_measured(channel) or scale.now() > deadline:
                return
    except ScaleTimeout as exc:
        raise CalibrationError("the balance sends no readings: check its cable") from exc


def calibrate(
    scale: Scale,
    plan: Plan,
    ask: Ask,
    progress: Progress | None = None,
    *,
    created: str | None = None,
    notes: str = "",
    instruct: Callable[[LoadStep, int, int], None] | None = None,
) -> tuple[Session, SavedProfile]:
    """Run the procedure; returns the recorded session and the profile it reproduces.

    ``ask(mass, index, total)`` gets each load onto the pan; ``instruct(step, index, total)``,
    when given, is called instead with the whole :class:`LoadStep` (its position and kind:
    the corner and creep tests need them).

    Raises:
        CalibrationError: a load never settled, the cell faulted, or the fit is impossible.
        ScaleError: this kind of balance keeps no calibration Purser can set.
    """
    if not isinstance(scale, StreamScale):
        raise ScaleError("this kind of balance cannot be calibrated by Purser")
    steps = plan.steps()
    recorded: list[Step] = []
    previous: float | None = None
    empty: float | None = None
    rule: StabilityRule | None = None
    stamp = created or datetime.now(UTC).isoformat(timespec="seconds")
    for index, load in enumerate(steps):
        if instruct is not None:
            instruct(load, index, len(steps))
        else:
            ask(load.mass_g, index, len(steps))
        if rule is None:
            wait_for_noise(scale, plan.channel)
            rule = counts_rule(scale, plan)

        def report(n: int, reason: str, index: int = index, mass: float = load.mass_g) -> None:
            if progress is not None:
                progress(index, len(steps), mass, n, reason)

        must_leave = None
        if load.moved and previous is not None and empty is not None:
            must_leave = 0.5 * abs(previous - empty)
        step = record_step(scale, rule, load, previous, plan, progress=report, must_leave=must_leave)
        found = select_window(step, rule)
        if found is None:  # the replayed rule must agree with what was seen live
            raise CalibrationError("internal check failed: a recorded step does not replay")
        previous = found[1].mean
        if load.mass_g == 0 and empty is None:
            empty = previous
        recorded.append(step)
    assert rule is not None
    cal = scale.calibration(plan.channel)
    session = Session(
        device_id=scale.device_id,
        channel=plan.channel,
        interval_g=plan.interval_g,
        capacity_g=plan.capacity_g,
        created=stamp,
        rule=rule,
        steps=tuple(recorded),
        backend=scale.backend,
        notes=notes or f"started from calibration {cal.id} ({cal.source})",
    )
    profile = replay(session)
    log.info("calibration of %s pan %d: %s", scale.device_id, plan.channel, profile.calibration.id)
    return session, profile


@dataclass(frozen=True)
class Kept:
    """Where a finished calibration was kept: the profile, the session log and the plot
    files (``plot`` None when it could not be drawn), whether the balance stores it too,
    and ``notes``, what did not work, in words."""

    profile: Path
    session: Path
    plot: Path | None
    in_balance: bool
    notes: tuple[str, ...] = ()


def keep_calibration(
    scale: StreamScale,
    plan: Plan,
    session: Session,
    profile: SavedProfile,
    folder: Path | None = None,
    *,
    in_balance: bool = True,
) -> Kept:
    """Save ``profile`` (in ``folder``, default the data folder's profiles), the recorded ``session``
    and the calibration plot beside it, store the calibration in the balance too when it
    can keep one (and ``in_balance``), and weigh with it from now on.

    Raises:
        CalibrationError, ScaleError: the profile or session log cannot be written.
    """
    from companion.scale.calplot import save_plot  # draws with OpenCV: only when a calibration ends

    cal = profile.calibration
    target = profile_path(cal.device_id, cal.channel)
    if folder is not None:
        target = folder / target.name
    save_profile(profile, target)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    stem = target.name.removesuffix(".json")
    session_path = write_session(session, target.parent / f"{stem}-{stamp}.session.json")
    notes = []
    plot: Path | None = None
    try:
        plot = save_plot(
            profile.report,
            plan.interval_g,
            plan.capacity_g,
            target.parent / f"{stem}.png",
            f"{cal.device_id} pan {pan_name(cal.channel)}: {cal.id}",
        )
    except ScaleError as exc:
        notes.append(f"the calibration plot was not saved: {exc}")
    stored = False
    if in_balance:
        try:
            stored = scale.write_calibration(cal)
        except ScaleError as exc:
            notes.append(f"the balance did not keep the calibration: {exc}")
    scale.set_calibration(cal)
    for note in notes:
        log.warning("%s", note)
    return Kept(target, session_path, plot, stored, tuple(notes))


def sim_placer(scale: SimScale, channel: int = 0) -> Ask:
    """An ``ask`` for the simulator: it puts each mass on the pan itself."""

    def ask(mass: float, _index: int, _total: int) -> None:
        scale.clear(channel)
        if mass:
            scale.place(mass, channel)

    return ask


def simulator_of(scale: object) -> SimScale | None:
    """``scale`` when it is the built-in simulator, which can put masses on itself; else None."""
    from companion.scale.sim import SimScale

    return scale if isinstance(scale, SimScale) else None


def sim_instructor(scale: SimScale, channel: int = 0) -> Callable[[LoadStep, int, int], None]:
    """An ``instruct`` for the simulator: it moves each mass itself, lifting it for a moment
    between corners as a hand would."""

    def instruct(step: LoadStep, _index: int, _total: int) -> None:
        scale.clear(channel)
        if not step.mass_g:
            return
        if step.moved:
            scale.at(0.4, lambda: scale.place(step.mass_g, channel, position=step.position))
        else:
            scale.place(step.mass_g, channel, position=step.position)

    return instruct


def masses_from_text(text: str) -> tuple[float, ...]:
    """Parse ``"100,200,500"`` (tolerances, if any, are left out: see :func:`masses_with_tolerances`).

    Raises:
        BadPlan: not a list of numbers of grams.
    """
    return tuple(m for m, _ in masses_with_tolerances(text))


def masses_with_tolerances(text: str, what: str = "--masses") -> list[tuple[float, float | None]]:
    """Parse ``"100,200+-0.01,500"``: each mass in grams with its tolerance (None: not given).
    ``what`` names the list in the refusal ("--check", "the fit masses").

    Raises:
        BadPlan: not a list of numbers of grams.
    """
    out: list[tuple[float, float | None]] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        mass_text, sep, tol_text = item.partition("+-")
        try:
            mass = float(mass_text)
            tol = float(tol_text) if sep else None
        except ValueError as exc:
            raise BadPlan(
                f"{what} must be grams separated by commas, like 100,200,500 (or 100+-0.005 with a tolerance), "
                f"not {text!r}"
            ) from exc
        if not math.isfinite(mass) or (tol is not None and not (math.isfinite(tol) and tol >= 0)):
            raise BadPlan(f"{item!r} is not a mass in grams (with a tolerance of zero or more)")
        out.append((mass, tol))
    return out
