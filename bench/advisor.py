"""Advisor speed: computing the tables, loading them, and one hint.

    .venv/bin/python bench/advisor.py [--swashbuckle] [--repeat N]

Prints the median of N fresh computations of the Yahtzee table (free joker) and, with
--swashbuckle, one of the Swashbuckle table; the size of each cached file; the time to
load a cached table; and the median time of a hint on random positions. The kernel is
compiled (and cached) before anything is timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.advisor.hint import Advisor
from companion.advisor.table import load_table, table_path
from companion.games.scoresheet import Column, sheet


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--swashbuckle", action="store_true", help="also time the Swashbuckle table (minutes)")
    args = parser.parse_args()
    load_table(sheet("yacht"), directory=Path(tempfile.mkdtemp()))  # compiles the kernel

    yahtzee = sheet("yahtzee", {"joker": "free"})
    times = []
    for _ in range(args.repeat):
        folder = Path(tempfile.mkdtemp())
        table = load_table(yahtzee, directory=folder)
        times.append(table.seconds)
    print(f"yahtzee table: median {statistics.median(times):.2f} s over {args.repeat} (expected {table.expected:.6f})")
    print(f"yahtzee table file: {table_path(yahtzee, folder).stat().st_size / 1e6:.2f} MB")
    start = time.perf_counter()
    load_table(yahtzee, directory=folder)
    print(f"yahtzee table load from cache: {time.perf_counter() - start:.3f} s")

    if args.swashbuckle:
        folder = Path(tempfile.mkdtemp())
        swash = load_table(sheet("swashbuckle"), directory=folder)
        print(f"swashbuckle table: {swash.seconds:.1f} s (expected {swash.expected:.4f})")
        size = table_path(sheet("swashbuckle"), folder).stat().st_size
        print(f"swashbuckle table file: {size / 1e6:.2f} MB; in memory {swash.values.nbytes / 1e6:.1f} MB")
        start = time.perf_counter()
        load_table(sheet("swashbuckle"), directory=folder)
        print(f"swashbuckle table load from cache: {time.perf_counter() - start:.3f} s")

    advisor = Advisor(yahtzee, table=table)
    rng = random.Random(1)
    hints = []
    for _ in range(2000):
        column = Column.empty(yahtzee)
        for i in rng.sample(range(13), rng.randrange(13)):
            column = column.fill(i, rng.choice([0, yahtzee.boxes[i].max_points()]))
        dice = [rng.randint(1, 6) for _ in range(5)]
        start = time.perf_counter()
        advisor.hint(column, dice, rng.randint(0, 2))
        hints.append(time.perf_counter() - start)
    print(f"hint: median {statistics.median(hints) * 1000:.3f} ms over {len(hints)} random positions")


if __name__ == "__main__":
    main()
