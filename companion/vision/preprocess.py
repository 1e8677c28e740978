"""The exact pixel preparation shared by the dice reader and its training script.

Two small networks read dice: a *finder* that marks die centres and sizes on a shrunken
copy of the frame, and a *face reader* that names the top face of one die from a small
square cut around its centre. Training and reading must prepare pixels identically, so
both import these functions.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

#: The finder sees the frame shrunk so its longer side is this many pixels.
FINDER_SIDE = 320
#: The finder's output grid is this many times coarser than its input.
FINDER_STRIDE = 4
#: Output channels: centre heat (logit), x and y offset within the cell, log width and
#: log height in finder pixels divided by ``FINDER_STRIDE``.
FINDER_CHANNELS = 5
#: The face reader's input is CROP_PX x CROP_PX, showing CROP_CONTEXT die sizes.
CROP_PX = 48
CROP_CONTEXT = 1.3
#: Face reader classes: 0 "not a die", then the faces 1-6, then 7 "a die whose top face
#: cannot be read" (readers made before that class give 7).
N_CLASSES = 8


def finder_scale(height: int, width: int) -> float:
    """The factor that maps frame pixels to finder pixels."""
    return FINDER_SIDE / float(max(height, width))


def finder_input(image: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, float]:
    """A BGR frame as the finder's (1, 3, H, W) float32 input, and the scale used.

    By default the frame is shrunk to fit a FINDER_SIDE square. With ``scale`` (finder
    pixels per frame pixel) it is resized by that factor instead. Either way it lies on a
    canvas of the next multiple of 32 each way (at least 32), top-left, and the rest is
    filled with zeros, which is mid-grey after normalisation.
    """
    h, w = image.shape[:2]
    s = finder_scale(h, w) if scale is None else float(scale)
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    bw, bh = (max(32, -(-n // 32) * 32) for n in (nw, nh))
    blob = np.zeros((bh, bw, 3), np.float32)
    blob[:nh, :nw] = small.astype(np.float32) * (1.0 / 255.0) - 0.5
    return blob.transpose(2, 0, 1)[None].copy(), s


def normalise_crop(crop: np.ndarray) -> np.ndarray:
    """A CROP_PX x CROP_PX BGR crop as (3, CROP_PX, CROP_PX) float32, zero mean, unit spread.

    Normalising each crop by its own brightness and contrast makes the face reader
    indifferent to how strongly the die is lit.
    """
    x = crop.astype(np.float32)
    x -= x.mean()
    x /= x.std() + 8.0
    return x.transpose(2, 0, 1)


def cut_crop(image: np.ndarray, cx: float, cy: float, size: float, angle_deg: float = 0.0) -> np.ndarray:
    """The CROP_PX square BGR crop around (cx, cy) covering ``CROP_CONTEXT * size`` pixels.

    ``angle_deg`` rotates the crop (used for training). Pixels outside the frame repeat
    the border.
    """
    side = max(size * CROP_CONTEXT, 4.0)
    h, w = image.shape[:2]
    pad = side * (0.75 if angle_deg else 0.5) + 2
    x0, y0 = math.floor(cx - pad), math.floor(cy - pad)
    x1, y1 = math.ceil(cx + pad), math.ceil(cy + pad)
    sub = image[max(y0, 0) : min(y1, h), max(x0, 0) : min(x1, w)]
    if sub.size == 0:
        return np.zeros((CROP_PX, CROP_PX, 3), np.uint8)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        sub = cv2.copyMakeBorder(sub, max(-y0, 0), max(y1 - h, 0), max(-x0, 0), max(x1 - w, 0), cv2.BORDER_REPLICATE)
    k = CROP_PX / side  # output pixels per frame pixel
    if k < 0.7:
        # shrink first with area averaging so small pips are not lost to aliasing
        f = min(1.0, k * 2.0)
        sub = cv2.resize(sub, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        k /= f
        cx0, cy0 = (cx - x0) * f, (cy - y0) * f
    else:
        cx0, cy0 = cx - x0, cy - y0
    m = cv2.getRotationMatrix2D((float(cx0), float(cy0)), angle_deg, k)
    m[0, 2] += CROP_PX / 2.0 - cx0
    m[1, 2] += CROP_PX / 2.0 - cy0
    return cv2.warpAffine(sub, m, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
