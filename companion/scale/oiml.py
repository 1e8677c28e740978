"""OIML R76 class III (commercial scales): the error a balance may show, and a verdict.

Figures from OIML R76-1 (non-automatic weighing instruments), accuracy class III:

- maximum permissible error at verification, for a load m in scale intervals e:
  +-0.5 e for 0 <= m <= 500 e, +-1 e for 500 e < m <= 2,000 e, +-1.5 e above;
- repeatability: the spread of several weighings of one load is within that error;
- the scale interval e is at least 0.1 g, and the number of intervals n = Max / e is
  from 100 to 10,000 (from 500 when e is 5 g or more).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


def mpe_class_iii(load_g: float, interval_g: float) -> float:
    """The maximum permissible error (grams, +-) at ``load_g`` for scale interval ``interval_g``."""
    if interval_g <= 0:
        raise ValueError("the scale interval must be positive")
    m = abs(load_g) / interval_g
    if m <= 500:
        return 0.5 * interval_g
    if m <= 2000:
        return 1.0 * interval_g
    return 1.5 * interval_g


@dataclass(frozen=True)
class ClassVerdict:
    """Whether a calibration meets class III, with each check in words."""

    passed: bool
    interval_g: float
    intervals: float
    checks: tuple[str, ...] = ()
    failures: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the profile's report."""
        return {
            "class": "III",
            "passed": self.passed,
            "interval_g": self.interval_g,
            "intervals": self.intervals,
            "checks": list(self.checks),
            "failures": list(self.failures),
        }


def class_iii_verdict(
    capacity_g: float,
    interval_g: float,
    errors: Sequence[tuple[float, float]],
    spreads: Sequence[tuple[float, float]] = (),
) -> ClassVerdict:
    """Judge a calibration against class III.

    ``errors`` are (load g, indicated - true g) at each calibration point; ``spreads`` are
    (load g, max - min g of repeated weighings of that load).
    """
    checks: list[str] = []
    failures: list[str] = []
    n = capacity_g / interval_g if interval_g > 0 else float("inf")
    if interval_g < 0.1:
        failures.append(f"scale interval {interval_g:g} g is finer than class III allows (0.1 g at least)")
    else:
        checks.append(f"scale interval {interval_g:g} g")
    lo = 500 if interval_g >= 5 else 100
    if not lo <= n <= 10000:
        failures.append(f"{n:g} intervals (capacity / interval) is outside class III's {lo} to 10,000")
    else:
        checks.append(f"{n:g} intervals")
    if not errors:
        failures.append("no calibration points to check")
    for load, error in errors:
        mpe = mpe_class_iii(load, interval_g)
        line = f"error {error:+.4f} g at {load:g} g (allowed +-{mpe:g} g)"
        (checks if abs(error) <= mpe + 1e-12 else failures).append(line)
    for load, spread in spreads:
        mpe = mpe_class_iii(load, interval_g)
        line = f"repeatability {spread:.4f} g at {load:g} g (allowed {mpe:g} g)"
        (checks if spread <= mpe + 1e-12 else failures).append(line)
    return ClassVerdict(not failures, interval_g, n, tuple(checks), tuple(failures))
