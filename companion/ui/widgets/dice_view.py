"""A camera picture with the dice read from it drawn on top (value, and "?" when unsure), the
tray outlined, and a finger-drawn rectangle to set a new tray."""

from __future__ import annotations

from typing import Any

import numpy as np
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.image import Image

from companion.vision.errors import VisionError
from companion.vision.tray import Tray

#: Box colours: read with confidence, and flagged unsure (a player must confirm).
SURE = (0.3, 0.85, 0.45, 1)
UNSURE = (1.0, 0.6, 0.1, 1)
#: The tray's outline, and the rectangle being drawn.
TRAY = (0.45, 0.55, 1.0, 1)


def frame_texture(frame: np.ndarray, texture: Texture | None = None) -> Texture:
    """A texture showing ``frame`` (BGR uint8, H x W x 3), reusing ``texture`` when it fits."""
    h, w = frame.shape[:2]
    if texture is None or tuple(texture.size) != (w, h):
        texture = Texture.create(size=(w, h), colorfmt="bgr")
    # OpenCV rows run top-down, GL textures bottom-up.
    data = np.ascontiguousarray(frame[::-1])
    texture.blit_buffer(data.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


class DiceView(Image):
    """Shows ``frame`` with ``detections`` (a DiceDetections) outlined on it.

    ``tray`` (tray text, "" for none) is outlined. While ``drawing`` is true a finger drag
    draws a rectangle; on release ``on_tray_drawn(text)`` is dispatched with it as tray text
    (fractions of the picture).
    """

    frame = ObjectProperty(None, allownone=True, force_dispatch=True)
    detections = ObjectProperty(None, allownone=True, force_dispatch=True)
    tray = StringProperty("")
    drawing = BooleanProperty(False)
    #: Said in the empty box until the first frame arrives.
    placeholder = StringProperty("Starting the camera...")

    __events__ = ("on_tray_drawn",)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        self._drag: list[tuple[float, float]] = []
        super().__init__(**kwargs)
        self.color = (1, 1, 1, 0)  # no picture yet: not the white box an empty image draws
        self.bind(pos=self._draw_boxes, size=self._draw_boxes, tray=self._draw_boxes, placeholder=self._draw_boxes)

    def on_tray_drawn(self, text: str) -> None:
        """A tray was drawn: ``text`` is "x0,y0,x1,y1" in fractions of the picture."""

    def picture_fraction(self, x: float, y: float) -> tuple[float, float] | None:
        """Window point (x, y) as fractions (0-1) of the picture, top-left origin; None off it."""
        iw, ih = self.norm_image_size
        if self.texture is None or iw <= 0 or ih <= 0:
            return None
        fx = (x - (self.center_x - iw / 2.0)) / iw
        fy = 1.0 - (y - (self.center_y - ih / 2.0)) / ih
        return min(max(fx, 0.0), 1.0), min(max(fy, 0.0), 1.0)

    def on_touch_down(self, touch: Any) -> bool:
        if self.drawing and self.collide_point(*touch.pos) and self.picture_fraction(*touch.pos) is not None:
            touch.grab(self)
            self._drag = [touch.pos, touch.pos]
            self._draw_boxes()
            return True
        return bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        if touch.grab_current is self:
            self._drag[1] = touch.pos
            self._draw_boxes()
            return True
        return bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        self._drag[1] = touch.pos
        a, b = (self.picture_fraction(*p) for p in self._drag)
        self._drag = []
        self._draw_boxes()
        if a is not None and b is not None and abs(a[0] - b[0]) > 0.05 and abs(a[1] - b[1]) > 0.05:
            x0, x1 = sorted((a[0], b[0]))
            y0, y1 = sorted((a[1], b[1]))
            self.dispatch("on_tray_drawn", f"{x0:.3f},{y0:.3f},{x1:.3f},{y1:.3f}")
        return True

    def on_frame(self, _inst: Any, frame: Any) -> None:
        if frame is None:
            self.texture = None
            self.color = (1, 1, 1, 0)
        else:
            self.texture = frame_texture(frame, self.texture)
            self.color = (1, 1, 1, 1)
        self._draw_boxes()

    def _draw_placeholder(self) -> None:
        from kivy.app import App

        theme = App.get_running_app().theme
        with self.canvas.after:
            Color(*theme.line)
            Line(
                rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2),
                width=1.2,
                dash_length=6,
                dash_offset=4,
            )
            if self.placeholder and self.height > 20:
                label = CoreLabel(text=self.placeholder, font_size=sp(17))
                label.refresh()
                tex = label.texture
                Color(*theme.muted)
                Rectangle(
                    texture=tex, size=tex.size, pos=(self.center_x - tex.width / 2, self.center_y - tex.height / 2)
                )

    def on_detections(self, *_: Any) -> None:
        self._draw_boxes()

    def _draw_boxes(self, *_: Any) -> None:
        self.canvas.after.clear()
        if self.frame is None or self.texture is None:
            self._draw_placeholder()
            return
        fh, fw = self.frame.shape[:2]
        iw, ih = self.norm_image_size
        if fw == 0 or fh == 0 or iw == 0 or ih == 0:
            return
        x0 = self.center_x - iw / 2.0
        y0 = self.center_y - ih / 2.0
        sx, sy = iw / fw, ih / fh
        with self.canvas.after:
            if self.tray and not self._drag:
                try:
                    corners = Tray.parse(self.tray).corners
                except VisionError:
                    corners = ()
                if corners:
                    Color(*TRAY)
                    points = [v for cx, cy in corners for v in (x0 + cx * iw, y0 + (1 - cy) * ih)]
                    Line(points=points, close=True, width=1.5)
            if self._drag:
                (ax, ay), (bx, by) = self._drag
                Color(*TRAY)
                Line(rectangle=(min(ax, bx), min(ay, by), abs(bx - ax), abs(by - ay)), width=2)
            for die in self.detections or ():
                x, y, w, h = die.box
                left, bottom = x0 + x * sx, y0 + (fh - y - h) * sy
                Color(*(UNSURE if die.unsure else SURE))
                Line(rectangle=(left, bottom, w * sx, h * sy), width=2)
                label = CoreLabel(text=f"{die.value}?" if die.unsure else str(die.value), font_size=sp(18), bold=True)
                label.refresh()
                tex = label.texture
                Rectangle(texture=tex, pos=(left, bottom + h * sy + 2), size=tex.size)
