"""Calibration profiles and kept tares in the user's data folder."""

from __future__ import annotations

import json

import pytest

from companion.scale import ScaleError
from companion.scale.profile import (
    Calibration,
    SavedProfile,
    load_calibration,
    load_zero,
    profile_path,
    read_profile,
    save_profile,
    save_zero,
)

CAL = Calibration(
    counts_per_gram=2150.123, zero_counts=84000.5, sigma_g=0.01, device_id="bal/01", channel=1, created="2024-01-01"
)


def test_save_and_load_round_trip():
    path = save_profile(SavedProfile(CAL, {"note": 1}))
    assert path == profile_path("bal/01", 1)
    assert "/" not in path.name
    assert read_profile(path) == SavedProfile(CAL, {"note": 1})
    assert load_calibration("bal/01", 1) == CAL
    assert load_calibration("bal/01", 0) is None


def test_ids_are_short_and_follow_the_numbers():
    assert len(CAL.id) <= 12 and CAL.id.startswith("cal-")
    other = Calibration(counts_per_gram=2150.124, zero_counts=84000.5, sigma_g=0.01, device_id="bal/01", channel=1)
    assert other.id != CAL.id


@pytest.mark.parametrize(
    "content, message",
    [
        ("{", "damaged"),
        ("[]", "not a Purser calibration"),
        ('{"format": "purser-scale-calibration", "version": 2}', "newer"),
        (
            '{"format": "purser-scale-calibration", "version": 1, "calibration": {"counts_per_gram": 0}}',
            "damaged|non-zero",
        ),
    ],
)
def test_damaged_profiles_are_refused_and_ignored_when_loading(content, message):
    path = profile_path("bal/01", 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content)
    with pytest.raises(ScaleError, match=message):
        read_profile(path)
    assert load_calibration("bal/01", 1) is None


@pytest.mark.parametrize(
    "kwargs", [{"counts_per_gram": 0.0}, {"counts_per_gram": float("nan")}, {"sigma_g": -1.0}, {"interval_g": 0.0}]
)
def test_impossible_calibrations_are_refused(kwargs):
    base = {"counts_per_gram": 100.0, "zero_counts": 0.0, "sigma_g": 0.0}
    with pytest.raises(ScaleError):
        Calibration(**{**base, **kwargs})


def test_a_tare_is_kept_only_for_the_same_calibration():
    save_zero("bal", 0, "cal-1", 12.5)
    assert load_zero("bal", 0, "cal-1") == 12.5
    assert load_zero("bal", 0, "cal-2") is None
    assert load_zero("bal", 1, "cal-1") is None


def test_grams_and_counts_are_inverse():
    assert CAL.grams(CAL.counts(123.456)) == pytest.approx(123.456)
    assert json.loads(json.dumps(CAL.to_json())) == CAL.to_json()
