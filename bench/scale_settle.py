"""Time from a collection being placed to its stable weight, at 10 and 80 SPS.

For each trial a random collection of booty (3-8 pieces of 1.5-12 g) is dropped on the
pan; the time until ``weigh_stable`` returns is compared with the physical settling time
(until the pan's ringing stays within half a scale interval, from the cell model).
Goal: within 1.0 s of the physical settling at 80 SPS. Real time, on the simulator and
through the real firmware in simavr (the rig is built by make on first use): at 10 SPS
both when the balance is asked for it (RATE,10) and when the amplifier board's RATE input
is strapped to 10 SPS while the firmware is left at 80 ("strapped").

    .venv/bin/python bench/scale_settle.py [--trials 10] [--no-firmware]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from companion.scale import ScaleError, open_scale


def collection(rng: random.Random) -> list[float]:
    return [round(rng.uniform(1.5, 12.0), 2) for _ in range(rng.randint(3, 8))]


def sim_trials(rate: int, trials: int, seed: int) -> tuple[list[float], list[float], list[float]]:
    """(time to stable, physical settling, weight error) per trial on the real-clock simulator."""
    rng = random.Random(seed)
    scale = open_scale(f"sim://?rate={rate}&seed={seed}")
    scale.tare()
    tol = 0.5 * scale.calibration(0).interval_g
    to_stable, physical, errors = [], [], []
    for _ in range(trials):
        pieces = collection(rng)
        scale.place(pieces)
        t0 = time.monotonic()
        settle = scale.settling_time(tol)
        w = scale.weigh_stable(timeout=30.0)
        to_stable.append(time.monotonic() - t0)
        physical.append(settle)
        errors.append(abs(w.grams - sum(pieces)))
        scale.clear()
        time.sleep(1.5)
    scale.close()
    return to_stable, physical, errors


def firmware_trials(
    rate: int, trials: int, seed: int, strapped: bool = False
) -> tuple[list[float], list[float], list[float]]:
    """The same through the firmware in simavr. The rig's emulated load changes in one
    step, so the physical settling there is zero and all the time is the balance's."""
    import tempfile
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for its test rig
    from tests.support.firmware_rig import FirmwareBench

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        bench = FirmwareBench(Path(tmp), rate=rate, strapped=strapped)
        try:
            bench.scale.tare(timeout=30.0)
            to_stable, physical, errors = [], [], []
            for _ in range(trials):
                pieces = collection(rng)
                bench.place(sum(pieces))
                t0 = time.monotonic()
                w = bench.scale.weigh_stable(timeout=30.0)
                to_stable.append(time.monotonic() - t0)
                physical.append(0.0)
                errors.append(abs(w.grams - sum(pieces)))
                bench.clear()
                time.sleep(1.0)
        finally:
            bench.close()
    return to_stable, physical, errors


def report(name: str, rate: int, result: tuple[list[float], list[float], list[float]]) -> float:
    to_stable, physical, errors = result
    excess = [a - b for a, b in zip(to_stable, physical)]
    print(
        f"  {name:<17} {rate:2d} SPS  to stable {statistics.median(to_stable):.3f} s   physical settling "
        f"{statistics.median(physical):.3f} s   excess {statistics.median(excess):.3f} s (max {max(excess):.3f})   "
        f"|error| {statistics.median(errors):.4f} g"
    )
    return statistics.median(excess)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-firmware", action="store_true", help="only the simulator")
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"medians over {args.trials} collections; goal: excess <= 1.0 s at 80 SPS")
    for rate in (10, 80):
        excess = report("sim", rate, sim_trials(rate, args.trials, args.seed))
        if rate == 80:
            print(f"  sim 80 SPS {'meets' if excess <= 1.0 else 'MISSES'} the goal")
    if not args.no_firmware:
        for rate, strapped in ((10, False), (10, True), (80, False)):
            name = "firmware strapped" if strapped else "firmware"
            try:
                result = firmware_trials(rate, args.trials, args.seed, strapped)
            except ScaleError as exc:
                print(f"  {name:<17} {rate:2d} SPS  no figure: {exc}")
                continue
            excess = report(name, rate, result)
            if rate == 80:
                print(f"  firmware 80 SPS {'meets' if excess <= 1.0 else 'MISSES'} the goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
