"""Corrections to published dice labels, kept apart from the datasets they correct.

A fixes file is a JSON list. Each entry names an ``image`` (file name) and ``why`` (the
evidence), and either adds a die the labels leave out::

    {"image": "x.jpg", "add": {"value": 1, "box": [x, y, w, h]}, "why": "..."}

or changes the value of one labelled die, found by its index in the image's ``dice``
and checked against the value it had::

    {"image": "x.jpg", "die": 0, "was": 5, "value": 3, "why": "..."}

The datasets stay as published (their licences and attribution go with them); scoring
tools apply the fixes on loading, and say so.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from companion.vision.evaluate import BadLabels, Label, LabelledImage, image_source, load_labels

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LabelFix:
    """One correction: a die added (``die`` None, with ``box``) or a value changed."""

    image: str
    value: int
    why: str
    box: tuple[float, float, float, float] | None = None
    die: int | None = None
    was: int | None = None


def load_label_fixes(path: Path) -> list[LabelFix]:
    """The corrections in a fixes file.

    Raises:
        BadLabels: the file is missing, not JSON, or an entry is not a valid correction.
    """
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BadLabels(f"cannot read the label fixes {path}: {e}") from e
    if not isinstance(entries, list):
        raise BadLabels(f"{path}: the label fixes must be a JSON list")
    return [_entry(path, k, e) for k, e in enumerate(entries, 1)]


def _entry(path: Path, k: int, e: Any) -> LabelFix:
    where = f"{path}: fix {k}"
    if not isinstance(e, dict) or not isinstance(e.get("image"), str) or not isinstance(e.get("why"), str):
        raise BadLabels(f"{where}: give an object with 'image' and 'why' (the evidence)")
    if "add" in e:
        add = e["add"]
        box = add.get("box") if isinstance(add, dict) else None
        if not (isinstance(box, list) and len(box) == 4 and all(_number(v) for v in box) and box[2] > 0 < box[3]):
            raise BadLabels(f"{where}: 'add' needs a 'box' [x, y, w, h] of positive size")
        return LabelFix(e["image"], _face(where, add.get("value")), e["why"], box=(box[0], box[1], box[2], box[3]))
    if not isinstance(e.get("die"), int) or isinstance(e.get("die"), bool) or e["die"] < 0:
        raise BadLabels(f"{where}: give 'add', or the index 'die' of the labelled die to change")
    return LabelFix(e["image"], _face(where, e.get("value")), e["why"], die=e["die"], was=_face(where, e.get("was")))


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _face(where: str, v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
        raise BadLabels(f"{where}: a die's value is 1-6, not {v!r}")
    return v


def apply_label_fixes(labels: Iterable[LabelledImage], fixes: Iterable[LabelFix]) -> list[LabelledImage]:
    """``labels`` with ``fixes`` applied (matched by image file name); the rest unchanged.
    A fix for a source none of ``labels`` is from (another dataset, not given) is skipped.

    Raises:
        BadLabels: a fix names an image not among ``labels`` of a source that is, a die
            index it does not have, or a die whose value is not the one the fix says it was.
    """
    out = {Path(lab.image).name: lab for lab in labels}
    order = list(out)
    sources = {lab.group for lab in out.values()}
    for fix in fixes:
        lab = out.get(fix.image)
        if lab is None and image_source(fix.image) not in sources:
            log.debug("label fix for %s skipped: no labels of its source were given", fix.image)
            continue
        if lab is None:
            raise BadLabels(f"label fix for {fix.image}: no such image among the labels")
        dice = list(lab.dice)
        if fix.box is not None:
            dice.append(Label(fix.value, fix.box))
        elif fix.die is None or fix.die >= len(dice) or dice[fix.die].value != fix.was:
            raise BadLabels(f"label fix for {fix.image}: die {fix.die} is not labelled {fix.was}")
        else:
            dice[fix.die] = replace(dice[fix.die], value=fix.value)
        out[fix.image] = replace(lab, dice=tuple(dice))
    return [out[name] for name in order]


def load_fixed_labels(datasets: Iterable[Path], fixes: Path | None) -> list[tuple[Path, LabelledImage]]:
    """Every labelled image of ``datasets`` with its folder, ``fixes`` (a fixes file) applied.

    Raises:
        BadLabels: a labels file or the fixes file cannot be read, or a fix does not fit.
    """
    found = [(Path(d), lab) for d in datasets for lab in load_labels(Path(d))]
    if fixes is None:
        return found
    fixed = apply_label_fixes((lab for _, lab in found), load_label_fixes(fixes))
    return [(d, lab) for (d, _), lab in zip(found, fixed, strict=True)]
