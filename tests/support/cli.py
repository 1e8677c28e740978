"""Run the real `purser` command line in a subprocess against a throw-away database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PurserFailed(AssertionError):
    """A purser command exited with an unexpected status."""


@dataclass
class PurserCLI:
    """The command line with ``--db`` fixed to ``db``: ``python -m companion ...``."""

    db: Path

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PURSER_DB"] = str(self.db)
        return env

    def run(self, *args: str, input: str | None = None, expect: int | None = 0, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run ``purser ARGS``; fails the test if the exit status is not ``expect`` (None: any)."""
        result = subprocess.run(
            [sys.executable, "-m", "companion", *args],
            input=input, capture_output=True, text=True, env=self.env(), timeout=timeout,
        )
        if expect is not None and result.returncode != expect:
            raise PurserFailed(
                f"purser {' '.join(args)} exited {result.returncode}, expected {expect}\n"
                f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
            )
        return result

    def new(self, game: str, players: Iterable[str], rules: Mapping[str, Any] | None = None,
            seed: int = 1, scale: str | None = None, camera: str | None = None) -> int:
        """Start a session; returns its id."""
        args = ["new", game, "--players", ",".join(players), "--seed", str(seed)]
        for key, value in (rules or {}).items():
            args += ["--rule", f"{key}={value}"]
        if scale:
            args += ["--scale", scale]
        if camera:
            args += ["--camera", camera]
        return int(self.run(*args).stdout.strip())

    def play(self, session: int | str, actions: Iterable[Mapping[str, Any] | str]) -> list[dict[str, Any]]:
        """Feed actions (dicts, or raw lines) to ``purser play``; returns one result per line."""
        lines = [a if isinstance(a, str) else json.dumps(a) for a in actions]
        out = self.run("play", str(session), input="".join(line + "\n" for line in lines)).stdout
        results = [json.loads(line) for line in out.splitlines() if line.strip()]
        if len(results) != len([line for line in lines if line.strip()]):
            raise PurserFailed(f"expected one result line per action, got {len(results)} for {len(lines)}:\n{out}")
        return results

    def play_ok(self, session: int | str, actions: Iterable[Mapping[str, Any] | str]) -> list[dict[str, Any]]:
        """Like :meth:`play`, but every action must be accepted."""
        results = self.play(session, actions)
        for i, r in enumerate(results):
            if not r.get("ok"):
                raise PurserFailed(f"action {i + 1} was refused: {r}")
        return results

    def show(self, session: int | str, history: int = 0) -> dict[str, Any]:
        """``purser show --json``."""
        return json.loads(self.run("show", str(session), "--json", "--history", str(history)).stdout)
