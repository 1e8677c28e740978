"""Kill `purser play` with SIGKILL at random moments: every reported action survives, none twice."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from companion.games import find_game, resolve_config
from companion.session import TableSession
from companion.store import Store

KILL_POINTS = 30
PLAYERS = ["Ana", "Ben", "Cy"]


def scripted_stream(seed: int, length: int = 60) -> tuple[list[str], list[dict]]:
    """Lines to feed (legal actions with refused ones mixed in) and the actions that are legal."""
    game = find_game("seven")
    rng = random.Random(seed)
    state = game.initial_state(resolve_config(game.RULES), PLAYERS, seed)
    lines, accepted = [], []
    while len(lines) < length and not game.summary(state).over:
        if rng.random() < 0.2:
            lines.append(rng.choice(["{oops", json.dumps({"type": "penalty", "player": "Nobody"})]))
            continue
        action = rng.choice(game.legal_actions(state))
        state, _ = game.apply(state, action)
        lines.append(json.dumps(action))
        accepted.append(action)
    return lines, accepted


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_and_duplicates_nothing(tmp_path):
    rng = random.Random(2024)
    lines, accepted = scripted_stream(seed=7)
    journal_lengths = []
    for point in range(KILL_POINTS):
        db = tmp_path / f"kill{point}.db"
        with Store.open(db) as store:
            sid = TableSession.create(store, "seven", PLAYERS, seed=7).id
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", str(sid), "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(line + "\n" for line in lines).encode())
        proc.stdin.flush()
        # Wait for a random number of result lines, then kill a random moment later:
        # before start-up, between actions, or in the middle of a commit.
        wait_for = rng.randrange(0, len(lines))
        received = [proc.stdout.readline().decode() for _ in range(wait_for)]
        time.sleep(rng.uniform(0, 0.004))
        os.kill(proc.pid, signal.SIGKILL)
        received += proc.stdout.read().decode().splitlines(keepends=True)
        proc.wait()
        proc.stdin.close()
        proc.stdout.close()

        written = [json.loads(r) for r in received if r.endswith("\n")]  # a cut-off line was never written
        reported = [r for r in written if r.get("ok")]
        with Store.open(db) as store:
            journal = store.actions(sid)
            session = TableSession(store, sid)  # the journal still replays
            assert session.cursor == len(journal)
        assert journal == accepted[: len(journal)], "an action was lost, duplicated or reordered"
        assert len(reported) <= len(journal) <= len(reported) + 1, (
            f"{len(reported)} actions were reported but {len(journal)} are stored"
        )
        journal_lengths.append(len(journal))
    # The kill points must really have fallen across the stream, not all at one end.
    assert len(set(journal_lengths)) >= KILL_POINTS // 3
    assert min(journal_lengths) < len(accepted) // 3 and max(journal_lengths) > len(accepted) // 2
