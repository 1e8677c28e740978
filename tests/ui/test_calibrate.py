"""The calibration wizard on the simulated balance (on its own clock: a whole procedure with
checks, the corner test and a creep test takes a second or two): fit and check masses kept
apart, what the masses are and how far each may be off, the steps of the corner and creep
tests, and the one-line claim the evidence supports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.ui import kivy_driver as kd

SCALE_URL = "sim://?clock=virtual&seed=3"


@pytest.fixture
def wizard(app):
    """The wizard for pan A, with the default plan typed in, and the balance put back on its
    factory calibration afterwards (a calibration is saved and used at once)."""
    hardware = kd.wait_for(app.go("hardware").ids.scale_column, key="calibrate")
    kd.wait_until(lambda: app.hardware.scale_state == "ready" and not hardware.disabled, 60, "the balance")
    kd.tap(hardware)
    screen = app.manager.current_screen
    assert app.manager.current == "calibrate"
    kd.type_text(screen.ids.masses, "100,200,500")
    kd.type_text(screen.ids.checks, "50,150,400")
    kd.type_text(screen.ids.repeats, "2")
    kd.type_text(screen.ids.creep, "60")
    screen.choose_class("exact")
    screen.set_corner(True)
    yield screen
    kd.wait_until(lambda: not screen.running, 120, "the calibration to end")
    for path in Path(os.environ["PURSER_DATA_DIR"]).glob("calibrations/*"):
        path.unlink()
    app.hardware.open_scale()
    kd.wait_until(
        lambda: (
            app.hardware.scale_state == "ready"
            and app.hardware.scale_info.get("calibrations", [{}])[0].get("source") == "factory"
        ),
        60,
        "the factory calibration back",
    )


def _run(app, screen) -> list[str]:
    """Start, let the simulator place every load, and return every step's words as shown."""
    steps: list[str] = []
    screen.bind(step_text=lambda _s, text: steps.append(text))
    kd.tap_key(screen, "cal:start")
    assert screen.running
    kd.wait_until(lambda: not screen.running, 120, "the calibration to finish")
    assert screen.error == "", screen.error
    return steps


def test_check_masses_kept_apart_corners_creep_and_a_class_claimed_only_as_far_as_checked(app, wizard, shots):
    screen = wizard
    kd.tap_key(screen, "class:M1")
    assert "100 g ±0.005 g" in screen.ids.tolerances.text and "400 g ±0.025 g" in screen.ids.tolerances.text
    kd.type_text(screen.ids.creep, "5")
    assert screen.ids.plan.text.startswith(
        "18 steps: the empty pan and 100, 200, 500 g to fit, twice; 50, 150, 400 g to check the fit (not part of it)"
    )
    steps = _run(app, screen)
    shown = "\n".join(steps)
    assert "check (verifies the fit, not part of it): Put 150 g in the middle of the pan" in shown
    for corner in ("front-left", "front-right", "back-left", "back-right"):
        assert f"put it on the {corner} corner of the pan" in shown
    assert "creep test: Put 500 g in the middle of the pan (nothing else) and leave it there for 5 s" in shown
    assert "leave it there: 5 of 5 s" in shown  # the hold counted on the balance's clock
    # the claim: a class, for Max = the heaviest check load, never the cell's 1000 g
    assert screen.passed
    assert (
        screen.ids.statement.text == "Meets OIML R76 class III as a balance of Max 400 g, e = 0.1 g "
        "(verified up to 400 g)"
    )
    fit, _, rest = screen.result.partition("Check loads (kept apart from the fit):")
    assert "Fit points:" in fit and "   400 g" not in fit and "   50 g" not in fit
    assert all(f"   {m} g: error" in rest for m in (50, 150, 400))
    assert "Off-centre: worst" in rest and "Creep:" in rest and "in 5 s with 500 g" in rest
    saved = Path(os.environ["PURSER_DATA_DIR"]) / "calibrations"
    assert (saved / "sim-ch0.json").exists() and (saved / "sim-ch0.png").stat().st_size > 1000
    assert list(saved.glob("sim-ch0-*.session.json"))
    kd.shot(app, shots, "calibrate-class")
    # the hardware screen shows the new calibration and how far it was verified
    kd.tap_key(app.root, "back")
    kd.wait_until(
        lambda: "verified up to 400 g" in app.manager.current_screen.pan_rows[0].calibration.text,
        60,
        "the new calibration on the hardware screen",
    )
    assert "Calibrated" in app.manager.current_screen.ids.calibration.text


def test_kitchen_weights_and_one_small_check_claim_no_more_than_they_show(app, wizard):
    screen = wizard
    kd.tap_key(screen, "class:M3")
    assert "500 g ±0.25 g" in screen.ids.tolerances.text
    kd.type_text(screen.ids.checks, "20")
    kd.type_text(screen.ids.creep, "0")
    kd.tap_key(screen, "corner")
    assert not screen.corner and "corner" not in screen.ids.plan.text
    _run(app, screen)
    assert not screen.passed
    statement = screen.ids.statement.text
    assert statement.startswith("±") and statement.endswith(" g up to 20 g (95 %)"), statement
    assert "Meets" not in statement and "class III" not in statement
    assert "No OIML R76 class III claim at e = 0.1 g:" in screen.result
    assert "only 1 different check load(s) (20 g)" in screen.result


def test_what_the_masses_are_sets_their_tolerances(app, wizard):
    screen = wizard
    for key, expected in (
        ("class:F2", "100 g ±0.0016 g"),
        ("class:coins", "100 g ±0.5 g"),
        ("class:exact", "100 g exact"),
    ):
        kd.tap_key(screen, key)
        assert expected in screen.ids.tolerances.text, screen.ids.tolerances.text
    kd.type_text(screen.ids.masses, "100,182.4+-0.3,500")
    assert "182.4 g ±0.3 g" in screen.ids.tolerances.text
    kd.type_text(screen.ids.checks, "")
    # without check masses, the last cycle of fit masses checks the fit made from the others
    assert "100, 182.4, 500 g to fit; 100, 182.4, 500 g to check the fit" in screen.ids.plan.text


def test_a_plan_that_cannot_be_done_is_refused_and_nothing_starts(app, wizard):
    screen = wizard
    kd.type_text(screen.ids.masses, "100,abc")
    assert screen.ids.plan.text.startswith("Not a plan yet: the fit masses must be grams separated by commas")
    kd.tap_key(screen, "cal:start")
    assert not screen.running and "the fit masses must be grams" in screen.error
    kd.type_text(screen.ids.masses, "100,200")
    kd.type_text(screen.ids.checks, "2000")
    kd.tap_key(screen, "cal:start")
    assert not screen.running and "above the balance's capacity (1000 g)" in screen.error
    assert not list(Path(os.environ["PURSER_DATA_DIR"]).glob("calibrations/*.json"))
