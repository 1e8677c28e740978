"""The reader's headline figures on renders it never saw (a fourth, synthetic source).

    python tools/dice_model/synth_report.py [--models DIR] [--scenes 300]

Varied renders from seeds 900000 and up (training uses 100000-101499), 640x640 and
640x480, dice 15 px to 40 % of the frame. Readable dice are the labels; a reading on a
die labelled unreadable (mostly hidden, leaning, cut off by the frame) is neither right
nor a phantom, so it is left out. Prints the headline row overall and by kind of scene
(piles of 16 or more dice, steep camera, grey pictures).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.vision.evaluate import (
    HEADLINE_HEADER,
    ImageResult,
    Label,
    LabelledImage,
    Reading,
    headline_row,
    in_boxes,
    match,
    score,
)
from companion.vision.reader import DiceReader
from companion.vision.render import render_scene


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", type=Path, help="models folder (default: the shipped ones)")
    ap.add_argument("--scenes", type=int, default=300)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    reader = DiceReader(args.models)
    kinds: dict[str, list[ImageResult]] = {"all": [], "16+ dice": [], "grey": []}
    for i in range(args.scenes):
        w, h = (640, 640) if i % 2 == 0 else (640, 480)
        scene = render_scene(900_000 + i, w, h, variety=True, die_px=(15.0, 0.4 * min(w, h)))
        det = reader.read(scene.image)
        on_hidden = in_boxes(det.centres, [d.box for d in scene.dice if not d.readable]).any(0)
        # a die that cannot be read, read or not: no score either way
        readings = [
            Reading(d.value, d.box, d.unsure, d.confidence) for d, hid in zip(det, on_hidden, strict=True) if not hid
        ]
        label = LabelledImage(
            f"syn_{900_000 + i}", "die", tuple(Label(d.value, d.box) for d in scene.dice if d.readable)
        )
        result = match(label, readings)
        kinds["all"].append(result)
        if len(scene.dice) >= 16:
            kinds["16+ dice"].append(result)
        img = scene.image.astype(int)
        if np.abs(img[..., 0] - img[..., 2]).max() <= 2:
            kinds["grey"].append(result)
    print(f"command: python {' '.join(sys.argv)}")
    print(HEADLINE_HEADER + "\n|---|---|---|---|---|---|---|")
    for name, results in kinds.items():
        print(headline_row(f"renders, {name}", score(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
