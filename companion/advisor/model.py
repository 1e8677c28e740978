"""The solitaire game of a score sheet, as arrays a compiled kernel can walk.

A turn-start state is ``(mask, up, five, zero)``: the boxes filled (bit ``i`` for box
``i``), the upper subtotal capped where the upper bonus no longer changes, whether the
five-of-a-kind box holds points (Yahtzee bonus, Swashbuckle "max potential"), and whether
a zero has been written (Swashbuckle's Smooth sailing). Flags a sheet does not need have
one value only, so Yahtzee has 2^13 x 64 x 2 states and Swashbuckle 2^16 x 69 x 2 x 2.

Scores come from the sheet's own box rules (:mod:`companion.games.scoresheet.rules`),
tabulated once for the 252 rolls; the choice of box follows
:func:`companion.games.scoresheet.options` (zeros anytime or only when stuck, the joker
rule forced or free, "max potential").

Simplifications (solitaire): no curses, no Hornswaggle, and Piracy scores its expected
plunder (the mean of the extra roll: the sum, or the five-alike figure); stealing from
others does not change your own score.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import numpy as np

from companion.advisor.dice import dice_space
from companion.games.scoresheet.rules import PLAIN, Context, Counts, ExtraRoll
from companion.games.scoresheet.sheet import UPPER, Column, Sheet, tally

MODES = {"none": 0, "joker_forced": 1, "joker_free": 2, "max_potential": 3}
JOKER = Context(joker=True)


@dataclass(frozen=True)
class Model:
    """A sheet's solitaire game as arrays (see the module docstring)."""

    sheet: Sheet
    n_boxes: int
    n_up: int
    n_five: int
    n_zero: int
    upper_at: int
    upper_bonus: float
    extra_bonus: float
    clean_bonus: float
    mode: int
    zeros_any: bool
    five_box: int
    score: np.ndarray  # (boxes, 252) int32, plain scoring
    score_joker: np.ndarray  # (boxes, 252) int32, joker scoring
    extra: np.ndarray  # (boxes,) bool: points come from a further roll (Piracy)
    qualifies: np.ndarray  # (boxes, 252) bool, for extra-roll boxes
    plunder: np.ndarray  # (boxes,) float: expected points of the further roll
    max_points: np.ndarray  # (boxes,) int32
    upper: np.ndarray  # (boxes,) bool
    scuttle: np.ndarray  # (boxes,) bool
    upper_for_face: np.ndarray  # (6,) int32 box counting each face, -1 if none
    five_face: np.ndarray  # (252,) int32: face of a five-of-a-kind roll, -1 otherwise
    up_ok: np.ndarray  # (2^boxes, n_up) bool: subtotals reachable with those boxes filled

    @property
    def n_states(self) -> int:
        return (1 << self.n_boxes) * self.n_up * self.n_five * self.n_zero

    def index(self, mask: int, up: int, five: int, zero: int) -> int:
        """The flat state number."""
        return ((mask * self.n_up + up) * self.n_five + five) * self.n_zero + zero

    def state_of(self, column: Column) -> tuple[int, int, int, int]:
        """The turn-start state of a column of scores."""
        mask = sum(1 << i for i, s in enumerate(column.scores) if s is not None)
        up = 0
        if self.n_up > 1:
            up = min(self.upper_at, sum(s or 0 for s, u in zip(column.scores, self.upper) if u))
        five = 0
        if self.n_five > 1 and self.five_box >= 0:
            five = int((column.scores[self.five_box] or 0) > 0)
        zero = int(self.n_zero > 1 and any(s == 0 for s in column.scores))
        return mask, up, five, zero

    def banked(self, column: Column) -> int:
        """Points already on the column (its tally), to which the expected future is added."""
        return tally(self.sheet, column).total

    def key(self) -> str:
        """A short hash naming this model's scoring, for the on-disk cache."""
        parts = json.dumps(
            [
                self.sheet.name,
                self.score.tolist(),
                self.score_joker.tolist(),
                self.extra.tolist(),
                self.qualifies.tolist(),
                self.plunder.tolist(),
                self.max_points.tolist(),
                self.upper.tolist(),
                self.scuttle.tolist(),
                self.upper_at,
                self.upper_bonus,
                self.extra_bonus,
                self.clean_bonus,
                self.mode,
                self.zeros_any,
                self.five_box,
                MODEL_VERSION,
            ]
        )
        return hashlib.sha256(parts.encode()).hexdigest()[:16]


#: Bump when the model, the kernel or the stored form changes, so stale cached tables are not used.
MODEL_VERSION = 2


def up_representatives(model: Model) -> np.ndarray:
    """For every (mask, upper subtotal): the subtotal whose value it shares; -1 when unreachable.

    The subtotal only matters for the upper bonus. When the open upper boxes cannot lift it
    to the bonus any more, every such subtotal has the same future: they share the smallest
    one's value. (Once every upper box is filled this leaves at most two: bonus won or not.)
    So the solver works each class out once, and the stored table keeps one value per class.
    """
    nb, n_up = model.n_boxes, model.n_up
    rep = np.full((1 << nb, n_up), -1, dtype=np.int16)
    ups = np.arange(n_up)
    if n_up == 1:
        rep[model.up_ok[:, 0], 0] = 0
        return rep
    masks = np.arange(1 << nb, dtype=np.int64)
    remaining = np.zeros(1 << nb, dtype=np.int64)
    for b in np.flatnonzero(model.upper):
        remaining += np.where((masks >> b) & 1, 0, int(model.max_points[b]))
    hopeless = ups[None, :] + remaining[:, None] < model.upper_at
    ok = model.up_ok
    rep[ok] = np.broadcast_to(ups, ok.shape)[ok]
    lost = ok & hopeless
    first = np.where(lost.any(axis=1), np.argmax(lost, axis=1), -1)
    rows, cols = np.nonzero(lost)
    rep[rows, cols] = first[rows]
    return rep


def stored_states(model: Model, rep: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The flat indexes of the states a stored table keeps (one per class, reachable only),
    and for every reachable state the index of the kept state it takes its value from.

    Returns ``(kept, (reachable, source))`` packed as ``kept`` and a (2, N) array.
    """
    masks, ups = np.nonzero(rep >= 0)
    reps = rep[masks, ups].astype(np.int64)
    masks = masks.astype(np.int64)
    ups = ups.astype(np.int64)
    five_box = model.five_box
    pairs_all, pairs_src = [], []
    for five in range(model.n_five):
        for zero in range(model.n_zero):
            ok = np.ones(len(masks), dtype=bool)
            if five == 1:
                ok &= ((masks >> five_box) & 1) == 1
            if zero == 1:
                ok &= masks != 0
            m, u, r = masks[ok], ups[ok], reps[ok]
            pairs_all.append(((m * model.n_up + u) * model.n_five + five) * model.n_zero + zero)
            pairs_src.append(((m * model.n_up + r) * model.n_five + five) * model.n_zero + zero)
    reachable = np.concatenate(pairs_all)
    source = np.concatenate(pairs_src)
    is_kept = np.zeros(model.n_states, dtype=bool)
    is_kept[source] = True
    return np.flatnonzero(is_kept), np.stack([reachable, source])


def build_model(sheet: Sheet) -> Model:
    """Tabulate ``sheet``'s boxes over every roll and lay out its state space."""
    space = dice_space()
    rolls: list[Counts] = [(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5])) for r in space.rolls]
    boxes = sheet.boxes
    nb = len(boxes)
    score = np.array([[b.points(r, PLAIN) for r in rolls] for b in boxes], dtype=np.int32)
    score_joker = np.array([[b.points(r, JOKER) for r in rolls] for b in boxes], dtype=np.int32)
    extra = np.array([isinstance(b.rule, ExtraRoll) for b in boxes], dtype=np.bool_)
    qualifies = np.array([[b.qualifies(r, PLAIN) for r in rolls] for b in boxes], dtype=np.bool_)
    plunder = np.zeros(nb)
    for i, b in enumerate(boxes):
        if isinstance(b.rule, ExtraRoll):
            plunder[i] = float(sum(p * b.rule.plunder(r) for p, r in zip(space.roll_probability, rolls)))
    upper = np.array([b.section == UPPER for b in boxes], dtype=np.bool_)
    upper_for_face = np.array(
        [sheet.upper_box(face) if sheet.upper_box(face) is not None else -1 for face in range(1, 7)], dtype=np.int32
    )
    five_face = np.array([r.index(5) if 5 in r else -1 for r in rolls], dtype=np.int32)
    n_up = sheet.upper_bonus_at + 1 if sheet.upper_bonus else 1
    upper_at = n_up - 1
    five_box = sheet.index(sheet.five_box) if sheet.five_box else -1
    mode = MODES[sheet.extra_five]
    n_five = 2 if five_box >= 0 and (sheet.extra_five_bonus or mode == MODES["max_potential"]) else 1
    n_zero = 2 if sheet.clean_bonus else 1
    max_points = np.array([b.max_points() for b in boxes], dtype=np.int32)
    up_ok = _reachable_subtotals(nb, upper, score, score_joker, max_points, n_up)
    return Model(
        sheet=sheet,
        n_boxes=nb,
        n_up=n_up,
        n_five=n_five,
        n_zero=n_zero,
        upper_at=upper_at,
        upper_bonus=float(sheet.upper_bonus),
        extra_bonus=float(sheet.extra_five_bonus),
        clean_bonus=float(sheet.clean_bonus),
        mode=mode,
        zeros_any=sheet.zeros == "any",
        five_box=five_box,
        score=score,
        score_joker=score_joker,
        extra=extra,
        qualifies=qualifies,
        plunder=plunder,
        max_points=max_points,
        upper=upper,
        scuttle=np.array([b.scuttle for b in boxes], dtype=np.bool_),
        upper_for_face=upper_for_face,
        five_face=five_face,
        up_ok=up_ok,
    )


def _reachable_subtotals(
    nb: int, upper: np.ndarray, score: np.ndarray, score_joker: np.ndarray, max_points: np.ndarray, n_up: int
) -> np.ndarray:
    """For every mask, which capped upper subtotals its filled upper boxes can add up to."""
    cap = n_up - 1
    upper_boxes = [i for i in range(nb) if upper[i]]
    by_subset: dict[int, np.ndarray] = {0: np.eye(1, n_up, 0, dtype=np.bool_)[0]}
    for subset in range(1, 1 << len(upper_boxes)):
        low = subset & -subset
        box = upper_boxes[low.bit_length() - 1]
        before = by_subset[subset ^ low]
        values = set(score[box].tolist()) | set(score_joker[box].tolist()) | {0, int(max_points[box])}
        now = np.zeros(n_up, dtype=np.bool_)
        for u in np.flatnonzero(before):
            for v in values:
                now[min(cap, u + v)] = True
        by_subset[subset] = now
    ok = np.zeros((1 << nb, n_up), dtype=np.bool_)
    positions = {box: j for j, box in enumerate(upper_boxes)}
    for mask in range(1 << nb):
        subset = 0
        for box, j in positions.items():
            if mask >> box & 1:
                subset |= 1 << j
        ok[mask] = by_subset[subset]
    return ok
