"""A balance's own reading noise, measured at rest, and telling noise from motion.

A maker's balance is rarely as quiet as the HX711 datasheet (clone boards, long unshielded
wires, USB power). So the noise is measured on the balance itself, in ADC counts, from
windows of readings taken at rest, and everything that depends on it follows: the motion
band, how many readings a weighing averages, and the uncertainty it states.

"At rest" needs no motion band (that would be circular). A window is at rest when its
readings scatter like noise, not like a moving load:

- the mean squared successive difference over twice the variance (von Neumann's ratio,
  halved) is near 1 for independent noise; a moving, ringing or drifting load varies
  slowly between readings and gives much less, vibration near half the reading rate much
  more;
- the least-squares drift across the window is within what noise alone explains.

The noise figure is the root mean square of successive differences over root 2 (spikes
set aside), which a slow change of load does not inflate.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np

from companion.scale.stable import MAD_TO_SIGMA, fsum_mean, slope

#: HX711 input noise in ADC counts rms (datasheet: 50 nV at 10 SPS, 90 nV at 80 SPS, on a
#: +-20 mV full scale of 2^23 counts at gain 128).
DATASHEET_NOISE_COUNTS = {10: 21.0, 80: 38.0}

#: Readings a noise window holds at each rate (0.6 s at 80 SPS, 1.6 s at 10 SPS).
WINDOW_READINGS = {10: 16, 80: 48}
#: Fewest readings a window may judge.
MIN_READINGS = 16
#: Window estimates pooled into the noise figure (the newest ones).
KEEP = 6
#: The halved von Neumann ratio of a window at rest lies within these bounds (white noise: 1).
RATIO_LOW, RATIO_HIGH = 0.6, 1.6
#: A window's drift may be this many standard errors of the slope before it counts as moving.
DRIFT_SIGMAS = 3.0
#: A noise figure this many times the datasheet's is worth a word to the maker.
NOISY_RATIO = 2.5

#: What to check when the readings are noisy, in the order most likely to help.
NOISE_ADVICE = (
    "check the load cell's wires (short, twisted or shielded, away from mains leads), the USB power "
    "(another port or cable, or a powered hub), that E- reaches GND on clone amplifier boards, "
    "or strap the boards' RATE to 10 SPS"
)

#: Why a pan did not settle, as :attr:`Diagnosis.kind` gives it.
DiagnosisKind = Literal["noise", "motion", "no_readings"]


def datasheet_noise(rate_sps: int) -> float:
    """The HX711's datasheet noise (counts rms) at ``rate_sps`` (10 or 80; others as 80)."""
    return DATASHEET_NOISE_COUNTS.get(rate_sps, DATASHEET_NOISE_COUNTS[80])


@dataclass(frozen=True)
class RestTest:
    """What a window of readings says about itself (units: those of the readings).

    ``sigma`` is the noise from successive differences, ``spread`` the standard deviation
    of the values, ``ratio`` the halved von Neumann ratio (about 1 for noise, well below 1
    for motion or drift), ``drift`` the fitted change across the window and ``limit`` the
    drift noise alone explains.
    """

    n: int
    mean: float
    sigma: float
    spread: float
    ratio: float
    drift: float
    limit: float

    @property
    def at_rest(self) -> bool:
        """True when the window looks like noise on a still load."""
        return self.n >= MIN_READINGS and RATIO_LOW <= self.ratio <= RATIO_HIGH and self.drift <= self.limit

    @property
    def noise_like(self) -> bool:
        """True when the readings jump about independently (electrical noise or fast
        vibration), not the slow change of a moving load."""
        return self.ratio >= RATIO_LOW


def rest_test(times: Sequence[float] | np.ndarray, values: Sequence[float] | np.ndarray) -> RestTest:
    """Judge a window of readings ``values`` taken at ``times`` (s).

    Raises:
        ValueError: fewer than three readings, or lengths that differ.
    """
    t = np.asarray(times, dtype=float)
    v = np.asarray(values, dtype=float)
    if t.shape != v.shape or len(v) < 3:
        raise ValueError("a noise window needs at least three readings and a time for each")
    d = np.diff(v)
    robust = MAD_TO_SIGMA * float(np.median(np.abs(d - np.median(d))))
    if robust > 0:
        d = d[np.abs(d) <= 5.0 * robust]  # spikes are not noise
    if len(d) == 0:
        d = np.diff(v)
    sigma = math.sqrt(math.fsum(float(x) * float(x) for x in d) / (2.0 * len(d)))
    mean = fsum_mean(v)
    variance = math.fsum((float(x) - mean) ** 2 for x in v) / (len(v) - 1)
    ratio = (sigma * sigma) / variance if variance > 0 else 1.0
    span = float(t[-1] - t[0])
    drift = abs(slope(t, v)) * span
    limit = DRIFT_SIGMAS * sigma * math.sqrt(12.0 / len(v))
    return RestTest(len(v), mean, sigma, math.sqrt(variance), ratio, drift, limit)


class NoiseMeter:
    """The noise of one channel, in ADC counts, measured from windows at rest.

    Feed every good reading with :meth:`push`; every few readings it judges the newest
    full window and returns the :class:`RestTest`, which the caller may :meth:`accept`
    (at start, during a tare, or when the pan is empty and steady). Until a window has been
    accepted the figure is the datasheet's.
    """

    def __init__(self, rate_sps: int = 80) -> None:
        self._readings: deque[tuple[float, float]] = deque()
        self._variances: deque[float] = deque(maxlen=KEEP)
        self._since = 0
        self._segment: int | None = None
        self.rate_sps = rate_sps
        self.measured_at: float | None = None
        self.last: RestTest | None = None

    @property
    def window(self) -> int:
        """Readings in a window at the present rate."""
        return WINDOW_READINGS.get(self.rate_sps, WINDOW_READINGS[80])

    @property
    def datasheet(self) -> float:
        """The datasheet noise at the present rate (counts rms)."""
        return datasheet_noise(self.rate_sps)

    @property
    def measured(self) -> bool:
        """True once a window at rest has been measured."""
        return bool(self._variances)

    @property
    def sigma(self) -> float:
        """The noise (counts rms): the pooled measurements, else the datasheet figure."""
        if not self._variances:
            return self.datasheet
        return math.sqrt(math.fsum(self._variances) / len(self._variances))

    @property
    def ratio(self) -> float:
        """The noise against the datasheet figure at this rate."""
        return self.sigma / self.datasheet

    def set_rate(self, rate_sps: int) -> None:
        """The readings now come at ``rate_sps``: the noise is measured afresh."""
        if rate_sps != self.rate_sps:
            self.rate_sps = rate_sps
            self._variances.clear()
            self._readings.clear()
            self.measured_at = None

    def clear_window(self) -> None:
        """Forget the readings collected (a gap, a fault, a new load)."""
        self._readings.clear()
        self._since = 0

    def push(self, t: float, raw: float, segment: int = 0) -> RestTest | None:
        """Add a reading; every quarter window, the judgement of the newest full window."""
        if segment != self._segment:
            self._segment = segment
            self.clear_window()
        self._readings.append((t, float(raw)))
        while len(self._readings) > self.window:
            self._readings.popleft()
        self._since += 1
        if len(self._readings) < self.window or self._since < max(1, self.window // 4):
            return None
        self._since = 0
        times, values = zip(*self._readings, strict=False)
        self.last = rest_test(times, values)
        return self.last

    def recent(self) -> RestTest | None:
        """The judgement of the readings collected now (None for fewer than three)."""
        if len(self._readings) < 3:
            return None
        times, values = zip(*self._readings, strict=False)
        return rest_test(times, values)

    def accept(self, test: RestTest, t: float) -> None:
        """Take ``test``'s noise into the figure (measured at ``t``)."""
        self._variances.append(test.sigma * test.sigma)
        self.measured_at = t


@dataclass(frozen=True)
class Diagnosis:
    """Why a pan is not settling, in figures and in words.

    ``kind`` is ``"noise"`` (the readings jump about independently, :data:`NOISY_RATIO` or
    more times the HX711 datasheet: wiring, shielding, power, 10 SPS), ``"motion"`` (they
    move together, or scatter no more than usual and still did not settle: hands, table,
    draughts) or ``"no_readings"`` (too few recent readings to tell). ``noise_g`` is the
    latest readings' scatter in grams rms (from successive differences, which a moving load
    barely inflates; 0 without readings) and ``ratio`` that scatter against the datasheet
    figure at ``rate_sps``. ``wanders_empty``: a moving reading with nothing on the pan (an
    E- not reaching GND does that). ``words`` says it all in a sentence with what to try,
    as the command line prints it.
    """

    kind: DiagnosisKind
    noise_g: float
    ratio: float
    rate_sps: int
    words: str
    wanders_empty: bool = False

    def to_json(self) -> dict[str, Any]:
        """A plain dict for JSON output."""
        return asdict(self)


def diagnose(
    test: RestTest | None, *, counts_per_gram: float, datasheet: float, rate_sps: int, empty: bool = False
) -> Diagnosis:
    """Tell noise from motion in the latest readings' judgement ``test`` (counts; None: too
    few readings), for a pan of ``counts_per_gram`` whose datasheet noise is ``datasheet``
    counts at ``rate_sps``; ``empty`` says the readings are those of an empty pan."""
    if test is None:
        return Diagnosis(
            "no_readings", 0.0, 0.0, rate_sps, "too few readings came to tell noise from motion; weigh again"
        )
    cpg = abs(counts_per_gram) or 1.0
    sigma_g, ratio = test.sigma / cpg, test.sigma / datasheet
    if test.noise_like and ratio >= NOISY_RATIO:
        words = (
            f"the readings scatter by +-{sigma_g:.3f} g, {ratio:.1f} times what an HX711 gives at "
            f"{rate_sps} SPS - electrical noise, not motion: {NOISE_ADVICE}"
        )
        return Diagnosis("noise", sigma_g, ratio, rate_sps, words)
    words = "keep hands and the table still, then weigh again"
    wanders = empty and not test.noise_like
    if wanders:
        words += (
            "; if the reading wanders with nothing touching the pan, check that E- reaches GND on the amplifier board"
        )
    return Diagnosis("motion", sigma_g, ratio, rate_sps, words, wanders)


def averaging_readings(noise: float, interval: float) -> int:
    """Readings to average so that their mean's noise is at most a quarter of ``interval``
    (both in the same units)."""
    if interval <= 0 or not math.isfinite(noise):
        raise ValueError("the interval must be positive and the noise a number")
    return max(1, math.ceil((noise / (0.25 * interval)) ** 2))
