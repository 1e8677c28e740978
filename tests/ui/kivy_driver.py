"""Driving the real Purser app in a real (offscreen) Kivy window: find widgets, tap them,
let frames run, wait for background work, save screenshots.

Used in-process by the tests and, for the kill-and-resume test, inside a subprocess
(tests/ui/app_process.py).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def start_app(
    db: Path, scale_url: str = "sim://?clock=real", camera_url: str = "sim://", size: tuple[int, int] = (1280, 800)
) -> Any:
    """Build the app on ``db`` in the process's one window, as ``App.run`` would, without blocking."""
    from kivy.base import EventLoop

    import companion.ui  # noqa: F401  (Kivy environment defaults)

    EventLoop.ensure_window()
    from kivy.core.window import Window

    Window.size = size
    from companion.ui.app import PurserApp

    app = PurserApp(db=db, scale_url=scale_url, camera_url=camera_url)
    app._run_prepare()
    pump(5)
    # The simulator banner appears once the devices have opened and moves every widget
    # down; a tap that straddles that moment would land its release off the button.
    hw = app.hardware
    if hw is not None and app._start_hardware:  # not started when the database was refused
        wait_until(
            lambda: {hw.scale_state, hw.camera_state}.isdisjoint({"off", "opening"}),
            60,
            "the scale and camera to open (or be found missing)",
        )
        pump(3)
    return app


def stop_app(app: Any) -> None:
    """Stop ``app`` the way closing its window would, leaving the window for the next one."""
    from kivy.app import App
    from kivy.base import EventLoop

    pump(2)  # callbacks already queued run while it is still the app
    # on_stop also clears kv's cached `app`; nothing may run between it and the reset
    # below, or kv would cache this app again for the next one.
    app.dispatch("on_stop")
    window = EventLoop.window
    for child in list(window.children):
        window.remove_widget(child)
    App._running_app = None


def pump(frames: int = 3, draw: bool = False) -> None:
    """Let Kivy run ``frames`` frames: clock callbacks, input, layout and canvas updates.

    The window itself is drawn only with ``draw`` (screenshots render the widget tree on
    their own): the software GL here takes ~0.1-0.3 s a frame, which would dominate the
    tests' time without changing what they check.
    """
    from kivy.base import EventLoop

    if draw or os.environ.get("PURSER_UI_DRAW") == "1":
        for _ in range(frames):
            EventLoop.idle()
        return
    from kivy.clock import Clock
    from kivy.lang import Builder

    for _ in range(frames):
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()


def wait_until(condition: Callable[[], Any], timeout: float = 30.0, what: str = "the app") -> Any:
    """Run frames until ``condition()`` is true; returns its value.

    Raises:
        AssertionError: it did not become true within ``timeout`` s (generous: the
        machine is shared and noisy).
    """
    deadline = time.monotonic() + timeout
    while True:
        pump(1)
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.01)


def walk(root: Any) -> Iterator[Any]:
    """Every widget under ``root`` (``root`` included)."""
    return root.walk(restrict=True)


def _matches(widget: Any, props: dict[str, Any]) -> bool:
    for name, want in props.items():
        if not hasattr(widget, name):
            return False
        value = getattr(widget, name)
        if callable(want) and not isinstance(want, type):
            if not want(value):
                return False
        elif value != want:
            return False
    return True


def find_all(root: Any, cls: type | str | None = None, **props: Any) -> list[Any]:
    """Widgets under ``root`` of class ``cls`` (a class or its name) whose properties equal ``props``
    (a callable value is used as a test)."""
    found = []
    for w in walk(root):
        if cls is not None:
            if isinstance(cls, str):
                if cls not in (c.__name__ for c in type(w).__mro__):
                    continue
            elif not isinstance(w, cls):
                continue
        if _matches(w, props):
            found.append(w)
    return found


def find(root: Any, cls: type | str | None = None, **props: Any) -> Any:
    """The one widget matching (see :func:`find_all`).

    Raises:
        AssertionError: none, or more than one, matches.
    """
    found = find_all(root, cls, **props)
    if len(found) != 1:
        raise AssertionError(f"expected one widget {cls or ''} {props}, found {len(found)}")
    return found[0]


def _scroll_into_view(widget: Any) -> None:
    from kivy.uix.scrollview import ScrollView

    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, ScrollView) and parent.children:
            content = parent.children[0]
            _, wy = widget.to_window(*widget.pos)
            _, py = parent.to_window(*parent.pos)
            inside = py <= wy and wy + widget.height <= py + parent.height
            if not inside and content.height > parent.height:
                parent.scroll_to(widget, padding=10, animate=False)
                pump(2)
        parent = parent.parent


def _settle_screens() -> None:
    """Let a screen change finish: a screen manager ignores touches while one runs."""
    from kivy.app import App

    app = App.get_running_app()
    manager = getattr(app, "manager", None)
    for _ in range(10):
        if manager is None or not manager.transition.is_active:
            return
        pump(1)


def tap(widget: Any) -> None:
    """Press and release ``widget`` with a simulated finger at its centre, through the window.

    Raises:
        AssertionError: it is disabled, or the touch did not land on it.
    """
    from kivy.tests.common import UnitTestTouch

    _settle_screens()
    assert not widget.disabled, f"{widget.__class__.__name__} {getattr(widget, 'text', '')!r} is disabled"
    _scroll_into_view(widget)
    from kivy.uix.behaviors import ButtonBehavior

    x, y = widget.to_window(*widget.center)
    pressed: list[bool] = []
    uid = widget.fbind("on_press", lambda *_: pressed.append(True)) if isinstance(widget, ButtonBehavior) else None
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    pump(1)
    touch.touch_up()
    pump(2)
    if uid is not None:
        widget.unbind_uid("on_press", uid)
        if not pressed:
            from kivy.base import EventLoop

            takers = [
                f"{type(w).__name__}{' (disabled)' if w.disabled else ''}"
                for top in EventLoop.window.children
                for w in walk(top)
                if w is not widget and w.collide_point(*w.to_widget(x, y)) and visible(w) and w.disabled
            ]
            wx, wy = widget.to_window(*widget.pos)
            raise AssertionError(
                f"the tap at {x:.0f},{y:.0f} missed {widget.__class__.__name__} "
                f"{getattr(widget, 'text', '')!r} (now at {wx:.0f},{wy:.0f} {widget.width:.0f}x"
                f"{widget.height:.0f}; disabled widgets there: {takers})"
            )


def wait_for(root: Any, timeout: float = 15.0, **props: Any) -> Any:
    """The one widget matching ``props``, pumping frames until it appears (screens load lazily,
    and a loaded machine may need several frames).

    Raises:
        AssertionError: none, or more than one, matches within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while True:
        found = find_all(root, None, **props)
        if len(found) == 1 or time.monotonic() > deadline:
            return find(root, **props)
        pump(1)


def tap_key(root: Any, key: str) -> None:
    """Tap the one widget whose ``key`` is ``key`` (waiting for it to appear)."""
    tap(wait_for(root, key=key))


def type_text(field: Any, text: str) -> None:
    """Put ``text`` in a text input as if typed."""
    field.focus = True
    field.text = text
    pump(1)


def shot(app: Any, directory: Path, name: str) -> Path:
    """Save the whole app as ``directory/name.png``; returns the path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.png"
    pump(2, draw=True)
    app.export_png(path)
    assert path.exists() and path.stat().st_size > 1000, f"no screenshot written to {path}"
    return path


def visible(widget: Any) -> bool:
    """Whether ``widget`` and all its parents are drawn (opacity above 0, some size)."""
    w = widget
    while w is not None:
        if getattr(w, "opacity", 1) <= 0:
            return False
        parent = getattr(w, "parent", None)
        if parent is w:
            break
        w = parent
    return widget.width > 0 and widget.height > 0


def texts(root: Any) -> str:
    """All the text visible under ``root``, joined: for checking what a screen says."""
    out = []
    for w in walk(root):
        text = getattr(w, "text", None)
        if isinstance(text, str) and text and visible(w):
            out.append(text)
    return "\n".join(out)


def environment_ready() -> None:
    """Kivy's environment for tests (set before Kivy is imported)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")


def _in_scrollview(widget: Any) -> Any:
    from kivy.uix.scrollview import ScrollView

    w = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, ScrollView):
            return w
        w = w.parent
    return None


def _off_slide(widget: Any) -> bool:
    """Whether ``widget`` sits on a carousel page that is not shown."""
    from kivy.uix.carousel import Carousel

    node, child = widget.parent, widget
    while node is not None and node is not node.parent:
        if isinstance(node, Carousel):
            return (
                child is not node.current_slide
                and child.parent is not node.current_slide
                and node.current_slide not in (child, getattr(child, "parent", None))
            )
        child, node = node, node.parent
    return False


def outside_parent(root: Any, slack: float = 1.0) -> list[str]:
    """Visible widgets under ``root`` that stick out of their parent's box (inside a
    scrolling list, only sideways out of the list): one line per widget."""
    from kivy.uix.scrollview import ScrollView

    problems = []
    for w in walk(root):
        parent = w.parent
        if parent is None or parent is w or w is root or not visible(w) or _off_slide(w):
            continue
        if isinstance(parent, ScrollView):
            continue  # the scrolled content is meant to be taller than its view
        x, y = w.to_window(*w.pos)
        px, py = parent.to_window(*parent.pos)
        holder = _in_scrollview(w)
        what = f"{type(w).__name__} {str(getattr(w, 'text', ''))[:30]!r} in {type(parent).__name__}"
        if holder is not None:
            hx, _ = holder.to_window(*holder.pos)
            if x < hx - slack or x + w.width > hx + holder.width + slack:
                problems.append(f"{what}: sticks out of its list sideways")
            continue
        if (
            x < px - slack
            or y < py - slack
            or x + w.width > px + parent.width + slack
            or y + w.height > py + parent.height + slack
        ):
            problems.append(
                f"{what}: {x:.0f},{y:.0f} {w.width:.0f}x{w.height:.0f} outside "
                f"{px:.0f},{py:.0f} {parent.width:.0f}x{parent.height:.0f}"
            )
    return problems


def is_elided(label: Any) -> bool:
    """Whether a label cuts its text short ("Ace...igh") or wraps it past its box."""
    from kivy.core.text import Label as CoreLabel

    text = getattr(label, "text", "")
    if not text or not visible(label):
        return False
    width = label.text_size[0] if label.text_size and label.text_size[0] else None
    if getattr(label, "shorten", False) and width:
        if label.markup:
            from kivy.core.text.markup import MarkupLabel as CoreLabel
        core = CoreLabel(text=text, font_size=label.font_size, bold=label.bold, font_name=label.font_name)
        core.refresh()
        pad = list(label.padding) if isinstance(label.padding, list | tuple) else [label.padding] * 4
        sides = (pad[0] + pad[2]) if len(pad) == 4 else 2 * pad[0]
        return core.content_width > width - sides + 0.5
    return False


def elided(root: Any) -> list[str]:
    """Every visible label under ``root`` whose text is cut short."""
    from kivy.uix.label import Label

    return [f"{type(w).__name__} {w.text!r}" for w in walk(root) if isinstance(w, Label) and is_elided(w)]


def find_open(**props: Any) -> Any:
    """The one widget matching ``props`` in whatever is open over the app (a dialog, a panel)."""
    from kivy.base import EventLoop

    found = [w for top in EventLoop.window.children for w in walk(top) if _matches(w, props)]
    if len(found) != 1:
        raise AssertionError(f"expected one open widget {props}, found {len(found)}")
    return found[0]


def set_window(size: tuple[int, int]) -> None:
    """Resize the window and wait until the app is laid out at the new size."""
    from kivy.app import App
    from kivy.core.window import Window

    Window.size = size
    app = App.get_running_app()
    wait_until(
        lambda: app is None or app.root is None or next(int(v) for v in app.root.size) == size[0],
        10,
        f"the window at {size[0]}x{size[1]}",
    )
    pump(3)


def hidden_tap_takers(root: Any) -> list[str]:
    """Disabled widgets inside a folded-away box (no width or height) that still have a size:
    Kivy lets a disabled widget swallow every touch on its spot, seen or not. A box that
    stops touches when hidden (the app's ``Fold``) makes them harmless."""
    problems = []
    for w in walk(root):
        if not w.disabled or w.width <= 0 or w.height <= 0:
            continue
        node = w.parent
        while node is not None and node is not node.parent:
            if getattr(node, "shown", True) is False and type(node).__name__ == "Fold":
                break  # touches stop here
            if node.width <= 0 or node.height <= 0:
                problems.append(
                    f"{type(w).__name__} {str(getattr(w, 'text', ''))[:30]!r} is hidden in a folded "
                    f"{type(node).__name__} but still takes taps on its spot"
                )
                break
            node = node.parent
    return problems
