"""The table of expected final scores: computed once per sheet and settings, cached on disk.

``load_table(sheet)`` returns the :class:`Table` for a sheet, computing it (with a
progress callback) the first time and loading the cached file afterwards. The file name
carries a hash of everything that changes the scoring, so a changed house rule never
reads a stale table.

Smaller and faster than one value per state: states whose upper subtotal can no longer
reach the upper bonus share one value (see :func:`~companion.advisor.model.up_representatives`),
so each class is solved once; the file keeps only reachable class values, in hundredths
of a point (uint16 when they fit), and loading spreads them back over every state.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.advisor.dice import dice_space
from companion.advisor.model import Model, build_model, stored_states, up_representatives
from companion.games.scoresheet.sheet import Sheet

log = logging.getLogger(__name__)

#: Stored values are whole hundredths of a point (a hint's choices differ by far more).
RESOLUTION = 100.0

Progress = Callable[[float], None]


def kernel_args(model: Model) -> tuple:
    """The model's arrays and figures in the order the kernel functions take them."""
    return (
        model.n_boxes,
        model.n_up,
        model.n_five,
        model.n_zero,
        model.upper_at,
        model.upper_bonus,
        model.extra_bonus,
        model.mode,
        model.zeros_any,
        model.five_box,
        model.score,
        model.score_joker,
        model.extra,
        model.qualifies,
        model.plunder,
        model.max_points,
        model.upper,
        model.scuttle,
        model.upper_for_face,
        model.five_face,
    )


@dataclass(frozen=True)
class Table:
    """Expected future score of every turn-start state of ``model`` (``values[index]``, float32)."""

    model: Model
    values: np.ndarray
    expected: float  # of a fresh game, from the full-precision computation
    seconds: float  # time it took to compute (0 when loaded from disk)


def _copies_by_level(model: Model, pairs: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each level (boxes filled), the states that take a representative's value: (to, from)."""
    to, src = pairs
    differ = to != src
    to, src = to[differ], src[differ]
    per_mask = model.n_up * model.n_five * model.n_zero
    levels = np.array([bin(m).count("1") for m in range(1 << model.n_boxes)], dtype=np.int64)[to // per_mask]
    return [(to[levels == lv], src[levels == lv]) for lv in range(model.n_boxes + 1)]


def compute_values(model: Model, progress: Progress | None = None) -> np.ndarray:
    """Backward induction over every reachable state, full sheet first; float64 values."""
    from companion.advisor.kernel import solve_level

    space = dice_space()
    rep = up_representatives(model)
    _kept, pairs = stored_states(model, rep)
    copies = _copies_by_level(model, pairs)
    values = np.zeros(model.n_states, dtype=np.float64)
    full = (1 << model.n_boxes) - 1
    if model.n_zero > 1:
        for up in range(model.n_up):
            for five in range(model.n_five):
                values[model.index(full, up, five, 0)] = model.clean_bonus
    masks = np.arange(1 << model.n_boxes, dtype=np.int64)
    levels = np.array([bin(m).count("1") for m in range(1 << model.n_boxes)])
    args = kernel_args(model)
    work = np.array([int((rep[m] == np.arange(model.n_up)).sum()) for m in range(1 << model.n_boxes)])
    total = float(work[levels < model.n_boxes].sum()) or 1.0
    done = 0.0
    for level in range(model.n_boxes - 1, -1, -1):
        chunk = masks[levels == level]
        solve_level(values, chunk, rep, space.add, space.sub, space.first_roll, *args)
        to, src = copies[level]
        values[to] = values[src]
        done += float(work[chunk].sum())
        if progress:
            progress(min(1.0, done / total))
    return values


def cache_dir() -> Path:
    """Where tables are kept (``PURSER_ADVISOR_CACHE`` overrides the user data directory)."""
    override = os.environ.get("PURSER_ADVISOR_CACHE")
    if override:
        return Path(override)
    from companion.store.paths import data_dir

    return data_dir() / "advisor"


@functools.lru_cache(maxsize=16)
def table_name(sheet: Sheet) -> str:
    """The name of ``sheet``'s table: its game and the key of its model (its settings
    included). Kept per sheet: building the model takes tens of milliseconds."""
    return f"{sheet.name}-{build_model(sheet).key()}"


def table_path(sheet: Sheet, directory: Path | None = None) -> Path:
    """The cache file of ``sheet``'s table (it may not exist yet)."""
    return (directory or cache_dir()) / f"{table_name(sheet)}.npz"


def _pack(values: np.ndarray, kept: np.ndarray) -> np.ndarray:
    hundredths = np.rint(values[kept] * RESOLUTION)
    if hundredths.size and (hundredths.min() < 0 or hundredths.max() > np.iinfo(np.uint16).max):
        return hundredths.astype(np.int32)
    return hundredths.astype(np.uint16)


def _unpack(model: Model, packed: np.ndarray, kept: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    values = np.zeros(model.n_states, dtype=np.float32)
    values[kept] = packed.astype(np.float32) / np.float32(RESOLUTION)
    to, src = pairs
    values[to] = values[src]
    return values


def load_table(sheet: Sheet, progress: Progress | None = None, directory: Path | None = None) -> Table:
    """The table for ``sheet``: from the cache, or computed now and cached.

    Raises:
        OSError: the cache folder cannot be written.
    """
    model = build_model(sheet)
    data = table_path(sheet, directory)
    rep = up_representatives(model)
    kept, pairs = stored_states(model, rep)
    if data.exists():
        try:
            with np.load(data) as stored:
                packed = stored["values"]
                info = json.loads(str(stored["meta"]))
            if packed.shape == kept.shape:
                log.debug("advisor table %s loaded", data)
                return Table(model, _unpack(model, packed, kept, pairs), float(info["expected"]), 0.0)
            log.warning("ignoring an advisor table of the wrong size %s; computing it again", data)
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            log.warning("ignoring a damaged advisor table %s (%s); computing it again", data, exc)
    start = time.perf_counter()
    full = compute_values(model, progress)
    seconds = time.perf_counter() - start
    expected = float(full[model.index(0, 0, 0, 0)])
    packed = _pack(full, kept)
    data.parent.mkdir(parents=True, exist_ok=True)
    meta = json.dumps(
        {
            "sheet": sheet.name,
            "expected": expected,
            "seconds": seconds,
            "states": model.n_states,
            "stored": int(kept.size),
            "resolution": RESOLUTION,
        }
    )
    tmp = data.with_name(data.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(f, values=packed, meta=np.array(meta))
    os.replace(tmp, data)
    log.info("advisor table for %s computed in %.1f s: expected %.4f", sheet.name, seconds, expected)
    return Table(model, _unpack(model, packed, kept, pairs), expected, seconds)
