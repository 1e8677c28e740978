"""Synthetic dice scenes: the simulated camera and the training pictures of the dice reader.

:func:`render_scene` builds a table in 3D and photographs it with a pinhole camera: dice
are cubes with pips on every face, lit from one side, casting shadows, on a surface
(felt, wood, cloth, carpet, paper, print), perhaps in a tray with walls and with other
things about (coins, cards with printed pips, dominoes, pieces). The camera may look
straight down or at a steep angle, so that side faces show. Then come the camera's own
marks: light fall-off, a round field of view, blur, noise, grey, JPEG.

Plain scenes (the default: opaque dice scattered on a table) stand in for a camera. With
``variety=True`` everything is randomised broadly, for training: die materials (opaque,
see-through, marbled, glitter, metallic), pip colours and styles (painted, dished,
ringed, inked, inside a ring), dice from 15 px to 40 % of the frame, dense piles with
touching, leaning and stacked dice, trays, lights, glare and camera angles.

Every choice comes from one seed, so the same arguments always give the same picture and
labels. Each label is the top face's value and box; a die whose top face is mostly hidden
(by another die, a tray wall or the frame's edge) or that leans too far to be read is
labelled ``readable=False``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.render_camera import Camera, circle, finish, round_view
from companion.vision.render_dice import PIP_LAYOUT, DieLook, PlacedDie, draw_die, pick_look
from companion.vision.render_surfaces import (
    SURFACES,
    draw_distractor,
    fill,
    inside,
    make_tile,
    mask_of,
    paint_surface,
    polygon_px,
    shrink,
    tray_outline,
)

__all__ = ["PIP_LAYOUT", "RENDER_VERSION", "SUPERSAMPLE", "RenderedDie", "Scene", "render_scene"]

#: Scenes with dice under 48 px are drawn this many times larger, then shrunk.
SUPERSAMPLE = 2

#: Raised whenever a seed's picture or labels change, so that renders cached by the
#: training tools are drawn again (2: boxes hold the top face; 3: scenes built in 3D with
#: a pinhole camera, ``variety`` and readability).
RENDER_VERSION = 3

#: A die whose top face shows less than this share of itself is labelled unreadable ...
READABLE_SHARE = 0.8
#: ... and below this share it is not labelled at all (hidden).
LABELLED_SHARE = 0.3
#: ... or when less than this share of it is inside the picture.
IN_FRAME_SHARE = 0.95
#: A die leaning further than this (degrees) is labelled unreadable.
READABLE_LEAN = 22.0


@dataclass(frozen=True)
class RenderedDie:
    """One die in a rendered scene: ``value`` 1-6, the ``box`` (x, y, w, h) px of its top face,
    and whether its top face can be read (``readable``: not mostly hidden, not leaning).

    The box holds the top face only, not the sides a camera at an angle also sees, so its
    centre is the centre of the face that is read (as in labels drawn around the pips).
    """

    value: int
    box: tuple[float, float, float, float]
    readable: bool = True
    #: The top face's four corners in pixels (it may reach outside the picture).
    corners: tuple[tuple[float, float], ...] = ()

    @property
    def centre(self) -> tuple[float, float]:
        """The top face's centre in pixels."""
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)


@dataclass(frozen=True)
class Scene:
    """A rendered picture (BGR uint8), the dice in it, and where the tray is.

    ``tray`` is the outline (pixels) of the tray's floor, a mat, or the lit circle of a
    round field of view, when the scene has one (it may reach outside the picture).
    """

    image: np.ndarray
    dice: tuple[RenderedDie, ...]
    seed: int
    tray: tuple[tuple[float, float], ...] | None = None


def _squares_overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two convex table outlines (N, 2) overlap (separating axis test)."""
    for poly in (a, b):
        edges = np.roll(poly, -1, 0) - poly
        for ex, ey in edges:
            axis = np.array([-ey, ex])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() or pb.max() <= pa.min():
                return False
    return True


def _layout(
    rng: np.random.Generator, n: int, region: np.ndarray, sizes: np.ndarray, *, how: str, variety: bool
) -> list[PlacedDie]:
    """Place up to ``n`` dice of ``sizes`` with centres inside the table polygon ``region``:
    scattered, in a pile of touching dice, or in rows (each table's reveal)."""
    placed: list[PlacedDie] = []
    prints: list[np.ndarray] = []
    lo, hi = region.min(0), region.max(0)
    centre = region.mean(0)
    for i in range(n):
        size = float(sizes[i])
        for _attempt in range(30):
            yaw = rng.uniform(0, math.pi / 2)
            a: float
            if how == "pile" and placed:
                j = int(rng.integers(len(placed)))
                other = placed[j]
                if rng.random() < 0.5:  # face to face with a neighbour
                    yaw = other.yaw + rng.normal(0, 0.06)
                    a = other.yaw + math.pi / 2 * rng.integers(4) + rng.normal(0, 0.15)
                    d = float((size + other.size) / 2 * rng.uniform(1.0, 1.08))
                else:
                    a = rng.uniform(0, 2 * math.pi)
                    d = float((size + other.size) / 2 * rng.uniform(1.0, 1.45))
                xy = np.array(other.xy) + d * np.array([math.cos(a), math.sin(a)])
            elif how == "rows" and placed:
                prev = placed[-1]
                step = (size + prev.size) / 2 * rng.uniform(1.05, 1.6)
                xy = np.array(prev.xy) + np.array([step, rng.normal(0, 0.15)])
                if not inside(region, xy[None])[0]:
                    xy = np.array([lo[0] + rng.uniform(0, 1) * size, prev.xy[1] + rng.uniform(1.3, 2.0) * size])
            elif how == "pile":
                xy = centre + rng.normal(0, 0.3, 2) * (hi - lo) / 4
            else:
                xy = rng.uniform(lo, hi)
            if not inside(region, xy[None])[0]:
                continue
            lean = 0.0
            if variety and how == "pile" and rng.random() < 0.06:
                lean = math.radians(rng.uniform(8, 40))
            die = PlacedDie(
                (float(xy[0]), float(xy[1])),
                size,
                float(yaw),
                int(rng.integers(1, 7)),
                look=0,
                lean=lean,
                lean_dir=float(rng.uniform(0, 2 * math.pi)),
            )
            fp = die.footprint() * 0.99 + np.array(xy) * 0.01  # touching is allowed
            if any(_squares_overlap(fp, q) for q in prints):
                continue
            placed.append(die)
            prints.append(fp)
            break
    if variety and how == "pile" and len(placed) >= 3:
        for _ in range(int(rng.binomial(len(placed) // 3, 0.25))):  # a die resting on another
            j = int(rng.integers(len(placed)))
            base = placed[j]
            if base.lean or base.base:
                continue
            off = rng.uniform(-0.3, 0.3, 2) * base.size
            placed.append(
                PlacedDie(
                    (base.xy[0] + off[0], base.xy[1] + off[1]),
                    base.size * rng.uniform(0.9, 1.05),
                    float(rng.uniform(0, math.pi / 2)),
                    int(rng.integers(1, 7)),
                    look=0,
                    base=base.size,
                )
            )
    return placed


def render_scene(
    seed: int,
    width: int = 640,
    height: int = 480,
    n_dice: int | None = None,
    die_px: tuple[float, float] = (26.0, 80.0),
    tilt: tuple[float, float] = (0.0, 0.18),
    *,
    variety: bool = False,
    layout: str | None = None,
) -> Scene:
    """Render a random scene of dice (see the module doc).

    ``n_dice`` defaults to a random 1-12 (with ``variety``, up to 40); ``die_px`` is the range
    of die sizes in output pixels at the middle of the table; ``tilt`` the range of the
    camera's lean from straight down (0) towards the table (0.18: about 20 degrees; ignored
    with ``variety``, which takes any angle down to 35 degrees above the table).
    ``layout`` sets how the dice lie: "scatter", "pile" (touching, as a reveal of many
    dice) or "rows" (default: scattered, or any with ``variety``).
    Deterministic: the same arguments give the same picture and labels.
    """
    if layout not in (None, "scatter", "pile", "rows"):
        raise ValueError(f"unknown layout {layout!r}: scatter, pile or rows")
    rng = np.random.default_rng(seed)
    target_px = math.exp(rng.uniform(math.log(die_px[0]), math.log(die_px[1])))
    # small dice are drawn larger and shrunk, so their pips keep smooth edges
    ss = SUPERSAMPLE if target_px < 48 else 1
    big_w, big_h = width * ss, height * ss
    layout_kind = "table"
    if variety:
        layout_kind = str(rng.choice(["table", "tray", "mat", "round"], p=[0.35, 0.35, 0.12, 0.18]))
    # the camera
    if variety:
        if layout_kind == "round":
            elevation = rng.uniform(80, 90)
        else:
            elevation = float(
                rng.choice([rng.uniform(78, 90), rng.uniform(58, 78), rng.uniform(35, 58)], p=[0.45, 0.35, 0.2])
            )
    else:
        elevation = math.degrees(math.atan2(1.0, 2.0 * rng.uniform(*tilt) + 1e-9))
    hfov = math.radians(rng.uniform(45, 70))
    focal = (big_w / 2) / math.tan(hfov / 2)
    max_vfov = math.radians(2 * (elevation - 12))
    focal = max(focal, (big_h / 2) / math.tan(max_vfov / 2))
    px_per_die = target_px * ss
    distance = focal / px_per_die
    roll = rng.uniform(0, 360) if elevation > 75 else rng.normal(0, 12)
    camera = Camera.looking_at(
        np.zeros(3),
        elevation_deg=elevation,
        azimuth_deg=rng.uniform(0, 360),
        roll_deg=roll,
        distance=distance,
        focal=focal,
        size=(big_w, big_h),
    )
    table_xy = camera.table_coords()
    to_table = np.linalg.inv(camera.table_homography())
    corners = np.array([[0, 0, 1], [big_w, 0, 1], [big_w, big_h, 1], [0, big_h, 1]], float) @ to_table.T
    view_poly = corners[:, :2] / corners[:, 2:3]
    # the table
    surfaces = SURFACES if variety else ("plain", "plain", "wood", "felt", "paper", "cloth")
    tile, span = make_tile(rng, str(rng.choice(surfaces)))
    img = paint_surface(tile, span, table_xy, rng.uniform(0, 2 * math.pi))
    shadow = np.zeros((big_h, big_w), np.float32)
    region = shrink(view_poly, 0.6)
    view: tuple[float, float, float] | None = None
    if layout_kind == "round":
        view = round_view(rng, big_w, big_h)
        ring = np.column_stack([circle(*view), np.ones(48)]) @ to_table.T
        region = shrink(ring[:, :2] / ring[:, 2:3], 1.0)
    tray_px = None
    after_dice: list[tuple[np.ndarray, np.ndarray]] = []
    n_things = int(rng.integers(0, 6 if variety else 3))
    things = [
        view_poly.mean(0) + rng.normal(0, 0.35, 2) * (view_poly.max(0) - view_poly.min(0)) for _ in range(n_things)
    ]
    if layout_kind in ("tray", "mat"):
        half = float(np.median(np.linalg.norm(view_poly - view_poly.mean(0), axis=1))) * rng.uniform(0.45, 0.95)
        floor = tray_outline(rng, rng.normal(0, 0.1, 2) * half, half)
        on_floor = inside(floor, np.array(things).reshape(-1, 2))
        for where in [t for t, o in zip(things, on_floor, strict=True) if not o]:
            draw_distractor(rng, img, camera, where, shadow)
        things = [t for t, o in zip(things, on_floor, strict=True) if o]
        floor_tile, floor_span = make_tile(rng, str(rng.choice(["felt", "felt", "plain", "cloth", "wood", "print"])))
        floor_img = paint_surface(floor_tile, floor_span, table_xy, rng.uniform(0, 2 * math.pi))
        fm = mask_of((big_h, big_w), polygon_px(camera, floor))[..., None]
        img = img * (1 - fm) + floor_img * fm
        margin = 0.3
        if layout_kind == "tray":
            wall_h = rng.uniform(0.3, 2.0)
            thick = rng.uniform(0.15, 0.6)
            outer = shrink(floor, -thick)
            colour = rng.uniform(20, 230, 3)
            light_dir = np.array([0.3, -0.4, 0.86])
            for i in range(len(floor)):
                j = (i + 1) % len(floor)
                p0, p1, o0, o1 = floor[i], floor[j], outer[i], outer[j]
                inner = np.array([[*p0, 0], [*p1, 0], [*p1, wall_h], [*p0, wall_h]])
                outside = np.array([[*o0, 0], [*o1, 0], [*o1, wall_h], [*o0, wall_h]])
                rim = np.array([[*p0, wall_h], [*p1, wall_h], [*o1, wall_h], [*o0, wall_h]])
                normal_in = np.array([*(floor.mean(0) - (p0 + p1) / 2), 0.0])
                normal_in /= np.linalg.norm(normal_in) + 1e-9
                near = camera.faces_camera(outside.mean(0), -normal_in) > 0
                shade_in = 0.6 + 0.4 * max(0.0, float(normal_in @ light_dir))
                rim_px = camera.project(rim)
                if near:
                    after_dice.append((camera.project(outside), colour * 0.7))
                    after_dice.append((rim_px, colour))
                else:
                    fill(img, camera.project(inner), colour * shade_in)
                    fill(img, rim_px, colour)
            margin = 0.4 + wall_h * 0.4
        region = shrink(floor, margin)
        # (clipped: a far corner of a large tray can project far off the picture)
        tray_px = np.clip(polygon_px(camera, floor) / ss, -8.0 * max(width, height), 9.0 * max(width, height))
        if not inside(view_poly, region).any():
            region = shrink(view_poly, 0.6)
    # things that are not dice, on the tray's floor or on the table around it
    for where in things:
        draw_distractor(rng, img, camera, where, shadow)
    # the dice
    if n_dice is None:
        if variety:
            n = int(rng.choice([rng.integers(1, 6), rng.integers(6, 16), rng.integers(16, 41)], p=[0.4, 0.35, 0.25]))
            # no more than would cover a third of the table in view
            n = max(1, min(n, int(abs(cv2.contourArea(region.astype(np.float32))) / 3)))
        else:
            n = int(rng.integers(1, 13))
    else:
        n = n_dice
    how = "scatter"
    if variety:
        how = str(rng.choice(["scatter", "pile", "rows"], p=[0.45, 0.4, 0.15]))
    how = layout or how
    sizes = rng.uniform(0.9, 1.1, max(n, 1))
    if variety and rng.random() < 0.2:
        sizes = rng.uniform(0.65, 1.35, max(n, 1))
    dice = _layout(rng, n, region, sizes, how=how, variety=variety)
    looks: list[DieLook] = [pick_look(rng, variety) for _ in range(int(rng.integers(1, 6 if variety else 4)))]
    dice = [
        PlacedDie(d.xy, d.size, d.yaw, d.value, int(rng.integers(len(looks))), d.base, d.lean, d.lean_dir) for d in dice
    ]
    # light and shadows
    az, el = rng.uniform(0, 2 * math.pi), math.radians(rng.uniform(30, 80))
    light = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    for d in dice:
        pts = d.corners()
        flat = pts[:, :2] - pts[:, 2:3] / light[2] * light[:2]
        hull = cv2.convexHull(flat.astype(np.float32)).reshape(-1, 2)
        fill(shadow, polygon_px(camera, hull), (1.0,))
        fill(shadow, polygon_px(camera, d.footprint() * 1.08 - np.array(d.xy) * 0.08), (1.3,))
    soft = max(1.0, px_per_die * rng.uniform(0.03, 0.15))
    half_res = cv2.resize(shadow, (big_w // 2, big_h // 2), interpolation=cv2.INTER_AREA)
    shadow = np.asarray(
        cv2.resize(cv2.GaussianBlur(half_res, (0, 0), soft / 2), (big_w, big_h), interpolation=cv2.INTER_LINEAR),
        np.float32,
    )
    img *= (1.0 - rng.uniform(0.15, 0.55) * np.clip(shadow, 0, 1.3) / 1.3)[..., None]
    if variety and rng.random() < 0.2:  # glare of a lamp on a shiny table
        gx, gy = rng.uniform(0, 1, 2)
        yy, xx = np.mgrid[0 : big_h // 8, 0 : big_w // 8].astype(np.float32)
        r = rng.uniform(0.05, 0.3) * big_w / 8
        glare = np.exp(-((xx - gx * big_w / 8) ** 2 + (yy - gy * big_h / 8) ** 2) / (2 * r * r)) * rng.uniform(40, 160)
        img += cv2.resize(glare, (big_w, big_h), interpolation=cv2.INTER_LINEAR)[..., None]
    ids = np.zeros((big_h, big_w), np.int16)
    order = sorted(
        range(len(dice)),
        key=lambda i: (dice[i].base, -float(camera.depth(np.array([[*dice[i].xy, dice[i].size / 2]]))[0])),
    )
    ambient = rng.uniform(0.45, 0.8)
    tops: dict[int, np.ndarray] = {}
    for i in order:
        tops[i] = draw_die(
            rng, img, ids, i + 1, camera=camera, die=dice[i], look=looks[dice[i].look], light=light, ambient=ambient
        )
    for poly, colour in after_dice:  # the near walls of a tray hide what is behind them
        fill(img, poly, colour)
        m = np.zeros((big_h, big_w), np.uint8)
        cv2.fillPoly(m, [np.round(poly).astype(np.int32)], 1)
        ids[m > 0] = 0
    grey = variety and (rng.random() < (0.6 if view is not None else 0.12))
    out = finish(rng, img, variety=variety, view=view, grey=grey, scale=ss)
    if view is not None:
        tray_px = circle(*view) / ss
    labels = []
    for i, d in enumerate(dice):
        top = tops[i]
        area = abs(cv2.contourArea(top.astype(np.float32)))
        if area < 1:
            continue
        x0, y0 = np.floor(top.min(0)).astype(int)
        x1, y1 = np.ceil(top.max(0)).astype(int) + 1
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, big_w), min(y1, big_h)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        m = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
        cv2.fillPoly(m, [np.round(top - (cx0, cy0)).astype(np.int32)], 1)
        seen = float(((ids[cy0:cy1, cx0:cx1] == i + 1) & (m > 0)).sum()) / area
        in_frame = float(m.sum()) / area
        if seen < LABELLED_SHARE:
            continue
        pts = top / ss
        bx0, by0 = np.clip(pts.min(0), 0, (width, height))
        bx1, by1 = np.clip(pts.max(0), 0, (width, height))
        if bx1 - bx0 < 4 or by1 - by0 < 4:
            continue
        readable = seen >= READABLE_SHARE and in_frame >= IN_FRAME_SHARE and math.degrees(d.lean) <= READABLE_LEAN
        labels.append(
            RenderedDie(
                d.value,
                (float(bx0), float(by0), float(bx1 - bx0), float(by1 - by0)),
                readable,
                tuple((float(x), float(y)) for x, y in pts),
            )
        )
    tray = None if tray_px is None else tuple((float(x), float(y)) for x, y in tray_px)
    return Scene(image=out, dice=tuple(labels), seed=seed, tray=tray)
