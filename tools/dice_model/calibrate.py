"""Calibrate the reader's confidence on held-out readings, and report per-source figures.

    python tools/dice_model/calibrate.py --dataset DIR [DIR ...] RUN [RUN ...] [--write MODELS]

Each RUN folder holds the networks and ``predictions.jsonl`` from ``train.py
--holdout-source S [--folds K --fold I]``: which photos its networks never saw, each
marked ``unseen`` (its whole source was left out) or ``fold`` (a held-out fold of a source
seen in training). Each of those photos is read again here with the run's networks by
this Purser's reader (``DiceReader.candidates``, then ``decide_dice`` as ``read`` does),
so the figures are those of the reader as it is now, not of the one that wrote the file
(the candidates stored there are only compared, and a difference is reported).

Calibration is a temperature on the face reader's log-probabilities (fit by likelihood on
the dice read right or wrong) and the unsure threshold: the lowest at which, on every
calibration source separately, at most ``--max-wrong`` of the confident reads are wrong
and at most ``--max-phantoms`` confident phantom dice come per 100 dice.

Honest figures: the calibration used to score the photos of source S is fitted only on
the ``unseen`` readings of the *other* sources; so no photo of S, and no photo of the
source a network was tested on, takes part in choosing how that photo is scored. With
``--write MODELS`` the calibration fitted on the unseen readings of all sources is written
to ``MODELS/dice_calibration.json`` (for the shipped networks).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import LABEL_FIXES
from reader_args import add_set_option, reader_settings

from companion.vision.evaluate import (
    HEADLINE_HEADER,
    BadLabels,
    ImageResult,
    LabelledImage,
    Reading,
    Scores,
    headline_row,
    match,
    score,
)
from companion.vision.label_fixes import load_fixed_labels
from companion.vision.reader import (
    CALIBRATION_FILE,
    Calibration,
    Candidates,
    DiceReader,
    ReaderSettings,
    decide_dice,
    resolve_overlaps,
)


@dataclass(frozen=True)
class Held:
    """One held-out photo's candidates, from the run that never saw it."""

    image: str
    source: str
    held: str  # "unseen" or "fold"
    run: str
    cand: Candidates
    width: int
    height: int


def load_runs(
    folders: list[Path],
    labels: dict[str, LabelledImage],
    images: dict[str, Path],
    settings: ReaderSettings | None = None,
) -> list[Held]:
    """Every held-out photo of the runs' ``predictions.jsonl``, read again with the run's
    networks and ``settings`` (default: the app's) (``images``: file name -> path)."""
    out, stale = [], 0
    for folder in folders:
        reader = DiceReader(folder, settings)
        for line in (folder / "predictions.jsonl").read_text().splitlines():
            rec = json.loads(line)
            if rec["image"] not in labels:
                raise SystemExit(f"{folder}: {rec['image']} is in none of the datasets given")
            frame = cv2.imread(str(images[rec["image"]]), cv2.IMREAD_COLOR)
            if frame is None:
                raise SystemExit(f"{images[rec['image']]} could not be read as a picture")
            cand = reader.candidates(frame)
            stale += not _same(cand, rec["candidates"])
            out.append(
                Held(rec["image"], rec["source"], rec["held"], folder.name, cand, frame.shape[1], frame.shape[0])
            )
    if stale:
        print(
            f"note: {stale} of {len(out)} photos now give other candidates than their predictions.jsonl "
            "(written by an older reader); the figures below are the reader's as it is now",
            file=sys.stderr,
        )
    return out


def _same(cand: Candidates, stored: dict[str, list]) -> bool:
    """Whether fresh candidates are those stored (to the precision they were written with)."""
    if len(stored["scores"]) != len(cand) or abs(float(stored["scale"]) - cand.scale) > 1e-6:
        return False
    if not len(cand):
        return True
    centres = np.array(stored["centres"], np.float32).reshape(-1, 2)
    probs = np.array(stored["probs"], np.float32).reshape(len(cand), -1)
    return bool(np.allclose(centres, cand.centres, atol=0.02) and np.allclose(probs, cand.probs, atol=1e-4))


def read(h: Held, settings: ReaderSettings, cal: Calibration) -> list[Reading]:
    """The dice read from one held-out photo with a calibration."""
    det = decide_dice(h.cand, h.width, h.height, settings, cal)
    return [Reading(d.value, d.box, d.unsure, d.confidence) for d in det]


def results(
    helds: list[Held], labels: dict[str, LabelledImage], settings: ReaderSettings, cal: Calibration
) -> list[ImageResult]:
    """Each photo matched against its labels."""
    return [match(labels[h.image], read(h, settings, cal)) for h in helds]


def fit_temperature(helds: list[Held], labels: dict[str, LabelledImage], settings: ReaderSettings) -> float:
    """The temperature that makes the face reader's probabilities of the labelled dice it
    found most likely (grid over 0.25-8, log-spaced)."""
    logs, truth = [], []
    for h in helds:
        keep = resolve_overlaps(h.cand, settings)
        if len(keep) == 0:
            continue
        c = h.cand.take(keep)
        lo, hi = c.centres - c.sizes / 2, c.centres + c.sizes / 2
        readings = [
            Reading(1, (float(a[0]), float(a[1]), float(b[0] - a[0]), float(b[1] - a[1])))
            for a, b in zip(lo, hi, strict=True)
        ]
        lab = labels[h.image]
        # pair labels with candidates by the same matching as the scores
        res = match(lab, [replace(r, value=k + 1) for k, r in enumerate(readings)])
        for t, k, _, _ in res.pairs:  # the "value" carries the candidate's index + 1
            logs.append(np.log(np.clip(c.probs[k - 1], 1e-9, 1)))
            truth.append(t)
    if not logs:
        return 1.0
    lp, y = np.array(logs), np.array(truth)
    best, best_nll = 1.0, math.inf
    for t in np.exp(np.linspace(math.log(0.25), math.log(8), 121)):
        z = lp / t
        z = z - z.max(1, keepdims=True)
        nll = float(-(z[np.arange(len(y)), y] - np.log(np.exp(z).sum(1))).mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    return best


def choose_threshold(
    helds: list[Held],
    labels: dict[str, LabelledImage],
    settings: ReaderSettings,
    *,
    temperature: float,
    max_wrong: float,
    max_phantoms: float,
) -> float:
    """The lowest unsure threshold meeting both limits on every source of ``helds``."""
    sources = sorted({h.source for h in helds})
    grid = np.concatenate([np.arange(0.5, 0.95, 0.01), np.arange(0.95, 0.9995, 0.001)])
    for t in grid:
        cal = Calibration(temperature, float(t))
        ok = True
        for src in sources:
            s = score(results([h for h in helds if h.source == src], labels, settings, cal))
            if s.rate(s.wrong_sure, s.confident) > max_wrong or 100 * s.rate(s.extra_sure, s.dice) > max_phantoms:
                ok = False
                break
        if ok:
            return float(t)
    return float(grid[-1])


def fit(
    helds: list[Held],
    labels: dict[str, LabelledImage],
    settings: ReaderSettings,
    *,
    max_wrong: float,
    max_phantoms: float,
    note: str,
) -> Calibration:
    """Temperature, then threshold, on ``helds``."""
    t = fit_temperature(helds, labels, settings)
    threshold = choose_threshold(helds, labels, settings, temperature=t, max_wrong=max_wrong, max_phantoms=max_phantoms)
    return Calibration(t, threshold, note)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", type=Path, nargs="+", required=True)
    ap.add_argument("--max-wrong", type=float, default=0.005, help="share of confident reads allowed wrong")
    ap.add_argument("--max-phantoms", type=float, default=0.5, help="confident phantom dice allowed per 100 dice")
    ap.add_argument("--write", type=Path, help="write the calibration fitted on all unseen readings here")
    ap.add_argument(
        "--uncalibrated", action="store_true", help="also score with no temperature and the default threshold (0.9)"
    )
    add_set_option(ap)
    ap.add_argument(
        "--label-fixes",
        type=Path,
        default=LABEL_FIXES,
        help="corrections to the published labels, applied in scoring (default %(default)s)",
    )
    ap.add_argument("--no-label-fixes", action="store_true", help="score against the labels as published")
    ap.add_argument("runs", type=Path, nargs="+")
    args = ap.parse_args(argv)
    settings = reader_settings(ap, args.set)
    cv2.setNumThreads(1)
    fixes = None if args.no_label_fixes else args.label_fixes
    try:
        found = load_fixed_labels(args.dataset, fixes)
    except BadLabels as e:
        ap.error(str(e))
    if fixes is not None:
        print(f"labels corrected by {fixes} (--no-label-fixes: as published)")
    labels = {Path(lab.image).name: lab for _, lab in found}
    images = {Path(lab.image).name: d / lab.image for d, lab in found}
    helds = load_runs(args.runs, labels, images, settings)
    sources = sorted({h.source for h in helds})
    unseen = [h for h in helds if h.held == "unseen"]
    rows: dict[str, list[tuple[str, Scores]]] = {"unseen": [], "fold": []}
    print("Calibration per source, fitted on the unseen readings of the other sources only:")
    for src in sources:
        others = [h for h in unseen if h.source != src]
        cal = fit(
            others,
            labels,
            settings,
            max_wrong=args.max_wrong,
            max_phantoms=args.max_phantoms,
            note=f"fitted without {src}",
        )
        print(
            f"  {src}: temperature {cal.temperature:.3f}, unsure below {cal.unsure_below:.3f} "
            f"(fitted on {sorted({h.source for h in others})}, {len(others)} photos)"
        )
        for why in ("unseen", "fold"):
            part = [h for h in helds if h.source == src and h.held == why]
            if part:
                rows[why].append((src, score(results(part, labels, settings, cal))))
        if args.uncalibrated:
            part = [h for h in unseen if h.source == src]
            rows.setdefault("uncalibrated unseen", []).append(
                (src, score(results(part, labels, settings, Calibration())))
            )
    for why, title in (
        ("unseen", "photos of a source never used in training (leave one source out)"),
        ("fold", "held-out photos of sources used in training"),
        ("uncalibrated unseen", "unseen sources, uncalibrated (temperature 1, unsure below 0.9)"),
    ):
        if not rows.get(why):
            continue
        print(f"\n{title}:\n{HEADLINE_HEADER}\n|---|---|---|---|---|---|---|")
        for src, s in rows[why]:
            print(headline_row(src, s))
        # the phantoms a player taps away: every spot read as a die where none is, unsure or not
        flagged = ", ".join(f"{src} {100 * s.rate(s.extra, s.dice):.1f}" for src, s in rows[why])
        print(f"all phantom dice (flagged unsure or not) per 100 dice: {flagged}")
    if args.write:
        cal = fit(
            unseen,
            labels,
            settings,
            max_wrong=args.max_wrong,
            max_phantoms=args.max_phantoms,
            note=f"fitted on the unseen-source readings of {sorted({h.source for h in unseen})} "
            f"({len(unseen)} photos; runs {sorted({h.run for h in unseen})}"
            f"{'' if fixes is None else '; labels fixed by ' + fixes.name})",
        )
        args.write.mkdir(parents=True, exist_ok=True)
        (args.write / CALIBRATION_FILE).write_text(
            json.dumps(
                {
                    "temperature": round(cal.temperature, 4),
                    "unsure_below": round(cal.unsure_below, 4),
                    "note": cal.note,
                },
                indent=1,
            )
            + "\n"
        )
        print(
            f"\nwrote {args.write / CALIBRATION_FILE}: temperature {cal.temperature:.3f}, "
            f"unsure below {cal.unsure_below:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
