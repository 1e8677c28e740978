"""Score-sheet speed: what a roll, a box table and a whole Swashbuckle turn cost.

    python bench/scoresheet.py [--repeat 7]

Prints medians over ``--repeat`` timed passes:
- options(): the scoring options of one roll on a half-filled Swashbuckle sheet;
- the box table: every box's points for all 252 sorted rolls (what an advisor tabulates);
- a turn: roll, hold and roll, score, through the engine's apply(), plus summary();
- legal_actions() after a first roll (31 holds and the boxes).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games import find_game
from companion.games.scoresheet import Column, counts, options, sheet
from companion.games.scoresheet.dice import all_rolls
from companion.games.scoresheet.rules import PLAIN


def _median_us(fn, inner: int, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times) * 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=7, help="timed passes (the median is printed)")
    args = ap.parse_args()

    swash = sheet("swashbuckle")
    half = Column.empty(swash)
    for key, points in (
        ("ones", 3),
        ("threes", 9),
        ("full_boat", 25),
        ("flotsam", 22),
        ("four_alike", 17),
        ("succession_4", 30),
        ("piracy", 18),
        ("sixes", 18),
    ):
        half = half.fill(swash.index(key), points)
    rolls = all_rolls()
    table_counts = [counts(r) for r in rolls]

    def one_roll() -> None:
        options(swash, [half], (2, 3, 3, 5, 6))

    def box_table() -> None:
        [[b.points(c, PLAIN) for b in swash.boxes] for c in table_counts]

    game = find_game("swashbuckle")
    start = game.initial_state({"who_starts": "seating"}, ["Ana", "Ben", "Cy"], 1)

    def turn() -> None:
        s, _ = game.apply(start, {"type": "roll", "player": "Ana", "dice": [1, 1, 3, 5, 6]})
        s, _ = game.apply(s, {"type": "roll", "player": "Ana", "keep": [1, 1], "dice": [1, 3, 3]})
        s, _ = game.apply(s, {"type": "score", "player": "Ana", "box": "full_boat"})
        game.summary(s)

    rolled, _ = game.apply(start, {"type": "roll", "player": "Ana", "dice": [1, 2, 3, 5, 6]})

    def legal() -> None:
        game.legal_actions(rolled)

    print(f"command: python bench/scoresheet.py --repeat {args.repeat}")
    print(f"options() for one roll, half-filled sheet:  {_median_us(one_roll, 2000, args.repeat):8.1f} us (median)")
    table_ms = _median_us(box_table, 20, args.repeat) / 1000
    print(f"box table, 252 rolls x 16 boxes:            {table_ms:8.2f} ms (median)")
    print(f"a turn: 2 rolls + score + summary():        {_median_us(turn, 200, args.repeat):8.1f} us (median)")
    print(f"legal_actions() after a first roll:         {_median_us(legal, 500, args.repeat):8.1f} us (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
