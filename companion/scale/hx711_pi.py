"""``hx711://?dout=5&sck=6``: an HX711 wired straight to a Raspberry Pi's GPIO pins.

Uses the PyPI ``hx711`` package (install Purser with the ``pi`` extra), imported only
when this backend is opened: it needs RPi.GPIO, which only imports on a Pi. Its reads
block forever when the chip does not answer, so they run in a worker thread and every
wait for them has a timeout; a silent chip becomes fault readings, never a hang.

Settings: ``dout`` and ``sck`` (BCM pin numbers, required), ``gain`` 128 or 64 (input A),
``rate`` 10 or 80 (how the RATE pin is wired), ``capacity`` and ``interval`` (grams).
The calibration is a saved profile for device ``hx711-<dout>-<sck>``, made with
``purser calibrate scale hx711://?dout=5&sck=6``.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from typing import Any

from companion.scale.base import Sample
from companion.scale.errors import ScaleNotFound, ScaleUsageError
from companion.scale.profile import load_calibration, nominal
from companion.scale.registry import ScaleURL
from companion.scale.simcell import RAW_MAX, RAW_MIN
from companion.scale.threaded import ThreadedScale

log = logging.getLogger(__name__)

#: Longest a single conversion may take before the chip counts as not answering (s).
READ_TIMEOUT_S = 1.0


def load_driver() -> Any:
    """The ``hx711.HX711`` class.

    Raises:
        ScaleNotFound: the package or RPi.GPIO is missing (not a Pi, or no ``pi`` extra).
    """
    try:
        module = importlib.import_module("hx711")
        return module.HX711
    except (ImportError, RuntimeError, AttributeError) as exc:
        raise ScaleNotFound(
            "the hx711:// balance needs a Raspberry Pi with Purser's `pi` extra installed "
            "(pip install 'purser[pi]'), which brings the hx711 and RPi.GPIO packages; "
            f"here it could not be loaded ({exc})"
        ) from exc


class HX711Scale(ThreadedScale):
    """One HX711 on GPIO pins, read through the ``hx711`` package in a worker thread."""

    backend = "hx711"
    poll_s = READ_TIMEOUT_S
    #: A read may block forever on a silent chip: closing does not wait for the thread,
    #: which ends after its current read.
    join_s = None

    def __init__(
        self,
        url: str,
        dout: int,
        sck: int,
        *,
        gain: int = 128,
        rate: int = 10,
        capacity_g: float = 1000.0,
        driver: Any = None,
    ) -> None:
        device_id = f"hx711-{dout}-{sck}"
        cal = load_calibration(device_id, 0) or nominal(0, device_id, capacity_g)
        super().__init__(url, [cal], rate_sps=rate, device_id=device_id, persist_zero=True)
        self._start_queue(closed="the HX711 balance is closed", no_reading="no reading from the HX711")
        self._last_ok = time.monotonic()
        factory = driver or load_driver()
        box: dict[str, Any] = {}

        def build() -> None:
            try:
                box["chip"] = factory(dout_pin=dout, pd_sck_pin=sck, gain=gain, channel="A")
            except Exception as exc:  # the package raises bare Exceptions of its own
                box["error"] = exc

        worker = threading.Thread(target=build, daemon=True)
        worker.start()
        worker.join(READ_TIMEOUT_S * 3)
        if "chip" not in box:
            why = box.get("error", "it did not answer")
            raise ScaleNotFound(f"no HX711 on GPIO pins dout={dout}, sck={sck}: {why}")
        self._chip = box["chip"]
        self._start_reader(f"hx711-{dout}-{sck}")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                values = self._chip.get_raw_data(num_measures=1)
            except Exception as exc:  # a glitch on the pins: report it as a fault, keep going
                log.debug("hx711 read failed: %s", exc)
                values = None
            now = time.monotonic()
            if not values or values is False or not isinstance(values[0], int):
                self._segment += 1
                self._put(self._make_sample(now, 0, None, fault=True, segment=self._segment))
                continue
            raw = int(values[0])
            self._last_ok = now
            saturated = raw >= RAW_MAX or raw <= RAW_MIN
            self._put(self._make_sample(now, 0, raw, saturated=saturated, segment=self._segment))

    def _stalled(self) -> Sample | None:
        if time.monotonic() - self._last_ok > READ_TIMEOUT_S:
            # The package is stuck waiting for the chip: that is a fault, not a weight.
            self._segment += 1
            return self._make_sample(time.monotonic(), 0, None, fault=True, segment=self._segment)
        return None


def open_hx711(url: ScaleURL) -> HX711Scale:
    """Build an :class:`HX711Scale` from ``hx711://?dout=N&sck=N``.

    Raises:
        ScaleError: pins missing. ScaleNotFound: not a Pi, no ``pi`` extra, or no chip.
    """
    dout = url.integer("dout", -1, lo=-1, hi=40)
    sck = url.integer("sck", -1, lo=-1, hi=40)
    gain = url.integer("gain", 128, choices=(128, 64))
    rate = url.integer("rate", 10, choices=(10, 80))
    capacity = url.number("capacity", 1000.0, 1.0, 1e6)
    url.check_all_used()
    if dout < 0 or sck < 0:
        raise ScaleUsageError("hx711:// needs its GPIO pins, e.g. hx711://?dout=5&sck=6 (BCM numbers)")
    if dout == sck:
        raise ScaleUsageError("hx711:// needs two different pins for dout and sck")
    return HX711Scale(url.url, dout, sck, gain=gain, rate=rate, capacity_g=capacity)
