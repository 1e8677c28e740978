"""The Kivy application entry point."""

from __future__ import annotations

import logging
import os

log = logging.getLogger(__name__)


def run_app(db: str | None = None, scale_url: str | None = None, camera_url: str | None = None) -> int:
    """Start the tablet app; returns 0 when its window is closed."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.uix.label import Label

    class PurserApp(App):
        title = "Purser"

        def build(self) -> Label:
            return Label(text="Purser", font_size="48sp")

    PurserApp().run()
    return 0
