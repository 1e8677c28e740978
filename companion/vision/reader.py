"""read_dice: one BGR frame in, :class:`DiceDetections` out.

Small networks shipped in ``companion/vision/models/`` are run by ONNX Runtime (or
OpenCV's ``cv2.dnn`` where it is not installed; :mod:`companion.vision.inference`):

1. the *finder* looks at the frame shrunk to 320 px, and again shrunk 0.4 times further
   (for dice too large to be seen whole at 320 px), and marks the centre and size of each
   die's top face (a heat map at 1/4 resolution, CenterNet style);
2. the *face reader* looks at a 48x48 square cut from the full-size frame around each
   centre and names the top face 1-6, or says it is not a die, or that it is a die whose
   top face cannot be read (hidden, leaning, cut off by the frame);
3. where several spots claim one die (the die seen by both looks, or a pip of a large
   die and the die itself), the spot the face reader is surest of wins, and a pip never;
4. a *second face reader*, trained apart from the first, gives a second opinion on the
   dice the first reads with doubt (optional: without it the first reads alone).

A die whose face the reader gives less than ``unsure_below`` probability (calibrated on
photos the networks never saw, ``dice_calibration.json``) is flagged unsure: it is
reported with its best guess but must be confirmed by a player.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detections import DiceDetections
from companion.vision.errors import VisionError
from companion.vision.inference import Network, load_network
from companion.vision.preprocess import (
    CROP_CONTEXT,
    CROP_PX,
    FINDER_CHANNELS,
    FINDER_STRIDE,
    N_CLASSES,
    cut_crop,
    finder_input,
    finder_scale,
    normalise_crop,
)
from companion.vision.scale import MAX_LOOKS, MIN_STEP, STRONG_SPOT, Look, better, next_scale
from companion.vision.tray import Tray, detect_tray

log = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).with_name("models")
FINDER_FILE = "dice_finder.onnx"
FACE_FILE = "dice_faces.onnx"
SECOND_FACE_FILE = "dice_faces_second.onnx"
#: What the face reader was trained to see, written beside it by the training script.
FACE_SPEC_FILE = "dice_faces.json"
#: How the face reader's probabilities are made honest, written by the calibration tool.
CALIBRATION_FILE = "dice_calibration.json"
#: The unsure threshold when the models have no calibration.
DEFAULT_UNSURE_BELOW = 0.9
#: Face reader class of a die whose top face cannot be read (8-class readers).
UNREADABLE = 7
#: The coarse look is skipped when the largest die the first look read surely is at most
#: this many finder px: under 0.4 of the largest the first look finds (72), so a die 2.5
#: times its size is still found by the first look.
COARSE_NOT_NEEDED_BELOW_PX = 28.0
#: A spot under this share of the size of a die it lies in is taken for one of its pips
#: (a pip is about a fifth of a face, and the finder draws small spots generously; the
#: dice of a cluster seen as one spot are about half its size).
PIP_SHARE = 0.4
#: How far from a die's centre its pips may lie, in die sizes along each axis.
PIP_REACH = 0.5
#: A strong spot the face reader doubts is a die only if at least this share of the median
#: size of the dice it read (smaller: a pip, mark or shadow beside them). Dice on one table
#: differ less than that, but the finder sizes a die it doubts loosely: at 0.5, 9 of the
#: held-out `gr_` dice were lost, at 0.35 two.
STRONG_SPOT_MIN_SIZE = 0.35


@dataclass(frozen=True)
class ReaderSettings:
    """Thresholds of the reader (probabilities 0-1).

    ``find_threshold``: centre heat a spot needs to be looked at; ``not_die_above``: a
    spot the face reader calls "not a die" with more than this is dropped, but a spot the
    finder is sure of (heat of at least ``STRONG_SPOT``) only above ``strong_not_die_above``
    (a die unlike those the face reader learned is still found where it is plainly a die;
    it comes out unsure);
    ``unsure_below``: a die read with less confidence than this is flagged unsure (None:
    the threshold calibrated with the models, else 0.9); ``unreadable_above``: a die whose
    face the reader calls unreadable with more than this is counted as a die that could
    not be read (and flagged unsure); ``coarse_look``: the finder also looks at the frame
    this many times smaller again, for large dice (0: not); ``auto_tray``: when no tray is
    given, look for one holding the dice read (:func:`~companion.vision.tray.detect_tray`)
    and drop the dice outside it;
    ``duplicate_within``: a weaker spot closer than this many die sizes to a stronger one
    is the same die; ``crop_scale``: the face reader sees each die cut this many times the
    finder's size (1: as it was trained). The face reader looks at every die once;
    a die whose likeliest class has less than ``look_again_below`` is read again (unless
    it is "not a die" with ``look_again_not_die_below`` or more: a spot that sure it is no
    die would cost a pile of dice further reads each), and all its answers are averaged.
    Its further reads, most useful first (:func:`_further_reads`): with
    ``second_opinion``, the second face reader (when the models folder has one) upright,
    then each further quarter turn up to ``face_views`` in all (1-4) by the first reader
    and the second in turn, then the second reader's crops cut
    ``second_opinion_scales`` times the die's crop size in each of those turns. When the
    further reads of one look (both finder looks together) would pass
    ``look_again_crops`` (a pile of doubtful dice), each die gets only the first of them,
    one at least while any is left.
    With ``rescale``, a frame whose dice come out smaller or larger than ``finder_band``
    (finder pixels) is looked at again at a scale that fits them, the finder's input up
    to ``finder_max_side`` pixels (see :mod:`companion.vision.scale`).
    """

    find_threshold: float = 0.2
    not_die_above: float = 0.5
    strong_not_die_above: float = 0.95
    unsure_below: float | None = None
    unreadable_above: float = 0.5
    coarse_look: float = 0.4
    auto_tray: bool = False
    face_views: int = 4
    look_again_below: float = 0.95
    look_again_not_die_below: float = 0.8
    look_again_crops: int = 32
    duplicate_within: float = 0.45
    crop_scale: float = 1.0
    second_opinion: bool = True
    second_opinion_scales: tuple[float, ...] = (0.87, 1.15)
    rescale: bool = True
    finder_band: tuple[float, float] = (16.0, 48.0)
    finder_max_side: int = 1280


@dataclass(frozen=True)
class Candidates:
    """Every spot the finder marked in one frame and what the face reader made of it.

    ``centres`` (N, 2) and ``sizes`` (N, 2) w, h in frame pixels, ``scores`` (N,) finder
    heat, ``probs`` (N, C) face reader probabilities ("not a die", faces 1-6 and, for
    8-class readers, "a die that cannot be read"), ``scale`` the finder scale of the look
    kept (finder px per frame px).
    """

    centres: np.ndarray
    sizes: np.ndarray
    scores: np.ndarray
    probs: np.ndarray
    scale: float

    def __len__(self) -> int:
        return len(self.centres)

    def take(self, keep: np.ndarray) -> Candidates:
        """Only the candidates at ``keep`` (indices or a mask)."""
        return Candidates(self.centres[keep], self.sizes[keep], self.scores[keep], self.probs[keep], self.scale)

    @classmethod
    def empty(cls, n_classes: int = N_CLASSES, scale: float = 1.0) -> Candidates:
        """No candidates."""
        return cls(
            np.zeros((0, 2), np.float32),
            np.zeros((0, 2), np.float32),
            np.zeros(0, np.float32),
            np.zeros((0, n_classes), np.float32),
            scale,
        )

    @classmethod
    def concat(cls, parts: list[Candidates], scale: float) -> Candidates:
        """All candidates of ``parts`` together."""
        return cls(
            np.concatenate([p.centres for p in parts]),
            np.concatenate([p.sizes for p in parts]),
            np.concatenate([p.scores for p in parts]),
            np.concatenate([p.probs for p in parts]),
            scale,
        )


@dataclass(frozen=True)
class Calibration:
    """How to turn the face reader's probabilities into honest confidences: divide their
    logarithms by ``temperature`` (and normalise), then flag a die unsure below
    ``unsure_below``. ``note`` says on which photos the two were chosen."""

    temperature: float = 1.0
    unsure_below: float = DEFAULT_UNSURE_BELOW
    note: str = ""

    def apply(self, probs: np.ndarray) -> np.ndarray:
        """Calibrated probabilities (N, C) from raw ones."""
        if self.temperature == 1.0 or len(probs) == 0:
            return probs
        logp = np.log(np.clip(probs, 1e-9, 1.0)) / self.temperature
        logp -= logp.max(1, keepdims=True)
        p = np.exp(logp)
        return np.asarray(p / p.sum(1, keepdims=True), np.float32)

    @classmethod
    def load(cls, path: Path) -> Calibration:
        """The calibration in ``path``, or the uncalibrated default when there is none.

        Raises:
            VisionError: the file exists but cannot be read.
        """
        if not path.is_file():
            return cls()
        try:
            data = json.loads(path.read_text())
            cal = cls(float(data["temperature"]), float(data["unsure_below"]), str(data.get("note", "")))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise VisionError(f"the dice calibration {path} could not be read: {exc}") from exc
        if not (0.05 <= cal.temperature <= 20 and 0.0 <= cal.unsure_below <= 1.0):
            raise VisionError(f"the dice calibration {path} is out of range: {data}")
        return cal


class DiceReader:
    """The networks, loaded once; :meth:`read` is safe to call from several threads."""

    def __init__(
        self,
        models_dir: Path | str | None = None,
        settings: ReaderSettings | None = None,
        backend: str | None = None,
    ) -> None:
        """Load the networks from ``models_dir`` (default: the shipped ones), run by
        ``backend`` (default: the fastest installed, see :mod:`companion.vision.inference`).

        Raises:
            VisionError: a model file is missing or cannot be loaded, or the backend is not
                installed.
        """
        folder = Path(models_dir) if models_dir is not None else MODELS_DIR
        self.settings = settings or ReaderSettings()
        self._finder = load_network(folder / FINDER_FILE, backend, any_size=True)
        self._faces = load_network(folder / FACE_FILE, backend)
        self._second = (
            load_network(folder / SECOND_FACE_FILE, backend) if (folder / SECOND_FACE_FILE).exists() else None
        )
        if self._second is None:
            log.info("%s has no %s: dice read with doubt get no second opinion", folder, SECOND_FACE_FILE)
        _check_face_spec(folder / FACE_SPEC_FILE)
        self.n_classes = _check_outputs(folder, self._finder, self._faces, self._second)
        self.calibration = Calibration.load(folder / CALIBRATION_FILE)
        self._lock = threading.Lock()

    @property
    def backend(self) -> str:
        """The inference backend running the face readers ("onnxruntime" or "opencv")."""
        return self._faces.backend

    @property
    def unsure_below(self) -> float:
        """The confidence under which a die is flagged unsure."""
        s = self.settings.unsure_below
        return self.calibration.unsure_below if s is None else s

    def find(self, image: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate dice: centres (N, 2) and sizes (N, 2) w, h in frame pixels, scores (N,).

        ``scale`` is finder pixels per frame pixel (default: the frame shrunk to fit).
        """
        blob, scale = finder_input(image, scale)
        with self._lock:
            out = self._finder.run(blob)[0]
        heat = 1.0 / (1.0 + np.exp(-out[0]))
        peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= self.settings.find_threshold)
        ys, xs = np.nonzero(peaks)
        if len(xs) == 0:
            return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.float32)
        scores = heat[ys, xs]
        order = np.argsort(-scores)
        ys, xs, scores = ys[order], xs[order], scores[order]
        cx = (xs + out[1, ys, xs]) * FINDER_STRIDE / scale
        cy = (ys + out[2, ys, xs]) * FINDER_STRIDE / scale
        w = np.exp(np.clip(out[3, ys, xs], -3, 6)) * FINDER_STRIDE / scale
        h = np.exp(np.clip(out[4, ys, xs], -3, 6)) * FINDER_STRIDE / scale
        centres = np.stack([cx, cy], 1).astype(np.float32)
        sizes = np.stack([w, h], 1).astype(np.float32)
        keep = _suppress_duplicates(centres, sizes, self.settings.duplicate_within)
        return centres[keep], sizes[keep], scores[keep].astype(np.float32)

    def find_all(self, image: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate dice of both looks: centres (N, 2), sizes (N, 2), scores (N,) (:meth:`_find_both`)."""
        return self._find_both(image, scale)[:3]

    def _find_both(self, image: np.ndarray, scale: float | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """:meth:`find` at ``scale`` and, with ``coarse_look``, at that scale times it too
        (large dice), one after the other, with the number of spots of the first look.

        A die can be found by both looks: both spots are read (see :meth:`_look`), and
        :func:`resolve_overlaps` keeps the one the face reader is surer of (the first look
        sizes dice larger than it was trained on badly, the coarse look small ones)."""
        base = finder_scale(*image.shape[:2]) if scale is None else scale
        centres, sizes, scores = self.find(image, base)
        f = self.settings.coarse_look
        if f <= 0 or max(image.shape[:2]) * base * f < 2 * FINDER_STRIDE * 8:
            return centres, sizes, scores, len(centres)
        c2, s2, sc2 = self.find(image, base * f)
        return (np.concatenate([centres, c2]), np.concatenate([sizes, s2]), np.concatenate([scores, sc2]), len(centres))

    def classify(self, image: np.ndarray, centres: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """Class probabilities (N, C): "not a die", faces 1-6 (and "unreadable die"), for dice at ``centres``."""
        return self._classify(image, centres, sizes, self.settings.look_again_crops)[0]

    def _classify(
        self, image: np.ndarray, centres: np.ndarray, sizes: np.ndarray, budget: int
    ) -> tuple[np.ndarray, int]:
        """:meth:`classify`, the doubtful dice taking at most ``budget`` further crops; with
        the further crops they took."""
        if len(centres) == 0:
            return np.zeros((0, self.n_classes), np.float32), 0
        crops = self._cut(image, centres, sizes)
        probs = self._face_probs(self._faces, crops)
        second = self._second if self.settings.second_opinion else None
        order = _further_reads(
            max(1, min(4, self.settings.face_views)),
            self.settings.second_opinion_scales if second is not None else None,
        )
        if not order:
            return probs, 0
        again = np.flatnonzero(
            (probs.max(1) < self.settings.look_again_below) & (probs[:, 0] < self.settings.look_again_not_die_below)
        )
        if len(again) == 0:
            return probs, 0
        chosen = order[: _reads_within(len(order), len(again), budget)]
        if not chosen:
            return probs, 0
        cuts = {1.0: crops[again]}
        for _, f, _ in chosen:
            if f not in cuts:
                cuts[f] = self._cut(image, centres[again], sizes[again], f)
        answers = [probs[again]]
        for net, by_second in ((self._faces, False), (second, True)):
            batch = [np.rot90(cuts[f], k, axes=(2, 3)) for s, f, k in chosen if s == by_second]
            if batch and net is not None:
                answers.append(self._face_probs(net, np.concatenate(batch)))
        probs[again] = np.concatenate(answers).reshape(-1, len(again), probs.shape[1]).mean(0)
        return probs, len(again) * len(chosen)

    def _cut(self, image: np.ndarray, centres: np.ndarray, sizes: np.ndarray, factor: float = 1.0) -> np.ndarray:
        """The face reader's input (N, 3, CROP_PX, CROP_PX): each die cut ``factor`` times
        its crop size (the finder's size times ``crop_scale``)."""
        f = factor * self.settings.crop_scale
        return np.stack(
            [
                normalise_crop(cut_crop(image, float(c[0]), float(c[1]), float(s.max()) * f))
                for c, s in zip(centres, sizes, strict=True)
            ]
        )

    def _coarse_worth_reading(
        self, first: np.ndarray, centres: np.ndarray, sizes: np.ndarray, n_first: int
    ) -> np.ndarray:
        """Indices of the coarse-look spots (after the first ``n_first``) worth reading: a
        spot near a first-look spot of about its size is the same die, and is dropped
        unread when the first look's spot was read surely (a face probability of at least
        ``look_again_below``)."""
        s = self.settings
        coarse = np.arange(n_first, len(centres))
        sure = (first[:, 0] <= s.not_die_above) & (first[:, 1:7].max(1) >= s.look_again_below)
        if len(coarse) and sure.any():
            d = np.hypot(*(centres[coarse, None, :] - centres[None, :n_first, :]).transpose(2, 0, 1))
            m2, m1 = sizes[coarse].mean(1)[:, None], sizes[:n_first].mean(1)[None, :]
            same = (d <= s.duplicate_within * np.maximum(m2, m1)) & (m1 >= 0.67 * m2) & (m1 <= 1.5 * m2)
            coarse = coarse[~(same & sure[None, :]).any(1)]
        return coarse

    def _coarse_look_needed(self, first: np.ndarray, sizes: np.ndarray, scale: float) -> bool:
        """Whether the first look leaves room for a die too large for it. Not when it read
        a die surely whose face is not a one (a pip of a large die reads as a one) and the
        largest die it read surely is at most COARSE_NOT_NEEDED_BELOW_PX: dice on one table
        differ in size by less than the 2.5 times that leaves."""
        s = self.settings
        if s.coarse_look <= 0:
            return False
        sure = (first[:, 0] <= s.not_die_above) & (first[:, 1:7].max(1) >= s.look_again_below)
        if not sure.any() or not (first[sure, 2:7].max(1) > first[sure, 1]).any():
            return True
        return float(sizes[sure].max()) * scale > COARSE_NOT_NEEDED_BELOW_PX

    def _face_probs(self, net: Network, crops: np.ndarray) -> np.ndarray:
        with self._lock:
            logits = net.run(crops).reshape(len(crops), -1)
        return class_probs(logits)

    def candidates(self, frame: np.ndarray) -> Candidates:
        """Every spot the finder marked in ``frame`` and the face reader's raw probabilities,
        from the best-fitting look, before anything is dropped (for calibration tools).

        Raises:
            VisionError: the frame is not a colour picture.
        """
        return self._best_look(_as_bgr(frame))

    def read(self, frame: np.ndarray, tray: Tray | None = None) -> DiceDetections:
        """Read every die in ``frame`` (BGR uint8); with ``tray``, only dice inside it.

        Raises:
            VisionError: the frame is not a colour picture.
        """
        cand = self.candidates(frame)
        h, w = frame.shape[:2]
        if tray is None and self.settings.auto_tray:
            found = self.decide(cand, w, h)
            if len(found):
                tray = detect_tray(frame, found.centres)
        return self.decide(cand, w, h, tray)

    def decide(self, cand: Candidates, width: int, height: int, tray: Tray | None = None) -> DiceDetections:
        """The dice among ``cand`` (see :meth:`candidates`) of a ``width`` x ``height`` frame
        (:func:`decide_dice` with this reader's settings and calibration)."""
        return decide_dice(
            cand, width, height, self.settings, self.calibration, tray=tray, unsure_below=self.unsure_below
        )

    def _best_look(self, image: np.ndarray) -> Candidates:
        """The candidates of the finder's best-fitting scale."""
        s = self.settings
        cand, look = self._look(image, None)
        latest, tried = look, [look.scale]
        if s.coarse_look > 0:
            tried.append(look.scale * s.coarse_look)
        for _ in range(MAX_LOOKS - 1 if s.rescale else 0):
            other = next_scale(latest, max(image.shape[:2]), s.finder_band, s.finder_max_side)
            if other is None or any(max(other, t) / min(other, t) < MIN_STEP for t in tried):
                break
            tried.append(other)
            again, latest = self._look(image, other)
            log.debug(
                "looked again at scale %.3f: %d dice of %s finder px", other, len(latest.die_px), latest.typical_px
            )
            if better(look, latest, s.finder_band):
                cand, look = again, latest
        return cand

    def _look(self, image: np.ndarray, scale: float | None) -> tuple[Candidates, Look]:
        used = finder_scale(*image.shape[:2]) if scale is None else scale
        centres, sizes, scores = self.find(image, used)
        n_first = len(centres)
        # one look-again budget for the look, its coarse spots included
        probs, spent = self._classify(image, centres, sizes, self.settings.look_again_crops)
        f = self.settings.coarse_look
        if (
            f > 0
            and max(image.shape[:2]) * used * f >= 2 * FINDER_STRIDE * 8
            and self._coarse_look_needed(probs, sizes, used)
        ):
            c2, s2, sc2 = self.find(image, used * f)
            centres, sizes, scores = (
                np.concatenate([centres, c2]),
                np.concatenate([sizes, s2]),
                np.concatenate([scores, sc2]),
            )
            coarse = self._coarse_worth_reading(probs, centres, sizes, n_first)
            more, _ = self._classify(image, centres[coarse], sizes[coarse], self.settings.look_again_crops - spent)
            probs = np.concatenate([probs, more])
            keep = np.concatenate([np.arange(n_first), coarse])
            centres, sizes, scores = centres[keep], sizes[keep], scores[keep]
        cand = Candidates(centres, sizes, scores, probs, used)
        is_die = np.zeros(len(cand), bool)
        is_die[resolve_overlaps(cand, self.settings)] = True
        if is_die[:n_first].any():
            # the dice of the first look say how large dice are (the coarse look's are large
            # by construction, and one of them can be table around a die too small to see)
            is_die[n_first:] = False
        look = Look(
            used,
            sizes[is_die].mean(1) * used,
            probs[is_die, 1:7].max(1) if len(probs) else np.zeros(0),
            int(((scores >= STRONG_SPOT) & ~may_be_dice(probs, scores, sizes, self.settings)).sum()),
        )
        return cand, look


def decide_dice(
    cand: Candidates,
    width: int,
    height: int,
    settings: ReaderSettings,
    calibration: Calibration,
    *,
    tray: Tray | None = None,
    unsure_below: float | None = None,
) -> DiceDetections:
    """The dice among ``cand`` of a ``width`` x ``height`` frame: spots that are not dice and
    dice outside ``tray`` dropped, one die per spot, confidences calibrated, unsure and
    unreadable dice flagged (below ``unsure_below``, default the calibration's)."""
    s = settings
    threshold = calibration.unsure_below if unsure_below is None else unsure_below
    if len(cand) == 0:
        return DiceDetections.empty()
    keep = resolve_overlaps(cand, s)
    if tray is not None and len(keep):
        keep = keep[tray.contains(cand.centres[keep], width, height)]
    if len(keep) == 0:
        return DiceDetections.empty()
    c = cand.take(keep)
    probs = calibration.apply(c.probs)
    values = probs[:, 1:7].argmax(1) + 1
    confidence = probs[np.arange(len(values)), values]
    readable = np.ones(len(values), bool)
    if probs.shape[1] > UNREADABLE:
        readable = c.probs[:, UNREADABLE] <= s.unreadable_above
    lo = np.clip(c.centres - c.sizes / 2, 0, (width, height))
    hi = np.clip(c.centres + c.sizes / 2, 0, (width, height))
    boxes = np.concatenate([lo, hi - lo], 1)
    order = np.lexsort((boxes[:, 0], np.round(boxes[:, 1] / max(float(np.median(c.sizes[:, 1])), 1.0))))
    return DiceDetections(
        values=values[order].astype(np.int8),
        boxes=boxes[order].astype(np.float32),
        confidence=confidence[order].astype(np.float32),
        unsure=(confidence[order] < threshold) | ~readable[order],
        readable=readable[order],
    )


def may_be_dice(probs: np.ndarray, scores: np.ndarray, sizes: np.ndarray, settings: ReaderSettings) -> np.ndarray:
    """Which spots (rows of face reader ``probs``, finder heat ``scores``, ``sizes`` (N, 2)
    px) are not turned down as "not a die": see ``not_die_above`` and
    ``strong_not_die_above`` in :class:`ReaderSettings`. A strong spot kept by the second
    is at least STRONG_SPOT_MIN_SIZE times the median size of the dice the face reader
    knows (none smaller: it is a pip, a mark or a shadow beside them)."""
    if not len(probs):
        return np.zeros(0, bool)
    plain = probs[:, 0] <= settings.not_die_above
    strong = (scores >= STRONG_SPOT) & (probs[:, 0] <= settings.strong_not_die_above)
    if plain.any():
        size = sizes.max(1)
        strong &= size >= STRONG_SPOT_MIN_SIZE * float(np.median(size[plain]))
    return plain | strong


def resolve_overlaps(cand: Candidates, settings: ReaderSettings) -> np.ndarray:
    """Indices of the candidates that are dice, one per die (in ``cand`` order).

    Spots the face reader calls "not a die" go (:func:`may_be_dice`). When the centre of
    one die lies inside another, larger one (its box pulled in to 80 %), the smaller is the
    same die (seen by both finder looks, or sized differently), one die of a cluster the
    larger spot covers, a die with table around it, or a pip of the larger die. Smaller spots of at least
    PIP_SHARE of its size are rivals: when the face reader is surer of them (their median
    face probability above the larger one's), they are kept and the larger goes; else the
    larger is kept. A spot under PIP_SHARE of its size is a pip and never wins, unless two
    or more such spots are read surer than the larger one: then they are small dice of a
    cluster.
    """
    is_die = np.flatnonzero(may_be_dice(cand.probs, cand.scores, cand.sizes, settings))
    if len(is_die) < 2:
        return is_die
    c, size = cand.centres[is_die], cand.sizes[is_die].max(1)
    sure = cand.probs[is_die, 1:7].max(1)
    # rank by size, ties broken by order, so that of two equal spots one holds the other
    rank = np.empty(len(size), int)
    rank[np.argsort(size, kind="stable")] = np.arange(len(size))
    # inside[i, j]: the centre of die j lies inside die i (and j is the smaller); a pip's
    # centre anywhere in the die's box (a corner pip of a loosely boxed die), another
    # die's within 80 % of it (two dice side by side are a whole die apart)
    reach = np.where(
        (size[None, :] < PIP_SHARE * size[:, None])[..., None],
        cand.sizes[is_die][:, None, :] * PIP_REACH,
        cand.sizes[is_die][:, None, :] * 0.4,
    )
    inside = (np.abs(c[None, :, :] - c[:, None, :]) <= reach).all(2) & (rank[None, :] < rank[:, None])
    drop = np.zeros(len(is_die), bool)
    for i in np.argsort(-rank):
        if drop[i]:
            continue
        held = np.flatnonzero(inside[i] & ~drop)
        pip = size[held] < PIP_SHARE * size[i]
        rivals = held if pip.sum() >= 2 else held[~pip]
        if len(rivals) and float(np.median(sure[rivals])) > sure[i]:
            drop[i] = True
            drop[np.setdiff1d(held, rivals)] = True
        else:
            drop[held] = True
    return is_die[~drop]


def class_probs(logits: np.ndarray) -> np.ndarray:
    """Class probabilities (N, C) float32 from a face reader's logits (N, C) (softmax per row)."""
    z = np.exp(logits - logits.max(1, keepdims=True))
    return np.asarray(z / z.sum(1, keepdims=True), np.float32)


def _further_reads(views: int, scales: tuple[float, ...] | None) -> list[tuple[bool, float, int]]:
    """Each further read of a doubtful die, most useful first, as (by the second reader,
    size times the die's crop size, quarter turns): the quarter turns up to ``views`` in
    all, the second reader (when ``scales`` is not None) alternating with the first, its
    reads at the other ``scales`` last."""
    order: list[tuple[bool, float, int]] = []
    for k in range(views):
        if k:
            order.append((False, 1.0, k))
        if scales is not None:
            order.append((True, 1.0, k))
    for f in scales or ():
        order += [(True, f, k) for k in range(views)]
    return order


def _reads_within(reads: int, doubtful: int, budget: int) -> int:
    """How many of ``reads`` further reads each of ``doubtful`` dice gets: all, or fewer so
    they stay within ``budget`` crops, but one at least while any budget is left."""
    if doubtful * reads <= budget:
        return reads
    if budget <= 0:
        return 0
    return max(1, budget // doubtful)


def _suppress_duplicates(centres: np.ndarray, sizes: np.ndarray, within: float) -> list[int]:
    """Indices (strongest first) of peaks not within ``within`` die sizes of a stronger one.

    The larger die of the pair sets the distance: a peak on one pip or on the side face of
    a die lies well inside that die, while two dice that touch are a whole die apart.
    """
    mean = sizes.mean(1)
    d = centres[:, None, :] - centres[None, :, :]
    near = np.hypot(d[..., 0], d[..., 1]) <= within * np.maximum(mean[:, None], mean[None, :])
    keep: list[int] = []
    taken = np.zeros(len(centres), bool)
    for i in range(len(centres)):
        if not taken[i]:
            keep.append(i)
            taken |= near[i]
    return keep


def _as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise VisionError("the camera frame is not a picture (expected an 8-bit image array)")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        raise VisionError(f"the camera frame has {frame.shape[2]} colour channels; expected 3")
    if min(frame.shape[:2]) < CROP_PX:
        raise VisionError(f"the camera frame is too small to read dice ({frame.shape[1]}x{frame.shape[0]})")
    return frame


def face_spec() -> dict[str, float]:
    """The crop a face reader must be trained on to work with this reader (FACE_SPEC_FILE)."""
    return {"crop_px": CROP_PX, "crop_context": CROP_CONTEXT}


def _check_face_spec(path: Path) -> None:
    # A face reader run on crops of another size gives confident nonsense, not an error.
    try:
        spec = json.loads(path.read_text())
    except FileNotFoundError:
        raise VisionError(
            f"{path.parent} has no {path.name}: its dice models were made for an "
            "older Purser; retrain them or use the shipped ones"
        ) from None
    except (OSError, ValueError) as exc:
        raise VisionError(f"the dice model description {path} could not be read: {exc}") from exc
    want = face_spec()
    if not isinstance(spec, dict) or any(spec.get(k) != v for k, v in want.items()):
        raise VisionError(
            f"the face reader in {path.parent} was trained on other crops ({spec}) than "
            f"this Purser cuts ({want}); retrain it or use the shipped models"
        )


def _check_outputs(folder: Path, finder: Network, faces: Network, second: Network | None) -> int:
    """The face readers' number of classes (7, or 8 with "unreadable die"), after checking
    every network gives what the reader expects."""
    # Swapped or foreign files load fine and fail only on the first frame, or not at all.
    face_probe = ((1, 3, CROP_PX, CROP_PX), ((1, N_CLASSES), (1, N_CLASSES - 1)), "a dice face reader")
    probes = [
        (
            finder,
            FINDER_FILE,
            (1, 3, 16 * FINDER_STRIDE, 16 * FINDER_STRIDE),
            ((1, FINDER_CHANNELS, 16, 16),),
            "a dice finder",
        ),
        (faces, FACE_FILE, *face_probe),
    ]
    if second is not None:
        probes.append((second, SECOND_FACE_FILE, *face_probe))
    classes = []
    for net, name, shape, wants, what in probes:
        try:
            got: tuple[int, ...] | None = tuple(net.run(np.zeros(shape, np.float32)).shape)
        except VisionError:
            got = None
        if got is None or not any(got in (want, (*want, 1, 1)) for want in wants):
            raise VisionError(
                f"{folder / name} is not {what} for this Purser (it gives {got} where "
                f"{wants[0]} was expected); retrain it or use the shipped models"
            )
        if name != FINDER_FILE:
            classes.append(got[1])
    if len(set(classes)) > 1:
        raise VisionError(
            f"the face readers in {folder} name different classes ({classes}); "
            "retrain them together or use the shipped models"
        )
    return int(classes[0])


_default: list[DiceReader] = []  # the shared reader, once loaded
_default_lock = threading.Lock()


def default_reader() -> DiceReader:
    """The shared reader with the shipped models (loaded on first use)."""
    with _default_lock:
        if not _default:
            _default.append(DiceReader())
        return _default[0]


def read_dice(
    frame: np.ndarray,
    *,
    tray: Tray | None = None,
    reader: DiceReader | None = None,
) -> DiceDetections:
    """Every die in ``frame`` (a BGR uint8 array): value, box, confidence, unsure flag.

    ``tray`` limits reading to a region of the table; ``reader`` picks other models or
    thresholds (default: the shipped models).

    Raises:
        VisionError: the frame is not a picture, or the models cannot be loaded.
    """
    return (reader or default_reader()).read(frame, tray=tray)
