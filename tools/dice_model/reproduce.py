"""Make the shipped dice models and their figures in one command.

    python tools/dice_model/reproduce.py --work /tmp/dice-work [--jobs 2]

1. renders the synthetic scenes once into WORK/cache (``train.py --render-only``);
2. trains the three leave-one-source-out runs (``train.py --holdout-source S --folds 3
   --fold K`` for S, K = gr 0, mp 1, nb 2), JOBS at a time, each on one thread;
3. trains the shipped networks on every photo and render into WORK/final;
4. trains the second face reader of each of those four runs with that run's finder
   (``train.py --finder-onnx`` and SECOND_RECIPE, into WORK/second-NAME), puts it
   beside the first as ``dice_faces_second.onnx`` and reads that run's held-out photos
   again with the pair (``train.py --predict-only``);
5. prints the per-source figures with the nested calibration (``calibrate.py``), writes
   the calibration fitted on all three runs' unseen-source readings beside the shipped
   networks and, with ``--install``, copies them into companion/vision/models.

Every step is seeded, so the same library versions and thread count give the same files.
A step whose output already exists is skipped (delete it to redo it). With ``--from-kept``
the networks kept in the repository are put into WORK first (the shipped ones as the
final run, and those of tools/dice_model/heldout/ as the leave-one-source-out runs), so
only what they lack is trained.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATASETS = [ROOT.parent / "shared" / "datasets" / "dice-real", ROOT.parent / "shared" / "datasets" / "dice-gray"]
#: (source left out, fold of the other sources left out) per run.
RUNS = (("gr", 0), ("mp", 1), ("nb", 2))
MODEL_FILES = (
    "dice_finder.onnx",
    "dice_faces.onnx",
    "dice_faces.json",
    "dice_faces_second.onnx",
    "dice_calibration.json",
)
#: How the second face reader is trained: on the corrected labels, with smaller "part of
#: a die" crops, so that it doubts other dice than the first (tools/dice_model/README.md).
SECOND_RECIPE = ("--label-fixes", "--part-scale", "0.6")
#: The networks of the leave-one-source-out runs, kept so that a change to the reader can
#: be weighed on them without training (``--from-kept``).
KEPT = HERE / "heldout"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, required=True, help="folder for renders, runs and logs")
    ap.add_argument("--dataset", type=Path, nargs="+", default=DATASETS)
    ap.add_argument("--jobs", type=int, default=2, help="trainings at once (each uses one thread)")
    ap.add_argument("--install", action="store_true", help="copy the final models into companion/vision/models")
    ap.add_argument(
        "--from-kept",
        action="store_true",
        help="start from the networks kept in the repository (the shipped ones and those of the "
        "leave-one-source-out runs in tools/dice_model/heldout/) and train only what is missing",
    )
    args = ap.parse_args(argv)
    if args.from_kept:
        _copy_kept(args.work)
    py = sys.executable
    train = [py, str(HERE / "train.py"), "--dataset", *map(str, args.dataset), "--cache", str(args.work / "cache")]
    args.work.mkdir(parents=True, exist_ok=True)
    # each run's name, its held-out photos, and the file it ends by writing
    runs = [
        (f"loso-{s}", ["--holdout-source", s, "--folds", "3", "--fold", str(k)], "predictions.jsonl") for s, k in RUNS
    ]
    runs.append(("final", [], "dice_faces.onnx"))
    jobs = [
        ([*train, "--out", str(args.work / name), *held], args.work / f"{name}.log")
        for name, held, last in runs
        if not (args.work / name / last).exists()
    ]
    # each second reader is mined with its run's finder, so it reads that finder's spots
    seconds = [
        (
            [
                *train,
                "--out",
                str(args.work / f"second-{name}"),
                *held,
                *SECOND_RECIPE,
                "--finder-onnx",
                str(args.work / name / "dice_finder.onnx"),
            ],
            args.work / f"second-{name}.log",
        )
        for name, held, last in runs
        if not (args.work / name / "dice_faces_second.onnx").exists()
        and not (args.work / f"second-{name}" / last).exists()
    ]
    if jobs or seconds:
        # the scenes are rendered once into the cache, then every run reads them
        _run([([*train, "--render-only"], args.work / "render.log")], 1)
    _run(jobs, args.jobs)
    _run(seconds, args.jobs)
    rewrites = []
    for name, held, _ in runs:
        second = args.work / name / "dice_faces_second.onnx"
        if (args.work / f"second-{name}" / "dice_faces.onnx").exists() and not second.exists():
            shutil.copy2(args.work / f"second-{name}" / "dice_faces.onnx", second)
            if held:
                # the held-out photos read again by the pair, as the shipped reader reads them
                cmd = [*train, "--out", str(args.work / name), *held, "--predict-only"]
                rewrites.append((cmd, args.work / f"predict-{name}.log"))
    _run(rewrites, args.jobs)
    final = args.work / "final"
    subprocess.run(
        [
            py,
            str(HERE / "calibrate.py"),
            "--dataset",
            *map(str, args.dataset),
            "--uncalibrated",
            "--write",
            str(final),
            "--",
            *(str(args.work / name) for name, _, _ in runs[:-1]),
        ],
        check=True,
    )
    if args.install:
        target = ROOT / "companion" / "vision" / "models"
        for name in MODEL_FILES:
            shutil.copy2(final / name, target / name)
        print(f"installed the models in {target}")
    return 0


def _copy_kept(work: Path) -> None:
    """Put the shipped networks into WORK/final and each kept held-out run into WORK/NAME
    (files already there are left as they are)."""
    kept = [(ROOT / "companion" / "vision" / "models", work / "final")]
    kept += [(run, work / run.name) for run in sorted(KEPT.glob("loso-*")) if run.is_dir()]
    for src, dst in kept:
        dst.mkdir(parents=True, exist_ok=True)
        for f in src.iterdir():
            if f.is_file() and not (dst / f.name).exists():
                shutil.copy2(f, dst / f.name)


def _run(jobs: list[tuple[list[str], Path]], at_once: int) -> None:
    """Run commands, ``at_once`` at a time, each logging to its file; stop on a failure."""
    pending = list(jobs)
    running: list[tuple[subprocess.Popen[bytes], Path]] = []
    while pending or running:
        while pending and len(running) < at_once:
            cmd, log = pending.pop(0)
            print("running:", " ".join(cmd), ">", log, flush=True)
            with open(log, "wb") as fh:
                running.append(
                    (
                        subprocess.Popen(
                            cmd, stdout=fh, stderr=subprocess.STDOUT, env={**os.environ, "OMP_NUM_THREADS": "1"}
                        ),
                        log,
                    )
                )
        proc, log = running.pop(0)
        if proc.wait() != 0:
            raise SystemExit(f"a training failed; see {log}")


if __name__ == "__main__":
    raise SystemExit(main())
