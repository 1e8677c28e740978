"""Starting the app: `purser app` runs until closed; a refused database is explained and left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ui import kivy_driver as kd

ROOT = Path(__file__).resolve().parents[2]


def test_purser_app_starts_and_keeps_running(tmp_path):
    db = tmp_path / "purser.db"
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "app", "--db", str(db), "--scale", "sim://", "--camera", "sim://"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        time.sleep(2.0)  # a few seconds of running: no crash after the first frames
        assert proc.poll() is None, f"the app exited with {proc.returncode}:\n{proc.stderr.read()}"
        assert db.exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def test_a_corrupt_database_is_explained_and_left_untouched(tmp_path, shots):
    db = tmp_path / "purser.db"
    garbage = b"this is not a database" * 50
    db.write_bytes(garbage)
    app = kd.start_app(db)
    try:
        assert app.manager.current == "problem"
        screen = app.manager.current_screen
        assert screen.heading == "Purser cannot open its database"
        assert "not a Purser database" in screen.detail and "left untouched" in screen.detail
        assert kd.find(screen, key="quit")
        kd.shot(app, shots, "problem")
    finally:
        kd.stop_app(app)
    assert db.read_bytes() == garbage
