"""Time to a stable weight and its spread against the balance's noise (1x-5x the HX711
datasheet) and its rate (10 and 80 SPS).

For each noise and rate, trials drop a random collection of booty (3-8 pieces of 1.5-12 g)
on the simulated pan (ringing, creep, drift, non-linearity as in ``companion.scale.simcell``)
after a tare, and weigh it:

- to stable: from the drop to ``weigh_stable`` returning, on the simulator's clock
  (seconds of the balance's time, whatever this machine's load), and the excess over the
  pan's physical settling (ringing within half an interval);
- sigma: the standard deviation of (weight - true load) over the trials, and the median
  uncertainty the balance stated; "within 2u" is the share of weights within two stated
  uncertainties of the truth (about 95 % when the uncertainty is honest);
- averaging: readings per weighing, as chosen from the measured noise.

The "sim+hum" rows add 0.1 g of 50 Hz mains pickup, which a 10 SPS conversion (five
cycles long) cancels and an 80 SPS one does not.

With ``--firmware`` the same runs through the real firmware in simavr (real time, fewer
trials; the rig's load changes in one step, so there is no physical settling).

    .venv/bin/python bench/scale_noise.py [--trials 30] [--firmware]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from companion.scale import open_scale

NOISES = (1, 2, 3, 4, 5)
RATES = (10, 80)
#: Mains pickup for the "sim+hum" rows: 0.1 g of 50 Hz on the cell's wires.
HUM_G = 0.1


def collection(rng: random.Random) -> list[float]:
    return [round(rng.uniform(1.5, 12.0), 2) for _ in range(rng.randint(3, 8))]


def sim_trials(times: int, rate: int, trials: int, seed: int, hum: float = 0.0) -> dict[str, float]:
    rng = random.Random(seed)
    to_stable, excess, errors, stated, averaging = [], [], [], [], []
    for trial in range(trials):
        scale = open_scale(f"sim://?clock=virtual&seed={seed * 1000 + trial}&noise={times}x&rate={rate}&hum={hum}")
        scale.tare(timeout=30.0)
        scale.advance(rng.uniform(0.0, 0.5))
        pieces = collection(rng)
        scale.place(pieces)
        t0 = scale.now()
        physical = scale.settling_time(0.5 * scale.calibration(0).interval_g)
        w = scale.weigh_stable(timeout=30.0)
        to_stable.append(scale.now() - t0)
        excess.append(scale.now() - t0 - physical)
        errors.append(w.grams - sum(pieces))
        stated.append(w.uncertainty_g)
        averaging.append(w.samples)
        scale.close()
    return _summary(to_stable, excess, errors, stated, averaging)


def firmware_trials(times: int, rate: int, trials: int, seed: int) -> dict[str, float]:
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository, for its test rig
    from tests.support.firmware_rig import FirmwareBench

    rng = random.Random(seed)
    to_stable, errors, stated, averaging = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        bench = FirmwareBench(Path(tmp), rate=rate, noise=float(times), seed=seed)
        try:
            bench.scale.tare(timeout=30.0)
            for _ in range(trials):
                pieces = collection(rng)
                bench.place(sum(pieces))
                t0 = time.monotonic()
                w = bench.scale.weigh_stable(timeout=30.0)
                to_stable.append(time.monotonic() - t0)
                errors.append(w.grams - sum(pieces))
                stated.append(w.uncertainty_g)
                averaging.append(w.samples)
                bench.clear()
                time.sleep(0.5 if rate == 80 else 1.0)
        finally:
            bench.close()
    return _summary(to_stable, to_stable, errors, stated, averaging)


def _summary(
    to_stable: list[float], excess: list[float], errors: list[float], stated: list[float], averaging: list[int]
) -> dict[str, float]:
    within = sum(abs(e) <= 2 * u for e, u in zip(errors, stated, strict=False)) / len(errors)
    return {
        "to_stable": statistics.median(to_stable),
        "excess": statistics.median(excess),
        "sigma": statistics.pstdev(errors),
        "bias": statistics.mean(errors),
        "stated": statistics.median(stated),
        "within2u": within,
        "averaging": statistics.median(averaging),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--firmware", action="store_true", help="also through the firmware in simavr (slow)")
    parser.add_argument("--firmware-trials", type=int, default=6)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print(f"medians over {args.trials} collections per row (simulator, its own clock)")
    header = (
        f"  {'bench':<9}{'rate':>5}{'noise':>7}   {'to stable':>9} {'excess':>7}   {'sigma':>7} {'bias':>8} "
        f"{'stated u':>8} {'within 2u':>9}   {'averaging':>9}"
    )
    print(header)
    rows = [("sim", rate, times, sim_trials(times, rate, args.trials, args.seed)) for rate in RATES for times in NOISES]
    rows += [("sim+hum", rate, 1, sim_trials(1, rate, args.trials, args.seed, hum=HUM_G)) for rate in RATES]
    if args.firmware:
        rows += [
            ("firmware", rate, times, firmware_trials(times, rate, args.firmware_trials, args.seed))
            for rate in RATES
            for times in (1, 5)
        ]
    for bench, rate, times, r in rows:
        print(
            f"  {bench:<9}{rate:>5}{times:>6}x   {r['to_stable']:8.3f}s {r['excess']:6.3f}s   {r['sigma']:6.4f}g "
            f"{r['bias']:+7.4f}g {r['stated']:7.4f}g {100 * r['within2u']:8.0f}%   {r['averaging']:9.0f}"
        )
    by = {(b, rate, times): r for b, rate, times, r in rows}
    faster = all(by[("sim", 80, t)]["to_stable"] <= by[("sim", 10, t)]["to_stable"] for t in NOISES)
    tighter = sum(by[("sim", 80, t)]["sigma"] <= by[("sim", 10, t)]["sigma"] for t in NOISES)
    print(
        f"80 SPS is faster to a stable weight at every noise: {'yes' if faster else 'no'}; "
        f"its spread is at most 10 SPS's at {tighter} of {len(NOISES)} noise levels"
    )
    hum10, hum80 = by[("sim+hum", 10, 1)], by[("sim+hum", 80, 1)]
    print(f"with {HUM_G:g} g of 50 Hz hum: spread {hum10['sigma']:.4f} g at 10 SPS, {hum80['sigma']:.4f} g at 80 SPS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
