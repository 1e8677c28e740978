"""How well trays are found: rendered scenes with a known tray, and the labelled photos.

    python bench/dice_tray.py [--scenes 200] [DATASET_DIR ...]

On varied renders (seeds 800000 and up, never used for training) whose tray, mat or round
field of view covers 15-85 % of the frame: how often a tray is found and how well it
overlaps the true one (IoU), given the labelled dice; on renders with no tray, how often
one is claimed anyway; and on every render and labelled photo, how many labelled dice
would fall outside the tray found (dice a reader with ``auto_tray`` would drop). Also
the median time of detect_tray.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.evaluate import load_labels
from companion.vision.render import render_scene
from companion.vision.tray import detect_tray

DEFAULT = [Path(__file__).resolve().parents[2] / "shared" / "datasets" / d for d in ("dice-real", "dice-gray")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("datasets", nargs="*", type=Path, default=DEFAULT)
    ap.add_argument("--scenes", type=int, default=200)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    side = 320
    ious, found, clear, claimed, plain, lost, dice, ms = [], 0, 0, 0, 0, 0, 0, []
    for seed in range(800_000, 800_000 + args.scenes):
        s = render_scene(seed, side, side, variety=True, die_px=(10.0, 80.0))
        centres = np.array([np.mean(d.corners, 0) for d in s.dice if d.readable]).reshape(-1, 2)
        t0 = time.perf_counter()
        tray = detect_tray(s.image, centres if len(centres) else None)
        ms.append((time.perf_counter() - t0) * 1000)
        dice += len(centres)
        if tray is not None and len(centres):
            lost += int((~tray.contains(centres, side, side)).sum())
        truth = np.zeros((side, side), np.uint8)
        if s.tray is not None:
            cv2.fillPoly(truth, [np.round(np.array(s.tray)).astype(np.int32)], 1)
        share = float(truth.mean())
        if s.tray is None:
            plain += 1
            claimed += tray is not None
        elif 0.15 <= share <= 0.85:
            clear += 1
            if tray is not None:
                found += 1
                got = tray.mask(side, side) > 0
                ious.append(float((got & (truth > 0)).sum() / max((got | (truth > 0)).sum(), 1)))
    print(f"command: python {' '.join(sys.argv)}")
    print(
        f"renders: {clear} with a tray covering 15-85 % of the frame: found {found}, "
        f"median IoU of those found {np.median(ious) if ious else 0:.2f}; {plain} with no tray: one claimed in "
        f"{claimed}; labelled dice outside the tray found: {lost} of {dice}; median {np.median(ms):.1f} ms"
    )
    for ds in args.datasets:
        photos = with_tray = lost = total = 0
        for lab in load_labels(ds):
            img = cv2.imread(str(ds / lab.image))
            h, w = img.shape[:2]
            centres = np.array([(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in lab.dice])
            tray = detect_tray(img, centres)
            photos += 1
            total += len(centres)
            if tray is not None:
                with_tray += 1
                lost += int((~tray.contains(centres, w, h)).sum())
        print(f"{ds.name}: {photos} photos, a tray found in {with_tray}, labelled dice outside it {lost} of {total}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
