"""What every streaming balance shares: calibration, tare, zero tracking, stable weighing,
the noise each pan measures on itself, and the state of each pan.

A backend subclasses :class:`StreamScale` and supplies :meth:`StreamScale._read` (the next
reading, by a deadline on the scale's clock); everything a caller uses -- ``weigh_stable``,
``tare``, ``readings``, ``watch``, ``status`` -- is built here once, on
:mod:`companion.scale.stable` and :mod:`companion.scale.noise`.

Each pan stands alone: a pan whose amplifier is missing or overloaded says so (which pan,
which wire, what to try) while the other one weighs on.
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
from datetime import UTC, datetime
from typing import Any

import numpy as np

from companion.pans import pan_name
from companion.scale.base import PanStatus, Reading, Sample, Scale, ScaleStatus, Waiting, Weighing
from companion.scale.errors import ScaleError, ScaleFault, ScaleTimeout, ScaleUsageError
from companion.scale.noise import (
    DATASHEET_NOISE_COUNTS,
    NOISE_ADVICE,
    NOISY_RATIO,
    Diagnosis,
    NoiseMeter,
    RestTest,
    averaging_readings,
    diagnose,
)
from companion.scale.profile import Calibration, load_zero, save_zero
from companion.scale.stable import StabilityRule, Verdict, ZeroTracking, combined_uncertainty, judge, track_zero

__all__ = ["DATASHEET_NOISE_COUNTS", "FAULT_GRACE_S", "MAX_WINDOW_S", "Reading", "StreamScale"]

log = logging.getLogger(__name__)

#: How long a fault or saturation may last before a weighing gives up on it (s).
FAULT_GRACE_S = 0.5
#: The longest a weighing averages, however noisy the balance (s).
MAX_WINDOW_S = 4.0
#: The pins of the firmware's default wiring (``firmware/purser_balance/config.h``), which
#: the simulator names too.
DEFAULT_WIRING = ({"dout": "D2", "sck": "D3"}, {"dout": "D4", "sck": "D5"})


@dataclass
class _Channel:
    """Running state of one pan."""

    calibration: Calibration
    meter: NoiseMeter
    pace: int
    zero_g: float = 0.0
    reference_g: float = 0.0
    tare_sigma_g: float = 0.0
    times: deque[float] = field(default_factory=deque)
    grams: deque[float] = field(default_factory=deque)
    raws: deque[int] = field(default_factory=deque)
    intervals: deque[float] = field(default_factory=lambda: deque(maxlen=9))
    segment: int | None = None
    fault_since: float | None = None
    last: Sample | None = None
    last_good_t: float | None = None
    verdict: Verdict | None = None
    tracked_at: float | None = None
    taring: bool = False

    def clear(self) -> None:
        self.times.clear()
        self.grams.clear()
        self.raws.clear()
        self.verdict = None


class StreamScale(Scale):
    """A balance that delivers a stream of :class:`Sample` readings.

    Subclasses set ``backend`` and implement :meth:`_read`; they may override :meth:`_now`
    (a virtual clock), :meth:`_flush` (drop readings buffered before a weighing),
    :meth:`_connected`, :meth:`_message`, :meth:`_waiting_message`, :meth:`wiring` and
    :meth:`_on_tare`.
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
        self._ch = [_Channel(c, NoiseMeter(rate_sps), rate_sps) for c in calibrations]
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

    def _waiting_message(self) -> str:
        """What a live view says while no readings come (the balance unplugged, say)."""
        if not self._connected():
            return f"waiting for the balance at {self.url}"
        return f"no readings from the balance at {self.url}"

    def wiring(self, channel: int) -> dict[str, str]:
        """The pins pan ``channel``'s amplifier is wired to (``{"dout": "D4", "sck": "D5"}``),
        empty when the balance does not say."""
        return {}

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

    def pace(self, channel: int = 0) -> int:
        """The rate (10 or 80 readings a second) pan ``channel``'s readings really come at;
        an amplifier board may strap its RATE input whatever the balance was asked for."""
        return self._ch[self._check_channel(channel)].pace

    def noise_counts(self, channel: int = 0) -> float:
        """Reading noise of ``channel`` (ADC counts rms): measured at rest on this balance,
        or the HX711 datasheet's figure until it has been."""
        return self._ch[self._check_channel(channel)].meter.sigma

    def noise_g(self, channel: int = 0) -> float:
        """Reading noise of ``channel`` (grams rms): see :meth:`noise_counts`."""
        return self.noise_counts(channel) / abs(self.calibration(channel).counts_per_gram)

    def noise_measured(self, channel: int = 0) -> bool:
        """True once ``channel``'s noise has been measured at rest."""
        return self._ch[self._check_channel(channel)].meter.measured

    def averaging(self, channel: int = 0) -> int:
        """How many readings a weighing on ``channel`` averages (from its noise)."""
        rule = self.stability_rule(channel)
        return max(rule.min_samples, round(rule.window_s * self.pace(channel)))

    def stability_rule(self, channel: int = 0) -> StabilityRule:
        """The motion band and window used on ``channel`` (grams, seconds).

        The band is one scale interval, widened to four times the measured noise on a
        balance too noisy to be read to its interval; the window holds enough readings that
        their mean's noise is at most a quarter interval (at least ``window_s``, at most
        :data:`MAX_WINDOW_S`).
        """
        cal = self.calibration(channel)
        noise = self.noise_g(channel)
        needed = averaging_readings(noise, cal.interval_g)
        window = min(MAX_WINDOW_S, max(self.window_s, needed / self.pace(channel)))
        return StabilityRule(band=max(cal.interval_g, 4.0 * noise), window_s=window, noise=noise)

    def zero_tracking_rule(self, channel: int = 0) -> ZeroTracking:
        """Zero tracking limits: within half an interval of zero, half an interval per
        second, 4 % of capacity in all (OIML R76)."""
        cal = self.calibration(channel)
        return ZeroTracking(band=0.5 * cal.interval_g, rate=0.5 * cal.interval_g, limit=0.04 * cal.capacity_g)

    def _make_sample(
        self,
        t: float,
        channel: int,
        raw: int | None,
        *,
        saturated: bool = False,
        fault: bool = False,
        segment: int = 0,
        fault_kind: str = "",
    ) -> Sample:
        """A sample with gross grams from the channel's calibration (none when faulty).

        A load above capacity + 9 e counts as saturated ("overloaded"): no weight is shown
        beyond it (OIML R76).
        """
        cal = self._ch[channel].calibration
        if fault or raw is None:
            return Sample(
                t=t,
                channel=channel,
                raw=raw,
                grams=None,
                fault=True,
                segment=segment,
                fault_kind=fault_kind or "no_amplifier",
            )
        if saturated:
            return Sample(
                t=t, channel=channel, raw=raw, grams=None, saturated=True, segment=segment, fault_kind="saturated"
            )
        grams = cal.grams(raw)
        if grams > cal.capacity_g + 9 * cal.interval_g:
            return Sample(
                t=t, channel=channel, raw=raw, grams=None, saturated=True, segment=segment, fault_kind="overloaded"
            )
        return Sample(t=t, channel=channel, raw=raw, grams=grams, segment=segment)

    # -- the stream ----------------------------------------------------------------------

    def _check_channel(self, channel: int) -> int:
        if isinstance(channel, bool) or not isinstance(channel, int) or not 0 <= channel < self.channels:
            names = " and ".join(pan_name(c) for c in range(self.channels))
            pans = (
                "one pan (A, channel 0)"
                if self.channels == 1
                else f"{self.channels} pans ({names}, channels 0-{self.channels - 1})"
            )
            named = isinstance(channel, int) and not isinstance(channel, bool) and 0 <= channel < 26
            wanted = f"pan {pan_name(channel)} (channel {channel})" if named else f"channel {channel!r}"
            raise ScaleUsageError(f"this balance has {pans}; there is no {wanted}")
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
            ch.meter.clear_window()
            if ch.fault_since is None:
                ch.fault_since = sample.t
            kind = sample.fault_kind or ("saturated" if sample.saturated else "no_amplifier")
            return Reading(
                sample, None, False, _FAULT_REASONS.get(kind, "no reading"), self._fault_text(sample.channel, kind)
            )
        ch.fault_since = None
        if sample.segment != ch.segment:
            ch.clear()
            ch.segment = sample.segment
            ch.last_good_t = None
        self._track_pace(ch, sample.t)
        assert sample.raw is not None
        ch.times.append(sample.t)
        ch.grams.append(sample.grams)
        ch.raws.append(sample.raw)
        rule = self.stability_rule(sample.channel)
        horizon = sample.t - 2.0 * rule.window_s
        while ch.times and ch.times[0] < horizon:
            ch.times.popleft()
            ch.grams.popleft()
            ch.raws.popleft()
        verdict = judge(list(ch.times), list(ch.grams), rule)
        ch.verdict = verdict
        test = ch.meter.push(sample.t, sample.raw, sample.segment)
        if test is not None:
            self._consider_noise(sample.channel, test, sample.t)
        if verdict.stable and self.zero_tracking:
            dt = self.window_s if ch.tracked_at is None else min(self.window_s, sample.t - ch.tracked_at)
            ch.tracked_at = sample.t
            ch.zero_g = track_zero(
                ch.zero_g, ch.reference_g, verdict.mean - ch.zero_g, True, dt, self.zero_tracking_rule(sample.channel)
            )
        return Reading(sample, sample.grams - ch.zero_g, verdict.stable, verdict.reason)

    def _track_pace(self, ch: _Channel, t: float) -> None:
        """Follow the rate the readings really come at (median of recent intervals)."""
        if ch.last_good_t is not None and t > ch.last_good_t:
            ch.intervals.append(t - ch.last_good_t)
        ch.last_good_t = t
        if len(ch.intervals) >= 5:
            seen = 80 if float(np.median(ch.intervals)) < 0.04 else 10
            if seen != ch.pace:
                log.info("readings come at %d a second, not %d: the noise is measured afresh", seen, ch.pace)
                ch.pace = seen
                ch.meter.set_rate(seen)
                ch.intervals.clear()

    def _consider_noise(self, channel: int, test: RestTest, t: float) -> None:
        """Take a window at rest into the channel's noise: at start (until the first
        measurement), during a tare, when the pan is empty, or when the noise has grown."""
        ch = self._ch[channel]
        if not test.at_rest:
            return
        cpg = abs(ch.calibration.counts_per_gram)
        sigma_g = test.sigma / cpg
        net = ch.calibration.grams(test.mean) - ch.zero_g
        empty = abs(net) <= max(2.0 * ch.calibration.interval_g, 4.0 * sigma_g)
        grown = test.sigma > 1.5 * ch.meter.sigma
        if not ch.meter.measured or ch.taring or empty or grown:
            before = ch.meter.sigma
            ch.meter.accept(test, t)
            if abs(ch.meter.sigma - before) > 0.2 * before:
                log.info(
                    "pan %s noise now %.4f g rms (%.1fx the datasheet at %d SPS)",
                    pan_name(channel),
                    ch.meter.sigma / cpg,
                    ch.meter.ratio,
                    ch.pace,
                )

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

    def watch(self, notice_s: float = 1.0) -> Iterator[Reading | Waiting]:
        """Live readings for as long as the caller wants, through any unplugging: when no
        reading comes for ``notice_s`` seconds a :class:`Waiting` says why ("waiting for
        the balance on /dev/ttyUSB0"), and readings resume by themselves when it is back.

        Raises:
            ScaleError: the balance was closed.
        """
        while True:
            with self._lock:
                try:
                    sample = self._read(self._now() + notice_s)
                except ScaleTimeout:
                    waiting: Reading | Waiting = Waiting(self._waiting_message(), self._connected())
                else:
                    waiting = self._feed(sample)
            yield waiting

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
                    raise self._fault_error(channel)
                if reading.stable and ch.verdict is not None:
                    return self._weighing(channel, ch.verdict)

    def _weighing(self, channel: int, verdict: Verdict) -> Weighing:
        ch = self._ch[channel]
        raws = list(ch.raws)[verdict.start :]
        used = tuple(int(r) for r, k in zip(raws, verdict.keep, strict=False) if k)
        cal = ch.calibration
        net = verdict.mean - ch.zero_g
        uncertainty = combined_uncertainty(
            verdict.std, verdict.used, self.noise_g(channel), cal.load_sigma_g(net), ch.tare_sigma_g
        )
        return Weighing(
            grams=net,
            uncertainty_g=uncertainty,
            samples=verdict.used,
            channel=channel,
            calibration=cal.id,
            raw_counts=used,
            backend=self.backend,
            taken_at=datetime.now(UTC).isoformat(timespec="milliseconds"),
            tare_g=ch.zero_g,
            noise_g=self.noise_g(channel),
            verified=cal.verifies(net),
        )

    def _no_weight(self, channel: int, timeout: float) -> ScaleError:
        ch = self._ch[channel]
        if ch.fault_since is not None and ch.last is not None:
            return self._fault_error(channel)
        if not self._connected():
            return ScaleTimeout(
                f"no steady weight within {timeout:g} s: {self._waiting_message()} - check its cable; "
                "readings carry on by themselves once it is back"
            )
        why = ch.verdict.reason if ch.verdict is not None else "no readings arrived"
        pan = f" on pan {pan_name(channel)}" if self.channels > 1 else ""
        found = self.diagnose(channel)
        return ScaleTimeout(f"no steady weight{pan} within {timeout:g} s ({why}): {found.words}", diagnosis=found)

    def diagnose(self, channel: int = 0) -> Diagnosis:
        """Why pan ``channel`` is not settling (see :class:`~companion.scale.noise.Diagnosis`):
        noise (the readings jump about independently: wiring, shielding, power, 10 SPS) or
        motion (they move together: hands, table, draughts), with the figures."""
        ch = self._ch[self._check_channel(channel)]
        test = ch.meter.recent()
        cal = ch.calibration
        cpg = abs(cal.counts_per_gram) or 1.0
        empty = test is not None and abs(cal.grams(test.mean) - ch.zero_g) <= 2.0 * cal.interval_g + test.spread / cpg
        return diagnose(
            test, counts_per_gram=cal.counts_per_gram, datasheet=ch.meter.datasheet, rate_sps=ch.pace, empty=empty
        )

    def diagnosis(self, channel: int = 0) -> str:
        """:meth:`diagnose` in a sentence with what to try (as the command line says it)."""
        return self.diagnose(channel).words

    def _fault_text(self, channel: int, kind: str) -> str:
        """What is wrong with pan ``channel`` (a fault of ``kind``) and what to try."""
        pan = f"pan {pan_name(channel)}"
        pins = self.wiring(channel)
        dout = f" on {pins['dout']}" if "dout" in pins else ""
        sck = f" on {pins['sck']}" if "sck" in pins else ""
        if kind == "dout_low":
            return (
                f"{pan}: the amplifier's DOUT{dout} is held low - a wire shorted to ground, or an amplifier that "
                f"is not clocked: check DOUT{dout}, SCK{sck} and its power"
            )
        if kind == "powered_down":
            return f"{pan}: the amplifiers are powered down - restart the balance (unplug it and plug it in)"
        if kind == "overloaded":
            cal = self._ch[channel].calibration
            return f"{pan} is overloaded: take some weight off (at most {cal.capacity_g:g} g)"
        if kind == "saturated":
            return (
                f"{pan}: the reading is at the end of the amplifier's range - the pan is overloaded or the cell "
                "is wired wrongly (check E+, E-, A+, A-; on clone boards E- must reach GND)"
            )
        return f"{pan}: no amplifier answers - check DOUT{dout}, SCK{sck} and its power (VCC, GND)"

    def _fault_error(self, channel: int) -> ScaleFault:
        last = self._ch[channel].last
        kind = (
            "no_amplifier" if last is None else (last.fault_kind or ("saturated" if last.saturated else "no_amplifier"))
        )
        return ScaleFault(self._fault_text(channel, kind))

    def tare(self, channel: int = 0, timeout: float = 10.0) -> None:
        """Set the current (stable) load on ``channel`` as zero; the readings it takes also
        measure the pan's noise.

        Raises:
            ScaleTimeout, ScaleFault: as :meth:`weigh_stable`.
        """
        with self._lock:
            channel = self._check_channel(channel)
            ch = self._ch[channel]
            ch.taring = True
            try:
                deadline = self._now() + timeout
                weighing = self._weigh(timeout, channel)
                self._measure_noise(channel, deadline)
            finally:
                ch.taring = False
            gross = weighing.grams + ch.zero_g
            ch.zero_g = ch.reference_g = gross
            ch.tare_sigma_g = self.noise_g(channel) / math.sqrt(max(weighing.samples, 1))
            ch.tracked_at = None
            log.info("pan %s tared at %.4f g gross", pan_name(channel), gross)
            self._on_tare(channel, gross)

    def _measure_noise(self, channel: int, deadline: float) -> None:
        """Read on (the pan at rest, as a tare leaves it) until ``channel``'s noise has been
        measured once, or ``deadline``: a first tare at 10 SPS takes a second longer."""
        ch = self._ch[channel]
        while not ch.meter.measured and self._now() < deadline:
            try:
                self._feed(self._read(deadline))
            except ScaleTimeout:
                return
            if ch.fault_since is not None:
                return

    def set_zero(self, channel: int, zero_g: float) -> None:
        """Restore a zero (gross grams) saved earlier, e.g. a tare kept between runs."""
        index = self._check_channel(channel)
        with self._lock:
            self._ch[index].zero_g = self._ch[index].reference_g = float(zero_g)

    def zero(self, channel: int = 0) -> float:
        """The zero in force on ``channel`` (gross grams)."""
        return self._ch[self._check_channel(channel)].zero_g

    # -- status ------------------------------------------------------------------------------

    def _latest_sample(self, channel: int) -> Sample | None:
        """The newest reading of ``channel`` the balance has given (a backend with a reader
        thread may know one no caller has taken yet)."""
        return self._ch[channel].last

    def survey(self, seconds: float = 1.0) -> ScaleStatus:
        """Read until every pan has said how it is (at most ``seconds`` on the scale's
        clock), then the status: a missing amplifier may be reported only every 0.7 s."""
        end = self._now() + seconds
        while self._now() < end and any(self._latest_sample(c) is None for c in range(self.channels)):
            with self._lock:
                try:
                    self._feed(self._read(min(end, self._now() + 0.25)))
                except ScaleTimeout:
                    continue
        return self.status()

    def pan_status(self, channel: int = 0) -> PanStatus:
        """What pan ``channel`` is doing, in a state and words (see :class:`PanStatus`)."""
        channel = self._check_channel(channel)
        ch = self._ch[channel]
        last = self._latest_sample(channel)
        message = ""
        if not self._connected():
            state, message = "disconnected", self._waiting_message()
        elif last is None:
            state = "no_readings"
        elif last.fault or last.saturated:
            state = last.fault_kind or ("saturated" if last.saturated else "no_amplifier")
            message = self._fault_text(channel, state)
        elif ch.verdict is not None and ch.verdict.stable:
            state = "ok"
        else:
            state = "unstable"
        rule = self.stability_rule(channel)
        noise = self.noise_g(channel)
        noisy = state in ("ok", "unstable") and ch.meter.measured and ch.meter.ratio >= NOISY_RATIO
        if noisy:
            message = (
                f"pan {pan_name(channel)} is noisy (+-{noise:.3f} g, {ch.meter.ratio:.1f}x the HX711's "
                f"{ch.pace} SPS figure): it weighs, averaging {self.averaging(channel)} readings; {NOISE_ADVICE}"
            )
        return PanStatus(
            channel=channel,
            state=state,
            message=message,
            noise_g=noise,
            noise_ratio=ch.meter.ratio,
            noise_measured=ch.meter.measured,
            averaging=self.averaging(channel),
            band_g=rule.band,
            noisy=noisy,
            wiring=self.wiring(channel),
        )

    def status(self) -> ScaleStatus:
        """Connected, simulated, chip fault, saturated, unstable, each pan, and a message.

        ``chip_fault`` / ``saturated`` mean no pan can weigh; each pan's own state and what
        to do about it are in ``pans``, and the message names every pan that cannot weigh.
        """
        with self._lock:
            pans = tuple(self.pan_status(c) for c in range(self.channels))
        reported = [p for p in pans if p.state not in ("no_readings", "disconnected")]
        broken = [p for p in reported if not p.working]
        none_work = bool(reported) and len(broken) == len(reported) == len(pans)
        fault = none_work and any(p.state in ("no_amplifier", "dout_low", "powered_down") for p in broken)
        saturated = none_work and not fault
        unstable = any(p.state != "ok" for p in pans)
        words = list(dict.fromkeys(p.message for p in pans if p.message))  # every pan waits alike when unplugged
        backend = self._message()
        note = backend if backend not in words else ""
        if note:
            # "waiting for the balance on P: plug it back in" says all the pans' "waiting ... on P" say
            words = [w for w in words if not note.startswith(w)] + [note]
        connected = self._connected()
        return ScaleStatus(
            connected=connected,
            simulated=self.simulated,
            chip_fault=fault,
            saturated=saturated,
            unstable=unstable,
            message="; ".join(words),
            extra={"backend": self.backend, "rate_sps": self.rate_sps},
            pans=pans,
            waiting=not connected and not self._closed,
            note=note,
        )

    def info(self) -> dict[str, Any]:
        """Backend, device, channels, rate, each channel's calibration and noise, JSON-ready."""
        status = self.status()
        return {
            "backend": self.backend,
            "url": self.url,
            "device_id": self.device_id,
            "channels": self.channels,
            "rate_sps": self.rate_sps,
            "simulated": self.simulated,
            "calibrations": [c.calibration.to_json() for c in self._ch],
            "zero_g": [c.zero_g for c in self._ch],
            "pans": [p.to_json() for p in status.pans],
            "message": self._message(),
        }

    def close(self) -> None:
        """Stop using the balance."""
        self._closed = True


_FAULT_REASONS = {
    "no_amplifier": "no amplifier answers",
    "dout_low": "DOUT held low",
    "powered_down": "amplifiers powered down",
    "saturated": "reading saturated",
    "overloaded": "overloaded",
}
