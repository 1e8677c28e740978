"""A camera picture with the dice read from it drawn on top (value, and "?" when unsure)."""

from __future__ import annotations

from typing import Any

import numpy as np
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import sp
from kivy.properties import ObjectProperty
from kivy.uix.image import Image

#: Box colours: read with confidence, and flagged unsure (a player must confirm).
SURE = (0.3, 0.85, 0.45, 1)
UNSURE = (1.0, 0.6, 0.1, 1)


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
    """Shows ``frame`` with ``detections`` (a DiceDetections) outlined on it."""

    frame = ObjectProperty(None, allownone=True, force_dispatch=True)
    detections = ObjectProperty(None, allownone=True, force_dispatch=True)

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self.bind(pos=self._draw_boxes, size=self._draw_boxes)

    def on_frame(self, _inst: Any, frame: Any) -> None:
        if frame is None:
            self.texture = None
        else:
            self.texture = frame_texture(frame, self.texture)
        self._draw_boxes()

    def on_detections(self, *_: Any) -> None:
        self._draw_boxes()

    def _draw_boxes(self, *_: Any) -> None:
        self.canvas.after.clear()
        if self.frame is None or self.detections is None or self.texture is None:
            return
        fh, fw = self.frame.shape[:2]
        iw, ih = self.norm_image_size
        if fw == 0 or fh == 0 or iw == 0 or ih == 0:
            return
        x0 = self.center_x - iw / 2.0
        y0 = self.center_y - ih / 2.0
        sx, sy = iw / fw, ih / fh
        with self.canvas.after:
            for die in self.detections:
                x, y, w, h = die.box
                left, bottom = x0 + x * sx, y0 + (fh - y - h) * sy
                Color(*(UNSURE if die.unsure else SURE))
                Line(rectangle=(left, bottom, w * sx, h * sy), width=2)
                label = CoreLabel(text=f"{die.value}?" if die.unsure else str(die.value), font_size=sp(18), bold=True)
                label.refresh()
                tex = label.texture
                Rectangle(texture=tex, pos=(left, bottom + h * sy + 2), size=tex.size)
