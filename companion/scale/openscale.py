"""``openscale://PORT``: a SparkFun OpenScale board's text output.

The board prints one reading per line, ``[ms,]weight,lbs|kg,[raw,][tempC,]`` then CR LF
(a trailing comma; the optional fields depend on its menu settings), at 9600 baud by
default. The board does its own calibration, so Purser takes its weight as gross grams
and keeps it, in milligrams, as the "raw counts" of each weighing; calibrate the board
from its own menu (``x`` opens it). Settings: ``baud`` (9600), ``rate`` (the board's
report rate, 10 by default, used to size the stability window), ``capacity`` and
``interval`` in grams.

A line that does not parse is dropped and starts a new segment (a reading may have been
lost with it), as does a jump in the board's millisecond clock.
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass

import serial

from companion.scale.errors import ScaleNotFound, ScaleProtocolError, ScaleTimeout, ScaleUsageError
from companion.scale.profile import Calibration
from companion.scale.registry import ScaleURL
from companion.scale.serial_port import SerialPortScale

log = logging.getLogger(__name__)

GRAMS_PER = {"kg": 1000.0, "lbs": 453.59237}
_NUMBER = re.compile(r"-?\d+(\.\d+)?")
_INT = re.compile(r"-?\d+")
MAX_LINE = 80


@dataclass(frozen=True)
class OpenScaleLine:
    """One decoded line: ``grams`` (from its unit), and the optional fields."""

    grams: float
    ms: int | None = None
    raw: int | None = None
    temp_c: float | None = None


def parse_line(line: bytes | str) -> OpenScaleLine:
    """Decode ``[ms,]weight,lbs|kg,[raw,][tempC,]``.

    Raises:
        ScaleProtocolError: anything else (a menu, garbage, a cut line).
    """
    text = line.decode("ascii", "replace") if isinstance(line, bytes) else line
    text = text.strip()
    if not text or len(text) > MAX_LINE:
        raise ScaleProtocolError("not an OpenScale reading (empty or too long)")
    fields = text.split(",")
    if fields and fields[-1] == "":
        fields.pop()
    units = [i for i, f in enumerate(fields) if f.strip() in GRAMS_PER]
    if len(units) != 1 or units[0] not in (1, 2):
        raise ScaleProtocolError(f"not an OpenScale reading: {text[:40]!r}")
    u = units[0]
    before, unit, after = fields[:u], fields[u].strip(), [f.strip() for f in fields[u + 1 :]]
    if not all(_NUMBER.fullmatch(f.strip()) for f in before + after):
        raise ScaleProtocolError(f"not an OpenScale reading: {text[:40]!r}")
    ms = None
    if len(before) == 2:
        if not _INT.fullmatch(before[0].strip()) or int(before[0]) < 0:
            raise ScaleProtocolError(f"the OpenScale time field is not a count of ms: {before[0]!r}")
        ms = int(before[0])
    weight = float(before[-1])
    raw = temp = None
    if len(after) > 2:
        raise ScaleProtocolError(f"an OpenScale reading has too many fields: {text[:40]!r}")
    if len(after) == 2:
        if not _INT.fullmatch(after[0]):
            raise ScaleProtocolError("the OpenScale raw field is not a whole number")
        raw, temp = int(after[0]), float(after[1])
    elif len(after) == 1:
        if _INT.fullmatch(after[0]):
            raw = int(after[0])
        else:
            temp = float(after[0])
    grams = weight * GRAMS_PER[unit]
    if not math.isfinite(grams):
        raise ScaleProtocolError("the OpenScale weight is not a number")
    return OpenScaleLine(grams=grams, ms=ms, raw=raw, temp_c=temp)


class OpenScaleScale(SerialPortScale[serial.SerialBase]):
    """A SparkFun OpenScale on a serial port (see the module docstring)."""

    backend = "openscale"

    def __init__(
        self,
        url: str,
        port: str,
        *,
        baud: int = 9600,
        rate: int = 10,
        capacity_g: float = 1000.0,
        interval_g: float = 0.1,
        first_line_s: float = 3.0,
    ) -> None:
        cal = Calibration(
            counts_per_gram=1000.0,
            zero_counts=0.0,
            sigma_g=0.5 * interval_g,
            interval_g=interval_g,
            capacity_g=capacity_g,
            device_id=f"openscale-{port}",
            channel=0,
            source="board",
        )
        self._start_port(port, baud, "the OpenScale")
        self._last_ms: int | None = None
        self._buf = bytearray()
        self.garbled = 0
        self._port = self._open_port()
        super().__init__(url, [cal], rate_sps=rate, device_id=cal.device_id, persist_zero=True)
        self._start_reader(f"openscale-{port}")
        try:
            next(self.fresh_samples(timeout=first_line_s))
        except ScaleTimeout as exc:
            self.close()
            raise ScaleNotFound(f"no OpenScale readings on {port} (is it set to {baud} baud and printing?)") from exc

    def noise_g(self, channel: int = 0) -> float:
        """The board rounds its output: a quarter interval is assumed as its noise."""
        return 0.25 * self.calibration(channel).interval_g

    def _live_port(self) -> serial.SerialBase:
        return self._port

    def _received(self, chunk: bytes) -> None:
        buf = self._buf
        for byte in chunk:
            if byte in (0x0A, 0x0D):
                if buf:
                    self._line(bytes(buf))
                buf.clear()
            elif len(buf) < MAX_LINE:
                buf.append(byte)
            else:
                buf.clear()
                self._segment += 1

    def _reopen(self) -> serial.SerialBase:
        return self._open_port()

    def _resume(self, opened: serial.SerialBase) -> None:
        self._port = opened
        self._last_ms = None
        self._buf.clear()

    def _line(self, line: bytes) -> None:
        self._last_line = time.monotonic()
        try:
            rec = parse_line(line)
        except ScaleProtocolError as exc:
            self.garbled += 1
            self._segment += 1
            log.debug("ignored an OpenScale line: %s", exc)
            return
        if rec.ms is not None and self._last_ms is not None:
            step = rec.ms - self._last_ms
            if step <= 0 or step > 3000.0 / max(self.rate_sps, 1):
                self._segment += 1
        self._last_ms = rec.ms
        sample = self._make_sample(time.monotonic(), 0, round(rec.grams * 1000.0), segment=self._segment)
        self._put(sample)

    def _message(self) -> str:
        return "" if self._connected() else f"No readings from the OpenScale on {self.port_name}"


def open_openscale(url: ScaleURL) -> OpenScaleScale:
    """Build an :class:`OpenScaleScale` from ``openscale://PORT``.

    Raises:
        ScaleNotFound: the port is missing or prints no readings.
    """
    baud = url.integer("baud", 9600, lo=300, hi=4_000_000)
    rate = url.integer("rate", 10, lo=1, hi=100)
    capacity = url.number("capacity", 1000.0, 1.0, 1e6)
    interval = url.number("interval", max(0.1, capacity / 10000.0), 1e-4, capacity)
    url.check_all_used()
    if not url.port:
        raise ScaleUsageError("openscale:// needs a port, e.g. openscale:///dev/ttyUSB0")
    return OpenScaleScale(url.url, url.port, baud=baud, rate=rate, capacity_g=capacity, interval_g=interval)
