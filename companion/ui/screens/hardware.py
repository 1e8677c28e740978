"""Hardware: the scale's state, live weight, tare and weighing; the camera's preview with the
dice it reads and the tray drawn on it; what to do when either is missing."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.screens.common import when
from companion.ui.widgets import dice_view  # noqa: F401  (kv classes)
from companion.vision.tray import Tray


STATE_WORDS = {"ready": "Connected", "opening": "Opening...", "missing": "Not available", "fault": "Fault",
               "off": "Not opened yet"}
STATE_ROLES = {"ready": "good", "missing": "bad", "fault": "bad"}


def state_text(state: str, simulated: bool) -> str:
    """A device state in words."""
    return STATE_WORDS.get(state, state) + ("  (simulator)" if simulated else "")


def state_role(state: str) -> str:
    """The label colour role for a device state."""
    return STATE_ROLES.get(state, "warn")


def address_text(url: str, info: dict[str, Any]) -> str:
    """Where the scale is and which device answered."""
    device = info.get("device_id")
    return f"Address: {url}" + (f"   device: {device}" if device else "")


def grams_text(grams: float | None) -> str:
    """A live reading: "123.4 g" (never "-0.0 g"), or "waiting" while there is none yet."""
    if grams is None:
        return "waiting..."
    shown = round(grams, 1)
    return f"{0.0 if shown == 0 else shown:,.1f} g"


def dice_text(detections: Any) -> str:
    """The dice read, in words: "3 5 5 6 1" and how many need confirming."""
    if detections is None:
        return "No dice read yet."
    if len(detections) == 0:
        from companion.ui.widgets.dice import unreadable_count

        unread = unreadable_count(detections)
        return f"{unread} {'die' if unread == 1 else 'dice'} in view could not be read." if unread else "No dice in view."
    from companion.ui.widgets.dice import unreadable_count

    values = " ".join(f"{d.value}?" if d.unsure else str(d.value) for d in detections)
    unsure = detections.unsure_count
    unread = unreadable_count(detections)
    return (f"Dice: {values}" + (f"  ({unsure} unsure: a player must confirm)" if unsure else "")
            + (f"  {unread} {'die' if unread == 1 else 'dice'} could not be read." if unread else ""))


def tray_words(tray: str, drawing: bool = False) -> str:
    """Where the camera looks for dice, in words (and what to do while marking the tray)."""
    if drawing:
        return "Drag a finger from one corner of the tray to the other on the picture."
    if not tray:
        return "Dice are read anywhere in the picture. Mark the tray to ignore the rest of the table."
    return "Dice are read inside the blue tray only (kept for this camera); anything outside it is ignored."


def calibration_text(info: dict[str, Any], channel: int) -> str:
    """When and how the pan was calibrated."""
    cals = info.get("calibrations") or []
    if channel >= len(cals):
        return "Calibration: unknown"
    cal = cals[channel]
    source = cal.get("source", "")
    if source == "nominal":
        return "Not calibrated: weights cannot be trusted until you calibrate."
    created = cal.get("created") or ""
    words = {"profile": "calibrated", "firmware": "calibrated (kept in the balance)",
             "factory": "factory calibration", "board": "calibrated by the board"}.get(source, source)
    return f"{words.capitalize()}" + (f" on {when(created)}" if created else "") + f", ± {cal.get('sigma_g', 0):.2f} g"


class HardwareScreen(Screen):
    """Scale and camera status, live."""

    channel = NumericProperty(0)
    weigh_text = StringProperty("")
    #: True while a finger drag on the preview draws a new tray.
    drawing_tray = BooleanProperty(False)
    tray_text = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        hw = App.get_running_app().hardware
        hw.watch_scale(True, self.channel)
        hw.watch_camera(True)

    def on_leave(self, *_: Any) -> None:
        hw = App.get_running_app().hardware
        hw.watch_scale(False)
        hw.watch_camera(False)

    def pick_channel(self, channel: int) -> None:
        """Watch pan ``channel``."""
        self.channel = channel
        App.get_running_app().hardware.watch_scale(True, channel)

    def tare(self) -> None:
        """Zero the pan (in the background)."""
        self.weigh_text = "Taring: keep the pan empty and still..."
        App.get_running_app().hardware.tare(
            int(self.channel), lambda _r: setattr(self, "weigh_text", "Tared: the pan reads zero now."),
            lambda exc: setattr(self, "weigh_text", f"Not tared: {exc}"))

    def weigh(self) -> None:
        """Take one stable weighing (in the background) and show it with its uncertainty."""
        self.weigh_text = "Weighing: keep the pan still..."
        channel = int(self.channel)

        def done(w: Any) -> None:
            self.weigh_text = f"Steady weight: {w.grams:.2f} g +- {w.uncertainty_g:.2f} g ({w.samples} readings)"

        App.get_running_app().hardware.run_on_scale(
            lambda hw: hw.scale().weigh_stable(timeout=15.0, channel=channel), done,
            lambda exc: setattr(self, "weigh_text", f"No weight: {exc}"))

    def retry_scale(self) -> None:
        """Look for the scale again."""
        App.get_running_app().hardware.open_scale()

    def set_tray(self, text: str) -> None:
        """Keep ``text`` (tray text; "" for the whole picture) for this camera and use it."""
        self.drawing_tray = False
        app = App.get_running_app()
        if text:
            Tray.parse(text)  # a drawn rectangle is always a tray; anything else is refused here
        self.tray_text = app.use_tray(text)

    def retry_camera(self) -> None:
        """Open the camera again."""
        App.get_running_app().hardware.open_camera()
