"""Calibration: the fit, its report, recorded sessions that replay exactly, the live procedure."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scale import open_scale
from companion.scale.calibration import (
    CalibrationError,
    Point,
    Session,
    analyse,
    fit_line,
    read_session,
    replay,
    write_session,
)
from companion.scale.calprocedure import Plan, calibrate, masses_from_text, sim_placer
from companion.scale.profile import read_profile, save_profile

SESSIONS = Path(__file__).resolve().parents[2] / "calibration" / "sessions"
RECORDED = sorted(SESSIONS.glob("*.session.json"))


def test_there_are_recorded_sessions():
    assert len(RECORDED) >= 2


@pytest.mark.parametrize("session_path", RECORDED, ids=lambda p: p.name)
def test_a_recorded_session_reproduces_its_saved_profile_exactly(session_path):
    saved = json.loads(session_path.with_name(session_path.name.replace(".session.json", ".profile.json")).read_text())
    profile = replay(read_session(session_path))
    assert profile.to_json() == saved


@pytest.mark.parametrize(
    "masses, counts, cpg, zero",
    [
        ([0, 100, 200, 500], [84213, 84213 + 215000, 84213 + 430000, 84213 + 1075000], 2150.0, 84213.0),
        ([0, 100], [-5000, -5000 - 43000], -430.0, -5000.0),  # a reversed cell: counts fall
        ([0, 0, 50, 50], [10, 12, 1010, 1012], 20.0, 11.0),
    ],
)
def test_fit_line(masses, counts, cpg, zero):
    slope, intercept = fit_line(masses, counts)
    assert slope == pytest.approx(cpg, rel=1e-12)
    assert intercept == pytest.approx(zero, rel=1e-12, abs=1e-9)


@pytest.mark.parametrize("masses, counts", [([], []), ([0.0], [1.0]), ([100, 100], [5, 6]), ([0, 100], [5, 5])])
def test_fit_line_refuses_what_cannot_be_fitted(masses, counts):
    with pytest.raises(CalibrationError):
        fit_line(masses, counts)


@settings(max_examples=100, deadline=None)
@given(
    st.floats(-5000, 5000).filter(lambda c: abs(c) > 1), st.floats(-1e6, 1e6),
    st.lists(st.floats(1, 1000), min_size=1, max_size=6, unique=True),
)
def test_fit_recovers_any_exact_line(cpg, zero, masses):
    ms = [0.0] + masses
    slope, intercept = fit_line(ms, [zero + cpg * m for m in ms])
    assert slope == pytest.approx(cpg, rel=1e-9)
    assert intercept == pytest.approx(zero, abs=1e-6 * max(1.0, abs(zero)) + 1e-6 * abs(cpg) * 1000)


def test_report_of_a_bowed_cell():
    bow = [0.0, 0.15, 0.2, 0.15, 0.0]
    masses = [0.0, 250.0, 500.0, 750.0, 1000.0]
    points = [Point(m, 1000.0 + 100.0 * (m + b), 5.0, 40) for m, b in zip(masses, bow)]
    report = analyse(points, interval_g=0.1, capacity_g=1000.0)
    assert report.linearity_pct == pytest.approx(100 * max(abs(r) for r in report.residuals_g) / 1000.0)
    assert report.sigma_g > 0.05
    assert not report.verdict["passed"]  # the bow leaves more than the 0.05 g allowed near zero
    assert any("at 0 g" in f for f in report.verdict["failures"])


def test_repeatability_is_reported_per_mass():
    points = [Point(0.0, 0.0, 1.0, 40), Point(100.0, 10000.0, 1.0, 40), Point(0.0, 2.0, 1.0, 40), Point(100.0, 10004.0, 1.0, 40)]
    report = analyse(points, 0.1, 1000.0)
    assert set(report.repeatability) == {0.0, 100.0}
    assert report.repeatability[100.0]["spread_g"] == pytest.approx(0.04, abs=1e-3)
    assert report.sigma_g >= report.repeatability[100.0]["std_g"]


def test_live_procedure_on_the_simulator_saves_a_profile_that_replays(tmp_path):
    scale = open_scale("sim://?clock=virtual&seed=21")
    plan = Plan(masses=(50.0, 200.0), repeats=2)
    session, profile = calibrate(scale, plan, sim_placer(scale), created="2024-06-01T12:00:00+00:00")
    assert [s.mass_g for s in session.steps] == [0.0, 50.0, 200.0, 0.0, 50.0, 200.0]
    cal = profile.calibration
    assert cal.counts_per_gram == pytest.approx(2150.0, rel=2e-4)
    assert cal.device_id == "sim" and cal.channel == 0 and cal.created == "2024-06-01T12:00:00+00:00"
    assert profile.report["verdict"]["passed"]
    # Round trip through files: the session replays to the same profile, bit for bit.
    path = write_session(session, tmp_path / "s.json")
    assert replay(read_session(path)).to_json() == profile.to_json()
    saved = save_profile(profile, tmp_path / "p.json")
    assert read_profile(saved).calibration == cal


def test_the_procedure_waits_for_the_load_to_change(tmp_path):
    """With --yes on real hardware nobody presses Enter: a step counts only once the load moved."""
    scale = open_scale("sim://?clock=virtual&seed=2")
    plan = Plan(masses=(100.0,), repeats=1, step_timeout_s=20.0)

    def late_hands(mass, index, total):
        if mass:
            scale.at(3.0, lambda: scale.place(mass))  # the person is slow

    session, profile = calibrate(scale, plan, late_hands, created="x")
    assert session.steps[1].times[-1] > 3.0
    assert profile.calibration.counts_per_gram == pytest.approx(2150.0, rel=2e-4)


def test_a_load_that_never_settles_fails_clearly():
    scale = open_scale("sim://?clock=virtual&seed=2")
    plan = Plan(masses=(100.0,), repeats=1, step_timeout_s=3.0)

    def shaky(mass, index, total):
        for i in range(100):
            scale.at(0.05 * i, lambda: scale.place(1.0))

    with pytest.raises(CalibrationError, match="did not settle"):
        calibrate(scale, plan, shaky)


@pytest.mark.parametrize(
    "masses, message",
    [((), "at least one"), ((100.0, 100.0), "once"), ((-5.0,), "positive"), ((5000.0,), "capacity")],
)
def test_bad_plans_are_refused(masses, message):
    with pytest.raises(CalibrationError, match=message):
        Plan(masses=masses)


@pytest.mark.parametrize("text, expected", [("100,200,500", (100.0, 200.0, 500.0)), ("", ()), ("7.5", (7.5,))])
def test_masses_from_text(text, expected):
    assert masses_from_text(text) == expected


def test_masses_from_text_refuses_words():
    with pytest.raises(CalibrationError, match="grams separated by commas"):
        masses_from_text("100,lots")


@pytest.mark.parametrize(
    "content, message",
    [
        ("{}", "not a Purser calibration session"),
        ('{"format": "purser-scale-calibration-session", "version": 99}', "newer"),
        ('{"format": "purser-scale-calibration-session", "version": 1}', "damaged"),
        ("not json", "cannot read"),
    ],
)
def test_damaged_sessions_are_refused(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        read_session(path)


def test_session_json_round_trip_keeps_every_float():
    data = json.loads(RECORDED[0].read_text())
    assert Session.from_json(data).to_json() == data


def test_recorded_sessions_are_plausible():
    for path in RECORDED:
        session = read_session(path)
        assert session.steps[0].mass_g == 0.0
        assert all(len(s.times) == len(s.raws) > 0 for s in session.steps)
        assert all(math.isfinite(t) for s in session.steps for t in s.times)


MASS_SETS = sorted((SESSIONS.parent / "masses").glob("*.json"))


@pytest.mark.parametrize("path", MASS_SETS, ids=lambda p: p.name)
def test_reference_mass_sets_are_well_formed(path):
    data = json.loads(path.read_text())
    assert data["name"] and data["source"]
    assert data["items"]
    for item in data["items"]:
        assert item["name"] and item["mass_g"] > 0
        assert item.get("tolerance_g", 0) >= 0
