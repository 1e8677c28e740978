"""Dice that look like dice: a face with its pips, a clear HELD mark, "?" on a die the
camera was unsure of, and a row of them that can be tapped to hold or to correct."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, SmoothRoundedRectangle
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

#: Where the pips of each face sit, in thirds of the face (column, row from the top).
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
IVORY = (0.96, 0.94, 0.88, 1)
PIP = (0.1, 0.1, 0.12, 1)


#: Where a reader may report the dice it found but could not read (a count).
UNREADABLE_NAMES = ("unreadable", "unreadable_count", "unread", "unknown")


def unreadable_count(detections: Any) -> int:
    """How many dice the reader saw but could not read, from DiceDetections or its JSON (0
    when it does not say: a reader may report only the dice it read)."""
    if detections is None:
        return 0
    for name in UNREADABLE_NAMES:
        value = detections.get(name) if isinstance(detections, Mapping) else getattr(detections, name, None)
        if isinstance(value, int | np.integer) and not isinstance(value, bool):
            return max(0, int(value))
    return 0


def unreadable_text(n: int) -> str:
    """ "1 die could not be read" / "3 dice could not be read" ('' for none)."""
    if n <= 0:
        return ""
    return f"{n} {'die' if n == 1 else 'dice'} could not be read: add {'it' if n == 1 else 'them'} below."


class DieFace(ButtonBehavior, Widget):
    """One die. ``value`` 1-6 (0: not known yet), ``held`` draws the HELD mark, ``unsure``
    the camera's doubt, ``selected`` that it is the die being corrected."""

    value = NumericProperty(0)
    held = BooleanProperty(False)
    unsure = BooleanProperty(False)
    selected = BooleanProperty(False)
    key = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("size_hint", (None, None))
        kwargs.setdefault("size", (dp(84), dp(104)))
        super().__init__(**kwargs)
        self.bind(
            pos=self._draw,
            size=self._draw,
            value=self._draw,
            held=self._draw,
            unsure=self._draw,
            selected=self._draw,
            disabled=self._draw,
            state=self._draw,
        )
        self._draw()

    def _draw(self, *_: Any) -> None:
        theme = App.get_running_app().theme
        side = min(self.width, self.height - dp(20))
        x = self.center_x - side / 2
        y = self.top - side
        self.canvas.clear()
        with self.canvas:
            if self.selected or self.state == "down":
                Color(*theme.accent)
                SmoothRoundedRectangle(pos=(x - dp(4), y - dp(4)), size=(side + dp(8), side + dp(8)), radius=[dp(16)])
            Color(*((0.78, 0.77, 0.72, 1) if self.disabled and not self.held else IVORY))
            SmoothRoundedRectangle(pos=(x, y), size=(side, side), radius=[dp(13)])
            if self.unsure:
                Color(*theme.warn)
                Line(rounded_rectangle=(x + dp(1), y + dp(1), side - dp(2), side - dp(2), dp(12)), width=dp(3))
            if 1 <= self.value <= 6:
                Color(*PIP)
                r = side * 0.09
                for col, row in PIPS[int(self.value)]:
                    cx = x + side * (0.25 + 0.25 * col)
                    cy = y + side * (0.75 - 0.25 * row)
                    Ellipse(pos=(cx - r, cy - r), size=(2 * r, 2 * r))
            else:
                self._text("?", (x + side / 2, y + side / 2), sp(40), PIP)
            if self.unsure and 1 <= self.value <= 6:
                Color(*theme.warn)
                badge = dp(26)
                Ellipse(pos=(x + side - badge * 0.8, y + side - badge * 0.8), size=(badge, badge))
                self._text("?", (x + side - badge * 0.3, y + side - badge * 0.3), sp(18), (0.1, 0.06, 0, 1))
            if self.held:
                Color(*theme.accent)
                Rectangle(pos=(x, self.y), size=(side, dp(18)))
                self._text("HELD", (x + side / 2, self.y + dp(9)), sp(13), theme.accent_text)

    def _text(self, text: str, centre: tuple[float, float], size: float, colour: Any) -> None:
        label = CoreLabel(text=text, font_size=size, bold=True)
        label.refresh()
        tex = label.texture
        Color(*colour)
        Rectangle(texture=tex, size=tex.size, pos=(centre[0] - tex.width / 2, centre[1] - tex.height / 2))


def fill_faces(
    row: Widget, specs: Sequence[Mapping[str, Any]], on_tap: Callable[[DieFace], None], **new: Any
) -> list[DieFace]:
    """Keep one :class:`DieFace` per spec in ``row``, in order: faces past the last spec
    are removed, missing ones added (made with ``new``, e.g. ``size``, and calling
    ``on_tap`` when tapped), and each face takes its spec's properties (``value``,
    ``held``, ``unsure``, ``selected``, ``key``, ``disabled``). Returns the faces."""
    faces = [w for w in reversed(row.children) if isinstance(w, DieFace)]
    while len(faces) > len(specs):
        row.remove_widget(faces.pop())
    while len(faces) < len(specs):
        face = DieFace(**new)
        face.bind(on_release=on_tap)
        row.add_widget(face)
        faces.append(face)
    for face, spec in zip(faces, specs, strict=True):
        for name, value in spec.items():
            setattr(face, name, value)
    return faces
