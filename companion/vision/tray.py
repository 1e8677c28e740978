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
            raise BadTray(f"cannot read the tray {text!r}: write x0,y0,x1,y1 or x,y;x,y;x,y as fractions 0-1") from exc
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


#: The frame is shrunk to this many pixels along its longer side to look for a tray.
DETECT_SIDE = 96
#: A tray covers at least this share of the frame, and at most this share (else the whole
#: frame is the play area and no tray is needed).
TRAY_SHARE = (0.12, 0.9)
#: How far (share of the frame's longer side) a detected tray is widened, so that the tops
#: of dice by its walls, which a camera at an angle sees beyond the floor, stay inside.
TRAY_MARGIN = 0.04
#: With dice given, a tray must hold at least this share of them ...
HOLDS_DICE = 0.8
#: ... and it takes in those within this share of the frame's longer side of it (dice
#: crowding the tray's edge break its floor into a smaller region than the tray).
TAKES_NEAR = 0.08


def detect_tray(frame: np.ndarray, dice: np.ndarray | None = None) -> Tray | None:
    """The tray, mat or lit circle the dice lie in, found in a BGR frame, or None.

    The frame is split into regions of like colour and texture; a tray is one region
    (holes, such as the dice on it, filled), or everything but a region around it (a table
    or carpet reaching the frame's edge), that is nearly convex, covers TRAY_SHARE of the
    frame and differs clearly from what lies around it. With ``dice`` (N, 2 pixel centres
    of dice seen), only a region holding at least HOLDS_DICE of them is a tray, and the
    one holding most wins (a laptop or a card beside the dice is not the tray); the tray is
    then widened to take in the dice within TAKES_NEAR of it. None when no region is
    clearly a tray: then the whole frame is the play area. The result is widened by
    TRAY_MARGIN. Deterministic; about 10-20 ms for any frame size.

    Raises:
        VisionError: the frame is not a picture.
    """
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise VisionError("the camera frame is not a picture (expected an 8-bit image array)")
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    img = np.ascontiguousarray(img[..., :3])
    h, w = img.shape[:2]
    f = DETECT_SIDE / max(h, w)
    sw, sh = max(8, round(w * f)), max(8, round(h * f))
    small = cv2.medianBlur(cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA), 3)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2Lab).astype(np.float32)
    light = lab[..., 0]
    mean = cv2.blur(light, (5, 5))
    texture = np.sqrt(np.maximum(cv2.blur(light * light, (5, 5)) - mean * mean, 0))
    feats = np.dstack([lab, texture * 2.0]).reshape(-1, 4)
    pts = None if dice is None else np.asarray(dice, np.float64).reshape(-1, 2) * f
    best: tuple[tuple[float, float], np.ndarray] | None = None
    near = TAKES_NEAR * max(sw, sh)
    k = 4
    labels = _clusters(feats, k).reshape(sh, sw)
    for c in range(k):
        region = (labels == c).astype(np.uint8)
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        n, comp, stats, _ = cv2.connectedComponentsWithStats(region, connectivity=4)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] < TRAY_SHARE[0] * sw * sh * 0.5:
                continue
            part = (comp == i).astype(np.uint8)
            for candidate in (_fill_holes(part), _fill_holes(1 - _grow_from_edge(part))):
                scored = _tray_score(candidate, lab)
                if scored is None:
                    continue
                held, hull = 1.0, scored[1]
                if pts is not None and len(pts):
                    poly = hull.reshape(-1, 1, 2).astype(np.float32)
                    dist = np.array([cv2.pointPolygonTest(poly, (float(x), float(y)), True) for x, y in pts])
                    held = float(np.mean(dist >= -near))
                    if held < HOLDS_DICE:
                        continue
                    taken = pts[(dist < 0) & (dist >= -near)]
                    if len(taken):
                        hull = cv2.convexHull(np.vstack([hull, taken]).astype(np.float32)).reshape(-1, 2)
                key = (held, scored[0])
                if best is None or key > best[0]:
                    best = key, hull
    if best is None:
        return None
    hull = best[1].astype(np.float64)
    centre = hull.mean(0)
    grow = TRAY_MARGIN * max(sw, sh)
    d = hull - centre
    hull = centre + d * (1 + grow / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-6))
    corners = np.clip(hull / (sw, sh), 0.0, 1.0)
    try:
        return Tray(tuple((round(float(x), 4), round(float(y), 4)) for x, y in corners))
    except BadTray:
        return None


def _clusters(feats: np.ndarray, k: int) -> np.ndarray:
    """k-means cluster of each row of ``feats`` (deterministic)."""
    spread = feats.std(0) + 1e-3
    z = ((feats - feats.mean(0)) / spread).astype(np.float32)
    cv2.setRNGSeed(12345)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    _, labels, _ = cv2.kmeans(z, k, None, crit, 1, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    return np.asarray(labels).ravel()


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The mask with every hole it encloses filled."""
    h, w = mask.shape
    outside = np.zeros((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = mask
    flood = outside.copy()
    cv2.floodFill(flood, None, (0, 0), 2)
    return np.asarray(flood[1:-1, 1:-1] != 2, np.uint8)


def _grow_from_edge(mask: np.ndarray) -> np.ndarray:
    """The part of ``mask`` connected to the frame's edge (empty when it does not reach it)."""
    comp = cv2.connectedComponents(mask, connectivity=4)[1]
    edge = set(np.unique(np.concatenate([comp[0], comp[-1], comp[:, 0], comp[:, -1]]))) - {0}
    return np.isin(comp, list(edge)).astype(np.uint8) if edge else np.zeros_like(mask)


def _tray_score(region: np.ndarray, lab: np.ndarray) -> tuple[float, np.ndarray] | None:
    """(score, convex hull in small-frame pixels) for a candidate tray region, or None."""
    share = float(region.mean())
    if not TRAY_SHARE[0] <= share <= TRAY_SHARE[1]:
        return None
    n = cv2.connectedComponents(region, connectivity=4)[0]
    if n != 2:  # the tray is one piece
        return None
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea)).reshape(-1, 2)
    solidity = float(region.sum()) / max(cv2.contourArea(hull.astype(np.float32)), 1.0)
    if solidity < 0.9:
        return None
    ring = 3
    inner = region & (1 - cv2.erode(region, np.ones((2 * ring + 1,) * 2, np.uint8)))
    outer = cv2.dilate(region, np.ones((2 * ring + 1,) * 2, np.uint8)) & (1 - region)
    if outer.sum() < 0.15 * inner.sum():  # hardly any border inside the frame
        return None
    contrast = float(np.linalg.norm(np.median(lab[inner > 0], 0) - np.median(lab[outer > 0], 0)))
    if contrast < 15.0:
        return None
    return contrast * solidity, hull
