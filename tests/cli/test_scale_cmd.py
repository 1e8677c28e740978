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
    assert set(out) == {
        "grams",
        "uncertainty_g",
        "samples",
        "channel",
        "pan",
        "calibration",
        "noise_g",
        "verified",
        "notes",
    }
    assert out["grams"] == pytest.approx(19.8, abs=0.02)
    assert out["channel"] == 0 and out["pan"] == "A" and out["samples"] >= 5 and out["uncertainty_g"] > 0
    assert out["notes"] == [] and out["verified"]


def test_weigh_in_words(capsys):
    assert main(["scale", "weigh", SIM + "&pieces=100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("100.0 g  (+- 0.0")


@pytest.mark.parametrize("noise", ["0.1", "5x", "0.07"])
def test_weighs_through_five_times_the_datasheet_noise(capsys, noise):
    """5x the HX711's noise (clone boards, long wires, USB power): the balance measures it,
    averages for it, and states an uncertainty the true load lies within (3 of them)."""
    assert main(["scale", "weigh", f"sim://?noise={noise}&pieces=37.5,12.25&clock=virtual", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert abs(out["grams"] - 49.75) <= 3 * out["uncertainty_g"]
    assert out["noise_g"] >= 0.05  # the measured noise, not the datasheet's 0.018 g


def test_a_missing_amplifier_leaves_the_other_pan_weighing(capsys):
    """A two-pan balance with one HX711 fitted: pan A weighs, pan B is named with its wires."""
    url = "sim://?channels=2&missing=1&pieces=25&clock=virtual"
    assert main(["scale", "weigh", url, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grams"] == pytest.approx(25.0, abs=0.06) and out["pan"] == "A"
    assert out["notes"] == ["pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND)"]
    assert main(["scale", "weigh", url]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("25.0 g") and "note: pan B: no amplifier answers" in captured.err
    assert main(["scale", "weigh", url, "--channel", "1", "--timeout", "3"]) == 7
    assert "pan B: no amplifier answers - check DOUT on D4" in capsys.readouterr().err


@pytest.mark.parametrize(
    "url, message",
    [
        (SIM + "&noise=5", "no steady weight within 2 s"),
        (SIM + "&pieces=2000", "overloaded"),
        ("serial:///dev/purser-missing", "no port /dev/purser-missing"),
    ],
)
def test_weigh_failures_are_clear_and_exit_with_the_hardware_code(capsys, url, message):
    assert main(["scale", "weigh", url, "--timeout", "2"]) == 7
    captured = capsys.readouterr()
    assert message in captured.err
    assert captured.out == ""


def test_noise_is_told_apart_from_motion(capsys):
    assert main(["scale", "weigh", SIM + "&noise=5", "--timeout", "2"]) == 7
    err = capsys.readouterr().err
    assert "electrical noise, not motion" in err and "shielded" in err and "10 SPS" in err


@pytest.mark.parametrize(
    "url, message",
    [
        ("nonsense", "not a scale address"),
        ("sim://?nosie=5", "does not know the setting(s) nosie"),
        ("sim://?channels=3", "channels='3'"),
        ("sim://?missing=2&channels=2", "must name pans of this balance"),
        ("serial://", "needs a port"),
    ],
)
def test_a_malformed_address_is_a_usage_error(capsys, url, message):
    assert main(["scale", "weigh", url, "--timeout", "2"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""


def test_tare_info_and_watch(capsys):
    assert main(["scale", "tare", SIM]) == 0
    assert "pan A zeroed" in capsys.readouterr().out
    assert main(["scale", "info", SIM, "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["backend"] == "sim" and info["channels"] == 1 and info["status"]["simulated"]
    assert info["pans"][0]["noise_measured"] and 0.7 < info["pans"][0]["noise_ratio"] < 1.4
    assert not info["pans"][0]["noisy"]  # the datasheet's noise is no news
    assert main(["scale", "watch", SIM + "&pieces=3", "--count", "50", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 50
    assert lines[-1]["stable"] and lines[-1]["grams"] == pytest.approx(3.0, abs=0.05)


def test_info_reports_the_measured_noise_in_words(capsys):
    assert main(["scale", "info", "sim://?clock=virtual&noise=4x&channels=2&missing=1"]) == 0
    out = capsys.readouterr().out
    assert "measured at rest" in out and "x the datasheet" in out
    assert "averages" in out and "wired DOUT D4, SCK D5" in out
    assert "pan B: no amplifier answers" in out


def test_watch_names_a_faulty_pan_instead_of_a_raw_zero(capsys):
    assert main(["scale", "watch", "sim://?clock=virtual&channels=2&missing=1", "--count", "20"]) == 0
    out = capsys.readouterr().out
    faulty = [line for line in out.splitlines() if line.startswith("pan B")]
    assert faulty and all("no amplifier answers - check DOUT on D4" in line for line in faulty)
    assert "raw" not in " ".join(faulty)


def test_watch_refuses_a_missing_pan(capsys):
    assert main(["scale", "watch", SIM, "--channel", "1", "--count", "1"]) == 2
    assert "this balance has one pan (A, channel 0); there is no pan B (channel 1)" in capsys.readouterr().err


@pytest.mark.parametrize("outage_s", [1, 5, 20, 60])
def test_watch_waits_through_an_unplugged_cable(monkeypatch, capsys, outage_s):
    """The cable is pulled for 1-60 s (on the simulator's clock): watch says it is waiting,
    keeps waiting, and carries on by itself when the balance is back."""
    from companion.scale import sim

    original = sim.build_sim

    def unplugging(url, cls, **extra):
        scale = original(url, cls, **extra)
        scale.at(0.5, scale.unplug)
        scale.at(0.5 + outage_s, scale.replug)
        return scale

    monkeypatch.setattr(sim, "build_sim", unplugging)
    readings = int((0.5 + outage_s + 1.0) * 80)
    assert main(["scale", "watch", SIM + "&pieces=3", "--count", str(readings), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    waits = [line for line in lines if line.get("waiting")]
    assert waits and all("waiting for the simulated balance" in w["message"] for w in waits)
    assert len(waits) == 1 + (outage_s - 1) // 10  # said once, then every 10 s
    after = [line for line in lines[lines.index(waits[-1]) + 1 :] if "t" in line]
    assert after and after[0]["t"] >= 0.5 + outage_s - 0.02
    assert after[-1]["stable"] and after[-1]["grams"] == pytest.approx(3.0, abs=0.05)


def test_calibrate_scripted(tmp_path, capsys):
    out = tmp_path / "cal"
    assert (
        main(["calibrate", "scale", SIM, "--masses", "100,200,500", "--creep", "10", "--yes", "--out", str(out)]) == 0
    )
    text = capsys.readouterr().out
    assert "meets OIML R76 class III as a balance of Max 500 g, e = 0.1 g" in text
    assert "check       500 g" in text and "off-centre" in text and "creep" in text
    profile = json.loads((out / "sim-ch0.json").read_text())
    assert profile["calibration"]["device_id"] == "sim" and profile["calibration"]["created"]
    assert profile["calibration"]["verified_max_g"] == 500.0
    assert profile["calibration"]["corner_rel"] > 0 and profile["calibration"]["slope_u_rel"] > 0
    assert len(profile["report"]["points"]) == 4  # the first cycle is fitted; the second checks it
    assert [c["mass_g"] for c in profile["report"]["checks"]] == [0.0, 100.0, 200.0, 500.0]
    sessions = list(out.glob("sim-ch0-*.session.json"))
    assert len(sessions) == 1
    image = cv2.imread(str(out / "sim-ch0.png"))
    assert image is not None and image.shape == (700, 900, 3)
    assert (image < 128).any()  # something was drawn


def test_one_small_check_does_not_claim_the_whole_range(tmp_path, capsys):
    """A single 20 g load (fitted once, checked once) says what it knows: +-x g up to 20 g."""
    args = ["calibrate", "scale", SIM, "--masses", "20", "--yes", "--no-corner", "--creep", "0", "--json"]
    assert main(args) == 0
    profile = json.loads(capsys.readouterr().out)
    report = profile["report"]
    assert not report["verdict"]["passed"]
    assert report["statement"].startswith("+-") and report["statement"].endswith("up to 20 g (95 %)")
    assert "1000" not in report["statement"]
    assert profile["calibration"]["verified_max_g"] == 20.0


def test_checks_are_kept_apart_from_the_fit(capsys):
    args = [
        "calibrate",
        "scale",
        SIM,
        "--masses",
        "100,500",
        "--check",
        "20",
        "--repeats",
        "1",
        "--yes",
        "--no-corner",
        "--creep",
        "0",
        "--json",
    ]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert [p["mass_g"] for p in report["points"]] == [0.0, 100.0, 500.0]
    assert [c["mass_g"] for c in report["checks"]] == [0.0, 20.0]
    assert report["verified_max_g"] == 20.0 and report["statement"].endswith("up to 20 g (95 %)")


def test_coarse_reference_masses_cost_the_class_claim(capsys):
    """Kitchen weights (OIML M3: 0.25 g on 500 g) cannot verify a 0.1 g balance."""
    args = [
        "calibrate",
        "scale",
        SIM,
        "--masses",
        "100,200,500",
        "--mass-class",
        "M3",
        "--yes",
        "--no-corner",
        "--creep",
        "0",
        "--json",
    ]
    assert main(args) == 0
    report = json.loads(capsys.readouterr().out)["report"]
    assert not report["verdict"]["passed"]
    assert any("more than a third" in f for f in report["verdict"]["failures"])
    assert report["slope_u_rel"] > 2e-4  # the masses' tolerance is in every weight's uncertainty


def test_calibrate_default_saves_in_the_data_folder(tmp_path, capsys):
    assert (
        main(
            [
                "calibrate",
                "scale",
                SIM,
                "--masses",
                "50",
                "--repeats",
                "1",
                "--yes",
                "--no-corner",
                "--creep",
                "0",
                "--json",
            ]
        )
        == 0
    )
    printed = json.loads(capsys.readouterr().out)
    saved = json.loads((tmp_path / "data" / "calibrations" / "sim-ch0.json").read_text())
    assert printed == saved
    assert main(["scale", "weigh", SIM + "&profile=saved&pieces=50", "--json"]) == 0
    weighed = json.loads(capsys.readouterr().out)
    assert weighed["calibration"] == saved["calibration"]["id"]
    assert not weighed["verified"]  # nothing checked this calibration


@pytest.mark.parametrize(
    "masses, message",
    [
        ("100,100", "list each mass once"),
        ("100,x", "grams separated by commas"),
        ("5000", "capacity"),
        ("100+-x", "grams separated by commas"),
        ("-5", "positive"),
    ],
)
def test_calibrate_refuses_bad_masses_as_a_usage_error(capsys, masses, message):
    assert main(["calibrate", "scale", SIM, "--masses", masses, "--yes"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("flag", ["--masses", "--check"])
def test_a_bad_mass_list_is_named_by_its_flag(capsys, flag):
    args = {"--masses": "100,200", "--check": "20"} | {flag: "abc"}
    assert main(["calibrate", "scale", SIM, *(x for kv in args.items() for x in kv), "--yes"]) == 2
    assert capsys.readouterr().err.startswith(f"purser: {flag} must be grams separated by commas")


def test_calibrate_refuses_an_unknown_mass_class(capsys):
    assert main(["calibrate", "scale", SIM, "--masses", "100", "--mass-class", "gold", "--yes"]) == 2
    assert "mass class 'gold'" in capsys.readouterr().err


def test_the_real_command_line_exits_non_zero_without_a_weight(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "scale", "weigh", SIM + "&noise=5", "--timeout", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 7
    assert "no steady weight" in result.stderr and result.stdout == ""
