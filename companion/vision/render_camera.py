"""The rendered scene's camera: a pinhole looking at a table, and what a real camera adds.

World units are die sides: a die is a unit cube, the table is the plane z = 0 and z
points up. :class:`Camera` projects world points to pixels; :func:`finish` turns the
clean rendered picture into what a camera delivers (light fall-off, a round field of view,
blur, noise, grey, JPEG).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: ``position`` (3,), rows of ``axes`` right, down, forward (3, 3),
    ``focal`` and principal point ``centre`` in pixels of a ``size`` (w, h) picture."""

    position: np.ndarray
    axes: np.ndarray
    focal: float
    centre: tuple[float, float]
    size: tuple[int, int]

    @classmethod
    def looking_at(
        cls,
        target: np.ndarray,
        *,
        elevation_deg: float,
        azimuth_deg: float,
        roll_deg: float,
        distance: float,
        focal: float,
        size: tuple[int, int],
    ) -> Camera:
        """A camera ``distance`` units from ``target`` (on the table), ``elevation_deg`` above
        the table (90: straight down), turned ``roll_deg`` about its line of sight."""
        e, a, r = (math.radians(v) for v in (elevation_deg, azimuth_deg, roll_deg))
        back = np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])
        position = np.asarray(target, float) + distance * back
        forward = -back
        right = np.array([-math.sin(a), math.cos(a), 0.0])
        down = np.cross(forward, right)
        c, s = math.cos(r), math.sin(r)
        right, down = c * right + s * down, -s * right + c * down
        w, h = size
        return cls(position, np.stack([right, down, forward]), float(focal), (w / 2.0, h / 2.0), size)

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of world points (N, 3); points behind the camera come out far away."""
        cam = (np.asarray(points, float).reshape(-1, 3) - self.position) @ self.axes.T
        z = np.maximum(cam[:, 2], 1e-6)
        return np.stack([self.focal * cam[:, 0] / z + self.centre[0], self.focal * cam[:, 1] / z + self.centre[1]], 1)

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the line of sight of world points (N, 3)."""
        return np.asarray((np.asarray(points, float).reshape(-1, 3) - self.position) @ self.axes[2])

    def faces_camera(self, point: np.ndarray, normal: np.ndarray) -> float:
        """Cosine between a surface ``normal`` at ``point`` and the direction to the camera."""
        to_cam = self.position - np.asarray(point, float)
        return float(np.dot(normal, to_cam) / (np.linalg.norm(to_cam) + 1e-9))

    def table_homography(self) -> np.ndarray:
        """The 3x3 map from table coordinates (x, y) (z = 0) to pixels."""
        k = np.array([[self.focal, 0, self.centre[0]], [0, self.focal, self.centre[1]], [0, 0, 1]])
        rt = np.column_stack([self.axes[:, 0], self.axes[:, 1], -self.axes @ self.position])
        return np.asarray(k @ rt)

    def table_coords(self) -> np.ndarray:
        """Table coordinates (h, w, 2) float32 seen at each pixel centre."""
        w, h = self.size
        inv = np.linalg.inv(self.table_homography())
        # the map is smooth: work it out on a coarse grid and interpolate
        step = 4
        ny, nx = -(-h // step) + 1, -(-w // step) + 1
        gy, gx = np.mgrid[0:ny, 0:nx].astype(np.float64)
        # sample i sits at the centre of the i-th step x step cell, where cv2.resize puts it
        pts = np.stack([(gx + 0.5) * step, (gy + 0.5) * step, np.ones_like(gx)], -1) @ inv.T
        coarse = (pts[..., :2] / pts[..., 2:3]).astype(np.float32)
        big = cv2.resize(coarse, (nx * step, ny * step), interpolation=cv2.INTER_LINEAR)
        return np.ascontiguousarray(big[:h, :w])


def round_view(rng: np.random.Generator, width: int, height: int) -> tuple[float, float, float]:
    """A round field of view (as some overhead cameras have): centre x, y and radius, pixels."""
    return (
        width * rng.uniform(0.42, 0.58),
        height * rng.uniform(0.42, 0.58),
        min(width, height) * rng.uniform(0.42, 0.56),
    )


def circle(cx: float, cy: float, radius: float, n: int = 48) -> np.ndarray:
    """Points (n, 2) on a circle."""
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([cx + radius * np.cos(a), cy + radius * np.sin(a)])


def finish(
    rng: np.random.Generator,
    img: np.ndarray,
    *,
    variety: bool,
    view: tuple[float, float, float] | None,
    grey: bool,
    scale: int,
) -> np.ndarray:
    """The camera's own marks on a rendered float32 BGR picture (drawn ``scale`` times too
    large): light fall-off, white balance, optionally a round field of ``view`` (centre and
    radius, pixels) and grey, then the shrink to output size, blur, noise and JPEG.
    Returns uint8 BGR."""
    h, w = img.shape[:2]
    sh, sw = max(2, h // 8), max(2, w // 8)
    gy, gx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    gx, gy = (gx + 0.5) / sw, (gy + 0.5) / sh
    g = rng.normal(0, 1, 2)
    light = 1.0 + rng.uniform(0, 0.4 if variety else 0.3) * ((gx - 0.5) * g[0] + (gy - 0.5) * g[1])
    if variety and rng.random() < 0.5:  # lens fall-off towards the corners
        r2 = ((gx - 0.5) ** 2 + (gy - 0.5) ** 2) * 2
        light *= 1.0 - rng.uniform(0.1, 0.5) * r2
    gain = rng.uniform(0.7, 1.15) if not variety else math.exp(rng.uniform(-0.7, 0.35))
    light = light * gain
    if view is not None:
        cx, cy, radius = view
        d = np.sqrt((gx * w - cx) ** 2 + (gy * h - cy) ** 2) / radius
        edge = rng.uniform(0.04, 0.12)
        fall = np.clip((d - 1.0) / edge, 0, 1)
        inside = 1.0 - 0.35 * np.clip(d, 0, 1) ** 2 * rng.uniform(0.3, 1.0)
        dark = rng.uniform(0.03, 0.2)
        light = light * (inside * (1 - fall) + dark * fall)
    light = cv2.resize(light.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    balance = rng.uniform(0.85, 1.15, 3) if variety else rng.uniform(0.9, 1.1, 3)
    img = img * light[..., None] * balance.astype(np.float32)
    out_w, out_h = w // scale, h // scale
    if scale > 1:
        img = cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_AREA)
    if variety and rng.random() < 0.15:  # a cheap sensor: fewer pixels, enlarged again
        f = rng.uniform(1.5, 2.5)
        small = cv2.resize(img, (max(8, int(out_w / f)), max(8, int(out_h / f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
    blur = rng.random()
    if blur < (0.45 if variety else 0.67):
        pass
    elif not variety or blur < 0.88:
        img = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.3, 1.6 if variety else 1.4)))
    else:  # a hand that moved
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        a = rng.uniform(0, math.pi)
        c = (length - 1) / 2
        cv2.line(
            kernel,
            (round(c - math.cos(a) * c), round(c - math.sin(a) * c)),
            (round(c + math.cos(a) * c), round(c + math.sin(a) * c)),
            1.0,
            1,
        )
        img = cv2.filter2D(img, -1, kernel / kernel.sum())
    if variety and rng.random() < 0.2:  # a phone's sharpening halo
        soft = cv2.GaussianBlur(img, (0, 0), 1.5)
        img = img + rng.uniform(0.3, 1.0) * (img - soft)
    if grey:
        g1 = img @ np.array([0.114, 0.587, 0.299], np.float32)
        img = np.repeat(g1[..., None], 3, 2)
    sigma = rng.uniform(0.5, 8.0 if variety else 5.0)
    noise = rng.normal(0, sigma, (*img.shape[:2], 1)) if grey else rng.normal(0, sigma, img.shape)
    img = img + noise.astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    quality = int(rng.integers(30 if variety else 55, 96))
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if ok:
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
