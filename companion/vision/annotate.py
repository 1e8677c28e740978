"""Drawing what was read onto a picture: boxes and face values, unsure dice marked."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.vision.detections import DiceDetections
from companion.vision.errors import VisionError
from companion.vision.tray import Tray

SURE = (60, 200, 60)  # BGR green
UNSURE = (0, 140, 255)  # BGR orange


def annotate(
    image: np.ndarray, detections: DiceDetections, tray: Tray | None = None, path: Path | str | None = None
) -> np.ndarray:
    """A copy of ``image`` with each die boxed and its value written ("4?" when unsure).

    With ``path`` the picture is also saved there (format from the suffix).

    Raises:
        VisionError: the picture cannot be written.
    """
    out = image.copy()
    h, w = out.shape[:2]
    thick = max(1, round(max(h, w) / 500))
    if tray is not None:
        cv2.polylines(out, [np.round(tray.pixels(w, h)).astype(np.int32)], True, (255, 200, 0), thick)
    for d in detections:
        x, y, bw, bh = (round(v) for v in d.box)
        colour = UNSURE if d.unsure else SURE
        cv2.rectangle(out, (x, y), (x + bw, y + bh), colour, thick)
        text = f"{d.value}?" if d.unsure else str(d.value)
        scale = max(0.5, bh / 40)
        cv2.putText(out, text, (x, max(y - 3, 12)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
        cv2.putText(out, text, (x, max(y - 3, 12)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)
    if path is not None:
        path = Path(path)
        try:
            ok = cv2.imwrite(str(path), out)
        except cv2.error as exc:
            raise VisionError(f"cannot save the marked picture as {path}: {exc}") from exc
        if not ok:
            raise VisionError(f"cannot save the marked picture as {path} (check the folder and the suffix)")
    return out
