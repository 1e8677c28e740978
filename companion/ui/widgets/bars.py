"""A horizontal bar chart of weights with their uncertainty (whiskers of +-k standard
uncertainties), for the weigh-off."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget


class Bar(Widget):
    """One bar: ``value`` out of ``top``, whiskers at +-``spread``; ``state`` colours it."""

    value = NumericProperty(0.0)
    spread = NumericProperty(0.0)
    top = NumericProperty(1.0)
    state = StringProperty("in")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw, value=self._draw, spread=self._draw, top=self._draw,
                  state=self._draw)

    def _draw(self, *_: Any) -> None:
        theme = App.get_running_app().theme
        colour = {"winner": theme.good, "out": theme.disabled, "pending": theme.line}.get(self.state, theme.accent)
        self.canvas.clear()
        if self.top <= 0:
            return
        scale = self.width / self.top
        w = max(0.0, self.value * scale)
        with self.canvas:
            Color(*colour)
            Rectangle(pos=(self.x, self.y + self.height * 0.2), size=(w, self.height * 0.6))
            if self.spread > 0:
                Color(*theme.text)
                lo = self.x + max(0.0, (self.value - self.spread) * scale)
                hi = self.x + min(self.width, (self.value + self.spread) * scale)
                mid = self.y + self.height / 2
                Line(points=[lo, mid, hi, mid], width=dp(1.5))
                Line(points=[lo, mid - self.height * 0.25, lo, mid + self.height * 0.25], width=dp(1.5))
                Line(points=[hi, mid - self.height * 0.25, hi, mid + self.height * 0.25], width=dp(1.5))


class BarChart(BoxLayout):
    """Rows of name, bar and value; :meth:`show` takes the rows to draw."""

    rows = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("spacing", dp(6))
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))

    def show(self, rows: Sequence[Mapping[str, Any]]) -> None:
        """Draw ``rows``: ``{"name", "value" (None: not weighed), "spread", "text", "state"}``."""
        self.clear_widgets()
        known = [r["value"] + r.get("spread", 0) for r in rows if r.get("value") is not None]
        top = max(known) if known and max(known) > 0 else 1.0
        theme = App.get_running_app().theme
        for r in rows:
            line = BoxLayout(size_hint_y=None, height=dp(48), spacing=dp(8))
            line.add_widget(Label(text=str(r["name"]), size_hint_x=0.22, color=theme.text, font_size=theme.font,
                                  halign="right", valign="middle", text_size=(None, None), shorten=True))
            line.add_widget(Bar(value=r.get("value") or 0.0, spread=r.get("spread", 0.0), top=top,
                                state=r.get("state", "in") if r.get("value") is not None else "pending"))
            value = Label(text=str(r.get("text", "")), size_hint_x=0.34, color=theme.text,
                          font_size=theme.font_small, halign="left", valign="middle")
            value.bind(size=lambda w, size: setattr(w, "text_size", size))
            line.add_widget(value)
            self.add_widget(line)
