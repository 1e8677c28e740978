"""Calibration maths: from recorded raw readings of known masses to a saved profile.

A calibration session is a log of raw readings, one step per load placed (the empty pan
is mass 0). :func:`replay` picks each step's stable window with the same rule the live
procedure used (:func:`companion.scale.stable.first_stable`), fits counts = zero +
counts_per_gram x mass by least squares, and reports residuals, linearity, repeatability
and an OIML R76 class III verdict. Sums are exact-rounded (``math.fsum``), so replaying a
recorded session reproduces its profile to the last bit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.scale.errors import ScaleError
from companion.scale.oiml import class_iii_verdict, mpe_class_iii
from companion.scale.profile import Calibration, SavedProfile
from companion.scale.stable import StabilityRule, Verdict, fsum_mean, fsum_std, judge

SESSION_FORMAT = "purser-scale-calibration-session"
SESSION_VERSION = 1


class CalibrationError(ScaleError):
    """A calibration that cannot be completed or trusted (too few points, no stable load...)."""


@dataclass(frozen=True)
class Step:
    """One load placed during calibration and the raw readings taken while it sat there.

    ``times`` (s) and ``raws`` (counts) are everything read from the moment the load was
    asked for; ``changed_from`` is the previous step's mean (counts), which the load must
    leave before its window counts (None for the first step).
    """

    mass_g: float
    times: tuple[float, ...]
    raws: tuple[int, ...]
    changed_from: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the session file."""
        return {
            "mass_g": self.mass_g,
            "changed_from": self.changed_from,
            "samples": [[t, r] for t, r in zip(self.times, self.raws)],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """Read a dict made by :meth:`to_json`."""
        samples = data["samples"]
        return cls(
            mass_g=float(data["mass_g"]),
            times=tuple(float(s[0]) for s in samples),
            raws=tuple(int(s[1]) for s in samples),
            changed_from=None if data.get("changed_from") is None else float(data["changed_from"]),
        )


@dataclass(frozen=True)
class Point:
    """A step's stable window: the mass and the mean, spread and number of its readings."""

    mass_g: float
    mean_counts: float
    std_counts: float
    n: int


def select_window(step: Step, rule: StabilityRule) -> tuple[int, Verdict] | None:
    """The first reading at which ``step``'s load is stable (and has changed), with its verdict.

    Asked after each reading, live and in replay alike, so both stop at the same reading.
    """
    times = list(step.times)
    raws = [float(r) for r in step.raws]
    for end in range(rule.min_samples, len(raws) + 1):
        found = window_ready(times[:end], raws[:end], rule, step.changed_from)
        if found is not None:
            return end, found
    return None


def window_ready(times: Sequence[float], raws: Sequence[float], rule: StabilityRule, changed_from: float | None) -> Verdict | None:
    """The verdict if the readings so far end in a stable window that left ``changed_from``."""
    verdict = judge(times, raws, rule)
    if not verdict.stable:
        return None
    if changed_from is not None and abs(verdict.mean - changed_from) <= 2.0 * rule.band:
        return None
    return verdict


def step_point(step: Step, rule: StabilityRule) -> Point:
    """The calibration point of ``step``.

    Raises:
        CalibrationError: its load never became stable.
    """
    found = select_window(step, rule)
    if found is None:
        raise CalibrationError(f"the {step.mass_g:g} g load never settled; calibrate again on a still table")
    _, verdict = found
    return Point(step.mass_g, verdict.mean, verdict.std, verdict.used)


def fit_line(masses: Sequence[float], counts: Sequence[float]) -> tuple[float, float]:
    """Least-squares (counts_per_gram, zero_counts) of ``counts`` against ``masses``.

    Raises:
        CalibrationError: fewer than two different masses.
    """
    if len(masses) != len(counts) or len(set(masses)) < 2:
        raise CalibrationError("a calibration needs the empty pan and at least one known mass")
    mx = fsum_mean(masses)
    my = fsum_mean(counts)
    sxx = math.fsum((m - mx) ** 2 for m in masses)
    sxy = math.fsum((m - mx) * (c - my) for m, c in zip(masses, counts))
    slope = sxy / sxx
    if not math.isfinite(slope) or slope == 0:
        raise CalibrationError("the readings did not change with the load: is the load cell connected?")
    return slope, my - slope * mx


@dataclass(frozen=True)
class Session:
    """A recorded calibration session (everything :func:`replay` needs)."""

    device_id: str
    channel: int
    interval_g: float
    capacity_g: float
    created: str
    rule: StabilityRule
    steps: tuple[Step, ...]
    backend: str = ""
    notes: str = ""

    def to_json(self) -> dict[str, Any]:
        """The session file's content."""
        r = self.rule
        return {
            "format": SESSION_FORMAT,
            "version": SESSION_VERSION,
            "device_id": self.device_id,
            "channel": self.channel,
            "interval_g": self.interval_g,
            "capacity_g": self.capacity_g,
            "created": self.created,
            "backend": self.backend,
            "notes": self.notes,
            "stability": {
                "band_counts": r.band,
                "window_s": r.window_s,
                "min_samples": r.min_samples,
                "outlier_k": r.outlier_k,
                "max_outlier_frac": r.max_outlier_frac,
                "noise_counts": r.noise,
                "trend_frac": r.trend_frac,
            },
            "steps": [s.to_json() for s in self.steps],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Session:
        """Read a session file's content.

        Raises:
            CalibrationError: not a session, a newer version, or damaged.
        """
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise CalibrationError("not a Purser calibration session")
        if not isinstance(data.get("version"), int) or data["version"] > SESSION_VERSION:
            raise CalibrationError("this calibration session was recorded by a newer Purser")
        try:
            st = data["stability"]
            rule = StabilityRule(
                band=float(st["band_counts"]),
                window_s=float(st["window_s"]),
                min_samples=int(st["min_samples"]),
                outlier_k=float(st["outlier_k"]),
                max_outlier_frac=float(st["max_outlier_frac"]),
                noise=float(st["noise_counts"]),
                trend_frac=float(st["trend_frac"]),
            )
            return cls(
                device_id=str(data["device_id"]),
                channel=int(data["channel"]),
                interval_g=float(data["interval_g"]),
                capacity_g=float(data["capacity_g"]),
                created=str(data["created"]),
                rule=rule,
                steps=tuple(Step.from_json(s) for s in data["steps"]),
                backend=str(data.get("backend", "")),
                notes=str(data.get("notes", "")),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"the calibration session is damaged ({exc})") from exc


def read_session(path: Path) -> Session:
    """Load a session file.

    Raises:
        CalibrationError: unreadable or not a session.
    """
    try:
        return Session.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
    except (OSError, ValueError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"cannot read the calibration session {path}: {exc}") from exc


def write_session(session: Session, path: Path) -> Path:
    """Save ``session`` as JSON.

    Raises:
        CalibrationError: the file cannot be written.
    """
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(session.to_json(), separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CalibrationError(f"cannot save the calibration session to {path}: {exc.strerror or exc}") from exc
    return Path(path)


@dataclass(frozen=True)
class Report:
    """What a calibration found, for the profile, the plot and the terminal."""

    points: tuple[Point, ...]
    counts_per_gram: float
    zero_counts: float
    residuals_g: tuple[float, ...]
    sigma_g: float
    linearity_pct: float
    repeatability: dict[float, dict[str, float]] = field(default_factory=dict)
    verdict: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """A plain dict (stored in the profile file)."""
        return {
            "points": [
                {"mass_g": p.mass_g, "mean_counts": p.mean_counts, "std_counts": p.std_counts, "n": p.n}
                for p in self.points
            ],
            "counts_per_gram": self.counts_per_gram,
            "zero_counts": self.zero_counts,
            "residuals_g": list(self.residuals_g),
            "sigma_g": self.sigma_g,
            "linearity_pct": self.linearity_pct,
            "repeatability": [{"mass_g": m, **v} for m, v in sorted(self.repeatability.items())],
            "verdict": self.verdict,
        }


def analyse(points: Sequence[Point], interval_g: float, capacity_g: float) -> Report:
    """Fit the points and judge the result (see the module docstring).

    The calibration's fit error ``sigma_g`` is the residual standard error, never taken
    below the spread of repeated weighings nor below the noise of one window's mean.

    Raises:
        CalibrationError: fewer than two different masses.
    """
    masses = [p.mass_g for p in points]
    counts = [p.mean_counts for p in points]
    cpg, zero = fit_line(masses, counts)
    indicated = [(c - zero) / cpg for c in counts]
    residuals = tuple(i - m for i, m in zip(indicated, masses))
    dof = len(points) - 2
    fit_se = math.sqrt(math.fsum(r * r for r in residuals) / dof) if dof > 0 else 0.0
    by_mass: dict[float, list[float]] = {}
    for m, i in zip(masses, indicated):
        by_mass.setdefault(m, []).append(i)
    repeat: dict[float, dict[str, float]] = {}
    pooled = []
    for m, values in by_mass.items():
        if len(values) >= 2:
            spread = max(values) - min(values)
            std = fsum_std(values)
            repeat[m] = {"spread_g": spread, "std_g": std, "n": float(len(values))}
            pooled.append(std)
    window_noise = max((p.std_counts / math.sqrt(max(p.n, 1)) / abs(cpg) for p in points), default=0.0)
    repeat_std = max(pooled, default=0.0)
    sigma = max(fit_se, repeat_std, window_noise)
    linearity = 100.0 * max(abs(r) for r in residuals) / capacity_g
    verdict = class_iii_verdict(
        capacity_g,
        interval_g,
        [(m, r) for m, r in zip(masses, residuals)],
        [(m, v["spread_g"]) for m, v in sorted(repeat.items())],
    )
    return Report(tuple(points), cpg, zero, residuals, sigma, linearity, repeat, verdict.to_json())


def replay(session: Session) -> SavedProfile:
    """The profile a recorded session produces (the same numbers, every time).

    Raises:
        CalibrationError: a step never settled, or too few masses.
    """
    points = [step_point(step, session.rule) for step in session.steps]
    report = analyse(points, session.interval_g, session.capacity_g)
    cal = Calibration(
        counts_per_gram=report.counts_per_gram,
        zero_counts=report.zero_counts,
        sigma_g=report.sigma_g,
        interval_g=session.interval_g,
        capacity_g=session.capacity_g,
        device_id=session.device_id,
        channel=session.channel,
        created=session.created,
        source="profile",
    )
    return SavedProfile(cal, report.to_json())


def mpe_curve(capacity_g: float, interval_g: float, steps: int = 200) -> list[tuple[float, float]]:
    """(load, class III MPE) pairs from 0 to capacity, for plotting the allowed error."""
    return [(capacity_g * i / steps, mpe_class_iii(capacity_g * i / steps, interval_g)) for i in range(steps + 1)]
