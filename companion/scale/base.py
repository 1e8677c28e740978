"""The one interface every balance backend implements, and the records it returns."""

from __future__ import annotations

import abc
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from companion.pans import pan_name
from companion.scale.errors import ScaleTimeout

if TYPE_CHECKING:
    from companion.scale.noise import Diagnosis

#: What a pan can be doing, as :attr:`PanStatus.state` gives it.
PAN_STATES = (
    "ok",
    "unstable",
    "no_readings",
    "no_amplifier",
    "dout_low",
    "powered_down",
    "saturated",
    "overloaded",
    "disconnected",
)


@dataclass(frozen=True)
class Sample:
    """One reading: ``t`` seconds (monotonic), ``raw`` ADC counts, ``grams`` if calibrated.

    ``grams`` is the gross load (before tare) through the channel's calibration. ``raw`` is
    None when the amplifier gave no reading (a fault); ``fault_kind`` then says why:
    ``no_amplifier`` (nothing answers: missing, unpowered, DOUT wire off), ``dout_low``
    (DOUT held low: shorted, or a stuck amplifier), ``powered_down``; it is ``saturated``
    or ``overloaded`` with ``saturated``. ``segment`` numbers the unbroken runs of
    readings: it changes whenever continuity is lost (a reconnect, a missing or garbled
    line), and no weighing ever mixes segments.
    """

    t: float
    channel: int
    raw: int | None
    grams: float | None
    saturated: bool = False
    fault: bool = False
    segment: int = 0
    fault_kind: str = ""


@dataclass(frozen=True)
class Weighing:
    """A stable weight and how sure it is.

    ``uncertainty_g`` is the standard uncertainty (one sigma, grams) combining the noise
    of the readings averaged (as measured on this balance), the calibration (its fit, the
    reference masses' tolerances, off-centre loading and creep at this load) and the tare;
    ``raw_counts`` are the readings it was made from, and ``calibration`` identifies the
    calibration that turned counts into grams, so a disputed result can be derived again:
    ``grams`` is the mean of the calibrated ``raw_counts`` less ``tare_g`` (the zero in
    force, grams). ``noise_g`` is the reading noise (grams rms) measured on the balance and
    ``verified`` is False when the load is above the heaviest load the calibration was
    checked with (its uncertainty then allows for that).
    """

    grams: float
    uncertainty_g: float
    samples: int
    channel: int
    calibration: str
    raw_counts: tuple[int, ...] = ()
    backend: str = ""
    taken_at: str = ""
    tare_g: float = 0.0
    noise_g: float = 0.0
    verified: bool = True

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output and the database."""
        data = asdict(self)
        data["raw_counts"] = list(self.raw_counts)
        return data


@dataclass(frozen=True)
class PanStatus:
    """One pan's condition, for a status line per pan.

    ``state`` is one of :data:`PAN_STATES`; ``message`` says it in words with what to try
    ("pan B: no amplifier answers - check DOUT on D4 and its power"), empty when all is
    well. ``noise_g`` is the reading noise measured at rest (grams rms, 0 before the first
    measurement), ``noise_ratio`` that noise against the HX711 datasheet figure at this
    rate, ``averaging`` how many readings a weighing averages because of it, and
    ``band_g`` the motion band it uses; ``noisy`` says a working pan's measured noise is
    worth a word to the maker (its message then says what to check). ``wiring`` names the
    pins when the balance says them (``{"dout": "D4", "sck": "D5"}``).
    """

    channel: int
    state: str
    message: str = ""
    noise_g: float = 0.0
    noise_ratio: float = 0.0
    noise_measured: bool = False
    averaging: int = 0
    band_g: float = 0.0
    noisy: bool = False
    wiring: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """``A`` or ``B``."""
        return pan_name(self.channel)

    @property
    def working(self) -> bool:
        """True when this pan can weigh (it may still be moving)."""
        return self.state in ("ok", "unstable", "no_readings")

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``scale info --json``."""
        data = asdict(self)
        data["name"] = self.name
        data["working"] = self.working
        return data


@dataclass(frozen=True)
class ScaleStatus:
    """What the balance is doing now, for status lines and banners.

    ``chip_fault`` and ``saturated`` are True when no pan can weigh because of them (a
    two-pan balance with one amplifier missing still weighs on the other: see ``pans``).
    ``waiting`` is True while the balance is unplugged and Purser waits for it to come back
    (``message`` then says "waiting for the balance on PORT"). ``message`` says every pan's
    trouble once (pans in the same trouble share the words) and then ``note``, what the
    backend itself says (no pan's words: each pan has its own ``message``); a pan's words
    that the note repeats and adds to are left to the note.
    """

    connected: bool
    simulated: bool = False
    chip_fault: bool = False
    saturated: bool = False
    unstable: bool = False
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    pans: tuple[PanStatus, ...] = ()
    waiting: bool = False
    note: str = ""

    def pan(self, channel: int) -> PanStatus | None:
        """The status of pan ``channel``, if known."""
        return next((p for p in self.pans if p.channel == channel), None)

    def faults(self) -> list[str]:
        """The message of every pan that cannot weigh."""
        return [p.message for p in self.pans if not p.working and p.message]


@dataclass(frozen=True)
class Reading:
    """A sample as a caller sees it: net grams (after tare), and whether the load is stable.

    ``message`` says what is wrong with the pan when the reading is no weight (which pan,
    which wire, what to try).
    """

    sample: Sample
    net_g: float | None
    stable: bool
    reason: str
    message: str = ""

    def to_json(self) -> dict[str, Any]:
        """A plain dict for ``scale watch --json``."""
        s = self.sample
        return {
            "t": round(s.t, 4),
            "channel": s.channel,
            "pan": pan_name(s.channel),
            "raw": s.raw,
            "grams": None if self.net_g is None else round(self.net_g, 4),
            "stable": self.stable,
            "reason": self.reason,
            "saturated": s.saturated,
            "fault": s.fault,
            "message": self.message,
        }


@dataclass(frozen=True)
class Waiting:
    """No reading for a while: what a live view shows instead (``message``), e.g.
    "waiting for the balance on /dev/ttyUSB0" while it is unplugged."""

    message: str
    connected: bool = False


class Scale(abc.ABC):
    """A balance with one or two pans (channels), chosen by URL with ``open_scale``."""

    url: str = ""
    channels: int = 1
    simulated: bool = False
    device_id: str = ""

    @abc.abstractmethod
    def readings(self, timeout: float = 2.0) -> Iterator[Reading]:
        """Live readings with net grams and the stable flag, until the caller stops.

        Raises:
            ScaleTimeout: no reading within ``timeout`` s.
            ScaleError: the balance is gone.
        """

    def samples(self, timeout: float = 2.0) -> Iterator[Sample]:
        """Live readings as they arrive; raises ``ScaleTimeout`` if none within ``timeout`` s."""
        for reading in self.readings(timeout):
            yield reading.sample

    def fresh_samples(self, channel: int | None = None, timeout: float = 2.0) -> Iterator[Sample]:
        """Readings that arrive from now on (only ``channel``'s, if given), until the caller stops.

        Raises:
            ScaleTimeout: no reading within ``timeout`` s.
        """
        for sample in self.samples(timeout):
            if channel is None or sample.channel == channel:
                yield sample

    def watch(self, notice_s: float = 1.0) -> Iterator[Reading | Waiting]:
        """Live readings for as long as the caller wants: when none comes for ``notice_s``
        seconds a :class:`Waiting` says so, and readings resume when the balance is back.

        Raises:
            ScaleError: the balance is gone.
        """
        while True:
            try:
                yield from self.readings(notice_s)
            except ScaleTimeout:
                yield Waiting(f"waiting for the balance {self.url or self.device_id}".rstrip())

    def diagnose(self, channel: int = 0) -> Diagnosis | None:
        """Why pan ``channel`` is not settling, or None when the backend cannot tell."""
        return None

    @abc.abstractmethod
    def tare(self, channel: int = 0, timeout: float = 10.0) -> None:
        """Set the current (stable) load on ``channel`` as zero."""

    @abc.abstractmethod
    def weigh_stable(self, timeout: float = 10.0, channel: int = 0) -> Weighing:
        """Wait for a stable load on ``channel`` and return it.

        Raises:
            ScaleTimeout: no stable weight within ``timeout`` seconds.
            ScaleFault: the chip is faulty or saturated (never a number then).
        """

    @abc.abstractmethod
    def status(self) -> ScaleStatus:
        """The balance's current condition."""

    def survey(self, seconds: float = 1.0) -> ScaleStatus:
        """The status once every pan has said how it is (waiting at most ``seconds``);
        a backend that always knows answers at once."""
        return self.status()

    def now(self) -> float:
        """The scale's clock (s): monotonic time unless the backend keeps its own."""
        return time.monotonic()

    def info(self) -> dict[str, Any]:
        """What this balance is (backend, device id, channels, calibrations), JSON-ready."""
        return {"url": self.url, "device_id": self.device_id, "channels": self.channels, "simulated": self.simulated}

    def close(self) -> None:  # noqa: B027 - a backend with nothing to release needs no close
        """Release the port or thread behind this scale."""

    def __enter__(self) -> Scale:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
