"""Scoring the dice reader against labelled photos (``purser dice eval``).

Labels follow the dice-real format: one JSON object per image in ``labels.jsonl`` with
``image``, ``box_kind`` (``"die"``: the box encloses the whole die; ``"pips"``: only the
pip pattern) and ``dice`` ``[{"value", "box": [x, y, w, h]}]``.

A reading is matched to a label by centre: for ``die`` boxes the reading's centre must
fall inside the labelled box; for ``pips`` boxes (which can be far smaller than the
die) inside the box or within one box size (the larger side) of its centre, and for a
one (a box around a single pip) within half the size of the photo's dice, estimated from
its other dice's pip boxes. Among the allowed pairs the closest are matched first, each
label and reading at most once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.errors import ExitCode
from companion.vision.errors import VisionError

#: A pip pattern of 2-6 spans about this share of the face (corner pips at +-0.27 of it,
#: radius 0.09).
PIP_SPAN = 0.72


class BadLabels(VisionError, ValueError):
    """A labels file that cannot be read."""

    exit_code = ExitCode.USAGE


@dataclass(frozen=True)
class Label:
    """One labelled die: ``value`` 1-6 and ``box`` (x, y, w, h) pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class LabelledImage:
    """The labels of one photo."""

    image: str
    box_kind: str
    dice: tuple[Label, ...]

    @property
    def group(self) -> str:
        """The source prefix of the file name (``nb`` for ``nb_x.jpg``), or ``other``."""
        return image_source(self.image)


def image_source(image: str) -> str:
    """The source prefix of a photo's file name (``nb`` for ``images/nb_x.jpg``), or ``other``."""
    name = Path(image).name
    return name.split("_", 1)[0] if "_" in name else "other"


@dataclass(frozen=True)
class Reading:
    """One die as read: value, box (x, y, w, h), and whether it was flagged unsure."""

    value: int
    box: tuple[float, float, float, float]
    unsure: bool = False
    confidence: float = 1.0


@dataclass
class ImageResult:
    """How one photo was read: matched pairs (label value, read value, unsure, confidence),
    missed label values (and where they are in the photo's labels), extra readings (value,
    unsure, and where they are among the readings)."""

    image: str
    group: str
    pairs: list[tuple[int, int, bool, float]] = field(default_factory=list)
    missed: list[int] = field(default_factory=list)
    missed_at: list[int] = field(default_factory=list)
    extra: list[tuple[int, bool]] = field(default_factory=list)
    extra_at: list[int] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def all_right(self) -> bool:
        """Every die found with its right value, and nothing extra."""
        return not self.missed and not self.extra and all(p[0] == p[1] for p in self.pairs)


def load_labels(dataset: Path) -> list[LabelledImage]:
    """The labelled images of ``dataset/labels.jsonl``.

    Raises:
        BadLabels: the file is missing or a line is not a valid label record.
    """
    path = Path(dataset) / "labels.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BadLabels(f"cannot read the labels {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise BadLabels(f"the labels {path} are not UTF-8 text (JSON lines)") from exc
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            kind = rec.get("box_kind", "die")
            if kind not in ("die", "pips"):
                raise ValueError(f"box_kind must be 'die' or 'pips', not {kind!r}")
            dice = []
            for d in rec["dice"]:
                value = d["value"]
                if not isinstance(value, int) or not 1 <= value <= 6:
                    raise ValueError(f"die value {value!r} is not 1-6")
                box = tuple(float(v) for v in d["box"])
                if len(box) != 4:
                    raise ValueError("a box has 4 numbers")
                dice.append(Label(value, box))  # type: ignore[arg-type]
            out.append(LabelledImage(str(rec["image"]), kind, tuple(dice)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise BadLabels(f"{path} line {n} is not a label record: {exc}") from exc
    return out


def _half_die(label: LabelledImage) -> float:
    """Half the typical die size (px) of a photo labelled by pip boxes, from its dice of
    two or more pips; 0 when it has none (or its boxes hold whole dice)."""
    spans = [max(d.box[2], d.box[3]) for d in label.dice if d.value >= 2]
    if label.box_kind != "pips" or not spans:
        return 0.0
    return float(np.median(spans)) / PIP_SPAN / 2


def in_box(points: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """Which of ``points`` ((N, 2) x, y pixels) lie in ``box`` (x, y, w, h pixels, edges
    included), as an (N,) bool array."""
    x, y, w, h = box
    p = np.asarray(points, float).reshape(-1, 2)
    return (p[:, 0] >= x) & (p[:, 0] <= x + w) & (p[:, 1] >= y) & (p[:, 1] <= y + h)


def in_boxes(points: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]) -> np.ndarray:
    """Which of ``points`` ((N, 2) x, y pixels) lie in each of ``boxes`` (x, y, w, h
    pixels), as an (M, N) bool array: row m is :func:`in_box` of box m."""
    n = len(np.asarray(points, float).reshape(-1, 2))
    return np.array([in_box(points, b) for b in boxes], bool).reshape(len(boxes), n)


def match(label: LabelledImage, readings: Sequence[Reading]) -> ImageResult:
    """Pair the readings of one photo with its labels (see the module doc)."""
    result = ImageResult(label.image, label.group)
    cands = []
    half_die = _half_die(label)
    boxes = np.array([r.box for r in readings], float).reshape(-1, 4)
    centres = boxes[:, :2] + boxes[:, 2:] / 2
    for i, lab in enumerate(label.dice):
        x, y, w, h = lab.box
        reach = max(w, h, half_die if lab.value == 1 else 0.0, 1.0)
        dist = np.hypot(centres[:, 0] - (x + w / 2), centres[:, 1] - (y + h / 2))
        near = in_box(centres, lab.box) | ((label.box_kind == "pips") & (dist <= reach))
        cands += [(float(dist[j]) / reach, i, int(j)) for j in np.flatnonzero(near)]
    cands.sort()
    used_l: set[int] = set()
    used_r: set[int] = set()
    for _, i, j in cands:
        if i in used_l or j in used_r:
            continue
        used_l.add(i)
        used_r.add(j)
        result.pairs.append((label.dice[i].value, readings[j].value, readings[j].unsure, readings[j].confidence))
    result.missed_at = [i for i in range(len(label.dice)) if i not in used_l]
    result.missed = [label.dice[i].value for i in result.missed_at]
    result.extra_at = [j for j in range(len(readings)) if j not in used_r]
    result.extra = [(readings[j].value, readings[j].unsure) for j in result.extra_at]
    return result


@dataclass(frozen=True)
class Scores:
    """Totals over a set of photos."""

    images: int
    dice: int
    correct: int
    wrong_sure: int
    wrong_unsure: int
    right_unsure: int
    missed: int
    extra: int
    images_all_right: int
    confusion: tuple[tuple[int, ...], ...]  # 7x7: rows label 1-6 + "none", cols read 1-6 + "none"
    median_ms: float
    extra_sure: int = 0

    @property
    def confident(self) -> int:
        """Labelled dice read with confidence (not flagged unsure), right or wrong."""
        return self.correct - self.right_unsure + self.wrong_sure

    def rate(self, n: int, of: int) -> float:
        """n / of, or 0 when there is nothing to count."""
        return n / of if of else 0.0

    def to_json(self) -> dict[str, Any]:
        """The figures as a plain dict (rates 0-1)."""
        return {
            "images": self.images,
            "dice": self.dice,
            "die_accuracy": self.rate(self.correct, self.dice),
            "image_all_right": self.rate(self.images_all_right, self.images),
            "missed": self.missed,
            "missed_rate": self.rate(self.missed, self.dice),
            "extra": self.extra,
            "extra_rate": self.rate(self.extra, self.dice),
            "wrong_and_sure": self.wrong_sure,
            "wrong_but_flagged_unsure": self.wrong_unsure,
            "right_but_flagged_unsure": self.right_unsure,
            "confusion": [list(r) for r in self.confusion],
            "median_ms": self.median_ms,
            **self.headline(),
        }

    def headline(self) -> dict[str, float | int]:
        """The figures a player feels (rates 0-1): dice missed, read confidently, confident
        reads wrong, and confident phantom dice (a reading matching no labelled die and not
        flagged unsure) per 100 labelled dice."""
        return {
            "readable_dice": self.dice,
            "read_confidently": self.rate(self.confident, self.dice),
            "confident_wrong": self.rate(self.wrong_sure, self.confident),
            "confident_phantoms": self.extra_sure,
            "confident_phantoms_per_100": 100.0 * self.rate(self.extra_sure, self.dice),
        }


def score(results: Iterable[ImageResult]) -> Scores:
    """Add up per-photo results: accuracy counts every labelled die (a missed die is wrong)."""
    results = list(results)
    conf = np.zeros((7, 7), int)
    correct = wrong_sure = wrong_unsure = right_unsure = 0
    for r in results:
        for t, v, unsure, _ in r.pairs:
            conf[t - 1, v - 1] += 1
            if t == v:
                correct += 1
                right_unsure += unsure
            elif unsure:
                wrong_unsure += 1
            else:
                wrong_sure += 1
        for t in r.missed:
            conf[t - 1, 6] += 1
        for v, _ in r.extra:
            conf[6, v - 1] += 1
    times = [r.seconds for r in results if r.seconds > 0]
    return Scores(
        images=len(results),
        dice=sum(len(r.pairs) + len(r.missed) for r in results),
        correct=correct,
        wrong_sure=wrong_sure,
        wrong_unsure=wrong_unsure,
        right_unsure=right_unsure,
        missed=sum(len(r.missed) for r in results),
        extra=sum(len(r.extra) for r in results),
        images_all_right=sum(r.all_right for r in results),
        confusion=tuple(tuple(int(v) for v in row) for row in conf),
        median_ms=float(np.median(times) * 1000) if times else 0.0,
        extra_sure=sum(not unsure for r in results for _, unsure in r.extra),
    )


def score_by_group(results: Sequence[ImageResult]) -> dict[str, Scores]:
    """Scores per source prefix (``nb``, ``mp``, ...) and ``all``."""
    groups = sorted({r.group for r in results})
    out = {g: score(r for r in results if r.group == g) for g in groups}
    out["all"] = score(results)
    return out


def format_scores(name: str, s: Scores) -> str:
    """A readable block of figures with the confusion matrix."""
    pct = lambda n, of: f"{100 * s.rate(n, of):.2f} %"  # noqa: E731
    lines = [
        f"{name}: {s.images} photos, {s.dice} dice",
        f"  dice read right       {s.correct}/{s.dice} = {pct(s.correct, s.dice)}",
        f"  photos all right      {s.images_all_right}/{s.images} = {pct(s.images_all_right, s.images)}",
        f"  missed dice           {s.missed} = {pct(s.missed, s.dice)}",
        f"  extra dice            {s.extra} = {pct(s.extra, s.dice)}",
        f"  wrong and sure        {s.wrong_sure}   wrong, flagged unsure {s.wrong_unsure}"
        f"   right, flagged unsure {s.right_unsure}",
        f"  read confidently      {s.confident}/{s.dice} = {pct(s.confident, s.dice)}"
        f"   of them wrong {s.wrong_sure} = {pct(s.wrong_sure, s.confident)}",
        f"  confident phantoms    {s.extra_sure} = {100 * s.rate(s.extra_sure, s.dice):.2f} per 100 dice",
        f"  median latency        {s.median_ms:.1f} ms per photo",
        "  confusion (rows: label, columns: read; '-' = none)",
        "        " + " ".join(f"{c:>5}" for c in ("1", "2", "3", "4", "5", "6", "-")),
    ]
    for k, row in enumerate(s.confusion):
        lines.append(f"  {('1', '2', '3', '4', '5', '6', '-')[k]:>5} " + " ".join(f"{v:>5}" for v in row))
    return "\n".join(lines)


#: The columns of :func:`headline_row`.
HEADLINE_HEADER = (
    "| photos | readable dice | missed | read confidently | confident reads wrong "
    "| confident phantom dice per 100 | dice right |"
)


def headline_row(name: str, s: Scores) -> str:
    """One Markdown table row of the headline figures (see :meth:`Scores.headline`)."""
    h = s.headline()
    return (
        f"| {name} ({s.images}) | {s.dice} | {100 * s.rate(s.missed, s.dice):.1f} % "
        f"| {100 * float(h['read_confidently']):.1f} % | {100 * float(h['confident_wrong']):.2f} % "
        f"({s.wrong_sure}/{s.confident}) | {float(h['confident_phantoms_per_100']):.2f} ({s.extra_sure}) "
        f"| {100 * s.rate(s.correct, s.dice):.1f} % |"
    )
