"""Repeatability of the balance: standard deviation of 20 weighings of the same load.

The simulated 1 kg cell with HX711 datasheet noise (and its default drift, creep and
bow); each weighing puts the load on the pan, weighs it, and takes it off again, as at a
weigh-off. Goal: at most 0.05 g. Runs on the simulator's virtual clock (no timing here).

    .venv/bin/python bench/scale_repeatability.py [--weighings 20] [--seeds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from companion.scale import open_scale


def run(rate: int, load: float, weighings: int, seed: int) -> float:
    """Standard deviation (g) of ``weighings`` weighings of ``load`` grams."""
    scale = open_scale(f"sim://?clock=virtual&rate={rate}&seed={seed}")
    scale.tare()
    results = []
    for _ in range(weighings):
        scale.place(load)
        results.append(scale.weigh_stable(timeout=30.0).grams)
        scale.clear()
        scale.advance(1.0)
    return statistics.stdev(results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weighings", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=5, help="repeat with this many seeds and report the median")
    args = parser.parse_args()
    print(f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    print(f"std dev of {args.weighings} weighings, median over {args.seeds} seeds (goal <= 0.05 g)")
    worst = 0.0
    for rate in (10, 80):
        for load in (5.0, 50.0, 200.0, 500.0):
            sds = [run(rate, load, args.weighings, seed) for seed in range(args.seeds)]
            med = statistics.median(sds)
            worst = max(worst, med)
            print(f"  {rate:2d} SPS  {load:6.1f} g   median sd {med:.4f} g   (max {max(sds):.4f} g)")
    print(f"worst median: {worst:.4f} g -> {'meets' if worst <= 0.05 else 'MISSES'} the 0.05 g goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
