"""The balance's own noise, measured at rest: the figure, the rest test, and what follows
from it (the motion band, the averaging, an honest uncertainty, noise told from motion)."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest

from companion.scale import ScaleTimeout, open_scale
from companion.scale.noise import (
    DATASHEET_NOISE_COUNTS,
    NOISY_RATIO,
    Diagnosis,
    NoiseMeter,
    averaging_readings,
    diagnose,
    rest_test,
)

RATE = 80
TIMES = np.arange(48) / RATE


def test_white_noise_is_at_rest_and_measured_without_bias():
    rng = np.random.default_rng(3)
    sigmas = []
    for _ in range(300):
        test = rest_test(TIMES, 84_000 + rng.normal(0, 100.0, 48))
        assert test.noise_like
        sigmas.append(test.sigma)
    assert statistics.mean(sigmas) == pytest.approx(100.0, rel=0.03)
    assert sum(rest_test(TIMES, 84_000 + rng.normal(0, 100.0, 48)).at_rest for _ in range(300)) >= 290


def test_a_ringing_pan_is_not_at_rest():
    ring = 5000 * np.sin(2 * math.pi * 5.0 * TIMES) * np.exp(-TIMES / 0.3)
    test = rest_test(TIMES, 84_000 + ring + np.random.default_rng(1).normal(0, 38, 48))
    assert not test.at_rest and not test.noise_like and test.ratio < 0.3


def test_a_slow_drift_is_not_at_rest():
    rng = np.random.default_rng(2)
    test = rest_test(TIMES, 84_000 + 2000 * TIMES + rng.normal(0, 38, 48))  # 1 g/s on a 1 kg cell
    assert not test.at_rest and test.drift > test.limit


def test_a_spike_does_not_count_as_noise():
    rng = np.random.default_rng(4)
    values = 84_000 + rng.normal(0, 38, 48)
    values[20] += 50_000
    assert rest_test(TIMES, values).sigma == pytest.approx(38, rel=0.35)


def test_the_meter_starts_from_the_datasheet_and_pools_what_it_measures():
    meter = NoiseMeter(80)
    assert meter.sigma == DATASHEET_NOISE_COUNTS[80] and not meter.measured and meter.ratio == 1.0
    rng = np.random.default_rng(5)
    accepted = 0
    for i in range(48 * 4):
        test = meter.push(i / 80, 84_000 + rng.normal(0, 190.0), segment=0)
        if test is not None and test.at_rest:
            meter.accept(test, i / 80)
            accepted += 1
    assert accepted >= 3 and meter.measured
    assert meter.sigma == pytest.approx(190.0, rel=0.2) and meter.ratio == pytest.approx(5.0, rel=0.2)
    meter.set_rate(10)
    assert not meter.measured and meter.sigma == DATASHEET_NOISE_COUNTS[10]


@pytest.mark.parametrize(
    "noise, interval, readings", [(0.0177, 0.1, 1), (0.1, 0.1, 16), (0.05, 0.1, 4), (1.0, 1.0, 16)]
)
def test_averaging_keeps_the_means_noise_within_a_quarter_interval(noise, interval, readings):
    n = averaging_readings(noise, interval)
    assert n == readings and noise / math.sqrt(n) <= 0.25 * interval + 1e-12


@pytest.mark.parametrize("times", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("rate", [10, 80])
def test_the_balance_measures_its_noise_and_weighs_at_1_to_5_times_the_datasheet(times, rate):
    scale = open_scale(f"sim://?clock=virtual&seed={7 * times + rate}&noise={times}x&rate={rate}")
    scale.tare(timeout=30.0)
    truth = times * DATASHEET_NOISE_COUNTS[rate]
    assert scale.noise_measured(0)
    assert scale.noise_counts(0) == pytest.approx(truth, rel=0.3)
    rule = scale.stability_rule(0)
    assert rule.band == pytest.approx(max(0.1, 4 * scale.noise_g(0)))
    scale.place([37.5, 12.25])
    w = scale.weigh_stable(timeout=30.0)
    assert abs(w.grams - 49.75) <= 3 * w.uncertainty_g
    assert w.samples >= min(scale.averaging(0), 5)


def test_the_uncertainty_is_honest_at_five_times_the_datasheet():
    """Over many weighings at 5x noise, the stated uncertainty covers the error as a
    standard uncertainty should: about 95 % within two of them, all within four."""
    z = []
    for seed in range(40):
        scale = open_scale(f"sim://?clock=virtual&seed={seed}&noise=5x&pieces=37.5,12.25")
        w = scale.weigh_stable(timeout=30.0)
        z.append(abs(w.grams - 49.75) / w.uncertainty_g)
    assert sum(x <= 2 for x in z) >= 0.85 * len(z)
    assert max(z) <= 4


def test_noise_that_rises_is_measured_again():
    scale = open_scale("sim://?clock=virtual&seed=9")
    scale.tare()
    quiet = scale.noise_g(0)
    scale._pans[0].params = type(scale._pans[0].params)(**{**scale._pans[0].params.__dict__, "noise_counts": 190.0})
    for _ in scale.readings():
        if scale.noise_g(0) > 3 * quiet:
            break
        if scale.now() > 30:
            pytest.fail("the noise was not measured again")
    assert scale.weigh_stable(timeout=10.0).grams == pytest.approx(0.0, abs=0.06)


def test_noise_is_told_apart_from_motion():
    noisy = open_scale("sim://?clock=virtual&seed=1&noise=40x")
    with pytest.raises(ScaleTimeout, match="electrical noise, not motion") as caught:
        noisy.weigh_stable(timeout=2.0)
    assert "shielded" in str(caught.value) and "10 SPS" in str(caught.value)
    found = caught.value.diagnosis
    assert found.kind == "noise" and found.rate_sps == 80 and not found.wanders_empty
    assert found.ratio == pytest.approx(40, rel=0.35)
    # grams and ratio rest on one datasheet figure, as the pan's own noise figures do
    assert found.noise_g == pytest.approx(found.ratio * noisy.noise_g(0) / noisy.status().pan(0).noise_ratio, rel=1e-6)
    assert found.words in str(caught.value) and f"+-{found.noise_g:.3f} g, {found.ratio:.1f} times" in found.words
    shaken = open_scale("sim://?clock=virtual&seed=1")
    for i in range(40):
        shaken.at(0.1 * i, lambda: shaken.place(5.0))
    with pytest.raises(ScaleTimeout, match="keep hands and the table still") as caught:
        shaken.weigh_stable(timeout=3.0)
    assert "electrical noise" not in str(caught.value)
    assert caught.value.diagnosis.kind == "motion" and caught.value.diagnosis.words in str(caught.value)
    assert shaken.diagnosis(0) == shaken.diagnose(0).words  # the sentence stays for the command line


COUNTS_PER_GRAM = 420.0


@pytest.mark.parametrize("times", [1.0, 2.0, 3.0, 5.0, 40.0])
def test_a_diagnosis_gives_the_scatter_in_grams_and_against_the_datasheet(times):
    values = 84_000 + np.random.default_rng(6).normal(0, times * DATASHEET_NOISE_COUNTS[80], 48)
    test = rest_test(TIMES, values)
    found = diagnose(test, counts_per_gram=COUNTS_PER_GRAM, datasheet=DATASHEET_NOISE_COUNTS[80], rate_sps=80)
    assert found.noise_g == pytest.approx(test.sigma / COUNTS_PER_GRAM)
    assert found.ratio == pytest.approx(test.sigma / DATASHEET_NOISE_COUNTS[80])
    assert found.kind == ("noise" if found.ratio >= NOISY_RATIO else "motion")
    assert ("electrical noise, not motion" in found.words) == (found.kind == "noise")
    assert found.to_json() == {
        "kind": found.kind,
        "noise_g": found.noise_g,
        "ratio": found.ratio,
        "rate_sps": 80,
        "words": found.words,
        "wanders_empty": False,
    }


def test_a_wandering_empty_pan_points_to_the_e_minus_wire():
    ring = 5000 * np.sin(2 * math.pi * 5.0 * TIMES) * np.exp(-TIMES / 0.3)
    test = rest_test(TIMES, 84_000 + ring + np.random.default_rng(1).normal(0, 38, 48))
    common = {"counts_per_gram": COUNTS_PER_GRAM, "datasheet": 38.0, "rate_sps": 80}
    loaded = diagnose(test, **common)
    assert loaded.kind == "motion" and not loaded.wanders_empty and "E-" not in loaded.words
    empty = diagnose(test, empty=True, **common)
    assert empty.kind == "motion" and empty.wanders_empty and "E- reaches GND" in empty.words
    assert diagnose(None, **common) == Diagnosis(
        "no_readings", 0.0, 0.0, 80, "too few readings came to tell noise from motion; weigh again"
    )


def test_info_and_status_report_the_noise():
    scale = open_scale("sim://?clock=virtual&seed=2&noise=4x")
    scale.tare()
    pan = scale.status().pan(0)
    assert pan.noise_measured and pan.noise_ratio == pytest.approx(4.0, rel=0.3)
    assert pan.averaging >= 40 and pan.band_g > 0.2
    assert pan.message.startswith("pan A is noisy") and "it weighs" in pan.message and pan.noisy
    info = scale.info()
    assert info["pans"][0]["noise_g"] == pytest.approx(pan.noise_g) and info["pans"][0]["noisy"]
