"""The table of expected final scores: computed once per sheet and settings, cached on disk.

``load_table(sheet)`` returns the :class:`Table` for a sheet, computing it (with a
progress callback) the first time and loading the cached file afterwards. The file name
carries a hash of everything that changes the scoring, so a changed house rule never
reads a stale table.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from companion.advisor.dice import dice_space
from companion.advisor.model import Model, build_model
from companion.games.scoresheet.sheet import Sheet

log = logging.getLogger(__name__)

#: Tables above this many states are stored as float32 (Swashbuckle: 18 million states).
FLOAT32_ABOVE = 4_000_000

Progress = Callable[[float], None]


def kernel_args(model: Model) -> tuple:
    """The model's arrays and figures in the order the kernel functions take them."""
    return (
        model.n_boxes, model.n_up, model.n_five, model.n_zero, model.upper_at, model.upper_bonus,
        model.extra_bonus, model.mode, model.zeros_any, model.five_box, model.score, model.score_joker,
        model.extra, model.qualifies, model.plunder, model.max_points, model.upper, model.scuttle,
        model.upper_for_face, model.five_face,
    )


@dataclass(frozen=True)
class Table:
    """Expected future score of every turn-start state of ``model`` (``values[index]``)."""

    model: Model
    values: np.ndarray
    expected: float  # of a fresh game, from the full-precision computation
    seconds: float  # time it took to compute (0 when loaded from disk)


def compute_values(model: Model, progress: Progress | None = None) -> np.ndarray:
    """Backward induction over every reachable state, full sheet first; float64 values."""
    from companion.advisor.kernel import solve_level

    space = dice_space()
    values = np.zeros(model.n_states, dtype=np.float64)
    full = (1 << model.n_boxes) - 1
    if model.n_zero > 1:
        for up in range(model.n_up):
            for five in range(model.n_five):
                values[model.index(full, up, five, 0)] = model.clean_bonus
    masks = np.arange(1 << model.n_boxes, dtype=np.int64)
    levels = np.array([bin(m).count("1") for m in range(1 << model.n_boxes)])
    args = kernel_args(model)
    done = 0
    for level in range(model.n_boxes - 1, -1, -1):
        chunk = masks[levels == level]
        solve_level(values, chunk, model.up_ok, space.add, space.sub, space.first_roll, *args)
        done += len(chunk)
        if progress:
            progress(done / (len(masks) - 1))
    return values


def cache_dir() -> Path:
    """Where tables are kept (``PURSER_ADVISOR_CACHE`` overrides the user data directory)."""
    override = os.environ.get("PURSER_ADVISOR_CACHE")
    if override:
        return Path(override)
    from companion.store.paths import data_dir

    return data_dir() / "advisor"


def load_table(sheet: Sheet, progress: Progress | None = None, directory: Path | None = None) -> Table:
    """The table for ``sheet``: from the cache, or computed now and cached.

    Raises:
        OSError: the cache folder cannot be written.
    """
    model = build_model(sheet)
    folder = directory or cache_dir()
    stem = folder / f"{sheet.name}-{model.key()}"
    data, meta = stem.with_suffix(".npy"), stem.with_suffix(".json")
    if data.exists() and meta.exists():
        try:
            info = json.loads(meta.read_text())
            values = np.load(data)
            if values.shape == (model.n_states,):
                log.debug("advisor table %s loaded", data)
                return Table(model, values, float(info["expected"]), 0.0)
        except (OSError, ValueError, KeyError) as exc:
            log.warning("ignoring a damaged advisor table %s (%s); computing it again", data, exc)
    start = time.perf_counter()
    values = compute_values(model, progress)
    seconds = time.perf_counter() - start
    expected = float(values[model.index(0, 0, 0, 0)])
    folder.mkdir(parents=True, exist_ok=True)
    stored = values.astype(np.float32) if model.n_states > FLOAT32_ABOVE else values
    tmp = data.with_suffix(".tmp.npy")
    np.save(tmp, stored)
    os.replace(tmp, data)
    meta.write_text(json.dumps({"sheet": sheet.name, "expected": expected, "seconds": seconds,
                                "states": model.n_states}))
    log.info("advisor table for %s computed in %.1f s: expected %.4f", sheet.name, seconds, expected)
    return Table(model, stored, expected, seconds)
