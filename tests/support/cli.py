"""Run the real `purser` command line in a subprocess against a throw-away database."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PurserFailed(AssertionError):
    """A purser command exited with an unexpected status."""


@dataclass
class PurserCLI:
    """The command line with ``--db`` fixed to ``db``: ``python -m companion ...``.

    ``in_process`` runs ``companion.cli.main`` in this process instead (same arguments,
    stdin, stdout, stderr and exit status; much faster, for tests of many inputs).
    """

    db: Path
    in_process: bool = False

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["PURSER_DB"] = str(self.db)
        return env

    def _main(self, args: Sequence[str], input: str | bytes | None) -> subprocess.CompletedProcess[str]:
        from companion.cli import main

        data = input.encode("utf-8") if isinstance(input, str) else (input or b"")
        out, err = io.StringIO(), io.StringIO()
        saved_stdin, saved_db = sys.stdin, os.environ.get("PURSER_DB")
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
        os.environ["PURSER_DB"] = str(self.db)
        try:
            with redirect_stdout(out), redirect_stderr(err):
                try:
                    code = main(list(args))
                except SystemExit as exc:  # argparse refusing the arguments
                    code = exc.code if isinstance(exc.code, int) else 2
        finally:
            sys.stdin = saved_stdin
            if saved_db is None:
                os.environ.pop("PURSER_DB", None)
            else:
                os.environ["PURSER_DB"] = saved_db
        return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())

    def run(
        self, *args: str, input: str | bytes | None = None, expect: int | None = 0, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run ``purser ARGS``; fails the test if the exit status is not ``expect`` (None: any)."""
        if self.in_process:
            result = self._main(args, input)
        else:
            result = subprocess.run(
                [sys.executable, "-m", "companion", *args],
                input=input.encode("utf-8") if isinstance(input, str) else input,
                capture_output=True,
                env=self.env(),
                timeout=timeout,
                check=False,
            )
            result = subprocess.CompletedProcess(
                result.args,
                result.returncode,
                result.stdout.decode("utf-8", "replace"),
                result.stderr.decode("utf-8", "replace"),
            )
        if expect is not None and result.returncode != expect:
            raise PurserFailed(
                f"purser {' '.join(args)} exited {result.returncode}, expected {expect}\n"
                f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
            )
        return result

    def new(
        self,
        game: str,
        players: Iterable[str],
        rules: Mapping[str, Any] | None = None,
        seed: int = 1,
        scale: str | None = None,
        camera: str | None = None,
    ) -> int:
        """Start a session; returns its id."""
        args = ["new", game, "--players", ",".join(players), "--seed", str(seed)]
        for key, value in (rules or {}).items():
            args += ["--rule", f"{key}={value}"]
        if scale:
            args += ["--scale", scale]
        if camera:
            args += ["--camera", camera]
        return int(self.run(*args).stdout.strip())

    def play(
        self, session: int | str, actions: Iterable[Mapping[str, Any] | str], expect: int | None = None
    ) -> list[dict[str, Any]]:
        """Feed actions (dicts, or raw lines) to ``purser play``; returns one result per line.

        The exit status must be ``expect``; by default, 0 when every line was applied and
        not 0 when one was refused.
        """
        lines = [a if isinstance(a, str) else json.dumps(a) for a in actions]
        ran = self.run("play", str(session), input="".join(line + "\n" for line in lines), expect=expect)
        results = [json.loads(line) for line in ran.stdout.splitlines() if line.strip()]
        if len(results) != len([line for line in lines if line.strip()]):
            raise PurserFailed(
                f"expected one result line per action, got {len(results)} for {len(lines)}:\n{ran.stdout}"
            )
        if expect is None and (ran.returncode == 0) != all(r.get("ok") for r in results):
            raise PurserFailed(f"purser play exited {ran.returncode} for the answers {results}")
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
