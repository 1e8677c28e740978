"""OIML R76 class III: the permissible error table and the verdict."""

from __future__ import annotations

import pytest

from companion.scale.oiml import class_iii_verdict, mpe_class_iii


@pytest.mark.parametrize(
    "load, e, mpe",
    [
        (0.0, 0.1, 0.05),
        (50.0, 0.1, 0.05),  # 500 e: still the first band
        (50.1, 0.1, 0.1),
        (200.0, 0.1, 0.1),  # 2,000 e
        (200.1, 0.1, 0.15),
        (1000.0, 0.1, 0.15),
        (-30.0, 0.1, 0.05),  # below zero (after tare) by its size
        (499.0, 1.0, 0.5),
        (2500.0, 1.0, 1.5),
    ],
)
def test_mpe_class_iii(load, e, mpe):
    assert mpe_class_iii(load, e) == pytest.approx(mpe)


def test_mpe_needs_a_positive_interval():
    with pytest.raises(ValueError):
        mpe_class_iii(10.0, 0.0)


@pytest.mark.parametrize(
    "capacity, e, errors, spreads, passed, failure",
    [
        (1000.0, 0.1, [(0.0, 0.01), (500.0, -0.1)], [], True, None),
        (1000.0, 0.1, [(0.0, 0.06)], [], False, "error +0.0600 g at 0 g"),
        (1000.0, 0.1, [(100.0, 0.0)], [(100.0, 0.11)], False, "repeatability"),
        (1000.0, 0.05, [(0.0, 0.0)], [], False, "finer than class III"),
        (5000.0, 0.1, [(0.0, 0.0)], [], False, "outside class III"),
        (5.0, 0.1, [(0.0, 0.0)], [], False, "outside class III"),  # 50 intervals: too few
        (1000.0, 0.1, [], [], False, "no calibration points"),
    ],
)
def test_class_iii_verdict(capacity, e, errors, spreads, passed, failure):
    verdict = class_iii_verdict(capacity, e, errors, spreads)
    assert verdict.passed is passed
    if failure:
        assert any(failure in f for f in verdict.failures)
    assert verdict.to_json()["class"] == "III"
