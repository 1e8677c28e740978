"""Train the dice reader's networks and export them as ONNX for cv2.dnn.

By default the finder is trained first, then the face reader on crops mined with it
(``--second-face`` also trains a second face reader of the same recipe from the next
seed, which the reader asks about doubtful dice). With ``--finder-onnx FILE`` an earlier
finder is kept and only the face readers are trained; with ``--face-steps 0`` only the
finder is trained. The shipped finder and face reader are made by one run with the
defaults, the shipped second face reader by another with that finder and
``reproduce.SECOND_RECIPE`` (README.md).

Photos can be left out of training, and the networks' readings of them are then written
to ``OUT/predictions.jsonl`` (with every candidate's raw probabilities, for calibration):
``--holdout-source gr`` leaves out every photo whose name starts ``gr_`` (a source never
seen), and ``--folds K --fold I`` the photos of fold I of the other sources (stratified
by source and dice count: photos of known sources never seen).
Deterministic for a given seed and thread count (PyTorch CPU).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from data import LABEL_FIXES, Picture, folds, geometric, jpeg, load_reals, load_synthetic, photometric
from nets import SHIPPED_HEAD, SHIPPED_STEM, FaceReader, Finder

from companion.vision.evaluate import BadLabels
from companion.vision.inference import Network, load_network
from companion.vision.label_fixes import load_fixed_labels
from companion.vision.preprocess import (
    CROP_PX,
    FINDER_SIDE,
    FINDER_STRIDE,
    cut_crop,
    finder_input,
    finder_scale,
    normalise_crop,
)
from companion.vision.reader import (
    CALIBRATION_FILE,
    FACE_FILE,
    FACE_SPEC_FILE,
    FINDER_FILE,
    SECOND_FACE_FILE,
    UNREADABLE,
    DiceReader,
    class_probs,
    face_spec,
)

log = logging.getLogger("train")
TRAIN_SIDE = 256  # the finder trains on square cuts; it is fully convolutional
#: The first render's seed (renders SYNTHETIC_SEED, SYNTHETIC_SEED + 1, ...; the app's
#: tests and benches use other seeds).
SYNTHETIC_SEED = 100_000
#: Die sizes (finder px) the finder learns; larger dice are found by its second, coarser
#: look (ReaderSettings.coarse_look), where they come out in this range again.
FINDER_DICE_PX = (7.0, 72.0)
#: Cells around a die's centre cell where the finder learns its centre and size; the shipped
#: finder learned them at the centre cell only.
FINDER_REACH = 0
#: Times each real die is listed for the face reader (a rendered die: once); the shipped recipe.
REAL_REPEAT = 6
#: "Not a die" spots listed per picture at most.
MAX_FALSE_SPOTS = 60
#: Share of each face reader batch that is "not a die" crops (the rest: dice).
NOT_A_DIE_SHARE = 0.45
#: Share of face-reader crops turned grey before the other changes. Off in the shipped
#: recipe: a quarter of them grey did not help a reader that never saw a grey photo read
#: the grey source (tools/dice_model/README.md has the figures).
GREY_SHARE = 0.0
#: Share of each face-reader target spread over the other classes, as shipped (0 was
#: tried: it missed more grey dice and was less sure; tools/dice_model/README.md).
LABEL_SMOOTHING = 0.02
#: Size of the "not a die" crops of part of a die (its centre; a pip or an edge), as a
#: multiple of 0.3-0.55 and 0.2-0.5 die sizes.
PART_SCALE = 1.0
#: A die's answer under this from the reader named by --hard-from makes it a hard die.
HARD_BELOW = 0.95


# ------------------------------------------------------------------------- finder ---------


def finder_sample(
    rng: np.random.Generator, pic: Picture, reach: int = FINDER_REACH
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One augmented finder input (3, S, S) with targets heat (G, G), reg (4, G, G), masks (2, G, G).

    The offset to a die's centre and its size are taught at its centre cell and, with
    ``reach`` > 0, at the cells up to that many away, weighed by the heat there (a cell two
    dice share goes to the die hotter there)."""
    h, w = pic.image.shape[:2]
    base = finder_scale(h, w)
    known = pic.sizes[~np.isnan(pic.sizes[:, 0])] if len(pic.sizes) else np.zeros((0, 2))
    typical = float(np.median(known.max(1))) if len(known) else 55.0
    # dice anywhere in the finder's range half the time, else as the camera gives them
    lo, hi = FINDER_DICE_PX
    native = float(np.clip(typical * base, lo, hi))
    target = math.exp(rng.uniform(math.log(lo), math.log(hi))) if rng.random() < 0.5 else native
    scale = target / typical
    out, c, s, _ = geometric(rng, pic.image, pic.centres, pic.sizes, scale, TRAIN_SIDE)
    out = jpeg(rng, photometric(rng, out))  # after the cut: same effect, far cheaper
    g = TRAIN_SIDE // FINDER_STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((2, g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for (cx, cy), (sw, sh) in zip(c, s):
        gx, gy = cx / FINDER_STRIDE, cy / FINDER_STRIDE
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        size_cells = (np.nanmean([sw, sh]) if not np.isnan(sw) else typical * scale) / FINDER_STRIDE
        sigma = max(0.6, size_cells / 6.0)
        ix, iy = int(gx), int(gy)
        bump = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma * sigma))
        heat = np.maximum(heat, bump)
        for jy in range(max(iy - reach, 0), min(iy + reach, g - 1) + 1):
            for jx in range(max(ix - reach, 0), min(ix + reach, g - 1) + 1):
                weight = float(bump[jy, jx])
                if weight < mask[0, jy, jx]:
                    continue
                reg[0, jy, jx], reg[1, jy, jx] = gx - jx, gy - jy
                mask[0, jy, jx] = weight
                if reach:
                    mask[1, jy, jx] = 0.0
                if not np.isnan(sw):
                    reg[2, jy, jx] = math.log(max(sw, 1.0) / FINDER_STRIDE)
                    reg[3, jy, jx] = math.log(max(sh, 1.0) / FINDER_STRIDE)
                    mask[1, jy, jx] = weight
    x = out.astype(np.float32) / 255.0 - 0.5
    return x.transpose(2, 0, 1), heat, reg, mask


def finder_loss(pred: torch.Tensor, heat: torch.Tensor, reg: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on the heat map plus L1 on offsets and sizes."""
    p = torch.sigmoid(pred[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = 1 - pos
    pos_loss = (torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = (torch.log(1 - p) * p**2 * (1 - heat) ** 4 * neg).sum()
    n = pos.sum().clamp(min=1)
    focal = -(pos_loss + neg_loss) / n
    # the centre cells weigh 1 each (so, without reach, this is the number of dice)
    n_off = mask[:, 0].sum().clamp(min=1)
    off = (F.l1_loss(pred[:, 1:3], reg[:, 0:2], reduction="none") * mask[:, 0:1]).sum() / n_off
    nsize = mask[:, 1].sum().clamp(min=1)
    size = (F.l1_loss(pred[:, 3:5], reg[:, 2:4], reduction="none") * mask[:, 1:2]).sum() / nsize
    return focal + off + size


def train_finder(
    pics: list[Picture], weights: np.ndarray, epochs: int, per_epoch: int, seed: int, reach: int = FINDER_REACH
) -> Finder:
    """Train the finder on pictures drawn with probability ``weights`` (``reach``: see :func:`finder_sample`)."""
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    net = Finder()
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=1e-4)
    batch = 16
    steps = epochs * (per_epoch // batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    net.train()
    t0 = time.time()
    for step in range(steps):
        idx = rng.choice(len(pics), batch, p=weights)
        samples = [finder_sample(rng, pics[i], reach) for i in idx]
        x, heat, reg, mask = (torch.from_numpy(np.stack(v)) for v in zip(*samples))
        loss = finder_loss(net(x), heat, reg, mask)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 50 == 0:
            log.info("finder step %d/%d loss %.3f (%.0f s)", step, steps, loss.item(), time.time() - t0)
    return net.eval()


# ------------------------------------------------------------------------- face reader ----


def finder_maps(net: cv2.dnn.Net, pic: Picture, coarse: float = 1.0) -> tuple[np.ndarray, float]:
    """The finder's output maps for ``pic`` (run as the reader runs it; ``coarse`` < 1: its
    coarser look), and the frame-to-finder scale."""
    blob, scale = finder_input(pic.image, finder_scale(*pic.image.shape[:2]) * coarse)
    net.setInput(blob)
    return net.forward()[0], scale


def finder_sizes(out: np.ndarray, scale: float, pic: Picture) -> np.ndarray:
    """The finder's die size (max of w, h, frame px) at each labelled centre of ``pic``."""
    gy, gx = out.shape[1:]
    sizes = []
    for cx, cy in pic.centres:
        ix = int(np.clip(cx * scale / FINDER_STRIDE, 0, gx - 1))
        iy = int(np.clip(cy * scale / FINDER_STRIDE, 0, gy - 1))
        sizes.append(float(np.exp(out[3:5, iy, ix]).max()) * FINDER_STRIDE / scale)
    return np.array(sizes, np.float32)


def finder_false_spots(
    out: np.ndarray, scale: float, pic: Picture, sizes: np.ndarray
) -> list[tuple[float, float, float]]:
    """Spots the finder marks (heat > 0.1) that are not a labelled die: (cx, cy, size)."""
    heat = 1 / (1 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > 0.1)
    h, w = pic.image.shape[:2]
    spots = []
    for iy, ix in zip(*np.nonzero(peaks)):
        cx = (ix + out[1, iy, ix]) * FINDER_STRIDE / scale
        cy = (iy + out[2, iy, ix]) * FINDER_STRIDE / scale
        size = float(np.exp(np.clip(out[3:5, iy, ix], -3, 6)).max()) * FINDER_STRIDE / scale
        if not (0 <= cx < w and 0 <= cy < h):
            continue
        if len(pic.centres):
            d = np.hypot(*(pic.centres - (cx, cy)).T) / np.maximum(sizes, 1)
            inside_die = d < 0.6
            # a spot on a labelled die at about its size is that die, not a false spot; a
            # much smaller one (a pip) is a false spot
            if (inside_die & (size > 0.6 * sizes)).any():
                continue
        if pic.source != "syn" and min(cx, cy, w - cx, h - cy) < 0.5 * size:
            continue  # perhaps a die cut off by the frame, which the photos leave unlabelled
        spots.append((float(cx), float(cy), size))
    return spots


def face_sample(
    rng: np.random.Generator,
    img: np.ndarray,
    cx: float,
    cy: float,
    size: float,
    positive: bool,
    grey_share: float = GREY_SHARE,
) -> np.ndarray:
    """One augmented face-reader crop (3, CROP_PX, CROP_PX); ``grey_share`` of them grey."""
    shift = 0.12 if positive else 0.0
    cx += rng.uniform(-shift, shift) * size
    cy += rng.uniform(-shift, shift) * size
    size *= math.exp(rng.uniform(-0.2, 0.2))
    crop = cut_crop(img, cx, cy, size, angle_deg=float(rng.uniform(0, 360)))
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    if grey_share > 0 and rng.random() < grey_share:
        # a grey sensor weighs the channels its own way
        w = rng.dirichlet((4.0, 6.0, 3.0)).astype(np.float32)
        grey = np.clip(crop.astype(np.float32) @ w, 0, 255).astype(np.uint8)
        crop = np.repeat(grey[..., None], 3, axis=2)
    crop = jpeg(rng, photometric(rng, crop))
    return normalise_crop(crop)


def build_face_items(
    rng: np.random.Generator,
    pics: list[Picture],
    finder: cv2.dnn.Net,
    real_repeat: int,
    part_scale: float = PART_SCALE,
) -> list[tuple[int, float, float, float, int]]:
    """(picture index, cx, cy, size, class) for every die (class UNREADABLE for a rendered
    die that cannot be read), plus "not a die" spots: the finder's false spots at both of
    its looks, parts of dice (a pip of a large die), table, and clusters of dice."""
    items = []
    for pi, pic in enumerate(pics):
        maps, scale = finder_maps(finder, pic)
        sizes = finder_sizes(maps, scale, pic)
        known = pic.sizes.max(1) if len(pic.sizes) else np.zeros(0)
        # for pip-boxed photos the finder's size is all we have; elsewhere mix both
        use = np.where(np.isnan(known), sizes, known)
        rep = real_repeat if pic.source != "syn" else 1
        assert pic.readable is not None
        for (cx, cy), s, v, fs, ok in zip(pic.centres, use, pic.values, sizes, pic.readable):
            cls = int(v) if ok else UNREADABLE
            for _ in range(rep):
                items.append((pi, float(cx), float(cy), float(s), cls))
                if 0.75 <= fs / s <= 1.33:  # the size the finder will give, when it is about right
                    items.append((pi, float(cx), float(cy), float(fs), cls))
                # a crop much smaller than the die shows only part of it: not a die
                items.append((pi, float(cx), float(cy), float(s * part_scale * rng.uniform(0.3, 0.55)), 0))
                # ... nor does one on a pip or an edge of it (a large die's pip is no die)
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.18, 0.38) * s
                part = float(s * part_scale * rng.uniform(0.2, 0.5))
                items.append((pi, float(cx + r * math.cos(a)), float(cy + r * math.sin(a)), part, 0))
        false = finder_false_spots(maps, scale, pic, use)
        coarse_maps, coarse_scale = finder_maps(finder, pic, 0.4)
        false += finder_false_spots(coarse_maps, coarse_scale, pic, use)
        if len(pic.centres) >= 2:  # a spot between touching dice, as large as two: a cluster
            d = np.hypot(*(pic.centres[:, None] - pic.centres[None]).transpose(2, 0, 1))
            for i, j in zip(*np.nonzero((d > 0) & (d < 1.7 * np.maximum(use[:, None], use[None])))):
                if i < j and rng.random() < 0.5:
                    mid = (pic.centres[i] + pic.centres[j]) / 2
                    false.append((float(mid[0]), float(mid[1]), float(max(use[i], use[j]) * rng.uniform(1.8, 2.6))))
        h, w = pic.image.shape[:2]
        typical = float(np.median(use)) if len(use) else 50.0
        for _ in range(max(2, len(pic.values)) * rep // 2):  # random spots of table
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if len(pic.centres) and (np.hypot(*(pic.centres - (cx, cy)).T) / np.maximum(use, 1)).min() < 0.7:
                continue
            false.append((cx, cy, typical * math.exp(rng.uniform(-0.3, 0.3))))
        for _ in range(len(pic.values) * rep // 3):  # half-way between dice, or off-centre
            if len(pic.centres) == 0:
                break
            j = rng.integers(len(pic.centres))
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.65, 1.0) * use[j]
            c = pic.centres[j] + r * np.array([math.cos(a), math.sin(a)])
            if (np.hypot(*(pic.centres - c).T) / np.maximum(use, 1)).min() >= 0.6:
                false.append((float(c[0]), float(c[1]), float(use[j])))
        if len(false) > MAX_FALSE_SPOTS:  # a speckled carpet must not swamp the other photos
            false = [false[i] for i in rng.choice(len(false), MAX_FALSE_SPOTS, replace=False)]
        for cx, cy, s in false:
            items.append((pi, cx, cy, s, 0))
    return items


def hard_dice(items: list[tuple[int, float, float, float, int]], pics: list[Picture], reader: Network) -> list[int]:
    """Indices of the photos' die items (not renders, not "not a die") that ``reader`` reads
    with less than HARD_BELOW for their face, cut upright at their size as the reader cuts them
    (each distinct item read once)."""
    keys: dict[tuple[int, float, float, float, int], list[int]] = {}
    for i, it in enumerate(items):
        if it[4] > 0 and pics[it[0]].source != "syn":
            keys.setdefault(it, []).append(i)
    hard: list[int] = []
    order = list(keys)
    for start in range(0, len(order), 256):
        chunk = order[start : start + 256]
        crops = np.stack([normalise_crop(cut_crop(pics[pi].image, cx, cy, s)) for pi, cx, cy, s, _ in chunk])
        p = class_probs(reader.run(crops).reshape(len(chunk), -1))
        for k, it in enumerate(chunk):
            if p[k, it[4]] < HARD_BELOW:
                hard += keys[it]
    log.info("%d of %d photo die items are hard", len(hard), sum(len(v) for v in keys.values()))
    return hard


def train_faces(
    pics: list[Picture],
    finder: cv2.dnn.Net,
    steps: int,
    seed: int,
    real_repeat: int = REAL_REPEAT,
    stem: str = SHIPPED_STEM,
    grey_share: float = GREY_SHARE,
    head: str = SHIPPED_HEAD,
    label_smoothing: float = LABEL_SMOOTHING,
    part_scale: float = PART_SCALE,
    hard_from: Network | None = None,
    hard_repeat: int = 0,
) -> FaceReader:
    """Train the face reader for ``steps`` batches on crops cut where the finder would cut them
    (the photos' dice ``hard_from`` doubts listed ``hard_repeat`` times more)."""
    rng = np.random.default_rng(seed + 1)
    torch.manual_seed(seed + 1)
    items = build_face_items(rng, pics, finder, real_repeat=real_repeat, part_scale=part_scale)
    if hard_from is not None and hard_repeat > 0:
        items += [items[i] for i in hard_dice(items, pics, hard_from) for _ in range(hard_repeat)]
    counts = np.bincount([it[4] for it in items], minlength=8)
    log.info("face items per class %s (%.1f epochs)", counts.tolist(), steps * 128 / max(len(items), 1))
    net = FaceReader(stem, head)
    batch = 128
    opt = torch.optim.AdamW(net.parameters(), lr=2e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=4e-3, total_steps=steps, pct_start=0.1)
    net.train()
    t0 = time.time()
    labels = np.array([it[4] for it in items])
    weight = np.where(
        labels == 0, NOT_A_DIE_SHARE / max((labels == 0).sum(), 1), (1 - NOT_A_DIE_SHARE) / max((labels != 0).sum(), 1)
    )
    weight /= weight.sum()
    for step in range(steps):
        idx = rng.choice(len(items), size=batch, p=weight)
        xs, ys = [], []
        for i in idx:
            pi, cx, cy, s, v = items[i]
            xs.append(face_sample(rng, pics[pi].image, cx, cy, s, v > 0, grey_share))
            ys.append(v)
        x = torch.from_numpy(np.stack(xs))
        y = torch.tensor(ys)
        loss = F.cross_entropy(net(x), y, label_smoothing=label_smoothing)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 100 == 0:
            log.info("faces step %d/%d loss %.3f (%.0f s)", step, steps, loss.item(), time.time() - t0)
    return net.eval()


# ------------------------------------------------------------------------- export ---------


#: The finder's open axes, input then output: batch, height and width.
FINDER_AXES = ({0: "n", 2: "h", 3: "w"}, {0: "n", 2: "gh", 3: "gw"})


def export_finder(finder: Finder, out: Path) -> Path:
    """Write the finder as the ONNX file the reader loads; returns its path."""
    out.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        finder,
        torch.zeros(1, 3, FINDER_SIDE, FINDER_SIDE),
        str(out / FINDER_FILE),
        input_names=["image"],
        output_names=["maps"],
        # any picture size: the reader's looks are not square, and ONNX Runtime holds a
        # network to the sizes its file names
        dynamic_axes={"image": FINDER_AXES[0], "maps": FINDER_AXES[1]},
        opset_version=17,
        dynamo=False,
    )
    return out / FINDER_FILE


def finder_any_size(src: Path, dst: Path) -> None:
    """Copy the finder at ``src`` to ``dst``, marked to take pictures of any size (a finder
    exported before the finder's axes were dynamic names one size; the network is the same)."""
    model = onnx.load(str(src))
    for value, axes in zip((model.graph.input[0], model.graph.output[0]), FINDER_AXES, strict=True):
        for i, name in axes.items():
            value.type.tensor_type.shape.dim[i].dim_param = name
    onnx.checker.check_model(model)
    onnx.save(model, str(dst))


def export_faces(faces: FaceReader, out: Path, name: str = FACE_FILE) -> None:
    """Write a face reader as the ONNX file ``name`` the reader loads (any number of crops)."""
    out.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        faces,
        torch.zeros(1, 3, CROP_PX, CROP_PX),
        str(out / name),
        input_names=["crops"],
        output_names=["logits"],
        opset_version=17,
        dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}},
        dynamo=False,
    )
    (out / FACE_SPEC_FILE).write_text(json.dumps(face_spec()) + "\n")
    if (out / CALIBRATION_FILE).exists():  # it was made for the face reader this one replaces
        (out / CALIBRATION_FILE).unlink()
        log.warning("removed the old %s from %s: calibrate the new networks (calibrate.py)", CALIBRATION_FILE, out)


def split(
    real: list[Picture], holdout_source: str | None, n_folds: int, fold: int, counts: list[int] | None = None
) -> tuple[list[Picture], list[tuple[Picture, str]]]:
    """Training photos, and held-out photos each with why: ``unseen`` (its source is held
    out) or ``fold`` (a held-out fold of a source seen in training). Folds are stratified
    by ``counts``, the dice of each photo (default: as labelled in ``real``)."""
    train, test = [], []
    # folds of all the photos, so that a photo is in the same fold whichever source is out
    fold_of = folds(real, n_folds, counts=counts) if n_folds else [-1] * len(real)
    for p, f in zip(real, fold_of):
        if p.source == holdout_source:
            test.append((p, "unseen"))
        elif f == fold and n_folds:
            test.append((p, "fold"))
        else:
            train.append(p)
    return train, test


def write_predictions(out: Path, test: list[tuple[Picture, str]]) -> None:
    """Read each held-out photo with the networks in ``out``; one JSON line per photo with
    the dice read and every candidate's raw numbers (for calibration)."""
    reader = DiceReader(out)
    with open(out / "predictions.jsonl", "w") as fh:
        for p, why in test:
            cand = reader.candidates(p.image)
            det = reader.decide(cand, p.image.shape[1], p.image.shape[0])
            fh.write(
                json.dumps(
                    {
                        "image": p.name,
                        "source": p.source,
                        "held": why,
                        "width": p.image.shape[1],
                        "height": p.image.shape[0],
                        **det.to_json(),
                        "candidates": {
                            "centres": np.round(cand.centres, 2).tolist(),
                            "sizes": np.round(cand.sizes, 2).tolist(),
                            "scores": np.round(cand.scores, 4).tolist(),
                            "probs": np.round(cand.probs, 6).tolist(),
                            "scale": cand.scale,
                        },
                    }
                )
                + "\n"
            )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--dataset",
        type=Path,
        nargs="+",
        required=True,
        help="folders with labels.jsonl and images/ (dice-real, dice-gray, ...)",
    )
    ap.add_argument("--out", type=Path, help="folder for the .onnx files (not needed with --render-only)")
    ap.add_argument("--synthetic", type=int, default=1500, help="synthetic scenes to render")
    ap.add_argument("--cache", type=Path, default=Path(".cache/dice_model"), help="render cache")
    ap.add_argument(
        "--render-only", action="store_true", help="only render the synthetic scenes into --cache (for parallel runs)"
    )
    ap.add_argument("--finder-epochs", type=int, default=72)
    ap.add_argument("--finder-per-epoch", type=int, default=640, help="finder samples per epoch")
    ap.add_argument(
        "--finder-reach",
        type=int,
        default=FINDER_REACH,
        help="cells around each die's centre where the finder learns its centre and size (default %(default)s)",
    )
    ap.add_argument(
        "--face-steps",
        type=int,
        default=10000,
        help="face reader batches of 128 (0: train only the finder, keeping the face readers in --out)",
    )
    ap.add_argument(
        "--real-repeat",
        type=int,
        default=REAL_REPEAT,
        help="times each real die is listed for the face reader (renders: once)",
    )
    ap.add_argument(
        "--grey-share",
        type=float,
        default=GREY_SHARE,
        help="share of face-reader crops turned grey (default %(default)s, as shipped)",
    )
    ap.add_argument(
        "--second-face",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="also train a second face reader (next seed), asked about doubtful dice",
    )
    ap.add_argument(
        "--face-stem",
        choices=FaceReader.STEMS,
        default=SHIPPED_STEM,
        help="the face readers' first layers (nets.FaceReader; default %(default)s, as shipped)",
    )
    ap.add_argument(
        "--face-head",
        choices=FaceReader.HEADS,
        default=SHIPPED_HEAD,
        help="the face readers' last layers (nets.FaceReader; default %(default)s, as shipped)",
    )
    ap.add_argument(
        "--label-smoothing",
        type=float,
        default=LABEL_SMOOTHING,
        help="share of each face-reader target spread over the other classes (default %(default)s, as shipped)",
    )
    ap.add_argument(
        "--part-scale",
        type=float,
        default=PART_SCALE,
        help="size of the 'not a die' crops of part of a die, times the shipped sizes (default %(default)s)",
    )
    ap.add_argument(
        "--hard-from",
        type=Path,
        help="a face reader .onnx: the photos' dice it reads with less than HARD_BELOW are hard dice",
    )
    ap.add_argument(
        "--hard-repeat",
        type=int,
        default=0,
        help="with --hard-from: times each hard die is listed more (default %(default)s, as shipped)",
    )
    ap.add_argument(
        "--label-fixes",
        type=Path,
        nargs="?",
        const=LABEL_FIXES,
        help=f"train on the labels corrected by this fixes file (alone: {LABEL_FIXES.name}); "
        "without it, on the labels as published (as the shipped networks were)",
    )
    ap.add_argument("--finder-onnx", type=Path, help="use this already trained finder and train only the face readers")
    ap.add_argument("--holdout-source", help="leave out every photo of this source (file name prefix, e.g. gr)")
    ap.add_argument("--folds", type=int, default=0)
    ap.add_argument("--fold", type=int, default=0)
    ap.add_argument(
        "--predict-only",
        action="store_true",
        help="train nothing: read the held-out photos again with the networks in --out "
        "(after a change to the reader) and write predictions.jsonl",
    )
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)

    if args.render_only:
        load_synthetic(args.synthetic, SYNTHETIC_SEED, args.cache)
        log.info("rendered %d scenes into %s", args.synthetic, args.cache)
        return 0
    if args.out is None:
        ap.error("--out is needed: the folder for the .onnx files")
    if args.hard_repeat and not args.hard_from:
        ap.error("--hard-repeat needs --hard-from: the face reader whose doubts make a die hard")
    if args.hard_from and not args.hard_from.is_file():
        ap.error(f"--hard-from {args.hard_from}: no such face reader file")
    try:
        photos = load_reals(args.dataset, args.label_fixes)
        # folds by the labels as published, so that a run with --label-fixes (a second face
        # reader) holds out the same photos as the run of the first
        published = [len(lab.dice) for _, lab in load_fixed_labels(args.dataset, None)]
    except BadLabels as e:
        ap.error(str(e))
    real, test = split(photos, args.holdout_source, args.folds, args.fold, published)
    if args.predict_only:
        write_predictions(args.out, test)
        log.info("wrote %s", args.out / "predictions.jsonl")
        return 0
    syn = load_synthetic(args.synthetic, SYNTHETIC_SEED, args.cache)
    pics = real + syn
    # half of the finder's pictures are real photos, half renders; each source of photos
    # weighs the same, however many photos it has
    by_source: dict[str, int] = {}
    for p in real:
        by_source[p.source] = by_source.get(p.source, 0) + 1
    weights = np.array([0.5 / len(by_source) / by_source[p.source] for p in real] + [0.5 / max(len(syn), 1)] * len(syn))
    weights /= weights.sum()
    log.info("training on %d photos %s and %d renders; %d photos held out", len(real), by_source, len(syn), len(test))
    if args.finder_onnx:
        # keep a finder trained earlier (same photos, same seed) and train only the face reader
        finder_file = args.finder_onnx
        args.out.mkdir(parents=True, exist_ok=True)
        finder_any_size(finder_file, args.out / FINDER_FILE)
        finder_file = args.out / FINDER_FILE
    else:
        finder_file = export_finder(
            train_finder(pics, weights, args.finder_epochs, args.finder_per_epoch, args.seed, args.finder_reach),
            args.out,
        )
    hard_from = load_network(args.hard_from) if args.hard_from else None
    if args.face_steps > 0:
        # crops are mined with the exported file, as the reader runs it, so that a run in one
        # go and a run in two steps (--finder-onnx) make the same face reader
        finder = cv2.dnn.readNetFromONNX(str(finder_file))

        def faces(seed: int) -> FaceReader:
            return train_faces(
                pics,
                finder,
                args.face_steps,
                seed,
                args.real_repeat,
                args.face_stem,
                args.grey_share,
                args.face_head,
                args.label_smoothing,
                args.part_scale,
                hard_from,
                args.hard_repeat,
            )

        export_faces(faces(args.seed), args.out)
        if args.second_face:
            second = faces(args.seed + 1)
            export_faces(second, args.out, SECOND_FACE_FILE)
        elif (args.out / SECOND_FACE_FILE).exists():
            # it was mined with another finder and would be asked about the new one's dice
            (args.out / SECOND_FACE_FILE).unlink()
            log.warning("removed the old %s from %s", SECOND_FACE_FILE, args.out)
    elif not (args.out / FACE_FILE).is_file():
        log.warning("only the finder was trained and %s has no face reader", args.out)
    if test and (args.out / FACE_FILE).is_file():
        write_predictions(args.out, test)
    log.info("wrote %s", args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
