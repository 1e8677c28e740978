"""The calibration wizard: ``purser calibrate scale`` on the tablet, step by step, with progress.

Fit masses and check masses are kept apart (the checks verify the fit and are never part of
it; without any, the last cycle checks the fit made from the others). What the masses are
(OIML R111 test weights, kitchen weights, coins, exact) sets the tolerance each brings into
the uncertainty, shown before starting. Then the empty pan and each load, the cycle
repeated, the checks, the corner test (one mass in the middle and on each corner) and the
creep test (the heaviest mass left on for a while): each step says what to put where and
waits for Continue (the simulator places its own masses), then samples until the load is
steady. The end shows the one-line claim the evidence supports ("±0.02 g up to 20 g (95 %)",
or OIML class III for Max = the heaviest check load), the fit and check errors apart, and
why no class is claimed when it is not. Everything that talks to the balance runs on the
scale thread.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.pans import pan_name
from companion.ui.background import on_ui
from companion.ui.scale_words import (
    plan_text,
    report_lines,
    statement_text,
    step_kind_text,
    tolerance_text,
)

log = logging.getLogger(__name__)

#: What the reference masses can be, as the wizard offers them: (mass class, words).
MASS_CLASS_CHOICES = (
    ("F2", "F2 test weights"),
    ("M1", "M1 test weights"),
    ("M2", "M2 test weights"),
    ("M3", "Kitchen weights (M3)"),
    ("coins", "Coins (0.5 %)"),
    ("exact", "Exact (simulator)"),
)


class CalibrationCancelled(Exception):
    """The player stopped the wizard."""


def load_words(mass: float) -> str:
    """What to put on the pan for a step (the words of a plain fit step)."""
    return "Empty the pan" if mass == 0 else f"Put {mass:g} g on the pan"


def step_prompt(step: Any, index: int, total: int, *, simulated: bool) -> str:
    """The words of one step: which, what for, what to do ("Step 14 of 19, corner test: Lift
    the 200 g and put it on the front-left corner of the pan, then tap Continue.")."""
    tail = " (the simulator does it)." if simulated else ", then tap Continue."
    return f"Step {index + 1} of {total}, {step_kind_text(step.kind)}: {step.words()}{tail}"


class CalibrateScreen(Screen):
    """Masses in, steps with progress, the fit and its honest claim out."""

    running = BooleanProperty(False)
    waiting = BooleanProperty(False)
    step_text = StringProperty("")
    progress = NumericProperty(0)
    #: The one-line claim of the last calibration ("" before one finished) and whether it is a class.
    statement = StringProperty("")
    passed = BooleanProperty(False)
    result = StringProperty("")
    error = StringProperty("")
    channel = NumericProperty(0)
    #: The reference masses' class (see :data:`MASS_CLASS_CHOICES`).
    mass_class = StringProperty("M3")
    #: The corner test is part of the procedure.
    corner = BooleanProperty(True)
    #: What the typed plan will ask for, and what each mass may be off by.
    plan_words = StringProperty("")
    tolerance_words = StringProperty("")
    title = StringProperty("Calibrate the scale")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._go = threading.Event()
        self._cancel = threading.Event()
        self._class_chosen = False

    def on_pre_enter(self, *_: Any) -> None:
        hw = App.get_running_app().hardware
        two = int(hw.scale_channels) > 1
        self.title = f"Calibrate pan {pan_name(int(self.channel))}" if two else "Calibrate the scale"
        if not self._class_chosen:
            self.mass_class = "exact" if hw.scale_simulated else "M3"
        if not self.running:
            self.step_text = (
                "Choose the masses and what they are, then Start (coins work: see calibration/PROCEDURE.md)."
            )
            self.progress = 0
        self.update_plan()

    def choose_class(self, mass_class: str) -> None:
        """The reference masses are of ``mass_class``."""
        self.mass_class = mass_class
        self._class_chosen = True
        self.update_plan()

    def set_corner(self, on: bool) -> None:
        """Include the corner test or not."""
        self.corner = on
        self.update_plan()

    def _limits(self) -> tuple[float, float]:
        """The scale interval and capacity of the pan being calibrated (from the balance)."""
        hw = App.get_running_app().hardware
        cals = hw.scale_info.get("calibrations") or []
        cal = next((c for c in cals if c.get("channel") == int(self.channel)), cals[0] if cals else {})
        return float(cal.get("interval_g", 0.1)), float(cal.get("capacity_g", 1000.0))

    def plan(self) -> Any:
        """The plan typed in.

        Raises:
            BadPlan: masses, checks, cycles or the creep time are not as they should be.
        """
        from companion.scale.calibration import BadPlan
        from companion.scale.calprocedure import Plan, masses_with_tolerances

        fit = masses_with_tolerances(self.ids.masses.text, "the fit masses")
        checks = masses_with_tolerances(self.ids.checks.text, "the check masses")
        try:
            repeats = int(self.ids.repeats.text or 2)
        except ValueError as exc:
            raise BadPlan("the number of cycles is a whole number, like 2") from exc
        try:
            creep = float((self.ids.creep.text or "0").replace(",", "."))
        except ValueError as exc:
            raise BadPlan("the creep test's time is a number of seconds, like 60 (0 skips it)") from exc
        interval, capacity = self._limits()
        return Plan(
            masses=tuple(m for m, _ in fit),
            checks=tuple(m for m, _ in checks),
            tolerances=tuple((m, t) for m, t in [*fit, *checks] if t is not None),
            mass_class=self.mass_class,
            interval_g=interval,
            capacity_g=capacity,
            repeats=repeats,
            channel=int(self.channel),
            corner=bool(self.corner),
            creep_s=creep,
        )

    def update_plan(self, *_: Any) -> None:
        """Say what the typed plan will ask for and what each mass may be off by."""
        from companion.errors import PurserError

        if "masses" not in self.ids or self.running:
            return
        try:
            plan = self.plan()
        except (PurserError, ValueError) as exc:
            self.plan_words = f"Not a plan yet: {exc}"
            self.tolerance_words = ""
            return
        self.plan_words = plan_text(plan.steps())
        fit = [(m, plan.tolerance(m)) for m in sorted(plan.masses)]
        checks = [(m, plan.tolerance(m)) for m in sorted(plan.checks)]
        words = f"Each fit mass may be off by: {tolerance_text(fit)}"
        if checks:
            words += f"; each check mass: {tolerance_text(checks)}"
        self.tolerance_words = words + ". This enters every weighing's uncertainty."

    def start(self) -> None:
        """Begin calibrating with the plan typed in."""
        from companion.errors import PurserError

        app = App.get_running_app()
        hw = app.hardware
        if not hw.can_weigh(int(self.channel)):
            self.error = (
                "No pan to calibrate: the balance must be connected and this pan working (see the Hardware screen)."
            )
            return
        try:
            plan = self.plan()
        except (PurserError, ValueError) as exc:
            self.error = str(exc)
            return
        self.error = ""
        self.result = ""
        self.statement = ""
        self.passed = False
        self.running = True
        self._go.clear()
        self._cancel.clear()
        hw.watch_scale(False)
        hw.run_on_scale(lambda h: self._calibrate(h.scale(), plan), self._done, self._failed)

    def _calibrate(self, scale: Any, plan: Any) -> Any:
        """The whole procedure (runs on the scale thread)."""
        from companion.scale.calprocedure import calibrate, keep_calibration, sim_instructor, simulator_of

        steps = plan.steps()
        sim = simulator_of(scale)
        placer = sim_instructor(sim, plan.channel) if sim is not None else None
        held: dict[int, float] = {}

        def instruct(step: Any, index: int, total: int) -> None:
            if self._cancel.is_set():
                raise CalibrationCancelled()
            words = step_prompt(step, index, total, simulated=placer is not None)
            if placer is not None:
                on_ui(self._show_step, words, index, total, False)
                placer(step, index, total)
                return
            self._go.clear()
            on_ui(self._show_step, words, index, total, True)
            while not self._go.wait(0.2):
                if self._cancel.is_set():
                    raise CalibrationCancelled()

        def progress(index: int, total: int, mass: float, readings: int, reason: str) -> None:
            if self._cancel.is_set():
                raise CalibrationCancelled()
            step = steps[index]
            hold = 0.0
            if step.hold_s > 0 and reason == "stable":
                since = held.setdefault(index, scale.now())
                hold = min(step.hold_s, scale.now() - since)
            on_ui(self._show_progress, index, total, step, readings, reason, hold)

        session, profile = calibrate(scale, plan, lambda *_: None, progress, instruct=instruct)
        kept = keep_calibration(scale, plan, session, profile)
        return profile, plan.interval_g, kept.profile, kept.in_balance

    def _show_step(self, text: str, index: int, total: int, waiting: bool) -> None:
        self.step_text = text
        self.progress = 100.0 * index / max(total, 1)
        self.waiting = waiting

    def _show_progress(self, index: int, total: int, step: Any, readings: int, reason: str, held: float) -> None:
        self.waiting = False
        if step.hold_s > 0 and reason == "stable":
            share = held / step.hold_s
            doing = f"steady; leave it there: {held:.0f} of {step.hold_s:g} s"
        else:
            share = 0.5 * min(readings, 40) / 40.0 if step.hold_s > 0 else min(readings, 40) / 40.0
            doing = f"{readings} readings, {reason}"
        self.progress = 100.0 * (index + min(share, 1.0)) / max(total, 1)
        where = "" if step.position == "centre" else f" on the {step.position} corner"
        self.step_text = f"Step {index + 1} of {total}, {step_kind_text(step.kind)}: {step.mass_g:g} g{where}, {doing}."

    def proceed(self) -> None:
        """The load asked for is on the pan."""
        self.waiting = False
        self._go.set()

    def cancel(self) -> None:
        """Stop; nothing is saved."""
        self._cancel.set()
        self._go.set()

    def _done(self, result: Any) -> None:
        profile, interval, target, stored = result
        self.running = False
        self.waiting = False
        self.progress = 100
        self.step_text = "Calibration finished and saved."
        report = profile.report
        self.statement = statement_text(report)
        self.passed = bool((report.get("verdict") or {}).get("passed"))
        cal = profile.calibration
        where = "kept in the balance too" if stored else "kept by Purser (the balance keeps none of its own)"
        self.result = "\n".join(
            [
                f"{cal.counts_per_gram:.4f} counts per gram, zero at {cal.zero_counts:.1f} counts.",
                *report_lines(report, interval),
                f"Saved to {target}; {where}.",
            ]
        )
        self.update_plan()
        App.get_running_app().hardware.refresh_scale_info()  # the hardware screen shows the new calibration

    def _failed(self, exc: BaseException) -> None:
        self.running = False
        self.waiting = False
        if isinstance(exc, CalibrationCancelled):
            self.step_text = "Calibration stopped; nothing was saved."
        else:
            self.error = f"Calibration failed: {exc}"
            self.step_text = "Nothing was saved."
        self.update_plan()
