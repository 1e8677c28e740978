"""The compiled inner loops of the solver (numba): one turn of one state, and a whole level.

Backward induction goes level by level (the number of boxes filled), from a full sheet down
to an empty one. For one turn-start state:

1. for each of the 252 final rolls, the best legal box: its points, the bonuses it earns
   and the value of the state it leads to (:func:`roll_choices` lists them all);
2. twice (second and third roll): the value of every keep is the mean of its six one-die
   extensions, and the value of a roll is the best keep inside it;
3. the state's value is the value of keeping nothing before the first roll.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

NEG = -1.0e18


@njit(cache=True)
def _next_value(V, b, pts, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box):
    m2 = mask | (1 << b)
    up2 = up
    reward = 0.0
    if upper[b] and n_up > 1:
        up2 = up + pts
        if up2 >= upper_at:
            up2 = upper_at
            if up < upper_at:
                reward += upper_bonus
    f2 = five
    if n_five > 1 and b == five_box and pts > 0:
        f2 = 1
    z2 = zero
    if n_zero > 1 and pts == 0:
        z2 = 1
    return reward + V[((m2 * n_up + up2) * n_five + f2) * n_zero + z2]


@njit(cache=True)
def roll_choices(
    V,
    r,
    mask,
    up,
    five,
    zero,
    out_box,
    out_pts,
    out_val,
    out_how,
    n_boxes,
    n_up,
    n_five,
    n_zero,
    upper_at,
    upper_bonus,
    extra_bonus,
    mode,
    zeros_any,
    five_box,
    score,
    score_joker,
    extra,
    qualifies,
    plunder,
    max_points,
    upper,
    scuttle,
    upper_for_face,
    five_face,
):
    """Every legal box for final roll ``r``: fills the ``out_*`` arrays, returns how many.

    ``out_how``: 0 scores as rolled, 1 joker, 2 max potential, 3 further roll, 4 zero.
    ``out_val`` is the points, bonuses and expected future score of the choice.
    """
    n = 0
    face = five_face[r]
    five_filled = face >= 0 and five_box >= 0 and (mask >> five_box) & 1 == 1
    bonus = 0.0
    if five_filled and five == 1:
        bonus = extra_bonus
    mode_now = mode if five_filled else 0
    if mode_now in {1, 2}:
        own = upper_for_face[face]
        lower_open = False
        for b in range(n_boxes):
            if (mask >> b) & 1 == 0 and not upper[b]:
                lower_open = True
        for b in range(n_boxes):
            if (mask >> b) & 1:
                continue
            if mode_now == 1:
                if own >= 0 and (mask >> own) & 1 == 0:
                    if b != own:
                        continue
                elif lower_open:
                    if upper[b]:
                        continue
                elif not upper[b]:
                    continue
            # The free rule (Verhoeff's): a joker scores in full only once its own upper box is filled.
            if mode_now == 2 and own >= 0 and (mask >> own) & 1 == 0:
                pts = score[b, r]
                if pts == 0 and not zeros_any:
                    continue
            else:
                pts = score_joker[b, r]
            out_box[n] = b
            out_pts[n] = pts
            out_how[n] = 4 if pts == 0 else (1 if pts > score[b, r] else 0)
            out_val[n] = (
                pts
                + bonus
                + _next_value(
                    V, b, pts, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                )
            )
            n += 1
        return n
    scoring = False
    for b in range(n_boxes):
        if (mask >> b) & 1:
            continue
        if extra[b]:
            if qualifies[b, r]:
                out_box[n] = b
                out_pts[n] = -1
                out_how[n] = 3
                out_val[n] = (
                    plunder[b]
                    + bonus
                    + _next_value(
                        V, b, 1, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                    )
                )
                n += 1
                scoring = True
            continue
        pts = score[b, r]
        if pts > 0 or zeros_any:
            out_box[n] = b
            out_pts[n] = pts
            out_how[n] = 0 if pts > 0 else 4
            out_val[n] = (
                pts
                + bonus
                + _next_value(
                    V, b, pts, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                )
            )
            n += 1
            if pts > 0:
                scoring = True
    if scoring:
        return n
    if mode_now == 3 and five == 1:
        n = 0
        for b in range(n_boxes):
            if (mask >> b) & 1 == 0:
                pts = max_points[b]
                out_box[n] = b
                out_pts[n] = pts
                out_how[n] = 2
                out_val[n] = (
                    pts
                    + bonus
                    + _next_value(
                        V, b, pts, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                    )
                )
                n += 1
        return n
    if not zeros_any:
        any_scuttle = False
        for b in range(n_boxes):
            if (mask >> b) & 1 == 0 and scuttle[b]:
                any_scuttle = True
        for b in range(n_boxes):
            if (mask >> b) & 1 == 0 and (scuttle[b] or not any_scuttle):
                out_box[n] = b
                out_pts[n] = 0
                out_how[n] = 4
                out_val[n] = _next_value(
                    V, b, 0, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                )
                n += 1
    return n


@njit(cache=True)
def keep_values(roll_values, E, add, first_roll):
    """Expected value of every keep when the roll that follows is worth ``roll_values``."""
    for r in range(roll_values.shape[0]):
        E[first_roll + r] = roll_values[r]
    for k in range(first_roll - 1, -1, -1):
        s = 0.0
        for f in range(6):
            s += E[add[k, f]]
        E[k] = s / 6.0


@njit(cache=True)
def best_keeps(E, M, sub, first_roll, out):
    """``out[r]``: the value of roll ``r`` when the player keeps the best dice inside it."""
    for k in range(E.shape[0]):
        m = E[k]
        for j in range(6):
            s = sub[k, j]
            if s < 0:
                break
            m = max(m, M[s])
        M[k] = m
    for r in range(out.shape[0]):
        out[r] = M[first_roll + r]


@njit(cache=True)
def final_roll_values(
    V,
    mask,
    up,
    five,
    zero,
    out,
    box,
    pts,
    val,
    how,
    nv,
    n_boxes,
    n_up,
    n_five,
    n_zero,
    upper_at,
    upper_bonus,
    extra_bonus,
    mode,
    zeros_any,
    five_box,
    score,
    score_joker,
    extra,
    qualifies,
    plunder,
    max_points,
    upper,
    scuttle,
    upper_for_face,
    five_face,
):
    """``out[r]``: the value of final roll ``r`` scored in its best box.

    The common case (no five of a kind, something scores) runs box by box over all rolls with
    the next states' values looked up once; five-of-a-kind rolls and rolls where nothing
    scores take the full rules of :func:`roll_choices`.
    """
    n_rolls = out.shape[0]
    for r in range(n_rolls):
        out[r] = NEG
    for b in range(n_boxes):
        if (mask >> b) & 1:
            continue
        if upper[b]:
            for p in range(max_points[b] + 1):
                nv[p] = _next_value(
                    V, b, p, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
                )
        else:
            nv[0] = _next_value(
                V, b, 0, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
            )
            nv[1] = _next_value(
                V, b, 1, mask, up, five, zero, n_up, n_five, n_zero, upper_at, upper_bonus, upper, five_box
            )
        if extra[b]:
            for r in range(n_rolls):
                if qualifies[b, r]:
                    v = plunder[b] + nv[1]
                    out[r] = max(out[r], v)
            continue
        for r in range(n_rolls):
            p = score[b, r]
            if p > 0:
                v = p + (nv[p] if upper[b] else nv[1])
            elif zeros_any:
                v = nv[0]
            else:
                continue
            out[r] = max(out[r], v)
    for r in range(n_rolls):
        if five_face[r] >= 0 or out[r] == NEG:
            n = roll_choices(
                V,
                r,
                mask,
                up,
                five,
                zero,
                box,
                pts,
                val,
                how,
                n_boxes,
                n_up,
                n_five,
                n_zero,
                upper_at,
                upper_bonus,
                extra_bonus,
                mode,
                zeros_any,
                five_box,
                score,
                score_joker,
                extra,
                qualifies,
                plunder,
                max_points,
                upper,
                scuttle,
                upper_for_face,
                five_face,
            )
            best = NEG
            for i in range(n):
                best = max(best, val[i])
            out[r] = best


@njit(cache=True, parallel=True)
def solve_level(
    V,
    masks,
    rep,
    add,
    sub,
    first_roll,
    n_boxes,
    n_up,
    n_five,
    n_zero,
    upper_at,
    upper_bonus,
    extra_bonus,
    mode,
    zeros_any,
    five_box,
    score,
    score_joker,
    extra,
    qualifies,
    plunder,
    max_points,
    upper,
    scuttle,
    upper_for_face,
    five_face,
):
    """Fill ``V`` for every state of ``masks`` (one level) whose upper subtotal represents its
    class (``rep[mask, up] == up``); the others are copied from it afterwards."""
    n_rolls = score.shape[1]
    n_keeps = add.shape[0]
    for i in prange(masks.shape[0]):
        mask = masks[i]
        values = np.empty(n_rolls)
        E = np.empty(n_keeps)
        M = np.empty(n_keeps)
        box = np.empty(n_boxes, np.int32)
        pts = np.empty(n_boxes, np.int32)
        val = np.empty(n_boxes)
        how = np.empty(n_boxes, np.int32)
        nv = np.empty(64)
        five_open = five_box < 0 or (mask >> five_box) & 1 == 0
        for up in range(n_up):
            if rep[mask, up] != up:
                continue
            for five in range(n_five):
                if five == 1 and five_open:
                    continue
                for zero in range(n_zero):
                    if zero == 1 and mask == 0:
                        continue
                    final_roll_values(
                        V,
                        mask,
                        up,
                        five,
                        zero,
                        values,
                        box,
                        pts,
                        val,
                        how,
                        nv,
                        n_boxes,
                        n_up,
                        n_five,
                        n_zero,
                        upper_at,
                        upper_bonus,
                        extra_bonus,
                        mode,
                        zeros_any,
                        five_box,
                        score,
                        score_joker,
                        extra,
                        qualifies,
                        plunder,
                        max_points,
                        upper,
                        scuttle,
                        upper_for_face,
                        five_face,
                    )
                    for _ in range(2):
                        keep_values(values, E, add, first_roll)
                        best_keeps(E, M, sub, first_roll, values)
                    keep_values(values, E, add, first_roll)
                    V[((mask * n_up + up) * n_five + five) * n_zero + zero] = E[0]
