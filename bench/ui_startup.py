"""Cold start of the tablet app to its first drawn frame (home screen), in a fresh process.

    python bench/ui_startup.py [--runs 7]

Each run starts a new Python process (imports, Kivy window, database, settings, home
screen) on a new database and stops at the first frame flipped to the screen after the
app has started. Prints every run and the median, in seconds. Goal: under 3 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import os, sys, time
t0 = float(os.environ["PURSER_BENCH_T0"])
sys.path.insert(0, os.environ["PURSER_BENCH_ROOT"])
import companion.ui
from companion.ui.app import PurserApp

class Bench(PurserApp):
    def on_start(self):
        super().on_start()
        from kivy.core.window import Window

        def flipped(*_):
            print(f"{time.time() - t0:.4f}", flush=True)
            Window.unbind(on_flip=flipped)
            self.stop()

        Window.bind(on_flip=flipped)

Bench(db=sys.argv[1], scale_url="sim://", camera_url="sim://").run()
"""


def one_run() -> float:
    with tempfile.TemporaryDirectory(prefix="purser-bench-") as tmp:
        env = dict(os.environ)
        env.update(
            {
                "PURSER_BENCH_ROOT": str(ROOT),
                "KIVY_NO_CONSOLELOG": "1",
                "KIVY_NO_FILELOG": "1",
                "KIVY_NO_ARGS": "1",
                "KIVY_HOME": tmp,
                "PURSER_DATA_DIR": tmp,
            }
        )
        child = Path(tmp) / "bench_child.py"  # Kivy looks for a class's source file
        child.write_text(CHILD, encoding="utf-8")
        env["PURSER_BENCH_T0"] = repr(time.time())
        out = subprocess.run(
            [sys.executable, str(child), str(Path(tmp) / "purser.db")],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        lines = [line for line in out.stdout.splitlines() if line.strip()]
        if out.returncode != 0 or not lines:
            raise SystemExit(f"the app did not start (exit {out.returncode}):\n{out.stderr[-2000:]}")
        return float(lines[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    times = []
    for i in range(args.runs):
        t = one_run()
        times.append(t)
        print(f"run {i + 1}: {t:.3f} s")
    print(
        f"cold start to first frame: median {statistics.median(times):.3f} s over {len(times)} runs "
        f"(min {min(times):.3f}, max {max(times):.3f}); goal < 3 s"
    )
    print(f"command: {Path(sys.executable).name} bench/ui_startup.py --runs {args.runs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
