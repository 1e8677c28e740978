"""Cross-validated accuracy: score the held-out readings written by train.py --folds.

    python tools/dice_model/cv_report.py --dataset DIR [DIR ...] -- RUN [RUN ...]

Each folder holds ``predictions.jsonl`` (the readings of the photos its networks never
saw). Prints the figures per source and overall (the full confusion, and the headline
rows: missed, read confidently, confident reads wrong, confident phantoms), and how often
dice read with each band of confidence were right. ``calibrate.py`` gives the figures
with the confidence calibrated per source; this script scores the readings as the reader
made them (or, with ``--reread``, as the reader makes them now, with any settings).

With ``--reread --reframe pad:2`` each held-out photo is first placed in the middle of a
table twice its width and height (its dice keep their pixels, so they are half as large
for the finder); with ``--reframe zoom:0.5`` it is cut to its dice with half a die size
around them (dice as large as the frame allows). These check that dice of other sizes
than the photos' own are read too. With ``--errors`` every photo not read all right is
listed as it is scored ("?" marks a die flagged unsure). ``--reread --set NAME=VALUE``
reads with a reader setting changed (``--set auto_tray=yes``: only the dice inside the
tray found holding them).
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

from companion.vision.evaluate import (
    HEADLINE_HEADER,
    BadLabels,
    ImageResult,
    Label,
    LabelledImage,
    Reading,
    format_scores,
    headline_row,
    match,
    score_by_group,
)
from companion.vision.label_fixes import load_fixed_labels
from companion.vision.reader import CALIBRATION_FILE, Calibration, DiceReader

sys.path.insert(0, str(Path(__file__).resolve().parent))
from data import LABEL_FIXES
from reader_args import add_set_option, reader_settings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", type=Path, nargs="+", required=True)
    ap.add_argument(
        "--unsure-below",
        type=float,
        default=None,
        help="re-flag dice with this threshold instead of the one used when reading",
    )
    ap.add_argument(
        "--reread",
        action="store_true",
        help="read the held-out photos again with each fold's networks and these settings",
    )
    add_set_option(ap)
    ap.add_argument(
        "--unsure-from",
        type=Path,
        metavar="MODELS",
        help="with --reread: use the calibration in MODELS/dice_calibration.json (default: each run's own)",
    )
    ap.add_argument(
        "--reframe",
        type=_reframe_arg,
        metavar="pad:F|zoom:F",
        help="with --reread: read each photo on a larger table or cut to its dice (see above)",
    )
    ap.add_argument(
        "--errors", action="store_true", help="also list every photo not read all right: dice misread, missed and extra"
    )
    ap.add_argument(
        "--no-label-fixes",
        action="store_true",
        help=f"score against the labels as published, not fixed by {LABEL_FIXES.name}",
    )
    ap.add_argument("folders", type=Path, nargs="+")
    args = ap.parse_args(argv)
    try:
        found = load_fixed_labels(args.dataset, None if args.no_label_fixes else LABEL_FIXES)
    except BadLabels as e:
        ap.error(str(e))
    labels = {Path(lab.image).name: lab for _, lab in found}
    folders = {Path(lab.image).name: d for d, lab in found}
    results, confs = [], []
    settings = reader_settings(ap, args.set)
    if args.set and not args.reread:
        ap.error("--set needs --reread")
    if args.reframe and not args.reread:
        ap.error("--reframe needs --reread")
    for folder in args.folders:
        reader = DiceReader(folder, settings) if args.reread else None
        if reader is not None and args.unsure_from is not None:
            reader.calibration = Calibration.load(args.unsure_from / CALIBRATION_FILE)
        for line in (folder / "predictions.jsonl").read_text().splitlines():
            rec = json.loads(line)
            if rec["image"] not in labels:
                ap.error(f"{folder}: {rec['image']} is in none of the datasets given")
            lab = labels[rec["image"]]
            if reader is not None:
                image = cv2.imread(str(folders[rec["image"]] / lab.image))
                if args.reframe:
                    image, lab = reframe(image, lab, *args.reframe)
                rec = {"image": rec["image"], **reader.read(image).to_json()}
            reads = []
            for d in rec["dice"]:
                unsure = d["unsure"] if args.unsure_below is None else d["confidence"] < args.unsure_below
                reads.append(Reading(d["value"], tuple(d["box"]), unsure, d["confidence"]))
            r = match(lab, reads)
            results.append(r)
            if args.errors and not r.all_right:
                print(describe_errors(r))
            confs.extend((c, t == v) for t, v, _, c in r.pairs)
    groups = score_by_group(results)
    for name, s in groups.items():
        print(format_scores(name, s))
        print()
    print(HEADLINE_HEADER + "\n|---|---|---|---|---|---|---|")
    for name, s in groups.items():
        print(headline_row(name, s))
    print(f"{len(results)} photos scored from {len(args.folders)} folds")
    print("calibration: confidence band, matched dice, share read right")
    c = np.array([x for x, _ in confs])
    ok = np.array([y for _, y in confs], bool)
    for lo, hi in ((0, 0.5), (0.5, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 0.99), (0.99, 1.01)):
        sel = (c >= lo) & (c < hi)
        if sel.any():
            print(f"  {lo:.2f}-{min(hi, 1):.2f}  {int(sel.sum()):5d}  {ok[sel].mean():.4f}")
    return 0


def describe_errors(r: ImageResult) -> str:
    """One line naming what went wrong in one photo, e.g. ``nb_x.jpg: 5 read as 6 (0.56?); missed 3``."""
    parts = [f"{t} read as {v} ({c:.2f}{'?' if u else ''})" for t, v, u, c in r.pairs if t != v]
    if r.missed:
        parts.append("missed " + " ".join(map(str, r.missed)))
    if r.extra:
        parts.append("extra " + " ".join(f"{v}{'?' if u else ''}" for v, u in r.extra))
    return f"{r.image}: " + "; ".join(parts)


def _reframe_arg(text: str) -> tuple[str, float]:
    how, _, factor = text.partition(":")
    try:
        f = float(factor)
    except ValueError:
        f = -1.0
    if how not in ("pad", "zoom") or f < 0 or (how == "pad" and f < 1):
        raise argparse.ArgumentTypeError(f"{text!r}: expected pad:F (F >= 1) or zoom:F (F >= 0)")
    return how, f


def reframe(image: np.ndarray, label: LabelledImage, how: str, factor: float) -> tuple[np.ndarray, LabelledImage]:
    """The photo on a table ``factor`` times larger ("pad"), or cut to its dice with
    ``factor`` die sizes around them ("zoom"), and its labels moved to match."""
    h, w = image.shape[:2]
    boxes = np.array([d.box for d in label.dice], np.float64).reshape(-1, 4)
    if how == "pad":
        big_h, big_w = int(h * factor), int(w * factor)
        y0, x0 = (big_h - h) // 2, (big_w - w) // 2
        # a plain table of the photo's edge colour, with a little grain, so no dice are copied
        edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
        grain = np.random.default_rng(0).normal(0.0, 4.0, (big_h, big_w, 3))
        table = cv2.GaussianBlur(np.clip(np.median(edge, 0) + grain, 0, 255).astype(np.uint8), (5, 5), 0)
        table[y0 : y0 + h, x0 : x0 + w] = image
        out, dx, dy = table, x0, y0
    elif len(boxes):
        margin = factor * float(np.median(boxes[:, 2:].max(1)))
        x0 = int(max(0, boxes[:, 0].min() - margin))
        y0 = int(max(0, boxes[:, 1].min() - margin))
        x1 = int(min(w, (boxes[:, 0] + boxes[:, 2]).max() + margin))
        y1 = int(min(h, (boxes[:, 1] + boxes[:, 3]).max() + margin))
        out, dx, dy = image[y0:y1, x0:x1].copy(), -x0, -y0
    else:
        return image, label
    moved = tuple(Label(d.value, (d.box[0] + dx, d.box[1] + dy, d.box[2], d.box[3])) for d in label.dice)
    return out, replace(label, dice=moved)


if __name__ == "__main__":
    raise SystemExit(main())
