"""Calibrations: how a channel's ADC counts become grams, and where they are kept.

A :class:`Calibration` is a straight line (``counts_per_gram``, ``zero_counts``) with its
fit error ``sigma_g``. Saved profiles live in the user's data directory, one JSON file per
balance and channel (``<data>/calibrations/<device>-ch<N>.json``); see
:mod:`companion.scale.calibration` for how a profile is made.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.scale.errors import ScaleError
from companion.store.paths import data_dir

log = logging.getLogger(__name__)

PROFILE_FORMAT = "purser-scale-calibration"
PROFILE_VERSION = 1

#: Calibration ids are short (12 characters at most) so the balance's EEPROM can keep them.
_ID_PREFIX = {"profile": "cal", "firmware": "fw", "factory": "sim", "board": "brd", "nominal": "nom"}


#: Relative standard uncertainty assumed for a load above the heaviest load a calibration
#: was checked with (0.1 %: the combined error of a cheap bar cell), per gram beyond it.
UNVERIFIED_REL = 1e-3


@dataclass(frozen=True)
class Calibration:
    """Counts to grams for one channel: ``grams = (raw - zero_counts) / counts_per_gram``.

    ``sigma_g`` is the fit's standard error (grams, one sigma), ``interval_g`` the scale
    interval e the balance is read to, ``capacity_g`` its maximum load. ``source`` says where
    it came from: "profile" (a saved calibration), "firmware" (the balance's EEPROM),
    "factory" (the simulator's own), "board" (a board that sends grams) or "nominal"
    (a guess from the datasheet: weights are not trustworthy).

    What a calibration knows about loads, as standard uncertainties relative to the load:
    ``slope_u_rel`` (the fit's slope, the reference masses' tolerances included),
    ``corner_rel`` (off-centre loading, from the corner test) and ``creep_rel`` (creep over
    the time a load sits on the pan). ``verified_max_g`` is the heaviest load it was
    checked with (None: not known, for calibrations that predate the checks).
    """

    counts_per_gram: float
    zero_counts: float
    sigma_g: float
    interval_g: float = 0.1
    capacity_g: float = 1000.0
    id: str = ""
    device_id: str = ""
    channel: int = 0
    created: str = ""
    source: str = "profile"
    slope_u_rel: float = 0.0
    corner_rel: float = 0.0
    creep_rel: float = 0.0
    verified_max_g: float | None = None

    def __post_init__(self) -> None:
        if not (math.isfinite(self.counts_per_gram) and self.counts_per_gram != 0):
            raise ScaleError("a calibration's counts per gram must be a non-zero number")
        if not (math.isfinite(self.zero_counts) and math.isfinite(self.sigma_g) and self.sigma_g >= 0):
            raise ScaleError("a calibration's zero and fit error must be numbers")
        if not (self.interval_g > 0 and self.capacity_g > 0):
            raise ScaleError("a calibration's scale interval and capacity must be positive")
        terms = (self.slope_u_rel, self.corner_rel, self.creep_rel)
        if not all(math.isfinite(x) and x >= 0 for x in terms):
            raise ScaleError("a calibration's relative uncertainties must be zero or more")
        if self.verified_max_g is not None and not (math.isfinite(self.verified_max_g) and self.verified_max_g >= 0):
            raise ScaleError("a calibration's verified range must be zero or more grams")
        if not self.id:
            object.__setattr__(self, "id", self.fingerprint())

    def load_sigma_g(self, load_g: float) -> float:
        """The calibration's standard uncertainty (grams) for a net load of ``load_g``: the
        fit error, and the slope, off-centre and creep terms growing with the load; above
        the verified range, a further 0.1 % of the excess (:data:`UNVERIFIED_REL`)."""
        w = abs(load_g)
        total = self.sigma_g**2 + (w * self.slope_u_rel) ** 2 + (w * self.corner_rel) ** 2 + (w * self.creep_rel) ** 2
        if self.verified_max_g is not None and w > self.verified_max_g:
            total += (UNVERIFIED_REL * (w - self.verified_max_g)) ** 2
        return math.sqrt(total)

    def verifies(self, load_g: float) -> bool:
        """True when ``load_g`` lies within the range the calibration was checked over (or
        the range is not known)."""
        if self.verified_max_g is None:
            return True
        return abs(load_g) <= self.verified_max_g + 0.5 * self.interval_g

    def grams(self, raw: float) -> float:
        """Gross grams for ``raw`` counts."""
        return (raw - self.zero_counts) / self.counts_per_gram

    def counts(self, grams: float) -> float:
        """Counts expected for ``grams`` of gross load."""
        return self.zero_counts + grams * self.counts_per_gram

    def fingerprint(self) -> str:
        """A short id (at most 12 characters) derived from the line, device and channel."""
        text = json.dumps(
            [repr(self.counts_per_gram), repr(self.zero_counts), repr(self.sigma_g), self.device_id, self.channel],
        )
        prefix = _ID_PREFIX.get(self.source, "cal")
        return f"{prefix}-" + hashlib.sha256(text.encode()).hexdigest()[:8]

    def to_json(self) -> dict[str, Any]:
        """A plain dict (floats kept exact)."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        """Read a dict made by :meth:`to_json`.

        Raises:
            ScaleError: a field is missing or has the wrong type.
        """
        names = {f.name for f in fields(cls)}
        try:
            kwargs = {k: v for k, v in data.items() if k in names}
            cal = cls(**kwargs)
            float(cal.counts_per_gram) + float(cal.zero_counts)
        except (TypeError, ValueError) as exc:
            raise ScaleError(f"the calibration record is damaged ({exc}); calibrate the balance again") from exc
        return cal


def nominal(channel: int = 0, device_id: str = "", capacity_g: float = 1000.0) -> Calibration:
    """A datasheet guess (1 mV/V cell at 4.3 V, gain 128) used only until a calibration exists."""
    return Calibration(
        counts_per_gram=2150.0 * 1000.0 / capacity_g,
        zero_counts=0.0,
        sigma_g=capacity_g * 0.05,
        interval_g=max(0.1, capacity_g / 10000.0),
        capacity_g=capacity_g,
        device_id=device_id,
        channel=channel,
        source="nominal",
    )


def _safe_name(device_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", device_id).strip("._") or "balance"


def profile_dir(base: Path | None = None) -> Path:
    """The folder holding saved calibration profiles."""
    return (base or data_dir()) / "calibrations"


def profile_path(device_id: str, channel: int, base: Path | None = None) -> Path:
    """Where the profile for ``device_id``'s ``channel`` is saved."""
    return profile_dir(base) / f"{_safe_name(device_id)}-ch{channel}.json"


@dataclass(frozen=True)
class SavedProfile:
    """A saved profile file: the calibration plus the report that justified it."""

    calibration: Calibration
    report: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The file's content."""
        return {
            "format": PROFILE_FORMAT,
            "version": PROFILE_VERSION,
            "calibration": self.calibration.to_json(),
            "report": self.report,
        }


def save_profile(profile: SavedProfile, path: Path | None = None) -> Path:
    """Write ``profile`` (atomically) to ``path`` or its place in the data directory.

    Raises:
        ScaleError: the file cannot be written.
    """
    cal = profile.calibration
    target = path or profile_path(cal.device_id, cal.channel)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(target.suffix + ".tmp")
        tmp.write_text(json.dumps(profile.to_json(), indent=2, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, target)
    except OSError as exc:
        raise ScaleError(f"cannot save the calibration to {target}: {exc.strerror or exc}") from exc
    log.info("calibration %s saved to %s", cal.id, target)
    return target


def read_profile(path: Path) -> SavedProfile:
    """Read a profile file.

    Raises:
        ScaleError: missing, unreadable, not a profile, or from a newer Purser.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ScaleError(f"no calibration file at {path}") from exc
    except (OSError, ValueError) as exc:
        raise ScaleError(f"the calibration file {path} is damaged ({exc}); calibrate the balance again") from exc
    if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
        raise ScaleError(f"{path} is not a Purser calibration file")
    if not isinstance(data.get("version"), int) or data["version"] > PROFILE_VERSION:
        raise ScaleError(f"{path} was written by a newer Purser; update Purser to use it")
    cal_data = data.get("calibration")
    if not isinstance(cal_data, dict):
        raise ScaleError(f"the calibration file {path} is damaged; calibrate the balance again")
    report = data.get("report")
    return SavedProfile(Calibration.from_json(cal_data), report if isinstance(report, dict) else {})


def load_calibration(device_id: str, channel: int, base: Path | None = None) -> Calibration | None:
    """The saved calibration for ``device_id``'s ``channel``, or None if there is none.

    A damaged file is logged and ignored (the balance then uses its own calibration), so
    one bad file never stops a game; ``purser scale info`` shows which calibration is used.
    """
    path = profile_path(device_id, channel, base)
    if not path.exists():
        return None
    try:
        return read_profile(path).calibration
    except ScaleError as exc:
        log.warning("%s", exc)
        return None


def zero_path(device_id: str, channel: int, base: Path | None = None) -> Path:
    """Where the tare (zero, gross grams) of ``device_id``'s ``channel`` is kept between runs."""
    return profile_dir(base) / f"{_safe_name(device_id)}-ch{channel}.zero.json"


def save_zero(device_id: str, channel: int, calibration_id: str, zero_g: float, base: Path | None = None) -> None:
    """Keep a tare for the next run (it only applies while the same calibration is in force).

    Raises:
        ScaleError: the file cannot be written.
    """
    path = zero_path(device_id, channel, base)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"calibration": calibration_id, "zero_g": zero_g}) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:
        raise ScaleError(f"cannot save the tare to {path}: {exc.strerror or exc}") from exc


def load_zero(device_id: str, channel: int, calibration_id: str, base: Path | None = None) -> float | None:
    """The tare kept for ``device_id``'s ``channel`` under ``calibration_id``, or None."""
    path = zero_path(device_id, channel, base)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("ignoring the damaged tare file %s (%s)", path, exc)
        return None
    if not isinstance(data, dict) or data.get("calibration") != calibration_id:
        return None
    zero = data.get("zero_g")
    return float(zero) if isinstance(zero, (int, float)) and math.isfinite(zero) else None
