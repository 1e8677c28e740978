"""The one interface every balance backend implements, and the records it returns."""

from __future__ import annotations

import abc
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Sample:
    """One reading: ``t`` seconds (monotonic), ``raw`` ADC counts, ``grams`` if calibrated.

    ``grams`` is the gross load (before tare) through the channel's calibration.
    ``segment`` numbers the unbroken runs of readings: it changes whenever continuity is
    lost (a reconnect, a missing or garbled line), and no weighing ever mixes segments.
    """

    t: float
    channel: int
    raw: int
    grams: float | None
    saturated: bool = False
    fault: bool = False
    segment: int = 0


@dataclass(frozen=True)
class Weighing:
    """A stable weight and how sure it is.

    ``uncertainty_g`` is the standard uncertainty (one sigma, grams) combining sample
    noise and the calibration's fit error; ``raw_counts`` are the readings it was made
    from, and ``calibration`` identifies the calibration that turned counts into grams,
    so a disputed result can be derived again: ``grams`` is the mean of the calibrated
    ``raw_counts`` less ``tare_g`` (the zero in force, grams).
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

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output and the database."""
        data = asdict(self)
        data["raw_counts"] = list(self.raw_counts)
        return data


@dataclass(frozen=True)
class ScaleStatus:
    """What the balance is doing now, for status lines and banners."""

    connected: bool
    simulated: bool = False
    chip_fault: bool = False
    saturated: bool = False
    unstable: bool = False
    message: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


class Scale(abc.ABC):
    """A balance with one or two pans (channels), chosen by URL with ``open_scale``."""

    url: str = ""
    channels: int = 1
    simulated: bool = False
    device_id: str = ""

    @abc.abstractmethod
    def samples(self, timeout: float = 2.0) -> Iterator[Sample]:
        """Live readings as they arrive; raises ``ScaleTimeout`` if none within ``timeout`` s."""

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

    def info(self) -> dict[str, Any]:
        """What this balance is (backend, device id, channels, calibrations), JSON-ready."""
        return {"url": self.url, "device_id": self.device_id, "channels": self.channels, "simulated": self.simulated}

    def close(self) -> None:
        """Release the port or thread behind this scale."""

    def __enter__(self) -> Scale:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
