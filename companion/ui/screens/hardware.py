"""Hardware: the balance as ``purser scale info`` describes it (device, each pan's state,
measured noise against the datasheet, averaging, motion band, pins and calibration), its
live weight, tare and weighing; the camera's preview with the dice it reads and the tray
drawn on it; what to do when either is missing or the balance is unplugged."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.pans import pan_name
from companion.ui.scale_words import (
    calibration_line,
    grams_text,  # noqa: F401  (imported from here too)
    pan_details,
    pan_headline,
    pan_problem,
)
from companion.ui.screens.common import when
from companion.ui.widgets import dice_view  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PLabel, PToggle
from companion.vision.tray import Tray

STATE_WORDS = {
    "ready": "Connected",
    "opening": "Opening...",
    "missing": "Not available",
    "fault": "Fault",
    "off": "Not opened yet",
    "waiting": "Waiting for the balance",
}
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


def dice_text(detections: Any) -> str:
    """The dice read, in words: "3 5 5 6 1" and how many need confirming."""
    if detections is None:
        return "No dice read yet."
    if len(detections) == 0:
        from companion.ui.widgets.dice import unreadable_count

        unread = unreadable_count(detections)
        return (
            f"{unread} {'die' if unread == 1 else 'dice'} in view could not be read." if unread else "No dice in view."
        )
    from companion.ui.widgets.dice import unreadable_count

    values = " ".join(f"{d.value}?" if d.unsure else str(d.value) for d in detections)
    unsure = detections.unsure_count
    unread = unreadable_count(detections)
    return (
        f"Dice: {values}"
        + (f"  ({unsure} unsure: a player must confirm)" if unsure else "")
        + (f"  {unread} {'die' if unread == 1 else 'dice'} could not be read." if unread else "")
    )


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
    words = {
        "profile": "calibrated",
        "firmware": "calibrated (kept in the balance)",
        "factory": "factory calibration",
        "board": "calibrated by the board",
    }.get(source, source)
    return f"{words.capitalize()}" + (f" on {when(created)}" if created else "") + f", ± {cal.get('sigma_g', 0):.2f} g"


def pan_role(pan: Mapping[str, Any]) -> str:
    """The colour role of a pan's headline: good when it weighs, bad when it cannot."""
    from companion.ui.scale_words import noisy

    if pan.get("state") == "disconnected":
        return "warn"
    if not pan.get("working", True):
        return "bad"
    return "warn" if noisy(pan) else "good"


def weighing_text(w: Any, channels: int) -> str:
    """A steady weighing with its uncertainty, its pan, and whether the calibration vouches for it."""
    pan = f" on pan {pan_name(w.channel)}" if channels > 1 else ""
    text = f"Steady weight{pan}: {w.grams:.2f} g ± {w.uncertainty_g:.2f} g ({w.samples} readings averaged"
    text += f", noise ±{w.noise_g:.3f} g)" if getattr(w, "noise_g", 0) else ")"
    if not getattr(w, "verified", True):
        text += ". Heavier than the calibration was checked with: its uncertainty allows for that."
    return text


class PanRow(BoxLayout):
    """One pan of the balance: a toggle that watches it live, its state in a word, then what
    ``purser scale info`` says of it (noise, averaging, band, pins, calibration)."""

    def __init__(self, channel: int, pick: Any, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", size_hint_y=None, spacing=dp(10), **kwargs)
        self.toggle = PToggle(
            text=f"Pan {pan_name(channel)}",
            key=f"pan:{channel}",
            group="hw-pan",
            allow_no_selection=False,
            size_hint_x=None,
            width=dp(110),
        )
        self.toggle.bind(on_release=lambda *_: pick(channel))
        column = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(2))
        column.bind(minimum_height=column.setter("height"))
        self.headline = PLabel(bold=True)
        self.details = PLabel(role="muted")
        self.calibration = PLabel(role="muted")
        for label in (self.headline, self.details, self.calibration):
            column.add_widget(label)
        holder = BoxLayout(orientation="vertical", size_hint_x=None, width=dp(110))
        holder.add_widget(self.toggle)
        holder.add_widget(Widget())  # the toggle stays at the top of a tall row
        self.add_widget(holder)
        self.add_widget(column)
        self._column = column
        column.bind(height=self._fit)
        self.toggle.bind(height=self._fit)

    def _fit(self, *_: Any) -> None:
        self.height = max(self._column.height, self.toggle.height)

    def show(
        self, pan: Mapping[str, Any], calibration: Mapping[str, Any] | None, rate_sps: int | None, watched: bool
    ) -> None:
        self.headline.text = pan_headline(pan)
        self.headline.role = pan_role(pan)
        self.details.text = pan_details(pan, rate_sps)
        self.calibration.text = calibration_line(calibration) if calibration else ""
        self.toggle.state = "down" if watched else "normal"


class HardwareScreen(Screen):
    """Scale and camera status, live."""

    channel = NumericProperty(0)
    weigh_text = StringProperty("")
    #: The watched pan can weigh now (the balance is ready and the pan works).
    weighable = BooleanProperty(False)
    #: The watched pan cannot weigh: why, and what to check ("" when it can).
    pan_note = StringProperty("")
    #: True while a finger drag on the preview draws a new tray.
    drawing_tray = BooleanProperty(False)
    #: True while the tray is being looked for in the picture.
    finding_tray = BooleanProperty(False)
    tray_text = StringProperty("")
    #: This screen watches both devices live (a screen left for it keeps them watched).
    uses_scale = True
    uses_camera = True

    def __init__(self, **kwargs: Any) -> None:
        #: One row per pan, by channel.
        self.pan_rows: dict[int, PanRow] = {}
        super().__init__(**kwargs)
        hw = App.get_running_app().hardware
        if hw is not None:
            hw.bind(pans=self._show_pans, scale_info=self._show_pans, scale_state=self._show_pans)
        self.bind(channel=self._show_pans)

    def on_kv_post(self, base_widget: Any) -> None:
        self._show_pans()

    def _show_pans(self, *_: Any) -> None:
        """Fill one row per pan from the driver's report, and what the watched pan can do."""
        hw = App.get_running_app().hardware
        if hw is None or "pans" not in self.ids:
            return
        box = self.ids.pans
        shown = hw.pans if hw.scale_state in ("ready", "fault", "waiting") else []
        cals = {c.get("channel", i): c for i, c in enumerate(hw.scale_info.get("calibrations") or [])}
        rate = hw.scale_info.get("rate_sps")
        for channel in [c for c in self.pan_rows if c not in {p["channel"] for p in shown}]:
            box.remove_widget(self.pan_rows.pop(channel))
        for pan in shown:
            row = self.pan_rows.get(pan["channel"])
            if row is None:
                row = self.pan_rows[pan["channel"]] = PanRow(pan["channel"], self.pick_channel)
                box.add_widget(row)
            row.show(pan, cals.get(pan["channel"]), rate, pan["channel"] == int(self.channel))
        channel = int(self.channel)
        self.weighable = hw.can_weigh(channel)
        watched = hw.pan(channel)
        self.pan_note = pan_problem(watched) if watched is not None and hw.scale_state == "ready" else ""

    def on_pre_enter(self, *_: Any) -> None:
        hw = App.get_running_app().hardware
        if self.channel >= hw.scale_channels:
            self.channel = 0
        hw.watch_scale(True, self.channel)
        hw.watch_camera(True)
        self._show_pans()

    def on_leave(self, *_: Any) -> None:
        # A screen is left after the next one has started: what the next one watches goes on.
        hw = App.get_running_app().hardware
        following = self.manager.current_screen if self.manager is not None else None
        if not getattr(following, "uses_scale", False):
            hw.watch_scale(False)
        if not getattr(following, "uses_camera", False):
            hw.watch_camera(False)

    def pick_channel(self, channel: int) -> None:
        """Watch pan ``channel``."""
        self.channel = channel
        self.weigh_text = ""
        App.get_running_app().hardware.watch_scale(True, channel)

    def calibrate(self) -> None:
        """Open the calibration wizard for the watched pan."""
        App.get_running_app().go("calibrate", channel=int(self.channel))

    def tare(self) -> None:
        """Zero the pan (in the background)."""
        self.weigh_text = "Taring: keep the pan empty and still..."
        App.get_running_app().hardware.tare(
            int(self.channel),
            lambda _r: setattr(self, "weigh_text", "Tared: the pan reads zero now."),
            lambda exc: setattr(self, "weigh_text", f"Not tared. {exc}"),
        )

    def weigh(self) -> None:
        """Take one stable weighing (in the background) and show it with its uncertainty."""
        self.weigh_text = "Weighing: keep the pan still..."
        hw = App.get_running_app().hardware
        channels = int(hw.scale_channels)
        hw.weigh(
            int(self.channel),
            lambda w: setattr(self, "weigh_text", weighing_text(w, channels)),
            lambda exc: setattr(self, "weigh_text", f"No weight. {exc}"),
        )

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

    def find_tray(self) -> None:
        """Look for the tray in the camera's picture; a tray found is kept and drawn, so the
        player sees it and can mark it by hand instead."""
        self.drawing_tray = False
        self.finding_tray = True
        self.tray_text = "Looking for the tray..."
        App.get_running_app().hardware.find_tray(self._tray_found, self._tray_not_found)

    def _tray_found(self, text: str) -> None:
        self.finding_tray = False
        if not text:
            self.tray_text = "No tray found in the picture: mark it with a finger, or keep reading the whole picture."
            return
        self.set_tray(text)
        if not self.tray_text:  # kept without trouble
            self.tray_text = (
                "Tray found and kept for this camera (drawn in blue): dice outside it are ignored. "
                "If it is wrong, mark the tray by hand."
            )

    def _tray_not_found(self, exc: BaseException) -> None:
        self.finding_tray = False
        self.tray_text = f"Could not look for the tray: {exc}"

    def retry_camera(self) -> None:
        """Open the camera again."""
        App.get_running_app().hardware.open_camera()
