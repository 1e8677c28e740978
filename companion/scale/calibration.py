"""Calibration maths: from recorded raw readings of known masses to a saved profile.

A calibration session is a log of raw readings, one step per load placed (the empty pan
is mass 0). Each step has a kind:

- ``fit``: a known mass the line counts = zero + counts_per_gram x mass is fitted to;
- ``check``: a known mass set aside to verify the fit (never part of it); the heaviest
  check load is the top of the verified range;
- ``corner``: one mass at the centre and at each corner of the pan (off-centre loading);
- ``creep``: one mass left on the pan for a while (how far the reading creeps).

:func:`replay` picks each step's stable window with the same rule the live procedure used
(:func:`companion.scale.stable.first_stable`), fits by least squares, and reports:
residuals, linearity, repeatability, the error at each check load, off-centre and creep
errors, and what the evidence supports -- an OIML R76 class III claim for the verified
range only when the check loads, the reference masses' tolerances and the corner test
allow it, else "+-x g up to y g". Sums are exact-rounded (``math.fsum``), so replaying a
recorded session reproduces its profile to the last bit.

Reference masses are never exact: each has a tolerance (OIML R111 test weights, coins,
kitchen weights), taken as a rectangular distribution (standard uncertainty tolerance /
root 3). Their effect on the slope, and so on every weight, enters the uncertainty.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.scale.errors import ScaleError, ScaleUsageError
from companion.scale.oiml import class_iii_verdict, mpe_class_iii
from companion.scale.profile import Calibration, SavedProfile
from companion.scale.stable import StabilityRule, Verdict, fsum_mean, fsum_std, judge

SESSION_FORMAT = "purser-scale-calibration-session"
SESSION_VERSION = 2

KINDS = ("fit", "check", "corner", "creep")
#: Where a load sits on the pan (the corner test uses all five).
POSITIONS = ("centre", "front-left", "front-right", "back-left", "back-right")
#: Coverage factor of the "+-x g" statement (about 95 %).
COVERAGE = 2.0
#: Fewest different check loads an OIML class claim needs (R76 verifies at several loads
#: from the minimum to Max).
CLASS_MIN_CHECKS = 3


class CalibrationError(ScaleError):
    """A calibration that cannot be completed or trusted (too few points, no stable load...)."""


class BadPlan(CalibrationError, ScaleUsageError):
    """Calibration masses or options that cannot make a calibration as given (a usage error)."""


@dataclass(frozen=True)
class Step:
    """One load placed during calibration and the raw readings taken while it sat there.

    ``times`` (s) and ``raws`` (counts) are everything read from the moment the load was
    asked for; ``changed_from`` is the previous step's mean (counts), which the load must
    leave before its window counts (None for the first step). ``kind`` is one of
    :data:`KINDS`, ``position`` where the load sat, ``tolerance_g`` how far the mass may be
    off its nominal value, and ``hold_s`` (creep steps) how long the load was kept on after
    it settled. ``must_leave`` (counts): the readings must first move this far from
    ``changed_from`` (the mass lifted to be moved), for steps whose load reads much the same
    as the step before.
    """

    mass_g: float
    times: tuple[float, ...]
    raws: tuple[int, ...]
    changed_from: float | None = None
    kind: str = "fit"
    position: str = "centre"
    tolerance_g: float = 0.0
    hold_s: float = 0.0
    must_leave: float | None = None

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the session file."""
        return {
            "mass_g": self.mass_g,
            "changed_from": self.changed_from,
            "kind": self.kind,
            "position": self.position,
            "tolerance_g": self.tolerance_g,
            "hold_s": self.hold_s,
            "must_leave": self.must_leave,
            "samples": [[t, r] for t, r in zip(self.times, self.raws, strict=False)],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Step:
        """Read a dict made by :meth:`to_json` (version-1 steps have no kind: ``fit``)."""
        samples = data["samples"]
        kind = str(data.get("kind", "fit"))
        position = str(data.get("position", "centre"))
        if kind not in KINDS or position not in POSITIONS:
            raise ValueError(f"unknown step kind {kind!r} or position {position!r}")
        return cls(
            mass_g=float(data["mass_g"]),
            times=tuple(float(s[0]) for s in samples),
            raws=tuple(int(s[1]) for s in samples),
            changed_from=None if data.get("changed_from") is None else float(data["changed_from"]),
            kind=kind,
            position=position,
            tolerance_g=float(data.get("tolerance_g", 0.0)),
            hold_s=float(data.get("hold_s", 0.0)),
            must_leave=None if data.get("must_leave") is None else float(data["must_leave"]),
        )


@dataclass(frozen=True)
class Point:
    """A step's stable window: the mass and the mean, spread and number of its readings,
    with the step's kind, position and the mass's tolerance (grams)."""

    mass_g: float
    mean_counts: float
    std_counts: float
    n: int
    kind: str = "fit"
    position: str = "centre"
    tolerance_g: float = 0.0
    #: creep steps: the mean of the last window, ``hold_s`` after the first stable one.
    end_counts: float | None = None
    hold_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """A plain dict for the report."""
        data: dict[str, Any] = {
            "mass_g": self.mass_g,
            "mean_counts": self.mean_counts,
            "std_counts": self.std_counts,
            "n": self.n,
        }
        if self.kind != "fit":
            data["kind"] = self.kind
        if self.position != "centre":
            data["position"] = self.position
        if self.tolerance_g:
            data["tolerance_g"] = self.tolerance_g
        if self.end_counts is not None:
            data["end_counts"] = self.end_counts
            data["hold_s"] = self.hold_s
        return data


def select_window(step: Step, rule: StabilityRule) -> tuple[int, Verdict] | None:
    """The first reading at which ``step``'s load is stable (and has changed), with its verdict.

    Asked after each reading, live and in replay alike, so both stop at the same reading.
    A step that must see its load lifted first (``must_leave``: a mass moved to another
    corner reads much the same) looks only at the readings after the lift.
    """
    times = list(step.times)
    raws = [float(r) for r in step.raws]
    first = 0
    changed_from = step.changed_from
    if step.must_leave is not None and changed_from is not None:
        departed = next((i for i, r in enumerate(raws) if abs(r - changed_from) > step.must_leave), None)
        if departed is None:
            return None
        first = departed + 1
        changed_from = None
    for end in range(first + rule.min_samples, len(raws) + 1):
        found = window_ready(times[first:end], raws[first:end], rule, changed_from)
        if found is not None:
            return end, Verdict(
                found.stable,
                found.reason,
                found.mean,
                found.std,
                found.used,
                found.rejected,
                found.start + first,
                found.keep,
            )
    return None


def window_ready(
    times: Sequence[float], raws: Sequence[float], rule: StabilityRule, changed_from: float | None
) -> Verdict | None:
    """The verdict if the readings so far end in a stable window that left ``changed_from``."""
    verdict = judge(times, raws, rule)
    if not verdict.stable:
        return None
    if changed_from is not None and abs(verdict.mean - changed_from) <= 2.0 * rule.band:
        return None
    return verdict


def step_point(step: Step, rule: StabilityRule) -> Point:
    """The calibration point of ``step`` (a creep step also gives its last window).

    Raises:
        CalibrationError: its load never became stable.
    """
    found = select_window(step, rule)
    if found is None:
        raise CalibrationError(f"the {step.mass_g:g} g load never settled; calibrate again on a still table")
    end, verdict = found
    end_counts = None
    if step.kind == "creep":
        end_counts = _creep_end(step, rule, end)
    return Point(
        step.mass_g,
        verdict.mean,
        verdict.std,
        verdict.used,
        step.kind,
        step.position,
        step.tolerance_g,
        end_counts,
        step.hold_s,
    )


def _creep_end(step: Step, rule: StabilityRule, settled_at: int) -> float:
    """The mean of the readings in the last ``rule.window_s`` of a creep step, which must
    end at least ``hold_s`` after its first stable window."""
    times = step.times
    if not times or times[-1] - times[settled_at - 1] < step.hold_s - 1e-9:
        raise CalibrationError(
            f"the creep test with {step.mass_g:g} g ended before {step.hold_s:g} s had passed; run it again"
        )
    last = [float(r) for t, r in zip(times, step.raws, strict=False) if t >= times[-1] - rule.window_s]
    return fsum_mean(last)


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
    sxy = math.fsum((m - mx) * (c - my) for m, c in zip(masses, counts, strict=False))
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
    version: int = SESSION_VERSION

    def to_json(self) -> dict[str, Any]:
        """The session file's content."""
        r = self.rule
        return {
            "format": SESSION_FORMAT,
            "version": self.version,
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
            "steps": [_step_json(s, self.version) for s in self.steps],
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
            steps = tuple(Step.from_json(s) for s in data["steps"])
            if data["version"] < 2:
                steps = _kinds_of_version_1(steps)
            return cls(
                device_id=str(data["device_id"]),
                channel=int(data["channel"]),
                interval_g=float(data["interval_g"]),
                capacity_g=float(data["capacity_g"]),
                created=str(data["created"]),
                rule=rule,
                steps=steps,
                backend=str(data.get("backend", "")),
                notes=str(data.get("notes", "")),
                version=int(data["version"]),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise CalibrationError(f"the calibration session is damaged ({exc})") from exc


def _step_json(step: Step, version: int) -> dict[str, Any]:
    data = step.to_json()
    if version < 2:  # version-1 files hold the readings only; their kinds follow from the order
        return {"mass_g": data["mass_g"], "changed_from": data["changed_from"], "samples": data["samples"]}
    return data


def _kinds_of_version_1(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """Version 1 recorded cycles of (empty pan, masses...) all fitted together. Read now,
    the last cycle checks the fit made from the others (when there are two or more)."""
    starts = [i for i, s in enumerate(steps) if s.mass_g == 0.0]
    if len(starts) < 2:
        return steps
    last = starts[-1]
    return tuple(
        Step(s.mass_g, s.times, s.raws, s.changed_from, "check" if i >= last else "fit", s.position, s.tolerance_g)
        for i, s in enumerate(steps)
    )


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
    """What a calibration found, for the profile, the plot and the terminal.

    ``points`` and ``residuals_g`` are the fit's (``other_points`` the check, corner and
    creep steps' windows); ``checks`` the verification loads with
    their errors; ``slope_u_rel``, ``corner_rel`` and ``creep_rel`` the relative standard
    uncertainties a weighing carries; ``verified_max_g`` the heaviest check load;
    ``verdict`` the OIML class III judgement and ``statement`` what may be claimed.
    """

    points: tuple[Point, ...]
    counts_per_gram: float
    zero_counts: float
    residuals_g: tuple[float, ...]
    sigma_g: float
    linearity_pct: float
    repeatability: dict[float, dict[str, float]] = field(default_factory=dict)
    verdict: dict[str, Any] = field(default_factory=dict)
    checks: tuple[dict[str, float], ...] = ()
    corner: dict[str, Any] = field(default_factory=dict)
    creep: dict[str, Any] = field(default_factory=dict)
    slope_u_rel: float = 0.0
    corner_rel: float = 0.0
    creep_rel: float = 0.0
    verified_max_g: float = 0.0
    statement: str = ""
    other_points: tuple[Point, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """A plain dict (stored in the profile file)."""
        return {
            "points": [p.to_json() for p in self.points],
            "other_points": [p.to_json() for p in self.other_points],
            "counts_per_gram": self.counts_per_gram,
            "zero_counts": self.zero_counts,
            "residuals_g": list(self.residuals_g),
            "sigma_g": self.sigma_g,
            "linearity_pct": self.linearity_pct,
            "repeatability": [{"mass_g": m, **v} for m, v in sorted(self.repeatability.items())],
            "checks": list(self.checks),
            "corner": self.corner,
            "creep": self.creep,
            "slope_u_rel": self.slope_u_rel,
            "corner_rel": self.corner_rel,
            "creep_rel": self.creep_rel,
            "verified_max_g": self.verified_max_g,
            "statement": self.statement,
            "verdict": self.verdict,
        }


def _mass_u(tolerance_g: float) -> float:
    """Standard uncertainty of a mass known to +-``tolerance_g`` (rectangular)."""
    return tolerance_g / math.sqrt(3.0)


def _slope_from_masses(points: Sequence[Point]) -> float:
    """Relative standard uncertainty of the fitted slope caused by the masses' tolerances.

    A mass off by d moves the slope by -(m - mean) d / Sxx (relative); the same physical
    mass weighed in several cycles errs the same way each time, so its terms add first.
    """
    masses = [p.mass_g for p in points]
    mean = fsum_mean(masses)
    sxx = math.fsum((m - mean) ** 2 for m in masses)
    if sxx <= 0:
        return 0.0
    by_mass: dict[float, tuple[float, float]] = {}
    for p in points:
        lever, u = by_mass.get(p.mass_g, (0.0, _mass_u(p.tolerance_g)))
        by_mass[p.mass_g] = (lever + (p.mass_g - mean), max(u, _mass_u(p.tolerance_g)))
    return math.sqrt(math.fsum((lever * u) ** 2 for lever, u in by_mass.values())) / sxx


def analyse(points: Sequence[Point], interval_g: float, capacity_g: float) -> Report:
    """Fit the ``fit`` points, check the fit with the ``check`` points, measure off-centre
    loading and creep, and judge what may be claimed (see the module docstring).

    The fit error ``sigma_g`` is the largest of the fit's residual standard error, the
    spread of repeated weighings, the noise of one window's mean and the root mean square
    error at the check loads (the fit's real performance on loads it has not seen).

    Raises:
        CalibrationError: fewer than two different masses to fit.
    """
    fit = [p for p in points if p.kind == "fit"]
    checks = [p for p in points if p.kind == "check"]
    corners = [p for p in points if p.kind == "corner"]
    creeps = [p for p in points if p.kind == "creep"]
    masses = [p.mass_g for p in fit]
    counts = [p.mean_counts for p in fit]
    cpg, zero = fit_line(masses, counts)
    indicated = [(c - zero) / cpg for c in counts]
    residuals = tuple(i - m for i, m in zip(indicated, masses, strict=False))
    dof = len(fit) - 2
    fit_se = math.sqrt(math.fsum(r * r for r in residuals) / dof) if dof > 0 else 0.0
    mean_m = fsum_mean(masses)
    sxx = math.fsum((m - mean_m) ** 2 for m in masses)
    # The slope is no surer than its points' own noise says, even when they fit exactly
    # (two points always do).
    point_u = [p.std_counts / math.sqrt(max(p.n, 1)) / abs(cpg) for p in fit]
    slope_noise_rel = math.sqrt(math.fsum(((m - mean_m) * u) ** 2 for m, u in zip(masses, point_u, strict=True))) / sxx
    slope_fit_rel = max(fit_se / math.sqrt(sxx), slope_noise_rel) if sxx > 0 else 0.0
    slope_u_rel = math.hypot(slope_fit_rel, _slope_from_masses(fit))

    repeat: dict[float, dict[str, float]] = {}
    pooled = []
    by_mass: dict[float, list[float]] = {}
    for p in fit + checks:
        by_mass.setdefault(p.mass_g, []).append((p.mean_counts - zero) / cpg)
    for m, values in by_mass.items():
        if len(values) >= 2:
            std = fsum_std(values)
            repeat[m] = {"spread_g": max(values) - min(values), "std_g": std, "n": float(len(values))}
            pooled.append(std)
    window_noise = max((p.std_counts / math.sqrt(max(p.n, 1)) / abs(cpg) for p in fit + checks), default=0.0)

    check_rows = []
    for p in checks:
        error = (p.mean_counts - zero) / cpg - p.mass_g
        u = math.sqrt(fit_se**2 + (p.mass_g * slope_u_rel) ** 2 + _mass_u(p.tolerance_g) ** 2 + window_noise**2)
        check_rows.append({"mass_g": p.mass_g, "error_g": error, "u_g": u, "tolerance_g": p.tolerance_g})
    check_rms = math.sqrt(fsum_mean([r["error_g"] ** 2 for r in check_rows])) if check_rows else 0.0
    sigma = max(fit_se, max(pooled, default=0.0), window_noise, check_rms)
    linearity = 100.0 * max(abs(r) for r in residuals) / capacity_g
    verified = max((p.mass_g for p in checks), default=0.0)

    corner, corner_rel = _corner(corners, zero, cpg)
    creep, creep_rel = _creep(creeps, cpg)

    def load_u(w: float) -> float:
        return math.sqrt(sigma**2 + (w * slope_u_rel) ** 2 + (w * corner_rel) ** 2 + (w * creep_rel) ** 2)

    verdict = _verdict(
        capacity_g, interval_g, fit, check_rows=check_rows, repeat=repeat, corner=corner, verified=verified
    )
    statement = _statement(verdict, verified, interval_g, check_rows, load_u)
    verdict["statement"] = statement
    return Report(
        tuple(fit),
        cpg,
        zero,
        residuals,
        sigma,
        linearity,
        repeat,
        verdict,
        tuple(check_rows),
        corner,
        creep,
        slope_u_rel,
        corner_rel,
        creep_rel,
        verified,
        statement,
        tuple(p for p in points if p.kind != "fit"),
    )


def _corner(corners: Sequence[Point], zero: float, cpg: float) -> tuple[dict[str, Any], float]:
    """Off-centre errors (grams) against the centre reading, and their relative standard
    uncertainty (the largest, taken as a rectangular distribution)."""
    centre = [p for p in corners if p.position == "centre"]
    if not centre:
        return {}, 0.0
    mass = centre[0].mass_g
    base = (centre[0].mean_counts - zero) / cpg
    errors = {p.position: (p.mean_counts - zero) / cpg - base for p in corners if p.position != "centre"}
    worst = max((abs(e) for e in errors.values()), default=0.0)
    rel = worst / mass / math.sqrt(3.0) if mass > 0 else 0.0
    return {"mass_g": mass, "errors_g": errors, "worst_g": worst}, rel


def _creep(creeps: Sequence[Point], cpg: float) -> tuple[dict[str, Any], float]:
    """How far a load crept while it sat (grams), and its relative standard uncertainty."""
    measured = [p for p in creeps if p.end_counts is not None]
    if not measured:
        return {}, 0.0
    p = measured[0]
    assert p.end_counts is not None
    change = (p.end_counts - p.mean_counts) / cpg
    rel = abs(change) / p.mass_g / math.sqrt(3.0) if p.mass_g > 0 else 0.0
    return {"mass_g": p.mass_g, "hold_s": p.hold_s, "change_g": change}, rel


def _verdict(
    capacity_g: float,
    interval_g: float,
    fit: Sequence[Point],
    *,
    check_rows: Sequence[dict[str, float]],
    repeat: dict[float, dict[str, float]],
    corner: dict[str, Any],
    verified: float,
) -> dict[str, Any]:
    """OIML R76 class III for a balance of Max = the verified range: the check errors, the
    reference masses (within a third of the error allowed), repeatability, off-centre
    loading, and enough check loads over the range."""
    judged = class_iii_verdict(
        verified if verified > 0 else capacity_g,
        interval_g,
        [(r["mass_g"], r["error_g"]) for r in check_rows],
        [(m, v["spread_g"]) for m, v in sorted(repeat.items())],
    )
    checks_text = list(judged.checks)
    failures = [f for f in judged.failures if f != "no calibration points to check"]
    distinct = sorted({r["mass_g"] for r in check_rows if r["mass_g"] > 0})
    if not distinct:
        failures.append("no check loads: nothing verifies the fit (give --check masses, or --repeats 2 or more)")
    elif len(distinct) < CLASS_MIN_CHECKS:
        failures.append(
            f"only {len(distinct)} different check load(s) ({', '.join(f'{m:g} g' for m in distinct)}): "
            f"a class needs {CLASS_MIN_CHECKS} or more spread over the range"
        )
    for p in [*fit, *(_as_point(r) for r in check_rows)]:
        mpe = mpe_class_iii(p.mass_g, interval_g)
        if p.mass_g > 0 and p.tolerance_g > mpe / 3.0 + 1e-12:
            failures.append(
                f"the {p.mass_g:g} g reference mass may be off by {p.tolerance_g:g} g, more than a third of the "
                f"{mpe:g} g error allowed there"
            )
    if corner:
        mpe = mpe_class_iii(corner["mass_g"], interval_g)
        line = f"off-centre error {corner['worst_g']:.4f} g with {corner['mass_g']:g} g (allowed {mpe:g} g)"
        (checks_text if corner["worst_g"] <= mpe + 1e-12 else failures).append(line)
    failures = list(dict.fromkeys(failures))
    return {
        "class": "III",
        "passed": not failures,
        "interval_g": interval_g,
        "intervals": judged.intervals,
        "max_g": verified,
        "checks": checks_text,
        "failures": failures,
    }


def _as_point(row: dict[str, float]) -> Point:
    return Point(row["mass_g"], 0.0, 0.0, 0, "check", "centre", row["tolerance_g"])


def _statement(
    verdict: dict[str, Any], verified: float, interval_g: float, checks: Sequence[dict[str, float]], load_u: Any
) -> str:
    """What the calibration may claim, in one line."""
    if verified <= 0:
        return "not verified: no check load was weighed, so no accuracy is claimed"
    worst = max((abs(r["error_g"]) + COVERAGE * _mass_u(r["tolerance_g"]) for r in checks), default=0.0)
    x = max(COVERAGE * float(load_u(verified)), worst)
    step = interval_g / 10.0
    x = math.ceil(x / step - 1e-9) * step
    if verdict["passed"]:
        return (
            f"meets OIML R76 class III as a balance of Max {verified:g} g, e = {interval_g:g} g "
            f"(verified up to {verified:g} g)"
        )
    return f"+-{x:.{_decimals(step)}f} g up to {verified:g} g (95 %)"


def _decimals(step: float) -> int:
    return max(0, -math.floor(math.log10(step) + 1e-9))


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
        slope_u_rel=report.slope_u_rel,
        corner_rel=report.corner_rel,
        creep_rel=report.creep_rel,
        verified_max_g=report.verified_max_g,
    )
    return SavedProfile(cal, report.to_json())


def mpe_curve(capacity_g: float, interval_g: float, steps: int = 200) -> list[tuple[float, float]]:
    """(load, class III MPE) pairs from 0 to capacity, for plotting the allowed error."""
    return [(capacity_g * i / steps, mpe_class_iii(capacity_g * i / steps, interval_g)) for i in range(steps + 1)]
