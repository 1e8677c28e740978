"""A PNG of a calibration: the fitted line with its points, and the residuals against
the class III permissible error. Drawn with OpenCV on a numpy canvas (no plotting
library at run time); OpenCV is imported only when a plot is drawn.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from companion.scale.errors import ScaleError
from companion.scale.oiml import mpe_class_iii

WIDTH, HEIGHT = 900, 700
MARGIN_L, MARGIN_R = 110, 30
INK = (40, 40, 40)
GRID = (220, 220, 220)
POINT = (200, 90, 20)
LINE = (60, 140, 40)
LIMIT = (40, 40, 200)


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * step:
            step *= m
            break
    start = math.ceil(lo / step) * step
    return [start + i * step for i in range(int((hi - start) / step) + 1)]


class _Panel:
    """Maps data coordinates into one rectangle of the canvas."""

    def __init__(self, top: int, bottom: int, x: tuple[float, float], y: tuple[float, float]) -> None:
        self.top, self.bottom = top, bottom
        self.x0, self.x1 = x
        self.y0, self.y1 = y if y[1] > y[0] else (y[0] - 1.0, y[0] + 1.0)

    def px(self, x: float, y: float) -> tuple[int, int]:
        u = MARGIN_L + (x - self.x0) / (self.x1 - self.x0) * (WIDTH - MARGIN_L - MARGIN_R)
        v = self.bottom - (y - self.y0) / (self.y1 - self.y0) * (self.bottom - self.top)
        return round(u), round(v)


def _axes(cv2: Any, img: np.ndarray, panel: _Panel, xlabel: str, ylabel: str, *, yfmt: str) -> None:
    for ty in _ticks(panel.y0, panel.y1):
        u, v = panel.px(panel.x0, ty)
        cv2.line(img, (MARGIN_L, v), (WIDTH - MARGIN_R, v), GRID, 1)
        cv2.putText(img, format(ty, yfmt), (8, v + 5), cv2.FONT_HERSHEY_SIMPLEX, 0.45, INK, 1, cv2.LINE_AA)
    for tx in _ticks(panel.x0, panel.x1):
        u, _ = panel.px(tx, panel.y0)
        cv2.line(img, (u, panel.top), (u, panel.bottom), GRID, 1)
        cv2.putText(img, f"{tx:g}", (u - 12, panel.bottom + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.45, INK, 1, cv2.LINE_AA)
    cv2.rectangle(img, (MARGIN_L, panel.top), (WIDTH - MARGIN_R, panel.bottom), INK, 1)
    cv2.putText(img, xlabel, (WIDTH // 2 - 40, panel.bottom + 38), cv2.FONT_HERSHEY_SIMPLEX, 0.5, INK, 1, cv2.LINE_AA)
    cv2.putText(img, ylabel, (MARGIN_L + 6, panel.top + 18), cv2.FONT_HERSHEY_SIMPLEX, 0.5, INK, 1, cv2.LINE_AA)


def render(report: dict[str, Any], interval_g: float, capacity_g: float, title: str = "") -> np.ndarray:
    """The plot as a BGR image (HEIGHT x WIDTH x 3, uint8) from a profile's report dict."""
    import cv2

    img = np.full((HEIGHT, WIDTH, 3), 255, dtype=np.uint8)
    points: Sequence[dict[str, Any]] = report.get("points", [])
    masses = [float(p["mass_g"]) for p in points]
    counts = [float(p["mean_counts"]) for p in points]
    residuals = [float(r) for r in report.get("residuals_g", [])]
    cpg = float(report.get("counts_per_gram", 1.0))
    zero = float(report.get("zero_counts", 0.0))
    xmax = max([*masses, 1.0]) * 1.05
    cv2.putText(img, title or "Calibration", (MARGIN_L, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.7, INK, 2, cv2.LINE_AA)

    # Fit: thousands of counts against grams.
    ys = [c / 1000.0 for c in counts] + [zero / 1000.0, (zero + cpg * xmax) / 1000.0]
    top = _Panel(50, 340, (0.0, xmax), (min(ys), max(ys)))
    _axes(cv2, img, top, "load (g)", "reading (thousands of counts)", yfmt=".0f")
    cv2.line(img, top.px(0.0, zero / 1000.0), top.px(xmax, (zero + cpg * xmax) / 1000.0), LINE, 2, cv2.LINE_AA)
    for m, c in zip(masses, counts, strict=False):
        cv2.circle(img, top.px(m, c / 1000.0), 5, POINT, -1, cv2.LINE_AA)

    # Residuals against the class III permissible error.
    mpe_max = mpe_class_iii(xmax, interval_g)
    span = max([abs(r) for r in residuals] + [mpe_max]) * 1.2
    bottom = _Panel(395, 625, (0.0, xmax), (-span, span))
    _axes(cv2, img, bottom, "load (g)", "error (g); red: class III limit; open: check loads", yfmt=".3f")
    steps = 300
    for sign in (-1, 1):
        prev = None
        for i in range(steps + 1):
            x = xmax * i / steps
            p = bottom.px(x, sign * mpe_class_iii(x, interval_g))
            if prev is not None:
                cv2.line(img, prev, p, LIMIT, 1, cv2.LINE_AA)
            prev = p
    cv2.line(img, bottom.px(0.0, 0.0), bottom.px(xmax, 0.0), INK, 1)
    for m, r in zip(masses, residuals, strict=False):
        cv2.circle(img, bottom.px(m, r), 5, POINT, -1, cv2.LINE_AA)
    # Check loads (not part of the fit): open circles.
    for check in report.get("checks", []):
        m, r = float(check["mass_g"]), float(check["error_g"])
        if 0.0 <= m <= xmax and -span <= r <= span:
            cv2.circle(img, bottom.px(m, r), 7, LINE, 2, cv2.LINE_AA)
    verdict = report.get("verdict", {})
    words = report.get("statement") or (
        "meets OIML R76 class III" if verdict.get("passed") else "does NOT meet OIML R76 class III"
    )
    cv2.putText(
        img,
        f"e = {interval_g:g} g, Max = {capacity_g:g} g: {words}",
        (MARGIN_L, 690),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.45,
        INK,
        1,
        cv2.LINE_AA,
    )
    return img


def save_plot(report: dict[str, Any], interval_g: float, capacity_g: float, path: Path, title: str = "") -> Path:
    """Draw the plot and write it as PNG to ``path``.

    Raises:
        ScaleError: it cannot be written.
    """
    import cv2

    img = render(report, interval_g, capacity_g, title)
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        ok = cv2.imwrite(str(path), img)
    except (OSError, cv2.error) as exc:
        raise ScaleError(f"cannot write the calibration plot {path}: {exc}") from exc
    if not ok:
        raise ScaleError(f"cannot write the calibration plot {path}")
    return path
