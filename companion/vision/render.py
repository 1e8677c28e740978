"""Synthetic dice scenes: the simulated camera and a source of training pictures.

:func:`render_scene` draws a tray or table seen by a camera, with dice of random body and
pip colours, sizes, rotations, shading and shadows, some touching, then applies a random
perspective, lighting gradient, blur, sensor noise and JPEG compression. Every choice
comes from one seed, so the same seed always gives the same picture and labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Pip centres on a face of side 1 centred on (0, 0), per face value. 2, 3 and 6 have
#: a direction; a random quarter-turn of the face covers both ways they can lie.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
}

_BODY_COLOURS = (  # BGR; the kinds of dice seen on real tables
    (235, 235, 235), (245, 242, 238), (30, 30, 30), (45, 40, 40), (40, 40, 200), (30, 30, 150),
    (60, 160, 40), (40, 110, 30), (40, 210, 230), (30, 170, 240), (170, 90, 30), (120, 50, 20),
    (140, 40, 110), (90, 30, 80), (60, 120, 200), (200, 200, 80), (150, 150, 150), (90, 150, 220),
)
_PIP_COLOURS = ((20, 20, 20), (245, 245, 245), (30, 30, 210), (40, 210, 235), (200, 140, 40), (60, 160, 40))

SUPERSAMPLE = 2

#: Raised whenever a seed's picture or labels change, so that renders cached by the
#: training tools are drawn again (2: boxes hold the top face, not the whole die).
RENDER_VERSION = 2


@dataclass(frozen=True)
class RenderedDie:
    """One die in a rendered scene: ``value`` 1-6 and the ``box`` (x, y, w, h) px of its top face.

    The box holds the top face only, not the sides a camera at an angle also sees, so its
    centre is the centre of the face that is read (as in labels drawn around the pips).
    """

    value: int
    box: tuple[float, float, float, float]

    @property
    def centre(self) -> tuple[float, float]:
        """The top face's centre in pixels."""
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)


@dataclass(frozen=True)
class Scene:
    """A rendered picture (BGR uint8) and the dice in it."""

    image: np.ndarray
    dice: tuple[RenderedDie, ...]
    seed: int


def _contrast(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(float) - b.astype(float)).sum())


def _pick_colours(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A die body colour and a pip colour that stands out from it."""
    while True:
        if rng.random() < 0.25:
            body = rng.integers(0, 256, 3)
        else:
            body = np.array(_BODY_COLOURS[rng.integers(len(_BODY_COLOURS))]) + rng.integers(-20, 21, 3)
        pip = np.array(_PIP_COLOURS[rng.integers(len(_PIP_COLOURS))]) + rng.integers(-15, 16, 3)
        body, pip = np.clip(body, 0, 255), np.clip(pip, 0, 255)
        lum_b = body @ (0.11, 0.59, 0.3)
        lum_p = pip @ (0.11, 0.59, 0.3)
        if _contrast(body, pip) > 220 and abs(lum_b - lum_p) > 45:
            return body.astype(np.float32), pip.astype(np.float32)


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table or tray: a base colour with low-frequency blotches and, sometimes, wood grain."""
    base = rng.uniform(60, 245, 3)
    if rng.random() < 0.5:  # light neutral surfaces are the most common
        base = np.full(3, rng.uniform(150, 245)) + rng.uniform(-25, 25, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    small = rng.normal(0, 1, (max(2, h // 64), max(2, w // 64), 3)).astype(np.float32)
    img += cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * rng.uniform(2, 14)
    if rng.random() < 0.4:  # grain: stretched noise along one direction
        grain = rng.normal(0, 1, (h // 2 + 1, 8)).astype(np.float32)
        grain = cv2.resize(grain, (w, h), interpolation=cv2.INTER_CUBIC)
        img += grain[..., None] * rng.uniform(3, 12) * np.array([0.6, 0.9, 1.0], np.float32)
    img += rng.normal(0, rng.uniform(1, 5), (h, w, 3)).astype(np.float32)
    n_things = rng.integers(0, 5)
    for _ in range(n_things):  # tray walls, cables, holes: things that are not dice
        colour = tuple(float(c) for c in rng.uniform(0, 255, 3))
        kind = rng.integers(3)
        if kind == 0:
            x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
            x1, y1 = x0 + int(rng.integers(20, w)), y0 + int(rng.integers(8, h // 3))
            cv2.rectangle(img, (x0, y0), (x1, y1), colour, -1)
        elif kind == 1:
            pts = rng.integers(0, max(w, h), (4, 2)).astype(np.int32)
            cv2.polylines(img, [pts], False, colour, int(rng.integers(2, 10 * SUPERSAMPLE)))
        else:
            c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.circle(img, c, int(rng.integers(4, 20) * SUPERSAMPLE), colour, -1)
    return img


def _rounded_square(size: float, radius: float, n: int = 4) -> np.ndarray:
    """Corners of a square of side ``size`` centred on (0, 0) with rounded corners."""
    half = size / 2.0 - radius
    pts = []
    for cx, cy, a0 in ((half, half, 0), (-half, half, 90), (-half, -half, 180), (half, -half, 270)):
        for k in range(n + 1):
            a = math.radians(a0 + 90.0 * k / n)
            pts.append((cx + radius * math.cos(a), cy + radius * math.sin(a)))
    return np.array(pts, np.float32)


def _draw_die(
    rng: np.random.Generator, img: np.ndarray, shade: np.ndarray, centre: np.ndarray,
    size: float, angle: float, value: int, lift: np.ndarray,
) -> np.ndarray:
    """Draw one die (sides, top face, pips) in place; returns the corners of its top face."""
    body, pip = _pick_colours(rng)
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]], np.float32)
    face = _rounded_square(size, size * rng.uniform(0.08, 0.2)) @ rot.T + centre
    base = face - lift
    outline = np.concatenate([face, base])
    hull = cv2.convexHull(outline.astype(np.float32)).reshape(-1, 2)
    side_colour = body * rng.uniform(0.45, 0.8)
    cv2.fillPoly(img, [np.round(hull * 16).astype(np.int32)], tuple(float(c) for c in side_colour),
                 cv2.LINE_AA, shift=4)
    _draw_side_pips(rng, img, centre, size, rot, lift, pip * 0.85 + side_colour * 0.15)
    # the top face, with a soft gradient for the light and, sometimes, a marbled texture
    x0, y0 = np.floor(face.min(0)).astype(int) - 2
    x1, y1 = np.ceil(face.max(0)).astype(int) + 2
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return face
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [np.round((face - (x0, y0)) * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    patch = np.empty((y1 - y0, x1 - x0, 3), np.float32)
    patch[:] = body
    gy, gx = np.mgrid[0:y1 - y0, 0:x1 - x0].astype(np.float32)
    g = rng.normal(0, 1, 2)
    grad = (gx * g[0] + gy * g[1]) / max(size, 1.0)
    patch *= (1.0 + 0.12 * grad)[..., None]
    if rng.random() < 0.25:
        blotch = rng.normal(0, 1, (4, 4, 3)).astype(np.float32)
        patch += cv2.resize(blotch, (x1 - x0, y1 - y0), interpolation=cv2.INTER_CUBIC) * rng.uniform(10, 40)
    # pips: discs (slightly dished, so a darker rim) at the standard places
    pip_r = size * rng.uniform(0.075, 0.105)
    spread = size * rng.uniform(0.24, 0.29)
    quarter = rng.integers(4)
    for px, py in PIP_LAYOUT[value]:
        for _ in range(quarter):
            px, py = -py, px
        p = rot @ np.array([px * spread, py * spread], np.float32) + centre - (x0, y0)
        r = pip_r * (rng.uniform(1.3, 2.0) if value == 1 and rng.random() < 0.3 else 1.0)
        ctr = (int(round(p[0] * 16)), int(round(p[1] * 16)))
        cv2.circle(patch, ctr, int(round(r * 16)), tuple(float(c) for c in pip * 0.8), -1, cv2.LINE_AA, 4)
        cv2.circle(patch, ctr, int(round(r * 0.8 * 16)), tuple(float(c) for c in pip), -1, cv2.LINE_AA, 4)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    region = img[y0:y1, x0:x1]
    region[:] = region * (1 - alpha) + patch * alpha
    shade[y0:y1, x0:x1] = np.maximum(shade[y0:y1, x0:x1], mask)
    return face


def _draw_side_pips(
    rng: np.random.Generator, img: np.ndarray, centre: np.ndarray, size: float, rot: np.ndarray,
    lift: np.ndarray, colour: np.ndarray,
) -> None:
    """Pips on the side faces a camera at an angle sees: they must not be read as top faces."""
    depth = float(np.linalg.norm(lift))
    if depth < size * 0.15:
        return
    down = -lift / depth
    half = size / 2.0
    spread = size * 0.27
    for nx, ny in ((1, 0), (0, 1), (-1, 0), (0, -1)):
        normal = rot @ np.array([nx, ny], np.float32)
        if float(normal @ down) <= 0.2:
            continue  # this side faces away from the camera
        along = rot @ np.array([-ny, nx], np.float32)
        edge_mid = centre + normal * half
        value = int(rng.integers(1, 7))
        quarter = rng.integers(4)
        for px, py in PIP_LAYOUT[value]:
            for _ in range(quarter):
                px, py = -py, px
            # u runs along the edge, v from the top edge down the side (0..1 of its depth)
            u, v = px * spread, 0.5 + py * 0.27
            p = edge_mid + along * u + (-lift) * v
            r_u, r_v = size * 0.09, depth * 0.09 * (float(normal @ down))
            axes = (max(int(round(r_u * 16)), 1), max(int(round(r_v * 16 * 1.0)), 1))
            ang = math.degrees(math.atan2(along[1], along[0]))
            cv2.ellipse(img, (int(round(p[0] * 16)), int(round(p[1] * 16))), axes, ang, 0, 360,
                        tuple(float(c) for c in colour), -1, cv2.LINE_AA, 4)


def _place(rng: np.random.Generator, occupied: np.ndarray, size: float, margin: float) -> np.ndarray | None:
    """A free spot for a die of side ``size`` (touching allowed), or None."""
    h, w = occupied.shape
    for _ in range(40):
        c = np.array([rng.uniform(margin, w - margin), rng.uniform(margin, h - margin)], np.float32)
        r = int(size * 0.5)
        x, y = int(c[0]), int(c[1])
        if occupied[max(y - r, 0):y + r, max(x - r, 0):x + r].any():
            continue
        return c
    return None


def render_scene(
    seed: int, width: int = 640, height: int = 480, n_dice: int | None = None,
    die_px: tuple[float, float] = (26.0, 80.0), tilt: tuple[float, float] = (0.0, 0.18),
) -> Scene:
    """Render a random scene of dice.

    ``n_dice`` defaults to a random 1-12; ``die_px`` is the range of die sizes in output
    pixels; ``tilt`` the range of the camera's lean (0: straight down; the more, the more
    of the sides of dice away from the camera shows). Deterministic: the same arguments
    give the same picture and labels.
    """
    rng = np.random.default_rng(seed)
    ss = SUPERSAMPLE
    w, h = width * ss, height * ss
    img = _background(rng, h, w)
    shade = np.zeros((h, w), np.uint8)
    occupied = np.zeros((h, w), np.uint8)
    n = int(rng.integers(1, 13)) if n_dice is None else n_dice
    # one camera: dice in one photo are of similar size, seen from roughly the same height
    typical = rng.uniform(*die_px) * ss
    lean = rng.uniform(*tilt)
    cam = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(-0.2, 0.9) * h], np.float32)
    dice: list[tuple[int, np.ndarray]] = []
    shadow_dir = rng.normal(0, 1, 2).astype(np.float32)
    shadow_dir /= np.linalg.norm(shadow_dir) + 1e-6
    shadows = np.zeros((h, w), np.float32)
    placed: list[tuple[np.ndarray, float, float, int, np.ndarray]] = []
    for _ in range(n):
        size = typical * rng.uniform(0.85, 1.15)
        c = _place(rng, occupied, size * 1.05, size * 0.8)
        if c is None:
            continue
        angle = rng.uniform(0, math.pi / 2)
        value = int(rng.integers(1, 7))
        lift = (c - cam) / max(w, h) * size * lean * 4.0  # sides show away from the camera
        cv2.circle(occupied, (int(c[0]), int(c[1])), int(size * 0.72), 1, -1)
        cv2.circle(shadows, (int(c[0] + shadow_dir[0] * size * 0.2), int(c[1] + shadow_dir[1] * size * 0.2)),
                   int(size * 0.62), 1.0, -1)
        placed.append((c, size, angle, value, lift))
    k = int(typical * 0.5) | 1
    shadows = cv2.GaussianBlur(shadows, (k, k), 0)
    img *= (1.0 - rng.uniform(0.1, 0.4) * shadows)[..., None]
    for c, size, angle, value, lift in placed:
        dice.append((value, _draw_die(rng, img, shade, c, size, angle, value, lift)))
    # the camera: a perspective warp, light falling off across the frame, blur, noise, JPEG
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-1, 1, (4, 2)).astype(np.float32) * np.array([w, h], np.float32) * rng.uniform(0, 0.08)
    H = cv2.getPerspectiveTransform(src, src + jitter)
    img = cv2.warpPerspective(img, H, (w, h), borderMode=cv2.BORDER_REFLECT)
    gy, gx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = rng.normal(0, 1, 2)
    light = 1.0 + rng.uniform(0, 0.35) * ((gx / w - 0.5) * g[0] + (gy / h - 0.5) * g[1])
    img *= (light * rng.uniform(0.7, 1.15))[..., None]
    img *= rng.uniform(0.9, 1.1, 3).astype(np.float32)  # white balance
    img = cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)
    sigma = rng.choice([0.0, 0.0, rng.uniform(0.3, 1.4)])
    if sigma > 0:
        img = cv2.GaussianBlur(img, (0, 0), float(sigma))
    img += rng.normal(0, rng.uniform(0.5, 5.0), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(55, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    labels = []
    for value, face in dice:
        pts = cv2.perspectiveTransform(face.reshape(-1, 1, 2), H).reshape(-1, 2) / ss
        x0, y0 = np.clip(pts.min(0), 0, (width, height))
        x1, y1 = np.clip(pts.max(0), 0, (width, height))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        labels.append(RenderedDie(value, (float(x0), float(y0), float(x1 - x0), float(y1 - y0))))
    return Scene(image=out, dice=tuple(labels), seed=seed)
