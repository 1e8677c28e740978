"""The banner shown whenever a simulator stands in for real hardware."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout


def banner_text(scale_simulated: bool, camera_simulated: bool) -> str:
    """What the banner says for the devices that are simulated ('' when none is)."""
    parts = []
    if scale_simulated:
        parts.append("the scale")
    if camera_simulated:
        parts.append("the dice camera")
    if not parts:
        return ""
    verb = "is" if len(parts) == 1 else "are"
    return f"SIMULATOR: {' and '.join(parts)} {verb} simulated, not real hardware. Tap for hardware."


class SimulatorBanner(ButtonBehavior, BoxLayout):
    """A bright strip across the top; tapping it opens the hardware screen."""

    text = StringProperty("")
