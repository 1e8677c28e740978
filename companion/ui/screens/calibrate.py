"""The calibration wizard: the steps of ``purser calibrate scale`` on the tablet, with progress.

Empty pan, then each known mass, the cycle repeated; every step waits for the player to
put the load on and tap Continue (the simulator places its own masses), then samples
until the load is steady. The fit, its verdict and where the profile was saved are shown
at the end. Everything that talks to the balance runs on the scale thread.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.background import on_ui

log = logging.getLogger(__name__)


class CalibrationCancelled(Exception):
    """The player stopped the wizard."""


def load_words(mass: float) -> str:
    """What to put on the pan for a step."""
    return "Empty the pan" if mass == 0 else f"Put {mass:g} g on the pan"


def report_lines(profile: Any, interval_g: float) -> list[str]:
    """The calibration's result in words."""
    cal = profile.calibration
    report = profile.report
    lines = [f"{cal.counts_per_gram:.3f} counts per gram; fit error {cal.sigma_g:.4f} g; "
             f"linearity {report.get('linearity_pct', 0):.4f} % of capacity."]
    for point, residual in zip(report.get("points", []), report.get("residuals_g", [])):
        lines.append(f"{point['mass_g']:g} g: error {residual:+.4f} g ({point['n']} readings)")
    verdict = report.get("verdict", {})
    if verdict.get("passed"):
        lines.append(f"Meets OIML R76 class III at e = {interval_g:g} g.")
    else:
        lines.append(f"Does NOT meet OIML R76 class III at e = {interval_g:g} g: " + "; ".join(verdict.get("failures", [])))
    return lines


class CalibrateScreen(Screen):
    """Masses in, steps with progress, the fit out."""

    running = BooleanProperty(False)
    waiting = BooleanProperty(False)
    step_text = StringProperty("")
    progress = NumericProperty(0)
    result = StringProperty("")
    error = StringProperty("")
    channel = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._go = threading.Event()
        self._cancel = threading.Event()

    def on_pre_enter(self, *_: Any) -> None:
        if not self.running:
            self.step_text = "Choose known masses (coins work: see calibration/PROCEDURE.md), then Start."
            self.progress = 0

    def start(self) -> None:
        """Begin calibrating with the masses typed in."""
        from companion.scale.calprocedure import masses_from_text
        from companion.errors import PurserError

        app = App.get_running_app()
        hw = app.hardware
        if hw.scale_state not in ("ready", "fault"):
            self.error = "No scale to calibrate: connect it on the Hardware screen first."
            return
        try:
            masses = masses_from_text(self.ids.masses.text)
            repeats = int(self.ids.repeats.text or 2)
        except (PurserError, ValueError) as exc:
            self.error = str(exc)
            return
        self.error = ""
        self.result = ""
        self.running = True
        self._go.clear()
        self._cancel.clear()
        hw.watch_scale(False)
        channel = int(self.channel)
        hw.run_on_scale(lambda h: self._calibrate(h.scale(), masses, repeats, channel), self._done, self._failed)

    def _calibrate(self, scale: Any, masses: tuple[float, ...], repeats: int, channel: int) -> Any:
        """The whole procedure (runs on the scale thread)."""
        from companion.scale.calibration import write_session
        from companion.scale.calprocedure import Plan, calibrate, sim_placer
        from companion.scale.errors import ScaleError
        from companion.scale.profile import profile_path, save_profile

        if not hasattr(scale, "fresh_samples"):
            raise ScaleError("this kind of balance cannot be calibrated by Purser")
        current = scale.calibration(channel)
        plan = Plan(masses=masses, interval_g=current.interval_g, capacity_g=current.capacity_g,
                    repeats=repeats, channel=channel)
        placer = sim_placer(scale, channel) if getattr(scale, "simulated", False) else None

        def ask(mass: float, index: int, total: int) -> None:
            if self._cancel.is_set():
                raise CalibrationCancelled()
            words = load_words(mass)
            if placer is not None:
                on_ui(self._show_step, f"Step {index + 1} of {total}: {words} (the simulator does it).", index, total, False)
                placer(mass, index, total)
                return
            self._go.clear()
            on_ui(self._show_step, f"Step {index + 1} of {total}: {words}, then tap Continue.", index, total, True)
            while not self._go.wait(0.2):
                if self._cancel.is_set():
                    raise CalibrationCancelled()

        def progress(index: int, total: int, mass: float, readings: int, reason: str) -> None:
            on_ui(self._show_progress, index, total, mass, readings, reason)

        session, profile = calibrate(scale, plan, ask, progress)
        cal = profile.calibration
        target = profile_path(cal.device_id, cal.channel)
        save_profile(profile, target)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        write_session(session, target.parent / f"{target.stem}-{stamp}.session.json")
        stored = False
        try:
            stored = scale.write_calibration(cal)
        except ScaleError as exc:
            log.warning("the balance did not keep the calibration: %s", exc)
        scale.set_calibration(cal)
        return profile, plan.interval_g, target, stored

    def _show_step(self, text: str, index: int, total: int, waiting: bool) -> None:
        self.step_text = text
        self.progress = 100.0 * index / max(total, 1)
        self.waiting = waiting

    def _show_progress(self, index: int, total: int, mass: float, readings: int, reason: str) -> None:
        self.waiting = False
        self.progress = 100.0 * (index + min(readings, 40) / 40.0) / max(total, 1)
        self.step_text = f"Step {index + 1} of {total}: {mass:g} g, {readings} readings, {reason}."

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
        where = "kept in the balance too" if stored else "kept by Purser (the balance keeps none of its own)"
        self.result = "\n".join(report_lines(profile, interval) + [f"Saved to {target}; {where}."])
        App.get_running_app().hardware.refresh_scale_info()  # the status line shows the new calibration

    def _failed(self, exc: BaseException) -> None:
        self.running = False
        self.waiting = False
        if isinstance(exc, CalibrationCancelled):
            self.step_text = "Calibration stopped; nothing was saved."
        else:
            self.error = f"Calibration failed: {exc}"
            self.step_text = "Nothing was saved."
