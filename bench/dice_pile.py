"""A reveal of many dice: time and count on rendered 640x640 frames of about 40 dice.

    python bench/dice_pile.py [--frames 20] [--dice 40] [--models DIR]

Each frame is a varied render (``render_scene(variety=True, layout="pile")``: touching
dice in a pile, some leaning or stacked, any table, light and camera angle) with dice of
30-50 px, seeds 700000 and up (never used for training). One thread (OpenCV, OpenMP and
BLAS). Prints the median and p90 time of read_dice, how far the count of dice found is
from the count labelled, and how the dice were read: right and sure, wrong and sure,
flagged unsure, and counted as "could not be read"; readings of dice labelled unreadable
(a die, neither right nor a phantom) apart from other spots read as dice; how many taps
the table needs to settle the reveal (each unsure die confirmed or dropped, each phantom
read surely dropped, each die missed added, readable or not); and where the missed dice
were lost: no finder spot on them, a spot the face reader called "not a die" (with how
large the finder drew those spots against the die), or a spot that lost to another one.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.evaluate import Label, LabelledImage, Reading, in_box, in_boxes, match  # noqa: E402
from companion.vision.reader import Candidates, DiceReader, ReaderSettings, may_be_dice  # noqa: E402
from companion.vision.render import render_scene  # noqa: E402


def where_lost(cand: Candidates, box: tuple[float, float, float, float], settings: ReaderSettings) -> tuple[str, float]:
    """Why the die labelled at ``box`` (x, y, w, h px) was missed: "no spot", "not a die"
    (with the size of its largest spot as a share of the die's), or "lost" (it had a spot
    that may be a die, but that spot was dropped for another or its reading went to a
    neighbouring die)."""
    inside = np.flatnonzero(in_box(cand.centres, box))
    if not len(inside):
        return "no spot", 0.0
    if not may_be_dice(cand.probs[inside], cand.scores[inside], cand.sizes[inside], settings).any():
        return "not a die", float(cand.sizes[inside].max() / max(box[2], box[3]))
    return "lost", 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--dice", type=int, default=40)
    ap.add_argument("--models", type=Path, help="models folder (default: the shipped ones)")
    ap.add_argument("--repeat", type=int, default=3, help="timed reads per frame (the median is kept)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    reader = DiceReader(args.models)
    scenes = [
        render_scene(700_000 + i, 640, 640, n_dice=args.dice, die_px=(30.0, 50.0), variety=True, layout="pile")
        for i in range(args.frames)
    ]
    reader.read(scenes[0].image)  # warm up
    ms, cpu_ms, count_err, labelled, found = [], [], [], [], []
    right_sure = wrong_sure = unsure = unreadable = missed = phantoms = phantoms_sure = hidden_read = 0
    taps: list[int] = []
    lost: dict[str, int] = {"no spot": 0, "not a die": 0, "lost": 0}
    not_die_share: list[float] = []
    for scene in scenes:
        times, cpu = [], []
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            det = reader.read(scene.image)
            times.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
        ms.append(float(np.median(times)))
        cpu_ms.append(float(np.median(cpu)))
        labelled.append(len(scene.dice))
        found.append(len(det))
        count_err.append(len(det) - len(scene.dice))
        unreadable += det.unreadable_count
        lab = LabelledImage("pile", "die", tuple(Label(d.value, d.box) for d in scene.dice if d.readable))
        res = match(lab, [Reading(d.value, d.box, d.unsure, d.confidence) for d in det])
        right_sure += sum(t == v and not u for t, v, u, _ in res.pairs)
        wrong_sure += sum(t != v and not u for t, v, u, _ in res.pairs)
        unsure += sum(u for _, _, u, _ in res.pairs)
        missed += len(res.missed)
        if res.missed_at:  # the frame's spots again, untimed, only where a die was missed
            cand = reader.candidates(scene.image)
            for i in res.missed_at:
                why, share = where_lost(cand, lab.dice[i].box, reader.settings)
                lost[why] += 1
                if why == "not a die":
                    not_die_share.append(share)
        # a reading on a die that cannot be read (leaning, mostly hidden) is a die: neither
        # right nor a phantom
        hits = in_boxes(det.centres, [d.box for d in scene.dice if not d.readable])
        on_hidden = hits.any(0)
        hidden_missed = int((~hits.any(1)).sum())
        extra = np.array(res.extra_at, int)
        hidden_read += int(on_hidden[extra].sum())
        phantoms += int((~on_hidden[extra]).sum())
        sure_phantoms = int((~on_hidden[extra] & ~det.unsure[extra]).sum())
        phantoms_sure += sure_phantoms
        # what the table does before the reveal is settled: confirm (or drop) each die read
        # unsure, drop each phantom read surely, add each die missed, readable or not
        taps.append(det.unsure_count + sure_phantoms + len(res.missed) + hidden_missed)
    readable = sum(sum(d.readable for d in s.dice) for s in scenes)
    print(f"command: python {' '.join(sys.argv)}")
    print(
        f"input: {args.frames} rendered 640x640 piles, {np.mean(labelled):.1f} dice labelled per frame "
        f"(median {np.median(labelled):.0f}), cv2 threads {cv2.getNumThreads()}"
    )
    print(f"read_dice median {np.median(ms):.1f} ms, p90 {np.percentile(ms, 90):.1f} ms, max {max(ms):.1f} ms")
    print(
        f"read_dice CPU time median {np.median(cpu_ms):.1f} ms, p90 {np.percentile(cpu_ms, 90):.1f} ms "
        "(what one core spends, whatever else runs on the machine)"
    )
    print(
        f"count: found - labelled per frame: median {np.median(count_err):+.0f}, "
        f"mean |error| {np.mean(np.abs(count_err)):.2f}, exact in {sum(e == 0 for e in count_err)} of {len(scenes)}"
    )
    print(
        f"readable dice {readable}: right and sure {right_sure}, wrong and sure {wrong_sure}, "
        f"flagged unsure {unsure}, missed {missed}; dice labelled unreadable read {hidden_read}; "
        f"other spots read as dice {phantoms} ({phantoms_sure} of them sure); "
        f"dice reported as could-not-be-read {unreadable}"
    )
    print(
        "taps to settle a reveal (confirm each unsure die, drop each sure phantom, add each missed die): "
        f"median {np.median(taps):.0f} a pile, mean {np.mean(taps):.1f}"
    )
    sizing = f" (spots a median {np.median(not_die_share):.2f} of the die's size)" if not_die_share else ""
    print(
        f"missed dice: no finder spot {lost['no spot']}, called not a die {lost['not a die']}{sizing}, "
        f"lost to another spot {lost['lost']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
