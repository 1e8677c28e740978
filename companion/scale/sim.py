"""``sim://``: the built-in simulated balance (the default when no balance is attached).

Settings in the URL (all optional)::

    sim://?pieces=12.5,7.3&pieces1=4.2&channels=2&rate=80&noise=datasheet&seed=7&clock=virtual

``pieces`` / ``pieces1``: grams already settled on pan A / pan B; ``channels`` 1 or 2;
``missing`` the pans whose amplifier is missing (``missing=1``: a two-pan balance with
one HX711 fitted, as most makers start); ``rate`` 10 or 80 samples per second; ``noise``
"datasheet" (HX711 figures at that rate), a multiple of them ("5x") or grams rms;
``capacity`` grams (default 1000); ``interval`` the scale interval e in grams (default
0.1); ``drift`` grams per square-root second; ``creep`` fraction of the load; ``settle``
seconds (the ringing's decay); ``nonlinearity`` fraction of capacity; ``corner`` the
relative error of a load on the worst corner of the pan (off-centre loading); ``hum``
grams of 50 Hz mains pickup (which 10 SPS conversions cancel); ``spikes``
the chance of a glitched reading; ``seed``; ``clock`` "real" (readings arrive in real
time) or "virtual" (instantly, on a simulated clock: for tests).

Tests script it: :meth:`SimScale.place`, :meth:`SimScale.remove`, :meth:`SimScale.unplug`,
:meth:`SimScale.replug`, :meth:`SimScale.set_fault`, :meth:`SimScale.at` (do something at
a time on the scale's clock, e.g. unplug in the middle of a weighing). Its pans are named
with the pins of the firmware's default wiring (pan A: DOUT D2, SCK D3; pan B: D4, D5).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from companion.pans import pan_name
from companion.scale.base import Sample
from companion.scale.core import DEFAULT_WIRING, StreamScale
from companion.scale.errors import ScaleError, ScaleTimeout, ScaleUsageError
from companion.scale.profile import Calibration, load_calibration
from companion.scale.registry import ScaleURL
from companion.scale.simcell import NOISE_COUNTS, POSITIONS, CellParams, Pan

log = logging.getLogger(__name__)

DEVICE_ID = "sim"


class SimScale(StreamScale):
    """A simulated one- or two-pan balance driven by :class:`~companion.scale.simcell.Pan` models."""

    backend = "sim"
    simulated = True

    def __init__(
        self,
        url: str = "sim://",
        params: Sequence[CellParams] = (CellParams(),),
        *,
        rate_sps: int = 80,
        interval_g: float = 0.1,
        seed: int = 0,
        virtual: bool = False,
        calibrations: Sequence[Calibration] | None = None,
    ) -> None:
        cals = (
            list(calibrations)
            if calibrations
            else [self.factory_calibration(p, i, interval_g) for i, p in enumerate(params)]
        )
        super().__init__(url, cals, rate_sps=rate_sps, device_id=DEVICE_ID)
        self.virtual = virtual
        self.period = 1.0 / rate_sps
        self._rng = np.random.default_rng(seed)
        self._pans = [Pan(p) for p in params]
        self._model_lock = threading.RLock()
        self._t0 = 0.0 if virtual else time.monotonic()
        self._vnow = 0.0
        self._last_tick: float | None = None
        self._pending: deque[Sample] = deque()
        self._events: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = itertools.count()
        self._plugged = True
        self._fault = [""] * len(params)
        self._saturate = [False] * len(params)
        self._segment = 0

    @staticmethod
    def factory_calibration(p: CellParams, channel: int, interval_g: float) -> Calibration:
        """The simulator's own calibration: its exact line, with the bow as fit error."""
        return Calibration(
            counts_per_gram=p.counts_per_gram,
            zero_counts=p.zero_counts,
            sigma_g=0.5 * p.nonlinearity * p.capacity_g,
            interval_g=interval_g,
            capacity_g=p.capacity_g,
            device_id=DEVICE_ID,
            channel=channel,
            source="factory",
        )

    # -- clock ---------------------------------------------------------------------------

    def _now(self) -> float:
        return self._vnow if self.virtual else time.monotonic()

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass on the virtual clock (running anything scheduled meanwhile)."""
        if not self.virtual:
            raise ScaleError("advance() needs clock=virtual; on the real clock time passes by itself")
        with self._model_lock:
            self._run_events(self._vnow + seconds)
            self._vnow += seconds

    def at(self, delay_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` ``delay_s`` seconds from now on the scale's clock.

        Scheduled actions run while readings are taken (inside ``weigh_stable``, ``readings``
        or ``advance``), at their time exactly on the virtual clock.
        """
        with self._model_lock:
            heapq.heappush(self._events, (self._now() + delay_s, next(self._seq), action))

    def _run_events(self, until: float) -> None:
        while self._events and self._events[0][0] <= until:
            when, _, action = heapq.heappop(self._events)
            if self.virtual:
                self._vnow = max(self._vnow, when)
            action()

    # -- scripting the pans -----------------------------------------------------------------

    def _pan(self, channel: int) -> Pan:
        return self._pans[self._check_channel(channel)]

    def place(
        self, grams: float | Sequence[float], channel: int = 0, settled: bool = False, position: str = "centre"
    ) -> None:
        """Put pieces of ``grams`` on pan ``channel`` now (all at once, as one drop), at
        ``position``: "centre" or a corner ("front-left", "front-right", "back-left",
        "back-right"), where the cell reads them off by the ``corner`` error."""
        pieces = [float(grams)] if isinstance(grams, (int, float)) else [float(g) for g in grams]
        if any(not g >= 0 for g in pieces):
            raise ScaleError("a piece's weight must be zero or more grams")
        if position not in POSITIONS:
            raise ScaleUsageError(f"position {position!r} is not one of {', '.join(POSITIONS)}")
        with self._model_lock:
            pan = self._pan(channel)
            felt = [g * pan.position_factor(position) for g in pieces]
            pan.pieces.extend(pieces)
            pan.felt.extend(felt)
            pan.change(self._now(), sum(felt), self._rng, settled=settled)

    def remove(self, grams: float | Sequence[float] | None = None, channel: int = 0) -> list[float]:
        """Take pieces off pan ``channel`` now (all of them when ``grams`` is None).

        Raises:
            ScaleError: a named piece is not on the pan.
        """
        with self._model_lock:
            pan = self._pan(channel)
            if grams is None:
                taken = list(pan.pieces)
                felt = list(pan.felt)
                pan.pieces.clear()
                pan.felt.clear()
            else:
                wanted = [float(grams)] if isinstance(grams, (int, float)) else [float(g) for g in grams]
                left = list(pan.pieces)
                left_felt = list(pan.felt)
                taken, felt = [], []
                for g in wanted:
                    match = next((i for i, p in enumerate(left) if abs(p - g) < 1e-9), None)
                    if match is None:
                        raise ScaleError(f"there is no {g:g} g piece on pan {pan_name(channel)}")
                    taken.append(left.pop(match))
                    felt.append(left_felt.pop(match))
                pan.pieces[:] = left
                pan.felt[:] = left_felt
            pan.change(self._now(), -sum(felt), self._rng)
            return taken

    def clear(self, channel: int = 0) -> list[float]:
        """Take everything off pan ``channel``."""
        return self.remove(None, channel)

    def pieces(self, channel: int = 0) -> tuple[float, ...]:
        """The pieces on pan ``channel``."""
        return tuple(self._pan(channel).pieces)

    def true_load(self, channel: int = 0, t: float | None = None) -> float:
        """What the pan really carries at ``t`` (default now), transients included (grams)."""
        with self._model_lock:
            return self._pan(channel).true_load(self._now() if t is None else t)

    def settling_time(self, tolerance_g: float, channel: int = 0) -> float:
        """Seconds from now until the pan's ringing stays within ``tolerance_g``."""
        with self._model_lock:
            return self._pan(channel).settling_time(self._now(), tolerance_g)

    def unplug(self) -> None:
        """Pull the cable: no readings until :meth:`replug`."""
        with self._model_lock:
            self._plugged = False
            self._pending.clear()
        log.info("simulated balance unplugged")

    def replug(self) -> None:
        """Plug the cable back in: readings resume in a new segment."""
        with self._model_lock:
            if not self._plugged:
                self._segment += 1
            self._plugged = True
        log.info("simulated balance plugged in again")

    def set_fault(self, on: bool = True, channel: int = 0, kind: str = "no_amplifier") -> None:
        """Make pan ``channel``'s amplifier stop answering (``on``) or recover. ``kind`` is
        how: "no_amplifier" (missing or unpowered: DOUT floats high) or "dout_low" (DOUT
        shorted to ground)."""
        if kind not in ("no_amplifier", "dout_low"):
            raise ScaleUsageError(f"kind {kind!r} is not no_amplifier or dout_low")
        with self._model_lock:
            self._fault[self._check_channel(channel)] = kind if on else ""

    def set_saturated(self, on: bool = True, channel: int = 0) -> None:
        """Force pan ``channel``'s ADC to full scale (a shorted or wrongly wired cell)."""
        with self._model_lock:
            self._saturate[self._check_channel(channel)] = on

    # -- the stream ----------------------------------------------------------------------

    def _connected(self) -> bool:
        return self._plugged and not self._closed

    def _message(self) -> str:
        if not self._plugged:
            return "Simulated balance unplugged"
        return "Simulated balance: weights are not real"

    def _waiting_message(self) -> str:
        if not self._plugged:
            return "waiting for the simulated balance (its cable is unplugged)"
        return "no readings from the simulated balance"

    def wiring(self, channel: int) -> dict[str, str]:
        """The firmware's default pins for pan ``channel`` (the simulator is wired like it)."""
        return dict(DEFAULT_WIRING[channel]) if 0 <= channel < len(DEFAULT_WIRING) else {}

    def _flush(self) -> None:
        with self._model_lock:
            self._pending.clear()

    def _tick(self, t: float) -> None:
        """Take one conversion on every pan at ``t``."""
        self._last_tick = t
        if not self._plugged:
            return
        for index, pan in enumerate(self._pans):
            if self._fault[index]:
                self._pending.append(
                    self._make_sample(t, index, None, fault=True, segment=self._segment, fault_kind=self._fault[index])
                )
                continue
            raw, saturated = pan.raw(t, self._rng, self.period)
            if self._saturate[index]:
                raw, saturated = (1 << 23) - 1, True
            self._pending.append(self._make_sample(t, index, raw, saturated=saturated, segment=self._segment))

    def _read(self, deadline: float) -> Sample:
        while True:
            if self._closed:
                raise ScaleError("the simulated balance is closed")
            with self._model_lock:
                if self._pending:
                    return self._pending.popleft()
                now = self._now()
                due = now if self._last_tick is None else self._last_tick + self.period
                if due < now - self.period:
                    due = now  # nobody was reading: no backlog, like a streaming device
            if due > deadline:
                if self.virtual:
                    with self._model_lock:
                        self._run_events(deadline)
                        self._vnow = max(self._vnow, deadline)
                else:
                    time.sleep(max(0.0, deadline - time.monotonic()))
                raise ScaleTimeout("no reading from the simulated balance in time")
            if not self.virtual:
                wait = due - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
            with self._model_lock:
                self._run_events(due)
                if self.virtual:
                    self._vnow = max(self._vnow, due)
                self._tick(due)


def open_sim(url: ScaleURL) -> SimScale:
    """Build a :class:`SimScale` from a ``sim://`` URL (see the module docstring).

    Raises:
        ScaleError: a setting is unknown or out of range.
    """
    return build_sim(url, SimScale)


def build_sim(url: ScaleURL, cls: type[SimScale], **extra: Any) -> SimScale:
    """Build ``cls`` (a :class:`SimScale`) from the ``sim://`` settings in ``url``."""
    channels = url.integer("channels", 1, choices=(1, 2))
    rate = url.integer("rate", 80, choices=(10, 80))
    capacity = url.number("capacity", 1000.0, 1.0, 1e6)
    noise_text = url.text("noise", "datasheet")
    cpg = url.number("counts_per_gram", 2150.0 * 1000.0 / capacity, 1e-3, 1e7)
    if noise_text == "datasheet":
        noise_counts = NOISE_COUNTS[rate]
    elif noise_text.endswith("x"):
        try:
            times = float(noise_text[:-1])
        except ValueError:
            times = -1.0
        if not 0 <= times <= 1000:
            raise ScaleUsageError(
                f"noise={noise_text!r} in {url.url!r} must be datasheet, a multiple like 5x, or grams"
            )
        noise_counts = times * NOISE_COUNTS[rate]
    else:
        noise_counts = url.number("noise", 0.0, 0.0, capacity) * cpg
    params = CellParams(
        capacity_g=capacity,
        counts_per_gram=cpg,
        noise_counts=noise_counts,
        nonlinearity=url.number("nonlinearity", 5e-5, 0.0, 0.1),
        drift=url.number("drift", 0.002, 0.0, 100.0),
        creep=url.number("creep", 2e-4, 0.0, 0.1),
        settle_s=url.number("settle", 0.12, 0.001, 10.0),
        spikes=url.number("spikes", 0.0, 0.0, 1.0),
        corner=url.number("corner", 3e-4, 0.0, 0.1),
        hum=url.number("hum", 0.0, 0.0, capacity),
    )
    missing_text = url.text("missing", "")
    interval = url.number("interval", max(0.1, capacity / 10000.0), 1e-4, capacity)
    seed = url.integer("seed", 0)
    clock = url.text("clock", "real")
    if clock not in ("real", "virtual"):
        raise ScaleUsageError(f"clock={clock!r} in {url.url!r} must be real or virtual")
    profile = url.text("profile", "factory")
    if profile not in ("factory", "saved"):
        raise ScaleUsageError(f"profile={profile!r} in {url.url!r} must be factory or saved")
    loads = [url.numbers("pieces"), url.numbers("pieces1")]
    url.check_all_used()
    if channels == 1 and loads[1]:
        raise ScaleUsageError("pieces1 needs channels=2 (a second pan)")
    missing: list[int] = []
    for item in filter(None, missing_text.split(",")):
        if not item.strip().isdigit() or int(item) >= channels:
            raise ScaleUsageError(
                f"missing={missing_text!r} in {url.url!r} must name pans of this balance: "
                + ("0" if channels == 1 else "0 or 1 (or 0,1)")
            )
        missing.append(int(item))
    cells = [params] * channels
    cals = None
    if profile == "saved":
        cals = [
            load_calibration(DEVICE_ID, ch) or SimScale.factory_calibration(params, ch, interval)
            for ch in range(channels)
        ]
    scale = cls(
        url.url,
        cells,
        rate_sps=rate,
        interval_g=interval,
        seed=seed,
        virtual=clock == "virtual",
        calibrations=cals,
        **extra,
    )
    for channel in range(channels):
        if loads[channel]:
            scale.place(loads[channel], channel=channel, settled=True)
    for channel in missing:
        scale.set_fault(True, channel)
        log.info("simulated pan %s has no amplifier", pan_name(channel))
    return scale
