"""Shown instead of everything else when Purser cannot start (a refused database)."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen


class ProblemScreen(Screen):
    """A title, the explanation in words, and a Quit button."""

    heading = StringProperty("")
    detail = StringProperty("")

    def show(self, heading: str, detail: str) -> None:
        """Say what is wrong."""
        self.heading = heading
        self.detail = detail
