"""The Raspberry Pi HX711 backend: a clear error off a Pi, a timeout around a stuck chip."""

from __future__ import annotations

import threading

import pytest

from companion.scale import ScaleError, ScaleFault, ScaleNotFound, open_scale
from companion.scale.hx711_pi import HX711Scale
from companion.scale.profile import Calibration, SavedProfile, save_profile


def test_off_a_pi_the_error_says_what_to_install():
    with pytest.raises(ScaleNotFound, match=r"purser\[pi\]"):
        open_scale("hx711://?dout=5&sck=6")


@pytest.mark.parametrize(
    "url, message",
    [
        ("hx711://", "needs its GPIO pins"),
        ("hx711://?dout=5&sck=5", "two different pins"),
        ("hx711://?dout=5&sck=6&gain=32", "gain"),
    ],
)
def test_bad_pins_are_refused(url, message):
    with pytest.raises(ScaleError, match=message):
        open_scale(url)


class StuckChip:
    """Stands in for the third-party ``hx711.HX711`` whose reads never return without a chip."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs
        self.release = threading.Event()

    def get_raw_data(self, num_measures=1):
        self.release.wait(30)
        return [0]


class SteadyChip:
    """Stands in for ``hx711.HX711`` on a chip that reads a constant load."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs

    def get_raw_data(self, num_measures=1):
        threading.Event().wait(0.01)
        return [100_000 + 2150 * 20]


def test_a_stuck_chip_is_a_fault_within_the_timeout():
    scale = HX711Scale("hx711://?dout=5&sck=6", 5, 6, driver=StuckChip)
    try:
        save_profile(SavedProfile(Calibration(2150.0, 100_000.0, 0.01, device_id="hx711-5-6")))
        scale.set_calibration(Calibration(2150.0, 100_000.0, 0.01, device_id="hx711-5-6"))
        with pytest.raises(ScaleFault, match="no amplifier answers"):
            scale.weigh_stable(timeout=5.0)
    finally:
        scale._chip.release.set()
        scale.close()


def test_readings_from_the_chip_are_weighed_with_the_saved_profile():
    save_profile(SavedProfile(Calibration(2150.0, 100_000.0, 0.01, device_id="hx711-5-6")))
    scale = HX711Scale("hx711://?dout=5&sck=6", 5, 6, driver=SteadyChip)
    try:
        assert scale._chip.kwargs == {"dout_pin": 5, "pd_sck_pin": 6, "gain": 128, "channel": "A"}
        assert scale.weigh_stable(timeout=10.0).grams == pytest.approx(20.0)
    finally:
        scale.close()


def test_an_uncalibrated_chip_gives_no_weight():
    scale = HX711Scale("hx711://?dout=5&sck=6", 5, 6, driver=SteadyChip)
    try:
        with pytest.raises(ScaleError, match="not calibrated"):
            scale.weigh_stable(timeout=5.0)
    finally:
        scale.close()
