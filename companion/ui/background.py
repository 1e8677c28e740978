"""Handing results from worker threads back to the UI thread.

Widgets and Kivy properties may only be touched on the UI thread; a worker passes its
result with :func:`on_ui`, which runs the callback at the next frame there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock


def on_ui(callback: Callable[..., Any], *args: Any) -> None:
    """Call ``callback(*args)`` on the UI thread at the next frame (safe from any thread)."""
    Clock.schedule_once(lambda _dt: callback(*args), 0)
