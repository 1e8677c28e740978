"""Nothing shown is ever lost: the app killed with SIGKILL mid-game offers to resume on the
next start and shows the same game, where it stood."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


class AppProcess:
    """The app in a subprocess (tests/ui/app_process.py), driven line by line."""

    def __init__(self, db: Path) -> None:
        env = dict(os.environ)
        env.pop("DISPLAY", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.ui.app_process", str(db)],
            cwd=ROOT,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.first = self._read()

    def _read(self) -> dict:
        line = self.proc.stdout.readline()
        if not line:
            raise AssertionError(f"the app process ended (status {self.proc.wait(timeout=30)})")
        return json.loads(line)

    def send(self, **command) -> dict:
        self.proc.stdin.write(json.dumps(command) + "\n")
        self.proc.stdin.flush()
        reply = self._read()
        assert reply["ok"], reply.get("error")
        return reply

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        assert self.proc.returncode == -signal.SIGKILL


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "purser.db"


def test_killed_mid_game_then_reopened_offers_resume_with_the_same_state(db, shots):
    first = AppProcess(db)
    try:
        assert first.first["screen"] == "home"
        first.send(tap="new:seven")
        for name in ("Ana", "Ben"):
            first.send(type=["new_name", name])
            first.send(tap="add_player")
        first.send(tap="start")
        first.send(tap="play:4:hole")
        first.send(tap="play:1:number")
        shown = first.send(tap="play:6:hole")
        first.send(shot=str(shots / "resume-before-kill.png"))
    finally:
        first.kill()
    assert shown["screen"] == "seven"
    assert "Ben" in shown["prompt"] and "6" in shown["prompt"]

    second = AppProcess(db)
    try:
        home = second.first
        assert home["screen"] == "home"
        assert "Continue where you left off?" in home["texts"]
        assert shown["prompt"] in home["texts"]  # the offer says where the game stands
        second.send(tap="offer:resume")
        again = second.send(tap="history")
        second.send(shot=str(shots / "resume-after-restart.png"))
    finally:
        second.kill()
    assert again["screen"] == "seven"
    assert again["prompt"] == shown["prompt"]
    for line in (
        "Ana lays a 4; the pile shows 4.",
        "Ben lays a 1; the pile shows 5.",
        "Ana lays a 6; the pile shows 6.",
    ):
        assert line in again["texts"]
