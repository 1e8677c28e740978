"""Training pictures for the dice reader: the labelled photos and synthetic renders."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.evaluate import PIP_SPAN, BadLabels
from companion.vision.label_fixes import load_fixed_labels
from companion.vision.render import RENDER_VERSION, render_scene

#: Corrections to the published labels, each with its evidence (tools/dice_model/README.md).
LABEL_FIXES = Path(__file__).resolve().parent / "label_fixes.json"


@dataclass
class Picture:
    """One training picture: BGR image, die centres (N, 2), sizes (N, 2) w, h or NaN, values,
    and which dice can be read (N,) (a rendered die may be hidden, leaning or cut off)."""

    name: str
    source: str  # the file name's prefix ("nb", "mp", "gr"), or "syn" for renders
    image: np.ndarray
    centres: np.ndarray
    sizes: np.ndarray
    values: np.ndarray
    readable: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.readable is None:
            self.readable = np.ones(len(self.values), bool)


def pip_box_to_die_size(pip_sizes: np.ndarray, values: list[int]) -> np.ndarray:
    """Estimated die sizes (w, h) from boxes around the pips only.

    For faces 2-6 the pips span a known share of the face. A 1's box tells nothing, so it
    takes the median estimate of the other dice in the photo (all dice in one photo are
    of one kind and at a similar distance), or NaN (no size to learn) when there are none.
    """
    est = pip_sizes / PIP_SPAN
    multi = np.array([v >= 2 for v in values])
    out = np.full_like(pip_sizes, np.nan)
    out[multi] = est[multi]
    if multi.any() and (~multi).any():
        side = float(np.median(est[multi].max(1)))
        out[~multi] = side
    return out


def load_reals(datasets: list[Path], fixes: Path | None = None) -> list[Picture]:
    """Every labelled photo of dice-real style folders (labels.jsonl + images/), with the
    corrections of the fixes file ``fixes`` applied (None: the labels as published).

    Raises:
        BadLabels: a labels file or the fixes file cannot be read, or a fix does not fit.
    """
    out = []
    for dataset, lab in load_fixed_labels(datasets, fixes):
        img = cv2.imread(str(dataset / lab.image), cv2.IMREAD_COLOR)
        if img is None:
            raise BadLabels(f"{dataset / lab.image} could not be read as a picture")
        boxes = np.array([d.box for d in lab.dice], np.float32).reshape(-1, 4)
        values = [d.value for d in lab.dice]
        sizes = boxes[:, 2:].copy()
        if lab.box_kind == "pips":
            sizes = pip_box_to_die_size(sizes, values)
        out.append(
            Picture(
                Path(lab.image).name, lab.group, img, boxes[:, :2] + boxes[:, 2:] / 2, sizes, np.array(values, np.int64)
            )
        )
    return out


#: Share of renders drawn plain (the simulated camera's look) rather than varied.
PLAIN_SHARE = 0.15


def render_picture(seed: int, variety: bool, width: int, height: int) -> Picture:
    """One rendered training scene as a Picture: varied scenes with dice from 15 px to 40 %
    of the frame, plain ones as the simulated camera draws them."""
    if variety:
        scene = render_scene(seed, width=width, height=height, variety=True, die_px=(15.0, 0.4 * min(width, height)))
    else:
        scene = render_scene(seed, width=width, height=height, die_px=(20.0, 90.0), tilt=(0.0, 0.25))
    # the centre of the top face, also for dice the frame cuts (their box is clipped)
    centres = np.array([np.mean(d.corners, 0) if d.corners else d.centre for d in scene.dice], np.float32).reshape(
        -1, 2
    )
    sizes = np.array([d.box[2:] for d in scene.dice], np.float32).reshape(-1, 2)
    return Picture(
        f"syn_{seed}",
        "syn",
        scene.image,
        centres,
        sizes,
        np.array([d.value for d in scene.dice], np.int64),
        np.array([d.readable for d in scene.dice], bool),
    )


def load_synthetic(count: int, seed: int, cache: Path | None) -> list[Picture]:
    """``count`` rendered scenes from seeds ``seed .. seed+count-1`` (cached as .npz):
    frames of 640x640, 640x480 or 480x640, PLAIN_SHARE of them plain, the rest varied."""
    if cache is not None:
        path = cache / f"synthetic-v{RENDER_VERSION}-{seed}-{count}.npz"
        if path.exists():
            z = np.load(path, allow_pickle=True)
            return list(z["pictures"])
    out = []
    rng = np.random.default_rng(seed)
    for i in range(count):
        w, h = [(640, 640), (640, 480), (480, 640)][int(rng.choice(3, p=[0.5, 0.35, 0.15]))]
        out.append(render_picture(seed + i, rng.random() >= PLAIN_SHARE, w, h))
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        arr = np.empty(len(out), object)
        arr[:] = out
        np.savez(path, pictures=arr)
    return out


def folds(pictures: list[Picture], k: int, seed: int = 0, counts: list[int] | None = None) -> list[int]:
    """A fold number 0..k-1 per picture, stratified by source and by dice count (``counts``,
    one per picture; default: the dice each is labelled with)."""
    rng = np.random.default_rng(seed)
    fold = [0] * len(pictures)
    groups: dict[tuple[str, int], list[int]] = {}
    for i, p in enumerate(pictures):
        n = len(p.values) if counts is None else counts[i]
        band = 0 if n <= 2 else 1 if n <= 5 else 2 if n <= 9 else 3
        groups.setdefault((p.source, band), []).append(i)
    start = 0
    for key in sorted(groups):
        idx = groups[key]
        rng.shuffle(idx)
        for j, i in enumerate(idx):
            fold[i] = (start + j) % k
        start += len(idx)
    return fold


def photometric(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Random colour, light, blur and noise changes of a BGR uint8 image."""
    x = img
    if rng.random() < 0.5:
        x = x[..., rng.permutation(3)]
    if rng.random() < 0.4:
        hsv = cv2.cvtColor(np.ascontiguousarray(x), cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180
        sat = hsv[..., 1].astype(np.float32) * rng.uniform(0.6, 1.3)
        hsv[..., 1] = np.clip(sat, 0, 255).astype(np.uint8)
        x = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    x = x.astype(np.float32)
    if rng.random() < 0.08:
        x = 255.0 - x
    x = x * rng.uniform(0.6, 1.3) + rng.uniform(-30, 30)
    x = x * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    if rng.random() < 0.3:
        gamma = rng.uniform(0.7, 1.4)
        x = 255.0 * np.power(np.clip(x, 0, 255) / 255.0, gamma)
    if rng.random() < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.5:
        x = x + rng.normal(0, rng.uniform(1, 6), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).astype(np.uint8)


def jpeg(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Sometimes re-encode as JPEG at a random quality."""
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        if ok:
            return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def geometric(
    rng: np.random.Generator,
    img: np.ndarray,
    centres: np.ndarray,
    sizes: np.ndarray,
    scale: float,
    out_side: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scale, rotate, shear and cut a ``out_side`` square; returns image, centres, sizes, valid pad mask.

    Sizes are scaled with the image (a rotation keeps a die's size; its box grows a
    little, which the labels of real photos do not model either).
    """
    h, w = img.shape[:2]
    angle = rng.uniform(0, 360) if rng.random() < 0.7 else 90.0 * rng.integers(4)
    a = math.radians(angle)
    shear = rng.uniform(-0.12, 0.12) if rng.random() < 0.4 else 0.0
    aspect = math.exp(rng.uniform(-0.12, 0.12))
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    lin = scale * rot @ np.array([[aspect, shear], [0.0, 1.0 / aspect]])
    if rng.random() < 0.5:
        lin = lin @ np.array([[-1.0, 0.0], [0.0, 1.0]])
    ctr_src = np.array([w / 2.0, h / 2.0])
    new_extent = np.abs(lin) @ np.array([w, h])
    # pick the cut so it covers the picture when it is big enough, dice included
    span = np.maximum(new_extent - out_side, 0)
    off = np.array([rng.uniform(-s / 2, s / 2) for s in span]) if span.any() else np.zeros(2)
    if len(centres) and rng.random() < 0.5 and span.any():
        c = lin @ (centres[rng.integers(len(centres))] - ctr_src)
        off = np.clip(c + rng.uniform(-out_side / 3, out_side / 3, 2), -span / 2, span / 2)
    t = np.array([out_side / 2.0, out_side / 2.0]) - off - lin @ ctr_src
    m = np.hstack([lin, t[:, None]]).astype(np.float32)
    interp = cv2.INTER_AREA if scale < 0.8 else cv2.INTER_LINEAR
    if scale < 0.8:  # area-shrink first, then the affine, to keep small pips
        pre = cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        m2 = m.copy()
        m2[:, :2] /= scale
        out = cv2.warpAffine(
            pre,
            m2,
            (out_side, out_side),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(127, 127, 127),
        )
    else:
        out = cv2.warpAffine(
            img, m, (out_side, out_side), flags=interp, borderMode=cv2.BORDER_CONSTANT, borderValue=(127, 127, 127)
        )
    new_c = centres @ m[:, :2].T + m[:, 2] if len(centres) else centres
    s_lin = math.sqrt(abs(np.linalg.det(lin)))
    new_s = sizes * s_lin
    if len(new_s):
        swap = abs(math.sin(a)) > abs(math.cos(a))
        if swap:
            new_s = new_s[:, ::-1]
    return out, new_c, new_s, m
