"""The tray: the part of the camera's view where dice are rolled; the rest is ignored.

A tray is a polygon in fractions of the frame's width and height (0-1), so it stays
right when the camera's resolution changes. It is set once per table and stored as text
(``"x0,y0,x1,y1"`` for a rectangle, or ``"x,y;x,y;x,y;..."`` for a polygon).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.errors import ExitCode
from companion.vision.errors import VisionError


class BadTray(VisionError, ValueError):
    """A tray description that cannot be understood."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Tray:
    """A region of the frame as polygon corners ``((x, y), ...)`` in fractions 0-1."""

    corners: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        if len(self.corners) < 3:
            raise BadTray("a tray needs at least 3 corners")
        for x, y in self.corners:
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
                raise BadTray(f"tray corner ({x}, {y}) is outside the picture: use fractions from 0 to 1")
        pts = np.array(self.corners, np.float32)
        if abs(cv2.contourArea(pts)) < 1e-4:
            raise BadTray("the tray has no area: its corners are all on one line or in one spot")

    @classmethod
    def rectangle(cls, x0: float, y0: float, x1: float, y1: float) -> Tray:
        """The rectangle from (x0, y0) to (x1, y1), in fractions of the frame."""
        return cls(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))

    @classmethod
    def parse(cls, text: str) -> Tray:
        """Read ``"x0,y0,x1,y1"`` (rectangle) or ``"x,y;x,y;x,y..."`` (polygon).

        Raises:
            BadTray: the text is not one of those forms, or a corner is outside 0-1.
        """
        try:
            if ";" in text:
                pts = tuple(tuple(float(v) for v in p.split(",")) for p in text.split(";") if p.strip())
                if any(len(p) != 2 for p in pts):
                    raise ValueError
                return cls(pts)  # type: ignore[arg-type]
            vals = [float(v) for v in text.split(",")]
            if len(vals) != 4:
                raise ValueError
        except ValueError as exc:
            raise BadTray(
                f"cannot read the tray {text!r}: write x0,y0,x1,y1 or x,y;x,y;x,y as fractions 0-1"
            ) from exc
        x0, y0, x1, y1 = vals
        return cls.rectangle(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def __str__(self) -> str:
        return ";".join(f"{x:g},{y:g}" for x, y in self.corners)

    def pixels(self, width: int, height: int) -> np.ndarray:
        """The corners in pixels of a ``width`` x ``height`` frame, (K, 2) float32."""
        return (np.array(self.corners, np.float64) * (width, height)).astype(np.float32)

    def bounds(self, width: int, height: int) -> tuple[int, int, int, int]:
        """The pixel rectangle (x0, y0, x1, y1) enclosing the tray, within the frame."""
        pts = self.pixels(width, height)
        x0, y0 = np.floor(pts.min(0)).astype(int)
        x1, y1 = np.ceil(pts.max(0)).astype(int)
        return max(int(x0), 0), max(int(y0), 0), min(int(x1), width), min(int(y1), height)

    def contains(self, points: np.ndarray, width: int, height: int) -> np.ndarray:
        """(N,) bools: which pixel points (N, 2) lie inside the tray (edges count as in)."""
        poly = self.pixels(width, height).reshape(-1, 1, 2)
        return np.array(
            [cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0 for x, y in np.asarray(points)],
            dtype=bool,
        ).reshape(len(points))

    def mask(self, width: int, height: int) -> np.ndarray:
        """A uint8 mask (255 inside the tray) for a ``width`` x ``height`` frame."""
        m = np.zeros((height, width), np.uint8)
        cv2.fillPoly(m, [np.round(self.pixels(width, height)).astype(np.int32)], 255)
        return m
