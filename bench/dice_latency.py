"""Dice reader latency: median milliseconds per 640x640 photo on one core.

    python bench/dice_latency.py [DATASET_DIR] [--repeat 3] [--models DIR] [--backend NAME]

Uses the 640x640 photos of DATASET_DIR/images (default: ../shared/datasets/dice-real
beside the repository), or 60 synthetic 640x640 renders when there is no such folder.
OpenCV, OpenMP and BLAS are limited to one thread. Decoding the JPEG is timed
separately from read_dice. Both wall-clock and CPU time are printed: on a busy
machine the CPU time is the better measure of what one free core would take. When the
models have a second face reader, each photo is also read without its opinion, just
after, and the median of the paired differences is printed: what the second opinion
costs, free of the drift between runs. Last, each network's time under each inference
backend installed (ONNX Runtime, OpenCV's DNN engines): the face reader per crop, the
finder per 320 px look.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.vision.inference import OpenCVNetwork, available_backends, load_network  # noqa: E402
from companion.vision.preprocess import CROP_PX  # noqa: E402
from companion.vision.reader import FACE_FILE, FINDER_FILE, MODELS_DIR, SECOND_FACE_FILE, DiceReader  # noqa: E402
from companion.vision.render import render_scene  # noqa: E402

DEFAULT_DATASET = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "dice-real"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dataset", nargs="?", type=Path, default=DEFAULT_DATASET)
    ap.add_argument("--repeat", type=int, default=3, help="timed passes over the photos")
    ap.add_argument("--models", type=Path, default=MODELS_DIR, help="models folder (default: the shipped ones)")
    ap.add_argument("--backend", choices=available_backends(), help="inference backend (default: the fastest)")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    files = sorted((args.dataset / "images").glob("*.jpg")) if (args.dataset / "images").is_dir() else []
    blobs = [np.fromfile(str(f), np.uint8) for f in files]
    images = [cv2.imdecode(b, cv2.IMREAD_COLOR) for b in blobs]
    keep = [i for i, im in enumerate(images) if im.shape[:2] == (640, 640)]
    if keep:
        what = f"{len(keep)} photos of 640x640 from {args.dataset}"
        images, blobs = [images[i] for i in keep], [blobs[i] for i in keep]
    else:
        what = "60 synthetic 640x640 renders"
        images = [render_scene(s, 640, 640).image for s in range(60)]
        blobs = [cv2.imencode(".jpg", im)[1] for im in images]
    reader = DiceReader(args.models, backend=args.backend)
    paired = (args.models / SECOND_FACE_FILE).exists()
    alone = DiceReader(args.models, settings=replace(reader.settings, second_opinion=False), backend=args.backend)
    for im in images[:5]:
        reader.read(im)  # warm up
        alone.read(im)
    read_ms, cpu_ms, decode_ms, dice, extra_ms = [], [], [], [], []
    for _ in range(args.repeat):
        for im, blob in zip(images, blobs, strict=True):
            t0 = time.perf_counter()
            cv2.imdecode(blob, cv2.IMREAD_COLOR)
            t1 = time.perf_counter()
            c1 = time.process_time()
            det = reader.read(im)
            c2 = time.process_time()
            t2 = time.perf_counter()
            decode_ms.append((t1 - t0) * 1000)
            read_ms.append((t2 - t1) * 1000)
            cpu_ms.append((c2 - c1) * 1000)
            dice.append(len(det))
            if paired:
                t3 = time.perf_counter()
                alone.read(im)
                extra_ms.append((t2 - t1 - (time.perf_counter() - t3)) * 1000)
    print(f"command: python {' '.join(sys.argv)}")
    print(f"input: {what}, {args.repeat} passes, cv2 threads {cv2.getNumThreads()}, backend {reader.backend}")
    print(
        f"read_dice median {np.median(read_ms):.1f} ms, p90 {np.percentile(read_ms, 90):.1f} ms, "
        f"max {max(read_ms):.1f} ms (median {np.median(dice):.0f} dice per photo)"
    )
    print(
        f"read_dice CPU time median {np.median(cpu_ms):.1f} ms (what one core spends, whatever else "
        f"runs on the machine; wall time above includes waiting for a shared core)"
    )
    if paired:
        print(
            f"second opinion: median {np.median(extra_ms):.2f} ms more per photo than reading without it "
            f"(paired), mean {np.mean(extra_ms):.2f} ms"
        )
    else:
        print("no second face reader in the models: every die is read by one face reader")
    print(f"JPEG decode median {np.median(decode_ms):.1f} ms (not part of read_dice)")
    print(backend_times(args.models))
    return 0


def backend_times(models: Path, batch: int = 6, passes: int = 200) -> str:
    """Median CPU ms of the face reader per crop (batches of ``batch``) and of the finder
    per 320x320 look, under each inference backend installed and OpenCV DNN engine."""
    crops = np.random.default_rng(0).standard_normal((batch, 3, CROP_PX, CROP_PX)).astype(np.float32)
    frame = np.random.default_rng(1).random((1, 3, 320, 320), dtype=np.float32)
    runners = {
        b: (load_network(models / FACE_FILE, b), load_network(models / FINDER_FILE, b, any_size=True))
        for b in available_backends()
    }
    if hasattr(cv2.dnn, "ENGINE_NEW"):  # "opencv" above runs the faces on the classic engine
        runners["opencv new engine"] = (OpenCVNetwork(models / FACE_FILE, "new"), runners["opencv"][1])
    lines = [f"CPU time by backend (face reader per crop in batches of {batch}; finder per 320x320 look):"]
    for label, (faces, finder) in runners.items():
        face_ms, finder_ms = [], []
        for _ in range(passes):
            t0 = time.process_time()
            faces.run(crops)
            t1 = time.process_time()
            finder.run(frame)
            finder_ms.append((time.process_time() - t1) * 1000)
            face_ms.append((t1 - t0) * 1000 / batch)
        lines.append(f"  {label}: faces {np.median(face_ms):.3f} ms/crop, finder {np.median(finder_ms):.2f} ms")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
