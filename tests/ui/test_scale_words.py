"""The balance in words (no window needed): why a weighing failed, in one line and the
what-to-check apart, against the driver's own messages; a calibration plan and tolerances."""

from __future__ import annotations

import pytest

from companion.scale import ScaleFault, ScaleTimeout, open_scale
from companion.scale.calprocedure import Plan
from companion.scale.noise import Diagnosis
from companion.ui.hardware import explain_failure
from companion.ui.scale_words import plan_text, tolerance_text, weigh_trouble


def _failure(scale, channel: int = 0, timeout: float = 2.0):
    try:
        scale.weigh_stable(timeout=timeout, channel=channel)
    except (ScaleTimeout, ScaleFault) as exc:
        return explain_failure(scale, exc, channel)
    pytest.fail("the balance weighed")


def test_noise_is_told_apart_from_motion_in_one_line():
    noisy = open_scale("sim://?clock=virtual&seed=1&noise=40x")
    with pytest.raises(ScaleTimeout) as caught:
        noisy.weigh_stable(timeout=2.0)
    found = caught.value.diagnosis
    assert found.kind == "noise" and found.ratio > 20
    trouble = explain_failure(noisy, caught.value, 0).trouble
    assert trouble.kind == "noise"
    # the driver's own figures, not read back out of its sentence
    figures = f"±{found.noise_g:.2f} g, {found.ratio:.1f}× an HX711's"
    assert trouble.line == f"No steady weight: electrical noise ({figures}), not motion."
    assert "\n" not in trouble.line and len(trouble.line) < 90
    assert "shielded" in trouble.advice and "10 SPS" in trouble.advice
    shaken = open_scale("sim://?clock=virtual&seed=1")
    for i in range(40):
        shaken.at(0.1 * i, lambda: shaken.place(5.0))
    trouble = _failure(shaken, timeout=3.0).trouble
    assert trouble.kind == "motion"
    assert trouble.line == "No steady weight: the load kept moving - keep hands and the table still."
    assert trouble.advice.startswith("Keep hands and the table still")


def test_a_pan_that_cannot_weigh_and_an_unplugged_balance_say_what_to_check():
    one_amplifier = open_scale("sim://?clock=virtual&channels=2&missing=1")
    trouble = _failure(one_amplifier, channel=1).trouble
    assert trouble.kind == "fault"
    assert trouble.line == "Pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND)."
    unplugged = open_scale("sim://?clock=virtual&channels=2&pieces=20")
    unplugged.at(0.05, unplugged.unplug)
    trouble = _failure(unplugged).trouble
    assert trouble.kind == "waiting"
    assert trouble.line == "No weight: waiting for the simulated balance (its cable is unplugged) - check its cable."
    assert "carries on by itself" in trouble.advice


def test_anything_else_is_said_as_the_driver_says_it():
    trouble = weigh_trouble(
        "this balance is not calibrated", timeout=False, fault=False, waiting="", diagnosis=None, channel=0, channels=1
    )
    assert (trouble.kind, trouble.line, trouble.advice) == ("other", "This balance is not calibrated.", "")
    too_few = Diagnosis("no_readings", 0.0, 0.0, 80, "too few readings came to tell noise from motion; weigh again")
    trouble = weigh_trouble(
        "no steady weight within 0.1 s (no readings arrived): too few readings came ...",
        timeout=True,
        fault=False,
        waiting="",
        diagnosis=too_few,
        channel=1,
        channels=2,
    )
    assert trouble.kind == "other" and trouble.advice == "Too few readings came to tell noise from motion; weigh again."
    assert "moving" not in trouble.line and "noise (" not in trouble.line


def test_the_noise_line_takes_the_figures_from_the_diagnosis_whatever_its_words():
    found = Diagnosis("noise", 0.1234, 6.04, 10, "any words the driver chooses")
    trouble = weigh_trouble(
        "no steady weight", timeout=True, fault=False, waiting="", diagnosis=found, channel=1, channels=2
    )
    assert trouble.line == "No steady weight on pan B: electrical noise (±0.12 g, 6.0× an HX711's), not motion."
    assert trouble.advice == "Any words the driver chooses."


def test_a_calibration_plan_in_words_with_its_tolerances():
    plan = Plan(masses=(100.0, 200.0, 500.0), checks=(50.0, 150.0, 400.0), mass_class="M1", corner=True, creep_s=60)
    assert plan_text(plan.steps()) == (
        "18 steps: the empty pan and 100, 200, 500 g to fit, twice; 50, 150, 400 g to check the fit "
        "(not part of it); 400 g in the middle, then on each corner; 500 g left on for 60 s (creep)."
    )
    assert (
        tolerance_text([(m, plan.tolerance(m)) for m in plan.masses]) == "100 g ±0.005 g, 200 g ±0.01 g, 500 g ±0.025 g"
    )
    assert tolerance_text([(20.0, 0.0)]) == "20 g exact"
