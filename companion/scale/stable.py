"""Deciding when a load is stable, and what it weighs: pure numpy, no hardware.

A window of recent readings (``window_s`` seconds, at least ``min_samples``) is judged:

1. Outliers: readings further from the window's median than ``outlier_k`` robust standard
   deviations (1.4826 x MAD, never below the expected noise ``noise``) and outside the
   motion band are set aside; more than ``max_outlier_frac`` of them, or the newest
   reading among them (it may be the first of a new load), means motion.
2. Motion band: every remaining reading lies within +-``band`` of the median.
3. Trend: the least-squares drift across the window stays under ``trend_frac`` x band
   (this catches the slow tail of settling, which a band alone lets through).

The units are whatever the readings are in (grams when weighing, ADC counts while
calibrating); sums use :func:`math.fsum` so the verdict and the mean are reproducible to
the last bit on any machine (recorded calibration sessions replay exactly).

Indicators usually call a load stable when readings stay within +-0.5 to 1 scale interval
for 0.3 to 1.5 s (OIML R76); the defaults follow that with a band of one interval and a
half-second window.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

#: Robust standard deviation of normally distributed data from its median absolute deviation.
MAD_TO_SIGMA = 1.4826


@dataclass(frozen=True)
class StabilityRule:
    """When a window of readings counts as stable (units: those of the readings, seconds)."""

    band: float
    window_s: float = 0.5
    min_samples: int = 5
    outlier_k: float = 5.0
    max_outlier_frac: float = 0.1
    noise: float = 0.0
    trend_frac: float = 0.5

    def __post_init__(self) -> None:
        if not (self.band > 0 and math.isfinite(self.band)):
            raise ValueError("the motion band must be a positive number")
        if self.window_s <= 0 or self.min_samples < 2:
            raise ValueError("a stability window needs a positive length and at least 2 readings")

    def scaled(self, factor: float) -> StabilityRule:
        """The same rule for readings in other units (``band`` and ``noise`` times ``factor``)."""
        return StabilityRule(
            band=self.band * abs(factor),
            window_s=self.window_s,
            min_samples=self.min_samples,
            outlier_k=self.outlier_k,
            max_outlier_frac=self.max_outlier_frac,
            noise=self.noise * abs(factor),
            trend_frac=self.trend_frac,
        )


@dataclass(frozen=True)
class Verdict:
    """The judgement of one window: ``stable``, why not, and the inliers' mean and spread.

    ``start`` is the index of the window's first reading in the series judged and ``keep``
    marks, within the window, the readings used (outliers are False).
    """

    stable: bool
    reason: str
    mean: float
    std: float
    used: int
    rejected: int
    start: int = 0
    keep: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))


def fsum_mean(values: Sequence[float] | np.ndarray) -> float:
    """The mean, correctly rounded (independent of summation order and BLAS)."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    return math.fsum(float(v) for v in values) / n


def fsum_std(values: Sequence[float] | np.ndarray, mean: float | None = None) -> float:
    """The sample standard deviation (n - 1), 0.0 for fewer than two values."""
    n = len(values)
    if n < 2:
        return 0.0
    m = fsum_mean(values) if mean is None else mean
    return math.sqrt(math.fsum((float(v) - m) ** 2 for v in values) / (n - 1))


def slope(times: np.ndarray, values: np.ndarray) -> float:
    """Least-squares slope of ``values`` against ``times`` (units per second), 0 if undefined."""
    if len(times) < 2:
        return 0.0
    tm = fsum_mean(times)
    vm = fsum_mean(values)
    dt = [float(t) - tm for t in times]
    sxx = math.fsum(d * d for d in dt)
    if sxx <= 0.0:
        return 0.0
    sxy = math.fsum(d * (float(v) - vm) for d, v in zip(dt, values, strict=False))
    return sxy / sxx


def window_start(times: np.ndarray, window_s: float) -> int:
    """Index of the first reading within ``window_s`` of the last one."""
    if len(times) == 0:
        return 0
    return int(np.searchsorted(times, times[-1] - window_s + 1e-9, side="left"))


def judge(times: Sequence[float] | np.ndarray, values: Sequence[float] | np.ndarray, rule: StabilityRule) -> Verdict:
    """Judge the trailing ``rule.window_s`` of readings ``values`` taken at ``times`` (s).

    ``times`` must be increasing. Not enough readings, or too short a span, is "not stable".
    """
    t_all = np.asarray(times, dtype=float)
    v_all = np.asarray(values, dtype=float)
    if t_all.shape != v_all.shape:
        raise ValueError("times and values must have the same length")
    n_all = len(v_all)
    if n_all == 0:
        return Verdict(False, "no readings", math.nan, math.nan, 0, 0)
    start = window_start(t_all, rule.window_s)
    t = t_all[start:]
    v = v_all[start:]
    n = len(v)
    span = float(t[-1] - t[0]) if n else 0.0
    # The window is full when the reading before it is older than window_s (or the span
    # covers nearly all of it, for a stream that starts exactly at the window's edge).
    full = start > 0 or span >= rule.window_s * 0.9
    if n < rule.min_samples or not full:
        return Verdict(False, "collecting readings", math.nan, math.nan, n, 0, start)
    if not np.all(np.isfinite(v)):
        return Verdict(False, "readings are not numbers", math.nan, math.nan, n, 0, start)

    med = float(np.median(v))
    dev = np.abs(v - med)
    sigma = max(MAD_TO_SIGMA * float(np.median(dev)), rule.noise)
    cutoff = max(rule.outlier_k * sigma, rule.band)
    keep = dev <= cutoff
    rejected = int(n - keep.sum())
    allowed = max(1, int(rule.max_outlier_frac * n))
    inliers = v[keep]
    mean = fsum_mean(inliers) if len(inliers) else math.nan
    std = fsum_std(inliers, mean) if len(inliers) else math.nan
    # The newest reading is never set aside: it may be the first of a new load.
    if rejected > allowed or len(inliers) < rule.min_samples or not keep[-1]:
        return Verdict(False, "moving (readings jump)", mean, std, len(inliers), rejected, start, keep)
    if float(dev[keep].max()) > rule.band:
        return Verdict(False, "moving (outside the motion band)", mean, std, len(inliers), rejected, start, keep)
    drift = abs(slope(t[keep], inliers)) * span
    if drift > rule.trend_frac * rule.band:
        return Verdict(False, "settling (readings still drifting)", mean, std, len(inliers), rejected, start, keep)
    return Verdict(True, "stable", mean, std, len(inliers), rejected, start, keep)


def first_stable(
    times: Sequence[float] | np.ndarray, values: Sequence[float] | np.ndarray, rule: StabilityRule
) -> tuple[int, Verdict] | None:
    """The first reading at which the trailing window is stable, and its verdict, or None.

    This is the same question asked after every new reading of a live stream, so a
    recorded stream replays to the same answer.
    """
    t_all = np.asarray(times, dtype=float)
    v_all = np.asarray(values, dtype=float)
    for end in range(rule.min_samples, len(v_all) + 1):
        verdict = judge(t_all[:end], v_all[:end], rule)
        if verdict.stable:
            return end, verdict
    return None


@dataclass(frozen=True)
class ZeroTracking:
    """Automatic zero tracking (grams): follow slow drift of an empty pan, and nothing else.

    Only a stable reading within +-``band`` of zero moves the zero, by at most ``rate``
    grams per second, and never more than ``limit`` in total from the zero last set by a
    tare (OIML R76: 4 % of capacity for all zero-setting).
    """

    band: float
    rate: float
    limit: float


def track_zero(zero: float, reference: float, net: float, stable: bool, dt: float, rule: ZeroTracking) -> float:
    """The new zero (gross grams) after a reading of ``net`` grams, ``dt`` s after the last.

    ``reference`` is the zero set by the last tare; tracking stays within ``rule.limit`` of it.
    """
    if not stable or not math.isfinite(net) or abs(net) > rule.band or dt <= 0:
        return zero
    step = max(-rule.rate * dt, min(rule.rate * dt, net))
    moved = zero + step
    return max(reference - rule.limit, min(reference + rule.limit, moved))


def combined_uncertainty(std: float, n: int, noise: float, calibration_sigma: float, tare_sigma: float = 0.0) -> float:
    """Standard uncertainty (one sigma) of a weighing, in the readings' units.

    Combines the standard error of the window's mean (its spread, never taken below the
    expected ``noise``), the calibration's fit error and the uncertainty of the zero.
    """
    if n <= 0:
        raise ValueError("a weighing needs at least one reading")
    spread = max(std if math.isfinite(std) else 0.0, noise)
    return math.sqrt(spread * spread / n + calibration_sigma**2 + tare_sigma**2)
