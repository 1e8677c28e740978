"""Keeping the screen on while a game is in play.

On a desktop or a Linux tablet this is the window's screensaver switch; on Android the
activity's FLAG_KEEP_SCREEN_ON (through pyjnius, present in Android builds only).
"""

from __future__ import annotations

import logging

from kivy.utils import platform

log = logging.getLogger(__name__)


def keep_awake(on: bool) -> None:
    """Keep the display from sleeping while ``on`` (a game screen is showing)."""
    from kivy.core.window import Window

    Window.allow_screensaver = not on
    if platform == "android":  # pragma: no cover - needs an Android device
        _android_keep_awake(on)


def is_kept_awake() -> bool:
    """Whether the display is currently kept awake."""
    from kivy.core.window import Window

    return not Window.allow_screensaver


def _android_keep_awake(on: bool) -> None:  # pragma: no cover - needs an Android device
    try:
        from android.runnable import run_on_ui_thread  # type: ignore[import-not-found]
        from jnius import autoclass  # type: ignore[import-not-found]
    except ImportError:
        log.warning("cannot keep the screen on: pyjnius is missing")
        return
    activity = autoclass("org.kivy.android.PythonActivity").mActivity
    flag = autoclass("android.view.WindowManager$LayoutParams").FLAG_KEEP_SCREEN_ON

    @run_on_ui_thread
    def apply() -> None:
        window = activity.getWindow()
        if on:
            window.addFlags(flag)
        else:
            window.clearFlags(flag)

    apply()
