"""Two `purser play` processes on one game, as two terminals would be.

Each process holds its own view of the game. Whatever order their writes reach the
database in, a write made from a view the other process has overtaken is refused (also
after an undo and a different move, which brings the count of actions back: ABA), the
refused process re-reads the game and goes on, and the game always replays.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from companion.errors import ExitCode
from companion.session import TableSession
from companion.store import Store
from tests.support.cli import PurserCLI

PLAYERS = ["Ana", "Ben", "Cy"]


class Terminal:
    """One `purser play` process, fed and read line by line."""

    def __init__(self, cli: PurserCLI, sid: int) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", str(sid)],
            env=cli.env(),
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )

    def send(self, action: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(action) + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"purser play ended: {self.proc.stderr.read() if self.proc.stderr else ''}"
        return json.loads(line)

    def play(self, action: dict) -> dict:
        self.send(action)
        return self.answer()

    def close(self) -> tuple[int, str]:
        assert self.proc.stdin is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=60)
        err = self.proc.stderr.read()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream:
                stream.close()
        return code, err


@pytest.fixture
def terminals(tmp_path):
    cli = PurserCLI(tmp_path / "p.db", in_process=True)
    sid = cli.new("seven", PLAYERS, seed=3)
    opened: list[Terminal] = []

    def open_terminal() -> Terminal:
        opened.append(Terminal(cli, sid))
        return opened[-1]

    yield cli, sid, open_terminal
    for t in opened:
        if t.proc.poll() is None:
            t.proc.kill()
            t.proc.wait()


def test_the_two_terminal_sequence_refuses_the_stale_move(terminals):
    cli, sid, open_terminal = terminals
    t1 = open_terminal()
    assert t1.play({"type": "play", "player": "Ana", "total": 3})["seq"] == 1
    cli.run("undo", str(sid))
    cli.play_ok(sid, [{"type": "play", "player": "Ana", "total": 5}])  # back to one action: ABA

    refused = t1.play({"type": "play", "player": "Ben", "total": 4})  # legal only on the 3 t1 saw
    assert refused["ok"] is False and refused["error"] == "stale"
    assert "move 1 (play by Ana)" in refused["message"] and "Nothing was saved" in refused["message"]
    assert refused["seq"] == 1 and "the pile shows 5" in refused["prompt"]  # t1 re-read the game
    # t1 goes on from the game as it now stands
    assert t1.play({"type": "play", "player": "Ben", "total": 6})["seq"] == 2
    assert t1.close() == (ExitCode.STALE, "")  # a line was refused: the first refusal's code

    shown = cli.show(sid, history=5)
    assert [h["action"].get("total") for h in shown["history"]] == [5, 6]
    cli.run("export", str(sid))


def test_an_undo_from_an_overtaken_view_takes_back_nothing(terminals):
    cli, sid, open_terminal = terminals
    t1 = open_terminal()
    assert t1.play({"type": "play", "player": "Ana", "total": 3})["ok"]
    cli.play_ok(sid, [{"type": "play", "player": "Ben", "total": 4}])
    refused = t1.play({"type": "undo"})  # t1 would take back Ben's move without having seen it
    assert refused["error"] == "stale" and "move 2 (play by Ben) was played" in refused["message"]
    assert cli.show(sid)["cursor"] == 2
    assert t1.play({"type": "undo"})["undone"] == 2  # now it has seen it
    assert t1.close()[0] == ExitCode.STALE


def test_racing_writes_exactly_one_of_each_pair_is_saved(terminals):
    """Both terminals see the same game and write at the same moment, round after round,
    with undos and moves mixed: one write wins, the other is refused and re-reads."""
    cli, sid, open_terminal = terminals
    a, b = open_terminal(), open_terminal()
    # Each terminal reads the game when it starts; an undo on the fresh game is refused
    # without writing, and its answer proves the terminal has read the game before the race.
    for t in (a, b):
        assert t.play({"type": "undo"})["error"] == "illegal"
    rng = random.Random(11)
    first = {a: ExitCode.ILLEGAL, b: ExitCode.ILLEGAL}
    with Store.open(cli.db) as store:
        for _ in range(12):
            session = TableSession(store, sid)
            legal = session.legal_actions()
            if not legal:
                break
            moves = [rng.choice(legal), rng.choice(legal)]
            if session.can_undo and rng.random() < 0.3:
                moves[rng.randrange(2)] = {"type": "undo"}
            a.send(moves[0])
            b.send(moves[1])  # both in flight at once
            answers = [a.answer(), b.answer()]
            kinds = sorted("ok" if x["ok"] else x["error"] for x in answers)
            assert kinds == ["ok", "stale"], answers
            after = TableSession(store, sid)  # the game replays after every round
            assert after.cursor == session.cursor + (1 if any(x.get("seq") for x in answers if x["ok"]) else -1)
    assert [t.close()[0] for t in (a, b)] == [first[a], first[b]]  # the first refusal's code
