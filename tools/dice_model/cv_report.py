"""Cross-validated accuracy: score the held-out readings written by train.py --folds.

    python tools/dice_model/cv_report.py --dataset DIR /tmp/cv0 /tmp/cv1 /tmp/cv2 ...

Each folder holds ``predictions.jsonl`` (the readings of the photos its networks never
saw). Prints the figures per source and overall, and, for calibration, how often dice
read with each band of confidence were right.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from companion.vision.evaluate import (  # noqa: E402
    Reading,
    format_scores,
    load_labels,
    match,
    score_by_group,
)
from companion.vision.reader import DiceReader, ReaderSettings  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", type=Path, required=True)
    ap.add_argument("--unsure-below", type=float, default=None,
                    help="re-flag dice with this threshold instead of the one used when reading")
    ap.add_argument("--reread", action="store_true",
                    help="read the held-out photos again with each fold's networks and these settings")
    ap.add_argument("--face-views", type=int, help="with --reread: quarter-turns per die (default: the app's)")
    ap.add_argument("--look-again-below", type=float,
                    help="with --reread: look again at dice read with less than this (default: the app's)")
    ap.add_argument("--second-opinion", action=argparse.BooleanOptionalAction, default=None,
                    help="with --reread: ask the second face reader about doubtful dice (default: the app's)")
    ap.add_argument("folders", type=Path, nargs="+")
    args = ap.parse_args(argv)
    labels = {Path(lab.image).name: lab for lab in load_labels(args.dataset)}
    results, confs = [], []
    settings = ReaderSettings()
    if args.face_views is not None:
        settings = replace(settings, face_views=args.face_views)
    if args.look_again_below is not None:
        settings = replace(settings, look_again_below=args.look_again_below)
    if args.second_opinion is not None:
        settings = replace(settings, second_opinion=args.second_opinion)
    for folder in args.folders:
        reader = DiceReader(folder, settings) if args.reread else None
        for line in (folder / "predictions.jsonl").read_text().splitlines():
            rec = json.loads(line)
            if reader is not None:
                image = cv2.imread(str(args.dataset / labels[rec["image"]].image))
                rec = {"image": rec["image"], **reader.read(image).to_json()}
            lab = labels[rec["image"]]
            reads = []
            for d in rec["dice"]:
                unsure = d["unsure"] if args.unsure_below is None else d["confidence"] < args.unsure_below
                reads.append(Reading(d["value"], tuple(d["box"]), unsure, d["confidence"]))
            r = match(lab, reads)
            results.append(r)
            confs.extend((c, t == v) for t, v, _, c in r.pairs)
    for name, s in score_by_group(results).items():
        print(format_scores(name, s))
        print()
    print(f"{len(results)} photos scored from {len(args.folders)} folds")
    print("calibration: confidence band, matched dice, share read right")
    c = np.array([x for x, _ in confs])
    ok = np.array([y for _, y in confs], bool)
    for lo, hi in ((0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01)):
        sel = (c >= lo) & (c < hi)
        if sel.any():
            print(f"  {lo:.2f}-{min(hi, 1):.2f}  {int(sel.sum()):5d}  {ok[sel].mean():.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
