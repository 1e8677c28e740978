"""From the networks' raw answers to dice: one die per spot, calibration, unsure and unreadable."""

import json

import numpy as np
import pytest

from companion.vision import Tray, VisionError
from companion.vision.reader import (
    Calibration,
    Candidates,
    ReaderSettings,
    class_probs,
    decide_dice,
    resolve_overlaps,
)
from companion.vision.scale import STRONG_SPOT


def cand(*spots, n_classes=8, heat=None):
    """Candidates from (cx, cy, size, probs) with probs a dict class -> probability; the
    finder's ``heat`` per spot (default: every spot plainly a spot, 1.0)."""
    probs = np.zeros((len(spots), n_classes), np.float32)
    for i, (_, _, _, p) in enumerate(spots):
        for k, v in p.items():
            probs[i, k] = v
    return Candidates(
        np.array([(x, y) for x, y, _, _ in spots], np.float32).reshape(-1, 2),
        np.array([(s, s) for _, _, s, _ in spots], np.float32).reshape(-1, 2),
        np.ones(len(spots), np.float32) if heat is None else np.array(heat, np.float32),
        probs,
        0.5,
    )


DIE5 = {5: 0.99, 0: 0.01}
DIE1 = {1: 0.98, 0: 0.02}


def test_spots_that_are_not_dice_go():
    sure_none, faint_doubt = {0: 0.97, 3: 0.03}, {0: 0.6, 3: 0.4}
    c = cand((100, 100, 40, DIE5), (200, 100, 40, sure_none), (300, 100, 40, faint_doubt), heat=[1, 1, 0.3])
    assert resolve_overlaps(c, ReaderSettings()).tolist() == [0]


@pytest.mark.parametrize(
    ("heat", "not_a_die", "kept"),
    [
        (STRONG_SPOT, 0.9, True),  # the finder is sure: a die unlike those the face reader knows
        (STRONG_SPOT, 0.97, False),  # the face reader is surer still that it is none
        (STRONG_SPOT - 0.05, 0.6, False),  # a faint spot needs the face reader to call it a die
        (STRONG_SPOT - 0.05, 0.45, True),
    ],
)
def test_a_spot_the_finder_is_sure_of_needs_more_to_be_turned_down(heat, not_a_die, kept):
    c = cand((100, 100, 40, {0: not_a_die, 4: 1 - not_a_die}), heat=[heat])
    assert resolve_overlaps(c, ReaderSettings()).tolist() == ([0] if kept else [])
    det = decide_dice(c, 640, 480, ReaderSettings(), Calibration())
    assert len(det) == int(kept)
    if kept:
        assert det.values.tolist() == [4] and det.unsure.tolist() == [True]


def test_a_strong_spot_much_smaller_than_the_dice_read_is_no_die():
    # a shadow or a pip beside two dice of 120 px: the finder is sure, the face reader is not
    doubt = {0: 0.9, 1: 0.1}
    beside = cand((100, 100, 120, DIE5), (400, 100, 120, DIE1), (250, 100, 30, doubt))
    assert resolve_overlaps(beside, ReaderSettings()).tolist() == [0, 1]
    # a die half their size is a smaller die, and stays (unsure)
    smaller = cand((100, 100, 120, DIE5), (400, 100, 120, DIE1), (250, 100, 60, doubt))
    assert resolve_overlaps(smaller, ReaderSettings()).tolist() == [0, 1, 2]
    # with no die read surely there is nothing to compare it with
    assert resolve_overlaps(cand((250, 100, 30, doubt)), ReaderSettings()).tolist() == [0]


def test_the_strong_spot_rule_can_be_switched_off():
    c = cand((100, 100, 40, {0: 0.9, 4: 0.1}))
    assert resolve_overlaps(c, ReaderSettings(strong_not_die_above=0.5)).tolist() == []


def test_a_pip_of_a_large_die_is_not_a_die_of_its_own():
    # a die of 200 px and a "1" read on its corner pip
    c = cand((300, 300, 200, DIE5), (250, 250, 40, DIE1))
    assert resolve_overlaps(c, ReaderSettings()).tolist() == [0]


@pytest.mark.parametrize(
    ("pip_at", "kept"),
    [
        ((385, 300), [0]),  # a pip near the edge of a die boxed loosely, past 80 % of it
        ((405, 300), [0, 1]),  # outside the die's box: a small die beside it
        ((300, 385), [0]),
    ],
)
def test_a_pip_anywhere_in_a_die_is_not_a_die_but_a_small_die_beside_it_is(pip_at, kept):
    c = cand((300, 300, 200, DIE5), (*pip_at, 40, DIE1))
    assert sorted(resolve_overlaps(c, ReaderSettings()).tolist()) == kept


def test_a_die_beside_a_larger_one_stays_when_it_is_no_pip():
    # dice of 200 and 100 px side by side: the centre of the smaller lies in the larger's
    # box but outside 80 % of it, and it is too large for a pip
    c = cand((300, 300, 200, DIE5), (385, 300, 100, DIE1))
    assert sorted(resolve_overlaps(c, ReaderSettings()).tolist()) == [0, 1]


def test_a_large_spot_over_several_dice_is_a_cluster_not_a_die():
    # two dice read surely, and a spot as large as both read with doubt
    c = cand((300, 300, 200, {5: 0.6, 0: 0.4}), (260, 260, 60, DIE1), (340, 340, 60, DIE1))
    assert sorted(resolve_overlaps(c, ReaderSettings()).tolist()) == [1, 2]


def test_the_pips_of_a_large_die_read_as_doubtful_ones_do_not_break_it_up():
    # a 5 read surely, and three of its pips taken for "1"s with doubt
    pip = {1: 0.4, 0: 0.35, 2: 0.25}
    c = cand((300, 300, 200, DIE5), (240, 240, 40, pip), (300, 300, 40, pip), (360, 360, 40, pip))
    assert resolve_overlaps(c, ReaderSettings()).tolist() == [0]


def test_touching_dice_both_stay():
    c = cand((100, 100, 40, DIE5), (141, 100, 40, DIE1))
    assert sorted(resolve_overlaps(c, ReaderSettings()).tolist()) == [0, 1]


def test_unreadable_dice_are_counted_and_flagged_unsure():
    c = cand((100, 100, 40, DIE5), (200, 100, 40, {7: 0.8, 2: 0.15, 0: 0.05}))
    det = decide_dice(c, 640, 480, ReaderSettings(), Calibration())
    assert len(det) == 2 and det.unreadable_count == 1
    out = det.to_json()
    assert out["count"] == 2 and out["unreadable"] == 1 and out["unsure"] == 1
    unreadable = [d for d in out["dice"] if not d["readable"]]
    assert unreadable[0]["unsure"] and unreadable[0]["value"] == 2  # its best guess, to be confirmed


def test_seven_class_readers_have_no_unreadable_dice():
    c = cand((100, 100, 40, {4: 0.97, 0: 0.03}), n_classes=7)
    det = decide_dice(c, 640, 480, ReaderSettings(), Calibration())
    assert det.values.tolist() == [4] and det.unreadable_count == 0 and not det.unsure.any()


def test_temperature_softens_confidence_and_the_threshold_flags():
    c = cand((100, 100, 40, {3: 0.95, 2: 0.04, 0: 0.01}))
    sharp = decide_dice(c, 640, 480, ReaderSettings(), Calibration(1.0, 0.9))
    soft = decide_dice(c, 640, 480, ReaderSettings(), Calibration(3.0, 0.9))
    assert sharp.confidence[0] == pytest.approx(0.95, abs=1e-3) and not sharp.unsure[0]
    assert soft.confidence[0] < 0.7 and soft.unsure[0] and soft.values[0] == 3


def test_a_setting_overrides_the_calibrated_threshold():
    c = cand((100, 100, 40, {3: 0.95, 2: 0.05}))
    det = decide_dice(c, 640, 480, ReaderSettings(), Calibration(1.0, 0.99), unsure_below=0.9)
    assert not det.unsure[0]


def test_dice_outside_the_tray_are_dropped():
    c = cand((100, 100, 40, DIE5), (600, 400, 40, DIE1))
    det = decide_dice(c, 640, 480, ReaderSettings(), Calibration(), tray=Tray.parse("0,0,0.5,0.5"))
    assert det.values.tolist() == [5]


def test_calibration_file(tmp_path):
    assert Calibration.load(tmp_path / "none.json") == Calibration()
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"temperature": 1.5, "unsure_below": 0.97, "note": "test"}))
    assert Calibration.load(path) == Calibration(1.5, 0.97, "test")
    for bad in ("{", json.dumps({"temperature": 0, "unsure_below": 0.9}), json.dumps({"unsure_below": 0.9})):
        path.write_text(bad)
        with pytest.raises(VisionError):
            Calibration.load(path)


@pytest.mark.parametrize(
    ("logits", "probs"),
    [
        (np.zeros((0, 3)), np.zeros((0, 3))),
        ([[0.0, 0.0]], [[0.5, 0.5]]),
        ([[1000.0, 0.0, 0.0]], [[1.0, 0.0, 0.0]]),
        ([[0.0, np.log(3.0)], [2.0, 2.0]], [[0.25, 0.75], [0.5, 0.5]]),
    ],
)
def test_class_probs_turns_each_row_of_logits_into_probabilities(logits, probs):
    got = class_probs(np.array(logits, np.float32))
    assert got.dtype == np.float32 and got.shape == np.shape(probs)
    np.testing.assert_allclose(got, probs, atol=1e-6)
