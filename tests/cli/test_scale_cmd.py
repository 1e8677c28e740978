"""`purser scale ...` and `purser calibrate scale` on the simulator."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest

from companion.cli import main

SIM = "sim://?clock=virtual&seed=3"


@pytest.fixture(autouse=True)
def _data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("PURSER_DATA_DIR", str(tmp_path / "data"))


def test_weigh_json(capsys):
    assert main(["scale", "weigh", SIM + "&pieces=12.5,7.3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"grams", "uncertainty_g", "samples", "channel", "calibration"}
    assert out["grams"] == pytest.approx(19.8, abs=0.02)
    assert out["channel"] == 0 and out["samples"] >= 5 and out["uncertainty_g"] > 0


def test_weigh_in_words(capsys):
    assert main(["scale", "weigh", SIM + "&pieces=100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("100.0 g  (+- 0.0")


@pytest.mark.parametrize(
    "url, message",
    [
        (SIM + "&noise=5", "no steady weight within 2 s"),
        (SIM + "&pieces=2000", "overloaded"),
        ("serial:///dev/purser-missing", "no port /dev/purser-missing"),
        ("nonsense", "not a scale address"),
    ],
)
def test_weigh_failures_are_clear_and_exit_with_the_hardware_code(capsys, url, message):
    assert main(["scale", "weigh", url, "--timeout", "2"]) == 7
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_tare_info_and_watch(capsys):
    assert main(["scale", "tare", SIM]) == 0
    assert "pan 0 zeroed" in capsys.readouterr().out
    assert main(["scale", "info", SIM, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["backend"] == "sim" and info["channels"] == 1 and info["status"]["simulated"]
    assert main(["scale", "watch", SIM + "&pieces=3", "--count", "50", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 50
    assert lines[-1]["stable"] and lines[-1]["grams"] == pytest.approx(3.0, abs=0.05)


def test_watch_refuses_a_missing_pan(capsys):
    assert main(["scale", "watch", SIM, "--channel", "1", "--count", "1"]) == 7
    assert "no pan 1" in capsys.readouterr().err


def test_calibrate_scripted(tmp_path, capsys):
    out = tmp_path / "cal"
    assert main(["calibrate", "scale", SIM, "--masses", "100,200,500", "--yes", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "meets OIML R76 class III at e = 0.1 g" in text
    profile = json.loads((out / "sim-ch0.json").read_text())
    assert profile["calibration"]["device_id"] == "sim" and profile["calibration"]["created"]
    assert len(profile["report"]["points"]) == 8
    sessions = list(out.glob("sim-ch0-*.session.json"))
    assert len(sessions) == 1
    image = cv2.imread(str(out / "sim-ch0.png"))
    assert image is not None and image.shape == (700, 900, 3)
    assert (image < 128).any()  # something was drawn


def test_calibrate_default_saves_in_the_data_folder(tmp_path, capsys):
    assert main(["calibrate", "scale", SIM, "--masses", "50", "--repeats", "1", "--yes", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((tmp_path / "data" / "calibrations" / "sim-ch0.json").read_text())
    assert printed == saved
    assert main(["scale", "weigh", SIM + "&profile=saved&pieces=50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calibration"] == saved["calibration"]["id"]


@pytest.mark.parametrize(
    "masses, message", [("100,100", "list each mass once"), ("100,x", "grams separated by commas"), ("5000", "capacity")]
)
def test_calibrate_refuses_bad_masses(capsys, masses, message):
    assert main(["calibrate", "scale", SIM, "--masses", masses, "--yes"]) == 7
    assert message in capsys.readouterr().err


def test_the_real_command_line_exits_non_zero_without_a_weight(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "scale", "weigh", SIM + "&noise=5", "--timeout", "1", "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 7
    assert "no steady weight" in result.stderr and result.stdout == ""
