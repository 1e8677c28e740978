"""What dice lie on in a rendered scene: table surfaces, trays and things that are not dice.

Surfaces are tiles (felt, wood, cloth, carpet, paper, print, plain) repeated over the
table plane and seen through the camera with :func:`paint_surface`, so their pattern
shrinks with distance as a real one does. Trays, mats, coins, cards and pieces are
polygons on the table, projected by the camera.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from companion.vision.render_camera import Camera

TILE_PX = 256
SURFACES = ("plain", "felt", "wood", "cloth", "carpet", "paper", "print", "stone")

_FELT = (
    (40, 110, 30),
    (90, 40, 20),
    (30, 30, 140),
    (30, 30, 30),
    (110, 110, 110),
    (90, 40, 90),
    (30, 70, 20),
    (120, 60, 10),
    (60, 60, 150),
)
_WOOD = ((70, 120, 170), (40, 80, 130), (110, 160, 200), (30, 55, 90), (150, 190, 220), (60, 90, 110))


def periodic_noise(
    rng: np.random.Generator, side: int, falloff: float, channels: int = 1, stretch: float = 1.0
) -> np.ndarray:
    """Seamless noise (side, side, channels) float32 with unit spread; ``falloff`` > 0 makes
    it smoother (power spectrum 1 / f ** falloff); ``stretch`` > 1 draws it out along x."""
    f = np.fft.fftfreq(side)
    fr = np.sqrt((f[None, :] * stretch) ** 2 + f[:, None] ** 2)
    fr[0, 0] = 1.0
    amp = fr ** (-falloff)
    amp[0, 0] = 0.0
    out = []
    for _ in range(channels):
        spec = np.fft.fft2(rng.normal(0, 1, (side, side))) * amp
        x = np.real(np.fft.ifft2(spec))
        out.append((x - x.mean()) / (x.std() + 1e-9))
    return np.stack(out, -1).astype(np.float32)


def _colour(rng: np.random.Generator, palette: tuple[tuple[int, int, int], ...], jitter: float = 20) -> np.ndarray:
    return np.clip(np.array(palette[rng.integers(len(palette))], np.float32) + rng.uniform(-jitter, jitter, 3), 0, 255)


def make_tile(rng: np.random.Generator, kind: str) -> tuple[np.ndarray, float]:
    """A seamless BGR float32 tile of a surface ``kind`` and how many die sides it spans."""
    s = TILE_PX
    tile: np.ndarray
    if kind == "felt":
        base = _colour(rng, _FELT, 25)
        n = periodic_noise(rng, s, 0.6)
        tile = base + n * rng.uniform(3, 9) + periodic_noise(rng, s, 2.0) * rng.uniform(2, 8)
        return tile, rng.uniform(3, 8)
    if kind == "wood":
        base = _colour(rng, _WOOD, 20)
        grain = periodic_noise(rng, s, 1.0, stretch=rng.uniform(6, 16))[..., 0]
        warp = periodic_noise(rng, s, 2.5)[..., 0] * rng.uniform(2, 6)
        yy = np.arange(s, dtype=np.float32)[:, None] + warp
        rings = np.sin(yy * 2 * np.pi * rng.integers(3, 12) / s) * rng.uniform(0, 1)
        tex = (grain * rng.uniform(6, 18) + rings * rng.uniform(5, 20))[..., None]
        tile = base + tex * np.array([0.7, 0.9, 1.0], np.float32)
        return tile, rng.uniform(4, 14)
    if kind == "cloth":
        base = _colour(rng, _FELT + _WOOD, 40)
        yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
        k = rng.integers(24, 64)
        weave = np.sin(xx * 2 * np.pi * k / s) * np.sin(yy * 2 * np.pi * k / s)
        tile = base + weave[..., None] * rng.uniform(4, 15) + periodic_noise(rng, s, 1.0) * 4
        if rng.random() < 0.5:  # gingham or plaid
            other = _colour(rng, _FELT + _WOOD, 60)
            m = rng.integers(2, 6)
            band = (
                (np.sin(xx * 2 * np.pi * m / s) > 0).astype(np.float32)
                + (np.sin(yy * 2 * np.pi * m / s) > 0).astype(np.float32)
            ) / 2
            tile = tile * (1 - band[..., None] * 0.6) + other * band[..., None] * 0.6
        return tile, rng.uniform(3, 10)
    if kind == "carpet":
        # speckle: flecks of a few colours as large as pips, the background that fools finders
        base = rng.uniform(40, 200, 3).astype(np.float32)
        tile = np.empty((s, s, 3), np.float32)
        tile[:] = base
        tile += periodic_noise(rng, s, 0.3, 3) * rng.uniform(5, 20)
        for _ in range(int(rng.integers(2, 5))):
            colour = rng.uniform(0, 255, 3)
            count = int(rng.integers(150, 900))
            r = rng.uniform(0.8, 3.5)
            for x, y in rng.uniform(0, s, (count, 2)):
                rr = max(1, round(r * rng.uniform(0.6, 1.4) * 16))
                cv2.circle(tile, (round(x * 16), round(y * 16)), rr, colour.tolist(), -1, cv2.LINE_AA, 4)
        return tile, rng.uniform(2, 6)
    if kind == "paper":
        paper = np.full((s, s, 3), rng.uniform(200, 250), np.float32)
        tile = paper + rng.uniform(-10, 10, 3).astype(np.float32)
        line = rng.uniform(60, 180, 3).tolist()
        step = int(rng.choice([16, 32, 64]))
        if rng.random() < 0.7:
            for v in range(0, s, step):
                cv2.line(tile, (v, 0), (v, s), line, 1, cv2.LINE_AA)
                cv2.line(tile, (0, v), (s, v), line, 1, cv2.LINE_AA)
        ink = rng.uniform(0, 120, 3).tolist()
        for _ in range(int(rng.integers(0, 12))):  # handwriting
            pts = np.cumsum(rng.normal(0, 6, (12, 2)), 0) + rng.uniform(0, s, 2)
            cv2.polylines(tile, [pts.astype(np.int32)], False, ink, 1, cv2.LINE_AA)
        return tile, rng.uniform(4, 12)
    if kind == "print":
        # a play mat or printed cloth: shapes, dots and stripes of many colours and sizes
        tile = np.empty((s, s, 3), np.float32)
        tile[:] = rng.uniform(30, 230, 3)
        for _ in range(int(rng.integers(10, 60))):
            colour = rng.uniform(0, 255, 3).tolist()
            c = tuple(int(v) for v in rng.integers(0, s, 2))
            kind2 = rng.integers(4)
            if kind2 == 0:
                cv2.circle(tile, c, int(rng.integers(2, 30)), colour, -1, cv2.LINE_AA)
            elif kind2 == 1:
                cv2.rectangle(tile, c, (c[0] + int(rng.integers(4, 80)), c[1] + int(rng.integers(4, 80))), colour, -1)
            elif kind2 == 2:
                pts = rng.integers(0, s, (int(rng.integers(3, 6)), 2)).astype(np.int32)
                cv2.fillPoly(tile, [pts], colour, cv2.LINE_AA)
            else:
                cv2.line(
                    tile, c, tuple(int(v) for v in rng.integers(0, s, 2)), colour, int(rng.integers(1, 6)), cv2.LINE_AA
                )
        if rng.random() < 0.3:  # polka dots: pips that are not on a die
            colour = rng.uniform(0, 255, 3).tolist()
            step = int(rng.integers(10, 40))
            r = int(rng.integers(2, max(3, step // 3)))
            for y in range(0, s, step):
                for x in range((y // step) % 2 * step // 2, s, step):
                    cv2.circle(tile, (x, y), r, colour, -1, cv2.LINE_AA)
        return tile, rng.uniform(3, 16)
    if kind == "stone":
        grey = rng.uniform(60, 230)
        n = periodic_noise(rng, s, 1.5)
        veins = np.abs(np.sin(n * rng.uniform(2, 5))) ** 0.2
        tile = np.full((s, s, 3), grey, np.float32) * (0.85 + 0.15 * veins) + periodic_noise(rng, s, 0.5) * 4
        return tile + rng.uniform(-15, 15, 3).astype(np.float32), rng.uniform(6, 20)
    # plain: a painted table or plastic tray floor
    base = (
        rng.uniform(60, 245, 3) if rng.random() < 0.5 else np.full(3, rng.uniform(150, 245)) + rng.uniform(-25, 25, 3)
    )
    tile = np.empty((s, s, 3), np.float32)
    tile[:] = base
    tile += periodic_noise(rng, s, 2.2) * rng.uniform(2, 12) + periodic_noise(rng, s, 0.5) * rng.uniform(0.5, 3)
    return tile, rng.uniform(8, 30)


def paint_surface(tile: np.ndarray, span: float, table_xy: np.ndarray, angle: float) -> np.ndarray:
    """The tile laid over the table (``span`` die sides per tile, turned ``angle`` radians) as
    seen at each pixel's table coordinates ``table_xy`` (h, w, 2); float32 BGR.

    Far parts of the table are drawn from blurred copies of the tile, so that a pattern
    too fine for the pixels greys out instead of turning into moiré.
    """
    c, s = math.cos(angle), math.sin(angle)
    k = TILE_PX / span
    uv = cv2.transform(table_xy, np.array([[c * k, -s * k, 0.0], [s * k, c * k, 0.0]], np.float32))
    u, v = uv[..., 0], uv[..., 1]
    # remap is far quicker with coordinates inside the tile than with BORDER_WRAP doing it
    mu, mv = np.mod(u, TILE_PX), np.mod(v, TILE_PX)
    # tile pixels per picture pixel, from the spacing of neighbouring coordinates (coarsely)
    h, w = u.shape
    step = 8
    us, vs = u[::step, ::step], v[::step, ::step]
    du = np.hypot(np.gradient(us, axis=1), np.gradient(vs, axis=1)) / step
    coarse_level = np.clip(np.log2(np.maximum(du, 1e-3)), 0, 3).astype(np.float32)
    t = tile.astype(np.float32)
    if float(coarse_level.max()) < 0.05:
        return cv2.remap(t, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    level = cv2.resize(coarse_level, (w, h), interpolation=cv2.INTER_LINEAR)
    out = np.zeros((h, w, 3), np.float32)
    total = np.zeros((h, w), np.float32)
    for lv in range(int(coarse_level.max()) + 2):
        if lv > 3 or float(coarse_level.min()) > lv + 1:
            continue
        if lv:
            sigma = 0.6 * 2**lv
            pad = int(3 * sigma) + 1
            wrapped = np.pad(t, ((pad, pad), (pad, pad), (0, 0)), mode="wrap")
            t_lv = cv2.GaussianBlur(wrapped, (0, 0), sigma)[pad:-pad, pad:-pad]
        else:
            t_lv = t
        wgt = np.clip(1.0 - np.abs(level - lv), 0, 1)
        part = cv2.remap(t_lv, mu, mv, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
        out += part * wgt[..., None]
        total += wgt
    return out / np.maximum(total, 1e-6)[..., None]


def polygon_px(camera: Camera, pts_xy: np.ndarray, z: float = 0.0) -> np.ndarray:
    """Table polygon (N, 2) at height ``z`` in pixels (N, 2)."""
    pts = np.column_stack([pts_xy, np.full(len(pts_xy), z)])
    return camera.project(pts)


def fill(img: np.ndarray, poly: np.ndarray, colour: np.ndarray | tuple[float, ...] | list[float]) -> None:
    """Fill a pixel polygon, anti-aliased (nothing when part of it is far off the picture,
    as for something behind the camera)."""
    if not np.isfinite(poly).all() or np.abs(poly).max() > 1e5:
        return
    cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], [float(c) for c in colour], cv2.LINE_AA, shift=4)


def mask_of(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    """A float32 0-1 mask of a pixel polygon, anti-aliased."""
    m = np.zeros(shape, np.float32)
    if not np.isfinite(poly).all() or np.abs(poly).max() > 1e5:
        return m
    cv2.fillPoly(m, [np.round(poly * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    return m


def tray_outline(rng: np.random.Generator, centre: np.ndarray, half: float) -> np.ndarray:
    """A tray's floor outline (N, 2) on the table: a rounded rectangle, a polygon or a circle."""
    shape = rng.integers(3)
    if shape == 0:
        hw, hh = half * rng.uniform(0.7, 1.0), half * rng.uniform(0.55, 1.0)
        r = min(hw, hh) * rng.uniform(0.0, 0.3)
        pts = []
        for cx, cy, a0 in ((hw - r, hh - r, 0), (-hw + r, hh - r, 90), (-hw + r, -hh + r, 180), (hw - r, -hh + r, 270)):
            for k in range(5):
                a = math.radians(a0 + 22.5 * k)
                pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        out = np.array(pts)
    else:
        n = int(rng.choice([6, 8])) if shape == 1 else 40
        angles = np.linspace(0, 2 * np.pi, n, endpoint=False) + rng.uniform(0, np.pi)
        out = np.column_stack([np.cos(angles), np.sin(angles)]) * half
    turn = rng.uniform(0, 2 * np.pi)
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    return np.asarray(out @ rot.T + centre)


def inside(poly: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """(N,) bools: which table points (N, 2) lie inside the table polygon (convex or not)."""
    contour = poly.astype(np.float32).reshape(-1, 1, 2)
    return np.array([cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0 for x, y in pts], bool)


def shrink(poly: np.ndarray, by: float) -> np.ndarray:
    """The polygon moved inwards by about ``by`` (towards its centroid; fine for trays)."""
    c = poly.mean(0)
    d = poly - c
    r = np.linalg.norm(d, axis=1, keepdims=True)
    return np.asarray(c + d * np.maximum(r - by, 0.05) / np.maximum(r, 1e-9))


def draw_distractor(
    rng: np.random.Generator, img: np.ndarray, camera: Camera, where: np.ndarray, shadow: np.ndarray
) -> None:
    """Something on the table that is not a die: a coin, a card (perhaps with pips printed on it),
    a domino, a piece or a pencil, at table point ``where``; its shadow darkens ``shadow``."""
    kind = rng.choice(["coin", "card", "domino", "piece", "pencil", "token"])
    turn = rng.uniform(0, 2 * np.pi)
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])

    def place(pts: np.ndarray, z: float = 0.0) -> np.ndarray:
        return polygon_px(camera, pts @ rot.T + where, z)

    ang = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    circle = np.column_stack([np.cos(ang), np.sin(ang)])
    if kind in ("coin", "token"):
        r = rng.uniform(0.35, 1.0)
        metal = np.array([(40, 140, 190), (170, 170, 170), (60, 110, 170), (30, 90, 150)][rng.integers(4)], float)
        colour = metal if kind == "coin" else rng.uniform(20, 235, 3)
        fill(shadow, place(circle * r * 1.05 + 0.06), (1.0,))
        fill(img, place(circle * r, 0.08), colour * 0.8)
        fill(img, place(circle * r * 0.85, 0.08), colour * rng.uniform(0.9, 1.2))
        if kind == "coin":  # an embossed face: a few glints and dark marks
            for _ in range(int(rng.integers(3, 9))):
                p = rng.uniform(-0.5, 0.5, 2) * r
                fill(img, place(circle * r * rng.uniform(0.05, 0.15) + p, 0.08), colour * rng.uniform(0.5, 1.4))
        return
    if kind in ("card", "domino"):
        if kind == "card":
            hw, hh = rng.uniform(1.2, 2.2), rng.uniform(1.8, 3.2)
            options: Any = [[245, 245, 245], rng.uniform(30, 240, 3)]
            face = np.array(rng.choice(options), float)
        else:
            hw, hh = rng.uniform(0.45, 0.6), rng.uniform(0.9, 1.2)
            face = np.array([240.0, 240, 235]) if rng.random() < 0.6 else np.array([25.0, 25, 25])
        rect = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]])
        fill(shadow, place(rect * 1.02 + 0.05), (0.8,))
        fill(img, place(rect, 0.02), face)
        ink: Any = 255.0 - face if kind == "domino" or rng.random() < 0.5 else rng.uniform(0, 255, 3)
        if kind == "domino" or rng.random() < 0.6:
            # pips printed in rows: a playing card's or a domino's, never a die's top face alone
            halves = ((-hh / 2, hh / 2 - 0.05), (hh / 2, hh / 2 - 0.05)) if kind == "domino" else ((0.0, hh * 0.8),)
            for cy, ext in halves:
                count = int(rng.integers(0, 7)) if kind == "domino" else int(rng.integers(2, 11))
                cols = 2 if count > 3 else 1
                rows = max(1, math.ceil(count / cols))
                pr = min(hw, ext) * rng.uniform(0.1, 0.18)
                for i in range(count):
                    x = (i % cols - (cols - 1) / 2) * hw * 0.8
                    y = cy + ((i // cols) - (rows - 1) / 2) * (2 * ext / max(rows, 1)) * 0.8
                    fill(img, place(circle * pr + (x, y), 0.02), ink)
            if kind == "domino":
                fill(
                    img,
                    place(np.array([[-hw * 0.9, -0.02], [hw * 0.9, -0.02], [hw * 0.9, 0.02], [-hw * 0.9, 0.02]]), 0.02),
                    ink,
                )
        else:  # a picture or text
            for _ in range(int(rng.integers(2, 8))):
                p = rng.uniform(-0.7, 0.7, 2) * (hw, hh)
                sz = rng.uniform(0.1, 0.5, 2)
                fill(img, place(np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * sz + p, 0.02), rng.uniform(0, 255, 3))
        return
    if kind == "piece":  # a pawn or meeple seen from above: a blob with a darker rim
        r = rng.uniform(0.3, 0.8)
        blob = circle * r * (1 + 0.25 * np.sin(ang * rng.integers(2, 6)))[:, None]
        colour = rng.uniform(20, 235, 3)
        fill(shadow, place(blob * 1.2 + 0.15), (1.0,))
        fill(img, place(blob, 0.6), colour * 0.7)
        fill(img, place(blob * 0.7, 0.9), colour)
        return
    length = rng.uniform(3, 7)
    w = rng.uniform(0.12, 0.25)
    rect = np.array([[-length / 2, -w], [length / 2, -w], [length / 2, w], [-length / 2, w]])
    fill(shadow, place(rect + 0.08), (0.9,))
    fill(img, place(rect, 0.2), rng.uniform(20, 235, 3))
