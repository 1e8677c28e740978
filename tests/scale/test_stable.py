"""Stable-weight logic: motion band, window, outliers, trend, zero tracking, uncertainty."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scale.stable import (
    StabilityRule,
    ZeroTracking,
    combined_uncertainty,
    first_stable,
    fsum_mean,
    judge,
    track_zero,
)

RULE = StabilityRule(band=0.1, window_s=0.5, noise=0.02)
T80 = np.arange(60) / 80.0  # 0.74 s of readings at 80 SPS


def series(values):
    values = list(values)
    return np.arange(len(values)) / 80.0, np.array(values, dtype=float)


@pytest.mark.parametrize(
    "name, values, stable, reason",
    [
        ("empty", [], False, "no readings"),
        ("too few", [5.0] * 4, False, "collecting"),
        ("window not yet full", [5.0] * 30, False, "collecting"),
        ("flat", [5.0] * 60, True, "stable"),
        ("one spike", [5.0] * 30 + [9.0] + [5.0] * 29, True, "stable"),
        ("spike is the newest reading", [5.0] * 59 + [9.0], False, "jump"),
        ("a step inside the window", [5.0] * 40 + [6.0] * 20, False, "moving"),
        ("wider than the band", [5.0, 5.25] * 30, False, "band"),
        ("slow drift inside the band", [5.0 + 0.0015 * i for i in range(60)], False, "drifting"),
        ("drift too slow to matter", [5.0 + 0.0001 * i for i in range(60)], True, "stable"),
        ("not numbers", [5.0] * 59 + [math.nan], False, "not numbers"),
    ],
)
def test_judge(name, values, stable, reason):
    t, v = series(values)
    verdict = judge(t, v, RULE)
    assert verdict.stable is stable, name
    assert reason in verdict.reason


def test_mean_leaves_out_the_outlier():
    t, v = series([5.0] * 30 + [50.0] + [5.0] * 29)
    verdict = judge(t, v, RULE)
    assert verdict.stable and verdict.rejected == 1
    assert verdict.mean == 5.0
    assert int(verdict.keep.sum()) == verdict.used == len(verdict.keep) - 1


def test_only_the_trailing_window_is_judged():
    t, v = series([0.0] * 100 + [5.0] * 45)  # the step is older than the window
    verdict = judge(t, v, RULE)
    assert verdict.stable and verdict.mean == 5.0
    assert verdict.start == 145 - len(verdict.keep)


def test_first_stable_finds_the_settled_point():
    t, v = series([0.0] * 10 + [20.0 * (1 - math.exp(-i / 8.0)) for i in range(150)])
    found = first_stable(t, v, RULE)
    assert found is not None
    end, verdict = found
    assert abs(verdict.mean - 20.0) < RULE.band
    assert first_stable(t[: end - 1], v[: end - 1], RULE) is None


def test_rule_rejects_nonsense():
    with pytest.raises(ValueError):
        StabilityRule(band=0)
    with pytest.raises(ValueError):
        StabilityRule(band=1, min_samples=1)
    with pytest.raises(ValueError):
        judge([0.0, 1.0], [1.0], RULE)


def test_scaled_rule_is_the_same_rule_in_other_units():
    counts = RULE.scaled(2150.0)
    t, v = series([5.0] * 30 + [5.08] * 30)
    assert judge(t, v, RULE).stable == judge(t, v * 2150.0, counts).stable


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e4, 1e4, allow_nan=False), min_size=0, max_size=120))
def test_a_stable_verdict_means_every_used_reading_is_inside_the_band(values):
    t, v = series(values)
    verdict = judge(t, v, RULE)
    if verdict.stable:
        window = v[verdict.start :]
        used = window[verdict.keep]
        assert used.max() - used.min() <= 2 * RULE.band + 1e-9
        assert abs(verdict.mean - float(np.median(window))) <= RULE.band + 1e-9
        assert verdict.keep[-1]


@settings(max_examples=100, deadline=None)
@given(st.floats(-1000, 1000), st.integers(0, 2**32 - 1))
def test_noise_well_inside_the_band_is_stable(level, seed):
    rng = np.random.default_rng(seed)
    v = level + rng.normal(0, 0.01, len(T80))
    assert judge(T80, v, RULE).stable


@pytest.mark.parametrize(
    "zero, net, stable, dt, expected",
    [
        (0.0, 0.02, True, 0.5, 0.02),  # small drift near zero: followed
        (0.0, 0.04, True, 0.1, 0.005),  # at most rate x dt
        (0.0, -0.04, True, 0.1, -0.005),
        (0.0, 0.2, True, 0.5, 0.0),  # a real (small) load: not tracked away
        (0.0, 0.02, False, 0.5, 0.0),  # never while moving
        (0.0, 0.02, True, 0.0, 0.0),
        (39.99, 0.04, True, 1.0, 40.0),  # never beyond 4 % of capacity in all
    ],
)
def test_track_zero(zero, net, stable, dt, expected):
    rule = ZeroTracking(band=0.05, rate=0.05, limit=40.0)
    assert track_zero(zero, 0.0, net, stable, dt, rule) == pytest.approx(expected)


@settings(max_examples=200, deadline=None)
@given(
    st.floats(-100, 100),
    st.floats(-100, 100),
    st.floats(-1e3, 1e3),
    st.booleans(),
    st.floats(0, 10),
)
def test_zero_tracking_stays_within_its_limits(zero, reference, net, stable, dt):
    rule = ZeroTracking(band=0.05, rate=0.05, limit=40.0)
    new = track_zero(zero, reference, net, stable, dt, rule)
    if not stable or abs(net) > rule.band:
        assert new == zero
    else:
        assert abs(new - zero) <= rule.rate * dt + 1e-9 or abs(new - reference) <= rule.limit + 1e-9


@pytest.mark.parametrize(
    "std, n, noise, cal, tare, expected",
    [
        (0.02, 4, 0.0, 0.0, 0.0, 0.01),
        (0.0, 4, 0.02, 0.0, 0.0, 0.01),  # never below the expected noise
        (0.02, 4, 0.0, 0.03, 0.04, math.sqrt(0.01**2 + 0.03**2 + 0.04**2)),
        (math.nan, 1, 0.01, 0.0, 0.0, 0.01),
    ],
)
def test_combined_uncertainty(std, n, noise, cal, tare, expected):
    assert combined_uncertainty(std, n, noise, cal, tare) == pytest.approx(expected)


def test_combined_uncertainty_needs_readings():
    with pytest.raises(ValueError):
        combined_uncertainty(0.1, 0, 0.0, 0.0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=50))
def test_fsum_mean_ignores_order(values):
    assert fsum_mean(values) == fsum_mean(list(reversed(values)))
