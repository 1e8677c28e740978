"""7 Seize: what checking each weigh-off reading against the pieces on the pan costs.

Prints the median time to list the legal weigh actions of a domino weigh-off (every pip
count the dominoes can show, each one checked) and to apply one typed weighing in grams.

    .venv/bin/python bench/weighoff_checks.py [--repeat 50]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.games import resolve_config
from companion.games import seven_seize as game
from companion.games.seven_seize.phases import start_weighoff


def weighoff(**rules: Any) -> Any:
    """A 3-player weigh-off with collections of 20, 15 and 14 pieces."""
    state = game.initial_state(resolve_config(game.RULES, rules), ("Ana", "Ben", "Cy"), 1)
    return start_weighoff(replace(state, collections=(20, 15, 14), bag=0, round=7), [])


def median_s(call: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    print(f"command: python bench/weighoff_checks.py --repeat {args.repeat}")
    first = weighoff(booty="dominoes")
    second, _ = game.apply(first, {"type": "weigh", "player": "Ana", "pips": 170})
    for label, state in (("first count", first), ("second count", second)):
        listed = len(game.legal_actions(state))
        t = median_s(lambda s=state: game.legal_actions(s), args.repeat)
        print(f"  dominoes, {label}: {listed} pip counts listed, legal actions median {t * 1e3:6.2f} ms")
    grams, _ = game.apply(weighoff(), {"type": "weigh", "player": "Ana", "grams": 80.0})
    t = median_s(lambda: game.apply(grams, {"type": "weigh", "player": "Ben", "grams": 60.0}), args.repeat * 4)
    print(f"  grams, one typed weighing checked and applied: median {t * 1e6:6.1f} us")


if __name__ == "__main__":
    main()
