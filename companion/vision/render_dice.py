"""Rendered dice: how a die looks (:class:`DieLook`) and drawing it as a cube seen by a camera.

A die is a unit cube scaled by its size. Each face is drawn as a square picture (body,
pips, rounded corners) warped onto the face's projected corners, shaded by the light, so
a camera at an angle sees the top face foreshortened and the side faces with their own
pips, as real dice look. See-through dice draw their hidden faces first, blurred, so the
pips below show through the body.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.render_camera import Camera

#: Pip centres on a face of side 1 centred on (0, 0), in units of the pip spread, per value.
PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.0, 0.0),),
    2: ((-1.0, -1.0), (1.0, 1.0)),
    3: ((-1.0, -1.0), (0.0, 0.0), (1.0, 1.0)),
    4: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)),
    5: ((-1.0, -1.0), (1.0, -1.0), (0.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
    6: ((-1.0, -1.0), (1.0, -1.0), (-1.0, 0.0), (1.0, 0.0), (-1.0, 1.0), (1.0, 1.0)),
}

MATERIALS = ("opaque", "translucent", "marbled", "glitter", "metallic")
PIP_STYLES = ("painted", "dished", "ringed", "inked", "ringface")

_BODY_COLOURS = (  # BGR; the kinds of dice seen on real tables
    (235, 235, 235),
    (245, 242, 238),
    (30, 30, 30),
    (45, 40, 40),
    (40, 40, 200),
    (30, 30, 150),
    (60, 160, 40),
    (40, 110, 30),
    (40, 210, 230),
    (30, 170, 240),
    (170, 90, 30),
    (120, 50, 20),
    (140, 40, 110),
    (90, 30, 80),
    (60, 120, 200),
    (200, 200, 80),
    (150, 150, 150),
    (90, 150, 220),
)
_PIP_COLOURS = (
    (20, 20, 20),
    (245, 245, 245),
    (30, 30, 210),
    (40, 210, 235),
    (200, 140, 40),
    (60, 160, 40),
    (40, 170, 220),
    (190, 190, 190),
)


@dataclass(frozen=True)
class DieLook:
    """The appearance of one set of dice (colours 0-255 BGR, sizes as fractions of a face)."""

    body: tuple[float, float, float]
    body2: tuple[float, float, float]
    pip: tuple[float, float, float]
    material: str = "opaque"
    pip_style: str = "painted"
    pip_radius: float = 0.09
    spread: float = 0.27
    corner: float = 0.12
    opacity: float = 1.0
    gloss: float = 0.2
    big_one: float = 1.0
    logo_one: bool = False


def _lum(c: np.ndarray) -> float:
    return float(c @ (0.114, 0.587, 0.299))


def pick_look(rng: np.random.Generator, variety: bool) -> DieLook:
    """A random die appearance; with ``variety`` every material and pip style, otherwise
    opaque dice with painted pips (the simulated camera's dice)."""
    min_contrast = 45.0 if not variety or rng.random() < 0.85 else 25.0
    for _ in range(100):
        if rng.random() < 0.25:
            body = rng.integers(0, 256, 3).astype(float)
        else:
            body = np.array(_BODY_COLOURS[rng.integers(len(_BODY_COLOURS))], float) + rng.integers(-20, 21, 3)
        pip = np.array(_PIP_COLOURS[rng.integers(len(_PIP_COLOURS))], float) + rng.integers(-15, 16, 3)
        body, pip = np.clip(body, 0, 255), np.clip(pip, 0, 255)
        if abs(_lum(body) - _lum(pip)) > min_contrast and float(np.abs(body - pip).sum()) > 4 * min_contrast:
            break
    body2 = (
        np.clip(body + rng.normal(0, 60, 3), 0, 255)
        if rng.random() < 0.5
        else np.clip(rng.integers(0, 256, 3).astype(float), 0, 255)
    )
    if not variety:
        return DieLook(
            tuple(body),
            tuple(body2),
            tuple(pip),
            "opaque",
            str(rng.choice(["painted", "dished"])),
            pip_radius=float(rng.uniform(0.075, 0.105)),
            spread=float(rng.uniform(0.24, 0.29)),
            corner=float(rng.uniform(0.08, 0.2)),
            gloss=float(rng.uniform(0, 0.3)),
            big_one=float(rng.uniform(1.3, 2.0)) if rng.random() < 0.3 else 1.0,
        )
    material = str(rng.choice(MATERIALS, p=[0.45, 0.18, 0.15, 0.1, 0.12]))
    style = str(rng.choice(PIP_STYLES, p=[0.4, 0.3, 0.1, 0.12, 0.08]))
    if material == "metallic":
        body = np.array(
            [(40, 150, 200), (180, 180, 180), (60, 100, 180), (30, 60, 120), (90, 90, 90)][rng.integers(5)], float
        ) + rng.integers(-20, 21, 3)
    return DieLook(
        tuple(np.clip(body, 0, 255)),
        tuple(body2),
        tuple(pip),
        material,
        style,
        pip_radius=float(rng.uniform(0.06, 0.12)),
        spread=float(rng.uniform(0.22, 0.3)),
        corner=float(rng.uniform(0.03, 0.28)),
        opacity=float(rng.uniform(0.5, 0.85)) if material in ("translucent", "glitter") and rng.random() < 0.8 else 1.0,
        gloss=float(rng.uniform(0.5, 1.0)) if material == "metallic" else float(rng.uniform(0, 0.8)),
        big_one=float(rng.uniform(1.3, 2.5)) if rng.random() < 0.3 else 1.0,
        logo_one=bool(rng.random() < 0.1),
    )


def _rounded_mask(side: int, corner: float) -> np.ndarray:
    m = np.zeros((side, side), np.uint8)
    r = max(1, round(corner * side))
    s16 = 16
    cv2.rectangle(m, (r, 0), (side - 1 - r, side - 1), 255, -1)
    cv2.rectangle(m, (0, r), (side - 1, side - 1 - r), 255, -1)
    for cx, cy in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(m, (cx * s16, cy * s16), r * s16, 255, -1, cv2.LINE_AA, 4)
    return m.astype(np.float32) / 255.0


def face_picture(rng: np.random.Generator, look: DieLook, value: int, side: int) -> tuple[np.ndarray, np.ndarray]:
    """One face ``side`` px square: BGR float32 picture and its opacity (0-1) per pixel."""
    body = np.array(look.body, np.float32)
    tex = np.empty((side, side, 3), np.float32)
    tex[:] = body
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / max(side, 1)
    if look.material == "marbled":
        n = cv2.resize(rng.normal(0, 1, (5, 5)).astype(np.float32), (side, side), interpolation=cv2.INTER_CUBIC)
        swirl = 0.5 + 0.5 * np.sin((xx * rng.uniform(2, 7) + n * rng.uniform(1, 3)) * np.pi)
        tex = tex * (1 - swirl[..., None]) + np.array(look.body2, np.float32) * swirl[..., None]
    elif look.material == "metallic":
        band = np.sin((xx * rng.uniform(-3, 3) + yy * rng.uniform(-3, 3)) * np.pi + rng.uniform(0, 6))
        tex *= (1.0 + 0.45 * band)[..., None]
    g = rng.normal(0, 1, 2)
    tex *= (1.0 + 0.1 * ((xx - 0.5) * g[0] + (yy - 0.5) * g[1]))[..., None]
    tex += rng.normal(0, 2.0, tex.shape).astype(np.float32)
    pipmask = np.zeros((side, side), np.float32)
    pip = np.array(look.pip, np.float32)
    s16 = 16.0 * side
    quarter = int(rng.integers(4))
    r_pip = look.pip_radius
    if look.pip_style == "ringface":
        ring_r = (look.spread + r_pip * 1.6) * 1.25
        cv2.circle(
            tex,
            (round(s16 / 2), round(s16 / 2)),
            round(ring_r * s16),
            pip.tolist(),
            max(1, round(0.03 * side)),
            cv2.LINE_AA,
            4,
        )
        cv2.circle(
            pipmask,
            (round(s16 / 2), round(s16 / 2)),
            round(ring_r * s16),
            1.0,
            max(1, round(0.03 * side)),
            cv2.LINE_AA,
            4,
        )
    for layout_x, layout_y in PIP_LAYOUT[value]:
        px, py = layout_x, layout_y
        for _ in range(quarter):
            px, py = -py, px
        jitter = rng.normal(0, 0.012, 2) if look.pip_style == "inked" else (0.0, 0.0)
        cx = (0.5 + px * look.spread + jitter[0]) * s16
        cy = (0.5 + py * look.spread + jitter[1]) * s16
        r = r_pip * (look.big_one if value == 1 else 1.0)
        if look.pip_style == "inked":
            r *= 0.75
        ctr = (round(cx), round(cy))
        if value == 1 and look.logo_one:  # a maker's mark instead of a plain pip
            pts = []
            k = int(rng.integers(3, 7))
            for j in range(2 * k):
                a = math.pi * j / k
                rr = r * 1.8 * (1.0 if j % 2 == 0 else rng.uniform(0.4, 0.7))
                pts.append((cx + rr * s16 * math.cos(a), cy + rr * s16 * math.sin(a)))
            poly = np.round(np.array(pts)).astype(np.int32)
            cv2.fillPoly(tex, [poly], pip.tolist(), cv2.LINE_AA, 4)
            cv2.fillPoly(pipmask, [poly], 1.0, cv2.LINE_AA, 4)
            continue
        if look.pip_style == "ringed":
            cv2.circle(tex, ctr, round(r * s16), pip.tolist(), max(1, round(r * 0.35 * side)), cv2.LINE_AA, 4)
            cv2.circle(pipmask, ctr, round(r * s16), 1.0, max(1, round(r * 0.35 * side)), cv2.LINE_AA, 4)
            cv2.circle(tex, ctr, round(r * 0.35 * s16), pip.tolist(), -1, cv2.LINE_AA, 4)
            continue
        if look.pip_style == "dished":
            cv2.circle(tex, ctr, round(r * s16), (pip * 0.75 + body * 0.1).tolist(), -1, cv2.LINE_AA, 4)
            cv2.circle(tex, ctr, round(r * 0.78 * s16), pip.tolist(), -1, cv2.LINE_AA, 4)
        else:
            cv2.circle(tex, ctr, round(r * s16), pip.tolist(), -1, cv2.LINE_AA, 4)
        cv2.circle(pipmask, ctr, round(r * s16), 1.0, -1, cv2.LINE_AA, 4)
    if look.material == "glitter":
        count = int(side * side * rng.uniform(0.005, 0.03))
        ys, xs = rng.integers(0, side, (2, count))
        tex[ys, xs] = np.clip(tex[ys, xs] + rng.uniform(60, 200, (count, 1)), 0, 255)
    if look.gloss > 0.3 and rng.random() < look.gloss:  # a glint of the lamp
        gx, gy = rng.uniform(0.15, 0.85, 2)
        sx, sy = rng.uniform(0.05, 0.25, 2)
        spot = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2))
        tex += spot[..., None] * rng.uniform(60, 220)
    alpha = _rounded_mask(side, look.corner)
    if look.opacity < 1.0:
        alpha = alpha * (look.opacity + (1.0 - look.opacity) * np.clip(pipmask, 0, 1))
    return tex, alpha


def side_values(rng: np.random.Generator, top: int) -> tuple[int, int, int, int]:
    """The four side faces of a die with ``top`` up, in order around it (opposites add to 7)."""
    rest = [v for v in range(1, 7) if v not in (top, 7 - top)]
    p = rest[0]
    q = next(v for v in rest if v not in (p, 7 - p))
    ring = [p, q, 7 - p, 7 - q]
    start = int(rng.integers(4))
    ring = ring[start:] + ring[:start]
    if rng.random() < 0.5:
        ring = ring[::-1]
    return ring[0], ring[1], ring[2], ring[3]


@dataclass(frozen=True)
class PlacedDie:
    """A die on the table: centre ``xy`` of its footprint, ``size`` (die sides), turn ``yaw``
    (radians), ``base`` height of its bottom, ``lean`` (radians, about a horizontal axis at
    ``lean_dir``), face ``value`` up, and which look of the scene it has."""

    xy: tuple[float, float]
    size: float
    yaw: float
    value: int
    look: int
    base: float = 0.0
    lean: float = 0.0
    lean_dir: float = 0.0

    def corners(self) -> np.ndarray:
        """The cube's 8 corners (8, 3): 0-3 the bottom face, 4-7 the top, counter-clockwise."""
        h = self.size / 2.0
        sq = np.array([[-h, -h], [h, -h], [h, h], [-h, h]])
        local = np.vstack([np.column_stack([sq, np.zeros(4)]), np.column_stack([sq, np.full(4, self.size)])])
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        pts = local @ rz.T
        if self.lean:
            axis = np.array([math.cos(self.lean_dir), math.sin(self.lean_dir), 0.0])
            k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
            rot = np.eye(3) + math.sin(self.lean) * k + (1 - math.cos(self.lean)) * (k @ k)
            pts = pts @ rot.T
            pts[:, 2] -= pts[:, 2].min()
        return np.asarray(pts + np.array([self.xy[0], self.xy[1], self.base]))

    def footprint(self) -> np.ndarray:
        """The table-plane outline (4, 2) the die covers (its bottom face, or more if it leans)."""
        pts = self.corners()
        hull = cv2.convexHull(pts[:, :2].astype(np.float32)).reshape(-1, 2)
        return hull.astype(float)


#: Faces of :meth:`PlacedDie.corners` as corner indices (counter-clockwise seen from outside);
#: "top", "bottom" and the four sides in order around the die.
FACES = (
    ("top", (4, 5, 6, 7)),
    ("bottom", (3, 2, 1, 0)),
    ("side", (0, 1, 5, 4)),
    ("side", (1, 2, 6, 5)),
    ("side", (2, 3, 7, 6)),
    ("side", (3, 0, 4, 7)),
)


def _normal(quad: np.ndarray) -> np.ndarray:
    n = np.cross(quad[1] - quad[0], quad[3] - quad[0])
    return np.asarray(n / (np.linalg.norm(n) + 1e-12))


def draw_die(
    rng: np.random.Generator,
    img: np.ndarray,
    ids: np.ndarray,
    die_id: int,
    *,
    camera: Camera,
    die: PlacedDie,
    look: DieLook,
    light: np.ndarray,
    ambient: float,
) -> np.ndarray:
    """Draw one die in place and mark its pixels ``die_id`` in ``ids``; returns its top
    face's projected corners (4, 2) in pixels."""
    corners = die.corners()
    px = camera.project(corners)
    h, w = img.shape[:2]
    x0, y0 = np.floor(px.min(0)).astype(int) - 2
    x1, y1 = np.ceil(px.max(0)).astype(int) + 3
    top_px = px[list(FACES[0][1])]
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return top_px
    roi = img[cy0:cy1, cx0:cx1]
    rid = ids[cy0:cy1, cx0:cx1]
    off = np.array([cx0, cy0], float)
    sides = side_values(rng, die.value)
    values = (die.value, 7 - die.value, *sides)
    body = np.array(look.body, np.float32)
    hull = cv2.convexHull((px - off).astype(np.float32)).reshape(-1, 2)
    hull_mask = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(hull_mask, [np.round(hull * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    face_px = float(np.linalg.norm(top_px[1] - top_px[0]))
    r = look.corner * face_px * 0.8
    if r >= 1.5:  # rounded edges: the outline is the hull pulled in by r, then grown by a disc of r
        c = hull.mean(0)
        d = hull - c
        dist = np.linalg.norm(d, axis=1, keepdims=True)
        core = c + d * np.maximum(dist - r * 1.2, 0.5) / np.maximum(dist, 1e-6)
        hull_mask[:] = 0
        pts = np.round(core * 16).astype(np.int32)
        cv2.fillPoly(hull_mask, [pts], 255, cv2.LINE_AA, shift=4)
        cv2.polylines(hull_mask, [pts], True, 255, max(1, round(2 * r)), cv2.LINE_AA, shift=4)
    hm = hull_mask.astype(np.float32)[..., None] / 255.0
    faces = []
    for k_face, (_, idx) in enumerate(FACES):
        quad = corners[list(idx)]
        n = _normal(quad)
        facing = camera.faces_camera(quad.mean(0), n)
        shade = ambient + (1 - ambient) * max(0.0, float(n @ light))
        faces.append((facing, k_face, idx, shade))
    if look.opacity < 1.0:
        # see-through: the hidden faces first, blurred by the body, then the body tinted over them
        before = roi.copy()
        for facing, k_face, idx, shade in faces:
            if facing <= 0:
                _draw_face(
                    rng,
                    roi,
                    None,
                    0,
                    px[list(idx)] - off,
                    look=look,
                    value=values[k_face],
                    shade=shade * 0.8,
                    strength=0.7,
                )
        sigma = max(0.5, face_px * 0.03)
        blurred = cv2.GaussianBlur(roi, (0, 0), sigma)
        tint = before * (1 - look.opacity * 0.5) + body * (look.opacity * 0.5)
        roi[:] = before * (1 - hm) + (blurred * 0.6 + tint * 0.4) * hm
    else:
        edge = body * rng.uniform(0.55, 0.9)
        roi[:] = roi * (1 - hm) + edge * hm
    rid[hull_mask > 127] = die_id
    for facing, k_face, idx, shade in faces:
        if facing > 0:
            _draw_face(
                rng, roi, rid, die_id, px[list(idx)] - off, look=look, value=values[k_face], shade=shade, strength=1.0
            )
    return top_px


def _draw_face(
    rng: np.random.Generator,
    roi: np.ndarray,
    rid: np.ndarray | None,
    die_id: int,
    quad: np.ndarray,
    *,
    look: DieLook,
    value: int,
    shade: float,
    strength: float,
) -> None:
    side = int(np.clip(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])) * 1.2, 12, 400))
    tex, alpha = face_picture(rng, look, value, side)
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    h, w = roi.shape[:2]
    warped = cv2.warpPerspective(tex * shade, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    a = cv2.warpPerspective(alpha, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT) * strength
    roi[:] = roi * (1 - a[..., None]) + warped * a[..., None]
    if rid is not None:
        rid[a > 0.5] = die_id
