"""What every streaming balance shares: calibration, tare, zero tracking, stable weighing.

A backend subclasses :class:`StreamScale` and supplies :meth:`StreamScale._read` (the next
reading, by a deadline on the scale's clock); everything a caller uses -- ``weigh_stable``,
``tare``, ``readings`` -- is built here once, on :mod:`companion.scale.stable`.
"""

from __future__ import annotations

import abc
import logging
import math
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from companion.scale.base import Sample, Scale, ScaleStatus, Weighing
from companion.scale.errors import ScaleError, ScaleFault, ScaleTimeout
from companion.scale.profile import Calibration, load_zero, save_zero
from companion.scale.stable import StabilityRule, Verdict, ZeroTracking, combined_uncertainty, judge, track_zero

log = logging.getLogger(__name__)

#: HX711 input noise in ADC counts rms (datasheet: 50 nV at 10 SPS, 90 nV at 80 SPS, on a
#: +-20 mV full scale of 2^23 counts at gain 128).
DATASHEET_NOISE_COUNTS = {10: 21.0, 80: 38.0}

#: How long a fault or saturation may last before a weighing gives up on it (s).
FAULT_GRACE_S = 0.5


@dataclass(frozen=True)
class Reading:
    """A sample as a caller sees it: net grams (after tare), and whether the load is stable."""

    sample: Sample
    net_g: float | None
    stable: bool
    reason: str

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``scale watch --json``."""
        s = self.sample
        return {
            "t": round(s.t, 4),
            "channel": s.channel,
            "raw": s.raw,
            "grams": None if self.net_g is None else round(self.net_g, 4),
            "stable": self.stable,
            "reason": self.reason,
            "saturated": s.saturated,
            "fault": s.fault,
        }


@dataclass
class _Channel:
    """Running state of one pan."""

    calibration: Calibration
    zero_g: float = 0.0
    reference_g: float = 0.0
    tare_sigma_g: float = 0.0
    times: deque[float] = field(default_factory=deque)
    grams: deque[float] = field(default_factory=deque)
    raws: deque[int] = field(default_factory=deque)
    segment: int | None = None
    fault_since: float | None = None
    last: Sample | None = None
    verdict: Verdict | None = None
    tracked_at: float | None = None

    def clear(self) -> None:
        self.times.clear()
        self.grams.clear()
        self.raws.clear()
        self.verdict = None


class StreamScale(Scale):
    """A balance that delivers a stream of :class:`Sample` readings.

    Subclasses set ``backend`` and implement :meth:`_read`; they may override :meth:`_now`
    (a virtual clock), :meth:`_flush` (drop readings buffered before a weighing),
    :meth:`_connected`, :meth:`_message` and :meth:`_on_tare`.
    """

    backend: str = ""

    def __init__(
        self,
        url: str,
        calibrations: Sequence[Calibration],
        *,
        rate_sps: int = 80,
        device_id: str = "",
        window_s: float = 0.5,
        zero_tracking: bool = True,
        persist_zero: bool = False,
    ) -> None:
        if not calibrations:
            raise ValueError("a balance has at least one channel")
        self.url = url
        self.channels = len(calibrations)
        self.rate_sps = rate_sps
        self.device_id = device_id
        self.window_s = window_s
        self.zero_tracking = zero_tracking
        self._lock = threading.RLock()
        self._ch = [_Channel(c) for c in calibrations]
        self.persist_zero = persist_zero
        self._closed = False
        if persist_zero:
            for index, ch in enumerate(self._ch):
                kept = load_zero(device_id, index, ch.calibration.id)
                if kept is not None:
                    ch.zero_g = ch.reference_g = kept

    # -- what a backend provides -------------------------------------------------------

    @abc.abstractmethod
    def _read(self, deadline: float) -> Sample:
        """The next reading, no later than ``deadline`` (scale clock).

        Raises:
            ScaleTimeout: nothing arrived by the deadline.
            ScaleError: the balance is gone for good.
        """

    def _now(self) -> float:
        """The scale's clock (s): monotonic time, or the simulator's virtual time."""
        return time.monotonic()

    def _flush(self) -> None:
        """Forget readings that arrived before now (a backend with a buffer overrides this)."""

    def _connected(self) -> bool:
        return not self._closed

    def _message(self) -> str:
        return ""

    def _on_tare(self, channel: int, zero_g: float) -> None:
        """Called after a tare: a hardware balance keeps it for the next run."""
        if self.persist_zero and self.device_id:
            save_zero(self.device_id, channel, self._ch[channel].calibration.id, zero_g)

    # -- calibration ---------------------------------------------------------------------

    def calibration(self, channel: int = 0) -> Calibration:
        """The calibration in force on ``channel``."""
        return self._ch[self._check_channel(channel)].calibration

    def set_calibration(self, calibration: Calibration, channel: int | None = None) -> None:
        """Use ``calibration`` on its channel from now on (the tare is reset to its zero)."""
        index = self._check_channel(calibration.channel if channel is None else channel)
        with self._lock:
            ch = self._ch[index]
            ch.calibration = calibration
            ch.zero_g = ch.reference_g = ch.tare_sigma_g = 0.0
            ch.clear()

    def noise_g(self, channel: int = 0) -> float:
        """Expected reading noise (grams rms) from the HX711 datasheet at this rate."""
        cal = self.calibration(channel)
        counts = DATASHEET_NOISE_COUNTS.get(self.rate_sps, DATASHEET_NOISE_COUNTS[80])
        return counts / abs(cal.counts_per_gram)

    def stability_rule(self, channel: int = 0) -> StabilityRule:
        """The motion band and window used on ``channel`` (grams, seconds).

        The band is one scale interval, widened to four times the expected noise on a
        balance too noisy to be read to its interval.
        """
        cal = self.calibration(channel)
        noise = self.noise_g(channel)
        return StabilityRule(band=max(cal.interval_g, 4.0 * noise), window_s=self.window_s, noise=noise)

    def zero_tracking_rule(self, channel: int = 0) -> ZeroTracking:
        """Zero tracking limits: within half an interval of zero, half an interval per
        second, 4 % of capacity in all (OIML R76)."""
        cal = self.calibration(channel)
        return ZeroTracking(band=0.5 * cal.interval_g, rate=0.5 * cal.interval_g, limit=0.04 * cal.capacity_g)

    def _make_sample(
        self, t: float, channel: int, raw: int, *, saturated: bool = False, fault: bool = False, segment: int = 0
    ) -> Sample:
        """A sample with gross grams from the channel's calibration (none when faulty).

        A load above capacity + 9 e counts as saturated: no weight is shown beyond it (OIML R76).
        """
        cal = self._ch[channel].calibration
        grams = None if (fault or saturated) else cal.grams(raw)
        if grams is not None and grams > cal.capacity_g + 9 * cal.interval_g:
            grams, saturated = None, True
        return Sample(t=t, channel=channel, raw=raw, grams=grams, saturated=saturated, fault=fault, segment=segment)

    # -- the stream ----------------------------------------------------------------------

    def _check_channel(self, channel: int) -> int:
        if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel < self.channels:
            pans = "one pan (0)" if self.channels == 1 else f"{self.channels} pans (0-{self.channels - 1})"
            raise ScaleError(f"this balance has {pans}; there is no pan {channel!r}")
        return channel

    def _feed(self, sample: Sample) -> Reading:
        """Take one reading into its channel's window and judge it."""
        if not 0 <= sample.channel < self.channels:
            log.warning("reading for pan %s ignored: this balance has %d", sample.channel, self.channels)
            return Reading(sample, None, False, "no such pan")
        ch = self._ch[sample.channel]
        ch.last = sample
        if sample.fault or sample.saturated or sample.grams is None or not math.isfinite(sample.grams):
            ch.clear()
            if ch.fault_since is None:
                ch.fault_since = sample.t
            reason = "overloaded (reading saturated)" if sample.saturated else "load cell fault (no reading)"
            return Reading(sample, None, False, reason)
        ch.fault_since = None
        if sample.segment != ch.segment:
            ch.clear()
            ch.segment = sample.segment
        ch.times.append(sample.t)
        ch.grams.append(sample.grams)
        ch.raws.append(sample.raw)
        horizon = sample.t - 2.0 * self.window_s
        while ch.times and ch.times[0] < horizon:
            ch.times.popleft()
            ch.grams.popleft()
            ch.raws.popleft()
        verdict = judge(list(ch.times), list(ch.grams), self.stability_rule(sample.channel))
        ch.verdict = verdict
        if verdict.stable and self.zero_tracking:
            dt = self.window_s if ch.tracked_at is None else min(self.window_s, sample.t - ch.tracked_at)
            ch.tracked_at = sample.t
            ch.zero_g = track_zero(
                ch.zero_g, ch.reference_g, verdict.mean - ch.zero_g, True, dt, self.zero_tracking_rule(sample.channel)
            )
        return Reading(sample, sample.grams - ch.zero_g, verdict.stable, verdict.reason)

    def now(self) -> float:
        """The scale's clock (s): monotonic time, or the simulator's virtual time."""
        return self._now()

    def fresh_samples(self, channel: int | None = None, timeout: float = 2.0) -> Iterator[Sample]:
        """Readings that arrive from now on (only ``channel``'s, if given), until the caller stops.

        Raises:
            ScaleTimeout: no reading within ``timeout`` s.
        """
        with self._lock:
            self._flush()
            start = self._now()
        while True:
            with self._lock:
                sample = self._read(self._now() + timeout)
                self._feed(sample)
            if sample.t < start or (channel is not None and sample.channel != channel):
                continue
            yield sample

    def write_calibration(self, calibration: Calibration) -> bool:
        """Store ``calibration`` in the balance itself; False when the balance cannot keep one."""
        return False

    def samples(self, timeout: float = 2.0) -> Iterator[Sample]:
        """Live readings as they arrive; raises ``ScaleTimeout`` if none within ``timeout`` s."""
        for reading in self.readings(timeout):
            yield reading.sample

    def readings(self, timeout: float = 2.0) -> Iterator[Reading]:
        """Live readings with net grams and the stable flag, until the caller stops.

        Raises:
            ScaleTimeout: no reading within ``timeout`` s.
            ScaleError: the balance is gone.
        """
        while True:
            with self._lock:
                sample = self._read(self._now() + timeout)
                reading = self._feed(sample)
            yield reading

    # -- weighing --------------------------------------------------------------------------

    def weigh_stable(self, timeout: float = 10.0, channel: int = 0) -> Weighing:
        """Wait for a stable load on ``channel`` and return it (net of the tare).

        Only readings that arrive after the call count, and all come from one unbroken
        segment, so a weight is never made of readings from before and after a gap.

        Raises:
            ScaleTimeout: no stable weight within ``timeout`` seconds.
            ScaleFault: the chip is faulty or saturated (never a number then).
            ScaleError: the balance is gone.
        """
        channel = self._check_channel(channel)
        cal = self.calibration(channel)
        if cal.source == "nominal":
            raise ScaleError(
                "this balance is not calibrated, so its weights cannot be trusted: "
                "run `purser calibrate scale` with a few known masses first"
            )
        return self._weigh(timeout, channel)

    def _weigh(self, timeout: float, channel: int) -> Weighing:
        with self._lock:
            self._flush()
            ch = self._ch[channel]
            ch.clear()
            ch.fault_since = None
            start = self._now()
            deadline = start + timeout
            while True:
                try:
                    sample = self._read(deadline)
                except ScaleTimeout as exc:
                    raise self._no_weight(channel, timeout) from exc
                if sample.t < start:
                    continue
                reading = self._feed(sample)
                if sample.channel != channel:
                    continue
                if ch.fault_since is not None and sample.t - ch.fault_since >= FAULT_GRACE_S:
                    raise self._fault_error(channel, reading.reason)
                if reading.stable and ch.verdict is not None:
                    return self._weighing(channel, ch.verdict)

    def _weighing(self, channel: int, verdict: Verdict) -> Weighing:
        ch = self._ch[channel]
        raws = list(ch.raws)[verdict.start:]
        used = tuple(int(r) for r, k in zip(raws, verdict.keep) if k)
        cal = ch.calibration
        uncertainty = combined_uncertainty(
            verdict.std, verdict.used, self.noise_g(channel), cal.sigma_g, ch.tare_sigma_g
        )
        return Weighing(
            grams=verdict.mean - ch.zero_g,
            uncertainty_g=uncertainty,
            samples=verdict.used,
            channel=channel,
            calibration=cal.id,
            raw_counts=used,
            backend=self.backend,
            taken_at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
            tare_g=ch.zero_g,
        )

    def _no_weight(self, channel: int, timeout: float) -> ScaleError:
        ch = self._ch[channel]
        if ch.fault_since is not None and ch.last is not None:
            return self._fault_error(channel, "overloaded (reading saturated)" if ch.last.saturated else "load cell fault")
        if not self._connected():
            return ScaleTimeout(
                f"the balance was disconnected and no steady weight came within {timeout:g} s: "
                "check its cable, then weigh again"
            )
        why = ch.verdict.reason if ch.verdict is not None else "no readings arrived"
        pan = f" on pan {channel}" if self.channels > 1 else ""
        return ScaleTimeout(
            f"no steady weight{pan} within {timeout:g} s ({why}): keep hands and the table still, then weigh again"
        )

    def _fault_error(self, channel: int, reason: str) -> ScaleFault:
        pan = f"pan {channel}" if self.channels > 1 else "the pan"
        if "overloaded" in reason:
            cal = self._ch[channel].calibration
            return ScaleFault(f"{pan} is overloaded: take some weight off (at most {cal.capacity_g:g} g)")
        return ScaleFault(f"the load cell of {pan} gives no reading: check its wires to the amplifier board")

    def tare(self, channel: int = 0, timeout: float = 10.0) -> None:
        """Set the current (stable) load on ``channel`` as zero.

        Raises:
            ScaleTimeout, ScaleFault: as :meth:`weigh_stable`.
        """
        with self._lock:
            weighing = self._weigh(timeout, self._check_channel(channel))
            ch = self._ch[channel]
            gross = weighing.grams + ch.zero_g
            ch.zero_g = ch.reference_g = gross
            spread = max(self.noise_g(channel), 0.0)
            ch.tare_sigma_g = spread / math.sqrt(max(weighing.samples, 1))
            ch.tracked_at = None
            log.info("pan %d tared at %.4f g gross", channel, gross)
            self._on_tare(channel, gross)

    def set_zero(self, channel: int, zero_g: float) -> None:
        """Restore a zero (gross grams) saved earlier, e.g. a tare kept between runs."""
        index = self._check_channel(channel)
        with self._lock:
            self._ch[index].zero_g = self._ch[index].reference_g = float(zero_g)

    def zero(self, channel: int = 0) -> float:
        """The zero in force on ``channel`` (gross grams)."""
        return self._ch[self._check_channel(channel)].zero_g

    # -- status ------------------------------------------------------------------------------

    def status(self) -> ScaleStatus:
        """Connected, simulated, chip fault, saturated, unstable, and a message for a banner."""
        lasts = [c.last for c in self._ch]
        fault = any(s is not None and s.fault for s in lasts)
        saturated = any(s is not None and s.saturated for s in lasts)
        unstable = any(c.verdict is None or not c.verdict.stable for c in self._ch)
        return ScaleStatus(
            connected=self._connected(),
            simulated=self.simulated,
            chip_fault=fault,
            saturated=saturated,
            unstable=unstable,
            message=self._message(),
            extra={"backend": self.backend, "rate_sps": self.rate_sps},
        )

    def info(self) -> dict[str, Any]:
        """Backend, device, channels, rate and each channel's calibration, JSON-ready."""
        return {
            "backend": self.backend,
            "url": self.url,
            "device_id": self.device_id,
            "channels": self.channels,
            "rate_sps": self.rate_sps,
            "simulated": self.simulated,
            "calibrations": [c.calibration.to_json() for c in self._ch],
            "zero_g": [c.zero_g for c in self._ch],
            "message": self._message(),
        }

    def close(self) -> None:
        """Stop using the balance."""
        self._closed = True
