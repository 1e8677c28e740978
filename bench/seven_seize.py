"""7 Seize: engine speed, and how the weigh-off's tie rule behaves on the simulated balance.

1. Engine: median time to apply one action, to list the legal actions and build the
   summary, and to replay a whole 7-player game's journal (what undo and resume cost).
2. Weigh-off calls: pairs of collections weighed on the simulated 1 kg cell (virtual
   clock, datasheet noise); for each true difference, the share of contests the rule
   calls a tie (remove a piece and re-weigh) rather than a clear win. With equal loads a
   clear call is a call decided by noise: by design at most 1 - confidence (5 %).

    .venv/bin/python bench/seven_seize.py [--games 20] [--pairs 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from companion.games import resolve_config
from companion.games import seven_seize as game
from companion.games.weighoff import Reading, compare
from companion.scale import open_scale
from companion.session.replay import replay

PLAYERS = [f"P{i}" for i in range(7)]


def random_journal(seed: int) -> tuple[dict, list[dict]]:
    """A complete random legal 7-player game: its config and journal."""
    rng = random.Random(seed)
    config = resolve_config(game.RULES, {})
    state = game.initial_state(config, PLAYERS, seed)
    journal = []
    while actions := game.legal_actions(state):
        action = rng.choice(actions)
        if "from" in action:
            action = {"type": "weigh", "player": action["player"], "grams": rng.uniform(50, 150)}
        state, _ = game.apply(state, action)
        journal.append(action)
    return config, journal


def engine(games: int) -> None:
    apply_s, view_s, replay_s, lengths = [], [], [], []
    for seed in range(games):
        config, journal = random_journal(seed)
        lengths.append(len(journal))
        state = game.initial_state(config, PLAYERS, seed)
        for action in journal:
            t0 = time.perf_counter()
            game.legal_actions(state)
            game.summary(state)
            t1 = time.perf_counter()
            state, _ = game.apply(state, action)
            t2 = time.perf_counter()
            view_s.append(t1 - t0)
            apply_s.append(t2 - t1)
        t0 = time.perf_counter()
        replay(game, config, PLAYERS, seed, journal)
        replay_s.append(time.perf_counter() - t0)
    print(f"engine, {games} random 7-player games (median {statistics.median(lengths):.0f} actions each):")
    print(f"  apply one action:              median {statistics.median(apply_s) * 1e6:8.1f} us")
    print(f"  legal actions + summary:       median {statistics.median(view_s) * 1e6:8.1f} us")
    print(f"  replay a whole game's journal: median {statistics.median(replay_s) * 1e3:8.1f} ms")


def calls(pairs: int) -> None:
    print(f"weigh-off calls on sim:// (1 kg cell, 80 SPS, datasheet noise), {pairs} pairs of ~120 g each, 95 %:")
    scale = open_scale("sim://?clock=virtual&seed=11")
    scale.tare()
    rng = random.Random(5)
    for diff in (0.0, 0.05, 0.1, 0.2, 0.5):
        ties, us = 0, []
        for _ in range(pairs):
            base = rng.uniform(100.0, 140.0)
            readings = []
            for load in (base, base + diff):
                scale.place(load)
                w = scale.weigh_stable(timeout=30.0)
                scale.clear()
                scale.advance(1.0)
                readings.append(Reading(w.grams, w.uncertainty_g))
                us.append(w.uncertainty_g)
            ties += compare(readings[0], readings[1], 0.95).outcome == "tie"
        print(
            f"  true difference {diff:4.2f} g: tie {ties / pairs:6.1%}, clear {1 - ties / pairs:6.1%} "
            f"(median u {statistics.median(us):.3f} g per weighing)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=50)
    args = parser.parse_args()
    print(f"command: {' '.join([sys.executable.split('/')[-1], *sys.argv])}")
    engine(args.games)
    calls(args.pairs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
