"""Make the shipped dice models and their figures in one command.

    python tools/dice_model/reproduce.py --work /tmp/dice-work [--jobs 2]

1. renders the synthetic scenes once into WORK/cache;
2. trains the three leave-one-source-out runs (``train.py --holdout-source S --folds 3
   --fold K`` for S, K = gr 0, mp 1, nb 2), JOBS at a time, each on one thread;
3. prints the per-source figures with the nested calibration (``calibrate.py``);
4. trains the shipped networks on every photo and render into WORK/final, writes the
   calibration fitted on all three runs' unseen-source readings beside them, and, with
   ``--install``, copies them into companion/vision/models.

Every step is seeded, so the same library versions and thread count give the same files.
A step whose output already exists is skipped (delete it to redo it).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATASETS = [ROOT.parent / "shared" / "datasets" / "dice-real", ROOT.parent / "shared" / "datasets" / "dice-gray"]
#: (source left out, fold of the other sources left out) per run.
RUNS = (("gr", 0), ("mp", 1), ("nb", 2))
MODEL_FILES = ("dice_finder.onnx", "dice_faces.onnx", "dice_faces.json", "dice_calibration.json")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--work", type=Path, required=True, help="folder for renders, runs and logs")
    ap.add_argument("--dataset", type=Path, nargs="+", default=DATASETS)
    ap.add_argument("--jobs", type=int, default=2, help="trainings at once (each uses one thread)")
    ap.add_argument("--install", action="store_true", help="copy the final models into companion/vision/models")
    args = ap.parse_args(argv)
    py = sys.executable
    train = [py, str(HERE / "train.py"), "--dataset", *map(str, args.dataset), "--cache", str(args.work / "cache")]
    args.work.mkdir(parents=True, exist_ok=True)
    jobs = []
    for source, fold in RUNS:
        out = args.work / f"loso-{source}"
        if not (out / "predictions.jsonl").exists():
            jobs.append(
                (
                    [*train, "--out", str(out), "--holdout-source", source, "--folds", "3", "--fold", str(fold)],
                    args.work / f"loso-{source}.log",
                )
            )
    final = args.work / "final"
    if not (final / "dice_faces.onnx").exists():
        jobs.append(([*train, "--out", str(final)], args.work / "final.log"))
    if jobs:
        # the first run renders the scenes into the cache; the others wait for it
        _run([jobs[0]], 1)
        _run(jobs[1:], args.jobs)
    runs = [str(args.work / f"loso-{s}") for s, _ in RUNS]
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
            *runs,
        ],
        check=True,
    )
    if args.install:
        target = ROOT / "companion" / "vision" / "models"
        for name in MODEL_FILES:
            shutil.copy2(final / name, target / name)
        (target / "dice_faces_second.onnx").unlink(missing_ok=True)
        print(f"installed the models in {target}")
    return 0


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
                            cmd, stdout=fh, stderr=subprocess.STDOUT, env={**_env(), "OMP_NUM_THREADS": "1"}
                        ),
                        log,
                    )
                )
        proc, log = running.pop(0)
        if proc.wait() != 0:
            raise SystemExit(f"a training failed; see {log}")


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


if __name__ == "__main__":
    raise SystemExit(main())
