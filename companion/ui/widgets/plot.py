"""Plots drawn with matplotlib (Agg) into a Kivy texture.

matplotlib is imported the first time a plot is drawn, never when the app starts (it
takes about 0.4 s to import). A :class:`PlotView` redraws only when it is given new data
or a new size; a drawing is a function ``draw(figure, theme)`` that fills a
``matplotlib.figure.Figure``.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.image import Image

from companion.ui.theme import player_colour

log = logging.getLogger(__name__)

Drawing = Callable[[Any, Any], None]


def _rgb(colour: Sequence[float]) -> tuple[float, float, float]:
    return (float(colour[0]), float(colour[1]), float(colour[2]))


def render(draw: Drawing, width: int, height: int, theme: Any, dpi: float = 100.0) -> np.ndarray:
    """Draw a figure ``width`` x ``height`` px with ``draw(figure, theme)``; RGBA uint8 rows, top first."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, facecolor=_rgb(theme.surface), layout="constrained")
    canvas = FigureCanvasAgg(figure)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a box too small for its labels still draws
        draw(figure, theme)
        canvas.draw()
    return np.asarray(canvas.buffer_rgba())


def style_axes(ax: Any, theme: Any, font: float) -> None:
    """Axes in the theme's colours, without chart clutter."""
    ax.set_facecolor(_rgb(theme.surface))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(_rgb(theme.line))
    ax.tick_params(colors=_rgb(theme.muted), labelsize=font)
    ax.xaxis.label.set_color(_rgb(theme.muted))
    ax.yaxis.label.set_color(_rgb(theme.muted))
    ax.title.set_color(_rgb(theme.text))


class PlotView(Image):
    """A plot that fills its box. Call :meth:`plot` with a drawing; ``title`` names it for tests."""

    title = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "fill")
        self._draw: Drawing | None = None
        self._drawn_for: tuple[int, int] | None = None
        self._pending: Any = None
        super().__init__(**kwargs)
        self.bind(size=self._schedule)

    def plot(self, draw: Drawing | None) -> None:
        """Show ``draw`` (None: an empty box); drawn at the next frame, at the widget's size."""
        self._draw = draw
        self._drawn_for = None
        self._schedule()

    def _schedule(self, *_: Any) -> None:
        if self._pending is None:
            self._pending = Clock.schedule_once(self._render, 0)

    def _render(self, *_: Any) -> None:
        self._pending = None
        width, height = int(self.width), int(self.height)
        if self._draw is None or width < 120 or height < 80:
            if self._draw is None:
                self.texture = None
            return
        if self._drawn_for == (width, height):
            return
        from kivy.app import App

        try:
            pixels = render(self._draw, width, height, App.get_running_app().theme)
        except Exception:  # a plot that cannot be drawn must never take the screen with it
            log.exception("plot %r could not be drawn", self.title)
            return
        h, w = pixels.shape[:2]
        texture = (
            self.texture
            if self.texture is not None and tuple(self.texture.size) == (w, h)
            else Texture.create(size=(w, h), colorfmt="rgba")
        )
        texture.blit_buffer(np.ascontiguousarray(pixels[::-1]).tobytes(), colorfmt="rgba", bufferfmt="ubyte")
        self.texture = texture
        self._drawn_for = (width, height)
        self.canvas.ask_update()


def line_chart(
    series: Mapping[str, Sequence[tuple[float, float]]],
    seating: Sequence[str],
    *,
    xlabel: str,
    ylabel: str,
    title: str = "",
    step: bool = False,
) -> Drawing:
    """A drawing: one line per player (in their colour) through ``series[player]`` (x, y) points."""

    def draw(figure: Any, theme: Any) -> None:
        font = max(9.0, float(theme.font_small) * 0.55)
        ax = figure.add_subplot()
        style_axes(ax, theme, font)
        for name in seating:
            points = series.get(name) or []
            if not points:
                continue
            xs, ys = zip(*points, strict=True)
            colour = _rgb(player_colour(list(seating).index(name)))
            if step:
                ax.step(xs, ys, where="post", color=colour, linewidth=2.2, label=name)
            else:
                ax.plot(xs, ys, color=colour, linewidth=2.2, marker="o", markersize=3, label=name)
        ax.set_xlabel(xlabel, fontsize=font)
        ax.set_ylabel(ylabel, fontsize=font)
        if title:
            ax.set_title(title, fontsize=font * 1.15, loc="left", color=_rgb(theme.text))
        legend = ax.legend(fontsize=font, frameon=False, loc="best")
        for text in legend.get_texts():
            text.set_color(_rgb(theme.text))

    return draw


def contested(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The weighed rows still in the contest (all weighed rows when fewer than two are)."""
    weighed = [r for r in rows if r.get("value") is not None]
    still_in = [r for r in weighed if r.get("state") != "out"]
    return still_in if len(still_in) >= 2 else weighed


def zoom_range(rows: Sequence[Mapping[str, Any]]) -> tuple[float, float] | None:
    """The x range an interval chart shows: every value with its whiskers, and a margin of
    15 % of that span (at least 0.05), so weights a few hundredths apart stand apart."""
    shown = [r for r in rows if r.get("value") is not None]
    if not shown:
        return None
    lo = min(float(r["value"]) - float(r.get("spread", 0)) for r in shown)
    hi = max(float(r["value"]) + float(r.get("spread", 0)) for r in shown)
    pad = max((hi - lo) * 0.15, 0.05)
    return lo - pad, hi + pad


def interval_chart(rows: Sequence[Mapping[str, Any]], *, unit: str, title: str = "") -> Drawing:
    """A drawing: each contested row's ``value`` (see :func:`contested`) as a dot with whiskers
    at +-``spread``, on an axis zoomed to the range they cover (so close weights can be told
    apart; a collection already out is left to the ranking).

    Rows: ``{"name", "value" (None: left out), "spread", "state"}``; ``state`` "winner",
    "out" or "in" colours the dot.
    """

    def draw(figure: Any, theme: Any) -> None:
        font = max(9.0, float(theme.font_small) * 0.6)
        ax = figure.add_subplot()
        style_axes(ax, theme, font)
        shown = contested(rows)
        names = [str(r["name"]) for r in shown]
        for i, r in enumerate(shown):
            colour = {"winner": theme.good, "out": theme.muted}.get(str(r.get("state")), theme.accent)
            y = len(shown) - 1 - i
            ax.errorbar(
                [float(r["value"])],
                [y],
                xerr=[[float(r.get("spread", 0))], [float(r.get("spread", 0))]],
                fmt="o",
                color=_rgb(colour),
                ecolor=_rgb(theme.text),
                elinewidth=2,
                capsize=8,
                markersize=9,
            )
        ax.set_yticks(range(len(shown)), list(reversed(names)))
        limits = zoom_range(shown)
        if limits is not None:
            ax.set_xlim(*limits)
            ax.set_ylim(-0.6, len(shown) - 0.4)
        ax.set_xlabel(unit, fontsize=font)
        ax.grid(axis="x", color=_rgb(theme.line), linewidth=0.6, alpha=0.6)
        if title:
            ax.set_title(title, fontsize=font * 1.1, loc="left", color=_rgb(theme.text))

    return draw


def bar_chart(values: Mapping[str, float], *, ylabel: str, title: str = "", percent: bool = False) -> Drawing:
    """A drawing: one bar per entry of ``values``, labelled with its value."""

    def draw(figure: Any, theme: Any) -> None:
        font = max(9.0, float(theme.font_small) * 0.6)
        ax = figure.add_subplot()
        style_axes(ax, theme, font)
        names = list(values)
        heights = [float(values[n]) for n in names]
        bars = ax.bar(range(len(names)), heights, color=_rgb(theme.accent))
        ax.set_xticks(range(len(names)), names, fontsize=font)
        for bar, h in zip(bars, heights, strict=True):
            label = f"{h:.0%}" if percent else f"{h:g}"
            ax.annotate(
                label,
                (bar.get_x() + bar.get_width() / 2, h),
                ha="center",
                va="bottom",
                fontsize=font,
                color=_rgb(theme.text),
            )
        if percent:
            ax.set_ylim(0, 1.15)
        ax.set_ylabel(ylabel, fontsize=font)
        if title:
            ax.set_title(title, fontsize=font * 1.1, loc="left", color=_rgb(theme.text))

    return draw
