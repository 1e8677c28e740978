"""The dice reader on renders and on a few real photos, its input checks and thresholds."""

import json
import logging
import shutil
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import DiceReader, ReaderSettings, Tray, VisionError, read_dice
from companion.vision.evaluate import Reading, load_labels, match
from companion.vision.preprocess import cut_crop, normalise_crop
from companion.vision.reader import (
    FACE_FILE,
    FACE_SPEC_FILE,
    FINDER_FILE,
    MODELS_DIR,
    SECOND_FACE_FILE,
    Candidates,
    _further_reads,
    _reads_within,
    _suppress_duplicates,
    resolve_overlaps,
)
from companion.vision.render import render_scene
from companion.vision.sources import read_image

DATA = Path(__file__).with_name("data")


def readings(det):
    return [Reading(d.value, d.box, d.unsure, d.confidence) for d in det]


@pytest.mark.parametrize("label", load_labels(DATA), ids=lambda lab: Path(lab.image).stem)
def test_real_photos_no_confident_misread(label):
    """Photos from both sources of the dataset (they were among the training photos).

    A misread is worse than no read: every die read with confidence has its right value,
    and anything read that is not a labelled die is flagged for a player to check.
    """
    det = read_dice(read_image(DATA / label.image))
    result = match(label, readings(det))
    assert result.pairs, "no labelled die was found"
    assert all(t == v for t, v, unsure, _ in result.pairs if not unsure), result
    assert all(unsure for _, unsure in result.extra), result


def test_renders_are_read():
    right = total = unsure_wrong = sure_wrong = 0
    for seed in range(900_000, 900_012):  # seeds never used for training
        scene = render_scene(seed, n_dice=6)
        det = read_dice(scene.image)
        result = match(_as_label(scene), readings(det))
        total += len(_as_label(scene).dice)
        right += sum(t == v for t, v, _, _ in result.pairs)
        sure_wrong += sum(t != v and not u for t, v, u, _ in result.pairs)
        unsure_wrong += sum(t != v and u for t, v, u, _ in result.pairs)
    assert total >= 40
    assert right / total >= 0.9
    assert sure_wrong <= 0.03 * total


def _as_label(scene):
    """The readable dice of a render as labels (a die mostly hidden or cut off by the frame
    is left out: whether it is read or not, it scores nothing)."""
    from companion.vision.evaluate import Label, LabelledImage

    return LabelledImage("syn.png", "die", tuple(Label(d.value, d.box) for d in scene.dice if d.readable))


def test_empty_table_has_no_dice():
    table = np.full((480, 640, 3), (170, 190, 200), np.uint8)
    table = cv2.GaussianBlur(table + np.random.default_rng(1).integers(0, 12, table.shape, dtype=np.uint8), (5, 5), 0)
    det = read_dice(table)
    assert len(det) == 0 and det.to_json() == {"dice": [], "count": 0, "unsure": 0, "unreadable": 0}


def test_grey_and_four_channel_frames_are_accepted():
    scene = render_scene(900_100, n_dice=4)
    plain = read_dice(scene.image)
    assert len(read_dice(cv2.cvtColor(scene.image, cv2.COLOR_BGR2BGRA))) == len(plain)
    read_dice(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY))  # no error


@pytest.mark.parametrize(
    "frame",
    [
        None,
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((10, 10, 3), np.uint8),
        np.zeros((100, 100, 3), np.float32),
        np.zeros((100, 100, 2), np.uint8),
    ],
)
def test_frames_that_are_not_pictures_are_refused(frame):
    with pytest.raises(VisionError):
        read_dice(frame)


def test_tray_ignores_dice_outside():
    scene = render_scene(900_200, width=640, height=480, n_dice=8)
    everything = read_dice(scene.image)
    tray = Tray.rectangle(0.0, 0.0, 0.5, 1.0)
    left = read_dice(scene.image, tray=tray)
    assert len(everything) > len(left) > 0 or all(c[0] < 320 for c in everything.centres)
    assert all(c[0] <= 320 for c in left.centres)
    # the dice inside are read the same way, in frame coordinates
    inside = [d for d in everything if d.centre[0] < 300]
    assert len(left) >= len(inside) - 1


def _right(reader, scenes):
    right = total = extra = 0
    for scene in scenes:
        hidden = [d.box for d in scene.dice if not d.readable]
        found = [
            r
            for r in readings(reader.read(scene.image))
            if not any(
                x <= r.box[0] + r.box[2] / 2 <= x + w and y <= r.box[1] + r.box[3] / 2 <= y + h for x, y, w, h in hidden
            )
        ]
        result = match(_as_label(scene), found)
        total += len(_as_label(scene).dice)
        right += sum(t == v for t, v, _, _ in result.pairs)
        extra += len(result.extra)
    return right, total, extra


def test_small_dice_in_a_large_frame_are_looked_at_again_enlarged():
    # 22-28 px dice in a 1600x1200 frame are 4-6 px once the frame is shrunk for the finder
    scenes = [render_scene(900_400 + i, 1600, 1200, n_dice=8, die_px=(22.0, 28.0)) for i in range(8)]
    right, total, extra = _right(DiceReader(), scenes)
    once, _, _ = _right(DiceReader(settings=ReaderSettings(rescale=False)), scenes)
    assert total >= 56
    assert right >= 0.9 * total and extra <= total / 8
    assert once < right - 15


def test_dice_filling_the_frame_are_found_by_the_coarse_look():
    # dice of 130-160 px in a 640x480 frame: the finder's first look (at 320 px) sees them
    # 65-80 px wide, at or beyond the largest it was trained on, and takes pips for dice
    scenes = [render_scene(900_500 + i, 640, 480, n_dice=2, die_px=(130.0, 160.0)) for i in range(16)]
    right, total, extra = _right(DiceReader(settings=ReaderSettings(rescale=False)), scenes)
    first_only, _, _ = _right(DiceReader(settings=ReaderSettings(rescale=False, coarse_look=0.0)), scenes)
    assert total >= 8
    assert right >= total - 1 and extra <= 1
    assert first_only <= right - 5


@pytest.mark.parametrize(
    "width, height, die_px, looks",
    [
        (640, 480, (40.0, 60.0), 1),  # 20-30 finder px: as the finder likes them
        (1600, 1200, (22.0, 28.0), 2),
    ],
)
def test_dice_the_finder_sees_well_are_looked_at_once(caplog, width, height, die_px, looks):
    caplog.set_level(logging.DEBUG, logger="companion.vision.reader")
    DiceReader().read(render_scene(900_306, width, height, n_dice=6, die_px=die_px).image)
    again = [r for r in caplog.records if r.getMessage().startswith("looked again")]
    assert len(again) == looks - 1


def _spots(*spots):
    """Candidates from (cx, cy, size, face, p(face), p(not a die)) of an 8-class reader."""
    probs = np.zeros((len(spots), 8), np.float32)
    for i, (_, _, _, face, p, p0) in enumerate(spots):
        probs[i, face], probs[i, 0] = p, p0
        probs[i, 7] = 1 - p - p0
    return Candidates(
        np.array([s[:2] for s in spots], np.float32).reshape(-1, 2),
        np.array([(s[2], s[2]) for s in spots], np.float32).reshape(-1, 2),
        np.ones(len(spots), np.float32),
        probs,
        0.5,
    )


def test_a_die_seen_by_both_looks_is_read_once_from_the_surer_spot():
    # the first look sized a large die a little small and read it surely; the coarse look
    # sized it right and read it with doubt: either way one die, the sure reading kept
    surer_smaller = _spots((300, 300, 200, 4, 0.55, 0.3), (305, 295, 150, 4, 0.97, 0.01))
    assert resolve_overlaps(surer_smaller, ReaderSettings()).tolist() == [1]
    surer_larger = _spots((300, 300, 200, 4, 0.97, 0.01), (305, 295, 150, 4, 0.55, 0.3))
    assert resolve_overlaps(surer_larger, ReaderSettings()).tolist() == [0]
    twins = _spots((300, 300, 150, 4, 0.9, 0.05), (302, 301, 150, 4, 0.95, 0.02))
    assert resolve_overlaps(twins, ReaderSettings()).tolist() == [1]


def test_a_pip_read_surely_does_not_replace_the_die_read_with_doubt():
    # ring pips look like the face of a "1": a pip read surely inside a 3 read with doubt
    c = _spots((300, 300, 200, 3, 0.6, 0.2), (250, 250, 50, 1, 0.98, 0.01))
    assert resolve_overlaps(c, ReaderSettings()).tolist() == [0]
    # the same spot at half the die's size is not a pip but a die of a cluster seen as one
    c = _spots((300, 300, 200, 3, 0.6, 0.2), (260, 260, 100, 1, 0.98, 0.01))
    assert resolve_overlaps(c, ReaderSettings()).tolist() == [1]


def test_both_finder_looks_are_read():
    # dice of about 90 px in a 640x480 frame are seen by both looks (45 and 18 finder px)
    reader = DiceReader(settings=ReaderSettings(rescale=False))
    first = DiceReader(settings=ReaderSettings(rescale=False, coarse_look=0.0))
    image = render_scene(900_307, 640, 480, n_dice=3, die_px=(85.0, 95.0)).image
    both, alone = reader.find_all(image)[0], first.find_all(image)[0]
    assert len(both) > len(alone) >= 3
    assert np.array_equal(both[: len(alone)], alone)
    assert len(reader.read(image)) == 3


def test_a_die_read_surely_by_the_first_look_is_not_read_again_from_the_coarse_one(monkeypatch):
    reader = DiceReader(settings=ReaderSettings(rescale=False, face_views=1))
    image = render_scene(900_307, 640, 480, n_dice=3, die_px=(85.0, 95.0)).image
    spots = len(reader.find_all(image)[0])
    read = []
    classify = reader._classify
    monkeypatch.setattr(reader, "_classify", lambda im, c, s, budget: read.append(len(c)) or classify(im, c, s, budget))
    cand = reader.candidates(image)
    assert sum(read) == len(cand) < spots  # the coarse look's spots of the dice read surely: not read
    sure = cand.probs[:, 1:7].max(1) >= reader.settings.look_again_below
    assert sure.sum() >= 3
    assert len(reader.decide(cand, 640, 480)) == 3


def test_unsure_threshold_flags_and_never_drops():
    image = render_scene(900_300, n_dice=6).image
    strict = DiceReader(settings=ReaderSettings(unsure_below=1.01)).read(image)
    lax = DiceReader(settings=ReaderSettings(unsure_below=0.0)).read(image)
    assert len(strict) == len(lax) > 0
    assert strict.unsure.all() and not lax.unsure.any()
    assert strict.faces() == [] and lax.faces() == [int(v) for v in lax.values]
    assert np.array_equal(strict.values, lax.values)


def test_only_dice_read_with_doubt_are_looked_at_again():
    image = render_scene(900_301, n_dice=8).image
    once = DiceReader(settings=ReaderSettings(face_views=1))
    centres, sizes, _ = once.find(image)
    first = once.classify(image, centres, sizes)
    tops = np.sort(first.max(1))
    assert len(tops) >= 2 and tops[0] < tops[-1]
    cut = float((tops[0] + tops[-1]) / 2)
    again = DiceReader(settings=ReaderSettings(face_views=4, look_again_below=cut))
    probs = again.classify(image, centres, sizes)
    doubtful = first.max(1) < cut
    assert np.allclose(probs[~doubtful], first[~doubtful])
    assert not np.allclose(probs[doubtful], first[doubtful])
    assert np.allclose(probs.sum(1), 1.0, atol=1e-4)


@pytest.mark.parametrize(
    ("peaks", "kept"),
    [
        ([], []),
        ([(100, 100, 40)], [0]),
        ([(100, 100, 40), (110, 100, 10)], [0]),  # a pip of the die, weaker: the same die
        ([(100, 100, 10), (110, 100, 40)], [0]),  # the larger die sets the distance either way
        ([(100, 100, 40), (140, 100, 40)], [0, 1]),  # touching dice, a whole die apart
        ([(100, 100, 40), (115, 100, 40), (130, 100, 40)], [0, 2]),  # only a kept peak takes others
    ],
    ids=["none", "one", "pip", "pip-first", "touching", "chain"],
)
def test_a_weaker_peak_near_a_kept_one_is_the_same_die(peaks, kept):
    """Peaks (x, y, size px) strongest first; within 0.45 of the larger size is one die."""
    centres = np.array([p[:2] for p in peaks], np.float32).reshape(-1, 2)
    sizes = np.array([(p[2], p[2]) for p in peaks], np.float32).reshape(-1, 2)
    assert _suppress_duplicates(centres, sizes, 0.45) == kept


@pytest.mark.parametrize(
    ("reads", "doubtful", "budget", "expected"),
    [
        (3, 0, 24, 3),
        (3, 8, 24, 3),  # a few doubtful dice: every further read
        (3, 12, 24, 2),
        (3, 27, 24, 1),  # a pile: one more read each, still
        (3, 200, 24, 1),
        (1, 200, 0, 0),  # nothing left (the first look's dice took it)
        (1, 20, 24, 1),
        (3, 30, -6, 0),
        (0, 50, 24, 0),
        (15, 3, 24, 8),
    ],
)
def test_a_pile_of_doubtful_dice_is_read_fewer_times_each(reads, doubtful, budget, expected):
    assert _reads_within(reads, doubtful, budget) == expected


@pytest.mark.parametrize(
    ("views", "scales", "expected"),
    [
        (1, None, []),
        (4, None, [(False, 1.0, 1), (False, 1.0, 2), (False, 1.0, 3)]),
        (1, (), [(True, 1.0, 0)]),
        (2, (0.9,), [(True, 1.0, 0), (False, 1.0, 1), (True, 1.0, 1), (True, 0.9, 0), (True, 0.9, 1)]),
    ],
)
def test_further_reads_alternate_the_readers_and_leave_other_sizes_last(views, scales, expected):
    assert _further_reads(views, scales) == expected


def test_a_pile_of_doubtful_dice_gets_the_second_readers_upright_view_first(tmp_path):
    image, centres, sizes, first, cut = _read_once_with_a_twin(tmp_path)
    doubtful = int((first.max(1) < cut).sum())
    settings = ReaderSettings(look_again_below=cut, look_again_crops=doubtful)

    # The twin second reader's upright view is the first read again: nothing changes.
    one_each = DiceReader(tmp_path, settings).classify(image, centres, sizes)
    assert np.allclose(one_each, first, atol=1e-6)
    # Without it, the one further read is a quarter turn (averaged with the first read).
    turned = DiceReader(tmp_path, replace(settings, second_opinion=False)).classify(image, centres, sizes)
    quarter_turn = 2 * turned - first
    assert not np.allclose(turned, first, atol=1e-3)
    # With budget for two: the twin's upright view, then the quarter turn.
    two_each = DiceReader(tmp_path, replace(settings, look_again_crops=2 * doubtful)).classify(image, centres, sizes)
    assert np.allclose(two_each, (2 * first + quarter_turn) / 3, atol=1e-5)


def test_second_opinion_is_asked_only_about_doubtful_dice(tmp_path):
    image, centres, sizes, first, cut = _read_once_with_a_twin(tmp_path)
    asked = DiceReader(tmp_path, ReaderSettings(face_views=1, look_again_below=cut))
    probs = asked.classify(image, centres, sizes)
    doubtful = first.max(1) < cut
    assert np.allclose(probs[~doubtful], first[~doubtful])
    assert not np.allclose(probs[doubtful], first[doubtful])
    assert np.allclose(probs.sum(1), 1.0, atol=1e-4)


@pytest.mark.parametrize("views", [1, 4])
@pytest.mark.parametrize("scales", [(), (1.0,)])
def test_a_second_opinion_that_always_agrees_changes_nothing(tmp_path, views, scales):
    _with_second_reader(tmp_path)
    image = render_scene(900_303, n_dice=8).image
    settings = ReaderSettings(
        face_views=views, look_again_below=1.01, look_again_crops=10_000, second_opinion_scales=scales
    )
    twin = DiceReader(tmp_path, settings)
    centres, sizes, _ = twin.find(image)
    alone = DiceReader(tmp_path, replace(settings, second_opinion=False))
    assert np.allclose(twin.classify(image, centres, sizes), alone.classify(image, centres, sizes), atol=1e-6)


def test_the_second_opinion_also_sees_doubtful_dice_cut_tighter_and_looser(tmp_path):
    image, centres, sizes, first, cut = _read_once_with_a_twin(tmp_path)
    settings = ReaderSettings(look_again_below=cut, look_again_crops=10_000, second_opinion_scales=())
    same_size = DiceReader(tmp_path, settings).classify(image, centres, sizes)
    sizes_too = DiceReader(tmp_path, replace(settings, second_opinion_scales=(0.87, 1.15)))
    probs = sizes_too.classify(image, centres, sizes)
    doubtful = first.max(1) < cut
    assert np.allclose(probs[~doubtful], same_size[~doubtful])
    assert not np.allclose(probs[doubtful], same_size[doubtful])
    assert np.allclose(probs.sum(1), 1.0, atol=1e-4)


@pytest.mark.parametrize("second", [False, True])
def test_crop_scale_reads_each_die_as_if_the_finder_had_sized_it_that_much_larger(tmp_path, second):
    if second:
        _with_second_reader(tmp_path)
    else:
        _copy_models(tmp_path, FINDER_FILE, FACE_FILE, FACE_SPEC_FILE)
    image = render_scene(900_302, n_dice=8).image
    settings = ReaderSettings(look_again_below=1.01)
    centres, sizes, _ = DiceReader(tmp_path, settings).find(image)
    larger = DiceReader(tmp_path, replace(settings, crop_scale=1.3)).classify(image, centres, sizes)
    as_sized = DiceReader(tmp_path, settings)
    assert np.abs(larger - as_sized.classify(image, centres, sizes * 1.3)).max() < 1e-3
    assert np.abs(larger - as_sized.classify(image, centres, sizes)).max() > 0.05


def test_face_readers_read_as_the_default_opencv_engine_would():
    reader = DiceReader(settings=ReaderSettings(face_views=1, second_opinion=False))
    image = render_scene(900_305, n_dice=6).image
    centres, sizes, _ = reader.find(image)
    crops = np.stack(
        [
            normalise_crop(cut_crop(image, float(c[0]), float(c[1]), float(s.max())))
            for c, s in zip(centres, sizes, strict=True)
        ]
    )
    plain = cv2.dnn.readNetFromONNX(str(MODELS_DIR / FACE_FILE))
    plain.setInput(crops)
    logits = plain.forward().reshape(len(crops), -1)
    want = np.exp(logits - logits.max(1, keepdims=True))
    want /= want.sum(1, keepdims=True)
    assert len(crops) >= 4
    assert np.allclose(reader.classify(image, centres, sizes), want, atol=1e-4)


def test_models_without_a_second_face_reader_read_alone(tmp_path):
    _with_second_reader(tmp_path)
    image = render_scene(900_304, n_dice=8).image
    settings = ReaderSettings(look_again_below=1.01)
    with_second = DiceReader(tmp_path, settings)
    alone = DiceReader(tmp_path, replace(settings, second_opinion=False)).read(image).to_json()
    assert with_second.read(image).to_json() != alone  # the second reader sees other crops
    (tmp_path / SECOND_FACE_FILE).unlink()
    assert DiceReader(tmp_path, settings).read(image).to_json() == alone


def test_missing_model_is_a_clear_error(tmp_path):
    with pytest.raises(VisionError, match=FINDER_FILE):
        DiceReader(tmp_path)


def test_corrupt_model_is_a_clear_error(tmp_path):
    for name in ("dice_finder.onnx", "dice_faces.onnx"):
        (tmp_path / name).write_bytes(b"\x00garbage" * 10)
    with pytest.raises(VisionError, match="could not be loaded"):
        DiceReader(tmp_path)


def _copy_models(folder: Path, *names: str) -> None:
    for name in names:
        shutil.copy(MODELS_DIR / name, folder / name)


def _with_second_reader(folder: Path) -> None:
    """The shipped models, with the first face reader also as a second one."""
    _copy_models(folder, FINDER_FILE, FACE_FILE, FACE_SPEC_FILE)
    shutil.copy(MODELS_DIR / FACE_FILE, folder / SECOND_FACE_FILE)


def _read_once_with_a_twin(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, float]:
    """``folder`` gets the shipped models with a twin second reader; a rendered frame, its
    spots, the face reader's first read of them and a doubt threshold half-way between
    its least and most sure read (so some dice, not all, are doubtful)."""
    _with_second_reader(folder)
    image = render_scene(900_301, n_dice=8).image
    probe = DiceReader(folder, ReaderSettings(face_views=1, second_opinion=False))
    centres, sizes, _ = probe.find(image)
    first = probe.classify(image, centres, sizes)
    cut = float((first.max(1).min() + first.max(1).max()) / 2)
    doubtful = first.max(1) < cut
    assert doubtful.any() and not doubtful.all()
    return image, centres, sizes, first, cut


def test_face_reader_made_for_other_crops_is_refused(tmp_path):
    _copy_models(tmp_path, FINDER_FILE, FACE_FILE)
    (tmp_path / FACE_SPEC_FILE).write_text('{"crop_px": 32, "crop_context": 1.3}')
    with pytest.raises(VisionError, match="other crops"):
        DiceReader(tmp_path)
    (tmp_path / FACE_SPEC_FILE).unlink()
    with pytest.raises(VisionError, match="older Purser"):
        DiceReader(tmp_path)
    _copy_models(tmp_path, FACE_SPEC_FILE)
    assert len(DiceReader(tmp_path).read(render_scene(900_302, n_dice=3).image)) > 0


@pytest.mark.parametrize("swapped", [FINDER_FILE, FACE_FILE, SECOND_FACE_FILE])
def test_a_network_in_the_wrong_place_is_refused(tmp_path, swapped):
    _with_second_reader(tmp_path)
    other = FACE_FILE if swapped == FINDER_FILE else FINDER_FILE
    shutil.copy(MODELS_DIR / other, tmp_path / swapped)
    with pytest.raises(VisionError, match=f"{swapped} is not a dice"):
        DiceReader(tmp_path)


def test_labels_file_of_the_sample_photos_is_valid():
    for line in (DATA / "labels.jsonl").read_text().splitlines():
        rec = json.loads(line)
        assert (DATA / rec["image"]).is_file()


class _CountingLooks(DiceReader):
    """The shipped reader, noting the scale of every finder pass."""

    def __init__(self) -> None:
        super().__init__(settings=ReaderSettings(rescale=False))
        self.scales: list[float | None] = []

    def find(self, image, scale=None):
        self.scales.append(scale)
        return super().find(image, scale)


@pytest.mark.parametrize(
    "die_px, coarse_looks",
    [
        ((24.0, 34.0), 0),  # ordinary dice read surely: no die can be too large for the first look
        ((130.0, 160.0), 1),  # dice beyond the first look's sizes: the coarse look is taken
    ],
)
def test_the_coarse_look_is_taken_only_when_a_die_could_be_too_large_for_the_first(die_px, coarse_looks):
    looks = []
    for i in range(6):
        reader = _CountingLooks()
        reader.read(render_scene(900_700 + i, 640, 480, n_dice=5 if die_px[0] < 100 else 2, die_px=die_px).image)
        looks.append(len(reader.scales) - 1)
    assert sorted(looks)[len(looks) // 2] == coarse_looks  # the typical frame
    if coarse_looks:
        assert min(looks) == 1  # never skipped when the dice are that large
