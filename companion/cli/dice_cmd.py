"""`purser dice`: read dice from photos, watch a camera for rolls, score the reader."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.cli.common import print_json
from companion.vision.errors import VisionError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dice`` command and its sub-commands."""
    p = sub.add_parser("dice", help="read dice from photos or a camera, and score the dice reader")
    dsub = p.add_subparsers(dest="dice_command", metavar="SUBCOMMAND", required=True)

    r = dsub.add_parser("read", help="read the dice in one or more photos")
    r.add_argument("images", nargs="+", metavar="IMAGE", help="photo files (JPEG, PNG, ...)")
    r.add_argument("--json", action="store_true", help="print one JSON line per photo")
    r.add_argument(
        "--annotate", metavar="OUT.png", help="save a copy with the dice marked (a folder when reading several photos)"
    )
    _add_reader_options(r)
    r.set_defaults(func=run_read)

    w = dsub.add_parser("watch", help="watch a camera and read each roll once the dice settle")
    w.add_argument(
        "--camera",
        default="sim://?still=15&tumble=5",
        help="camera address: sim://..., cv://0, file://VIDEO (default: %(default)s)",
    )
    w.add_argument("--rolls", type=int, default=0, help="stop after this many rolls (default: run until the end)")
    w.add_argument("--frames", type=int, default=0, help="stop after this many frames (default: no limit)")
    w.add_argument(
        "--fps",
        type=float,
        default=0.0,
        help="frame rate for timing stillness in recordings and the simulator (default: real time)",
    )
    _add_reader_options(w)
    w.set_defaults(func=run_watch)

    e = dsub.add_parser("eval", help="score the reader on labelled photos (labels.jsonl + images/)")
    e.add_argument("dataset", metavar="DATASET_DIR", help="folder with labels.jsonl and the photos it names")
    e.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    _add_reader_options(e)
    e.set_defaults(func=run_eval)


def _add_reader_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--tray",
        metavar="X0,Y0,X1,Y1",
        help="only read dice inside this part of the picture (fractions 0-1; or x,y;x,y;... corners; "
        "or 'auto': look for the tray holding the dice in each picture)",
    )
    p.add_argument(
        "--unsure-below",
        type=float,
        metavar="P",
        help="flag dice read with less confidence than P (0-1) as unsure "
        "(default: the threshold calibrated with the models on photos they never saw)",
    )


def _reader(args: argparse.Namespace) -> Any:
    from companion.vision.reader import DiceReader, ReaderSettings

    auto = args.tray == "auto"
    if args.unsure_below is None and not auto:
        return None
    if args.unsure_below is not None and not 0.0 <= args.unsure_below <= 1.0:
        raise VisionError("--unsure-below must be a probability from 0 to 1")
    return DiceReader(settings=ReaderSettings(unsure_below=args.unsure_below, auto_tray=auto))


def _tray(args: argparse.Namespace) -> Any:
    from companion.vision.tray import Tray

    return Tray.parse(args.tray) if args.tray and args.tray != "auto" else None


def run_read(args: argparse.Namespace) -> int:
    """Read each photo; one line (or JSON line) per photo. Exit 1 if any photo failed."""
    from companion.vision.annotate import annotate
    from companion.vision.reader import read_dice
    from companion.vision.sources import read_image

    reader, tray = _reader(args), _tray(args)
    out_dir: Path | None = None
    if args.annotate and len(args.images) > 1:
        out_dir = Path(args.annotate)
        out_dir.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in args.images:
        try:
            image = read_image(name)
            det = read_dice(image, tray=tray, reader=reader)
        except VisionError as exc:
            print(f"purser: {exc}", file=sys.stderr)
            failed += 1
            continue
        if args.annotate:
            target = out_dir / (Path(name).stem + ".png") if out_dir else Path(args.annotate)
            annotate(image, det, tray=tray, path=target)
        if args.json:
            print_json({"image": name, **det.to_json()})
        else:
            faces = " ".join(f"{d.value}?" if d.unsure else str(d.value) for d in det) or "no dice"
            note = f"  ({det.unsure_count} unsure: confirm the dice marked ?)" if det.unsure_count else ""
            if det.unreadable_count:
                note += f"  ({det.unreadable_count} could not be read)"
            print(f"{name}: {faces}{note}")
    return 1 if failed else 0


def run_watch(args: argparse.Namespace) -> int:
    """Print one JSON line per settled roll."""
    from companion.vision.roll import RollWatcher
    from companion.vision.sources import open_source

    rolls = frames = 0
    with open_source(args.camera) as source:
        watcher = RollWatcher(reader=_reader(args), tray=_tray(args) or source.tray)
        t0 = time.monotonic()
        for frame in source.frames():
            t = frames / args.fps if args.fps > 0 else time.monotonic() - t0
            frames += 1
            reading = watcher.feed(frame, t)
            if reading is not None:
                rolls += 1
                print_json({"roll": rolls, "frame": frames - 1, "t": round(t, 3), **reading.detections.to_json()})
                if args.rolls and rolls >= args.rolls:
                    break
            if args.frames and frames >= args.frames:
                break
    return 0


def run_eval(args: argparse.Namespace) -> int:
    """Read every labelled photo, match readings to labels and print the figures."""
    from companion.vision.evaluate import Reading, format_scores, load_labels, match, score_by_group
    from companion.vision.reader import default_reader, read_dice
    from companion.vision.sources import read_image

    dataset = Path(args.dataset)
    labels = load_labels(dataset)
    reader, tray = _reader(args), _tray(args)
    read_dice(read_image_or_blank(), reader=reader or default_reader())  # load the models before timing
    results = []
    for lab in labels:
        image = read_image(dataset / lab.image)
        t0 = time.perf_counter()
        det = read_dice(image, tray=tray, reader=reader)
        seconds = time.perf_counter() - t0
        readings = [Reading(d.value, d.box, d.unsure, d.confidence) for d in det]
        result = match(lab, readings)
        result.seconds = seconds
        results.append(result)
    scores = score_by_group(results)
    if args.json:
        print(json.dumps({name: s.to_json() for name, s in scores.items()}))
        return 0
    for name, s in scores.items():
        print(format_scores(name, s))
        print()
    print(
        "Latency is the time read_dice takes per photo (decoding the file not included), "
        "on however many threads OpenCV uses here."
    )
    return 0


def read_image_or_blank() -> Any:
    """A plain grey frame, to load the networks before anything is timed."""
    import numpy as np

    return np.full((480, 640, 3), 128, np.uint8)
