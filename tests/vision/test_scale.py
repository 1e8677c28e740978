"""Choosing the finder's scale: when to look again, and which look to keep."""

import numpy as np
import pytest

from companion.vision.scale import MIN_STEP, Look, better, next_scale

BAND = (16.0, 48.0)


def look(scale, sizes=(), confidence=None, strong_not_dice=0):
    sizes = np.asarray(sizes, np.float32)
    conf = np.full(len(sizes), 0.99, np.float32) if confidence is None else np.asarray(confidence, np.float32)
    return Look(scale, sizes, conf, strong_not_dice)


@pytest.mark.parametrize("sizes", [[16.0], [20.0, 24.0, 30.0], [48.0]])
def test_dice_in_the_band_need_no_second_look(sizes):
    assert next_scale(look(0.25, sizes), 1280, BAND, 1280) is None


def test_small_dice_are_looked_at_again_enlarged_to_the_middle_of_the_band():
    scale = next_scale(look(0.25, [7.0, 8.0, 9.0]), 1280, BAND, 1280)
    assert scale == pytest.approx(0.25 * np.sqrt(16 * 48) / 8.0)


def test_enlarging_stops_at_the_frames_own_pixels_and_the_input_cap():
    assert next_scale(look(0.5, [4.0]), 640, BAND, 4096) == pytest.approx(1.0)
    assert next_scale(look(0.25, [4.0]), 1280, BAND, 640) == pytest.approx(0.5)
    # already at the frame's own pixels: nothing bigger to look at
    assert next_scale(look(1.0, [8.0]), 320, BAND, 1280) is None


def test_large_dice_are_looked_at_again_shrunk():
    scale = next_scale(look(0.5, [100.0, 110.0]), 640, BAND, 1280)
    assert scale == pytest.approx(0.5 * np.sqrt(16 * 48) / 105.0)


def test_nothing_read_but_strong_spots_turned_down_means_dice_too_big():
    assert next_scale(look(0.5, [], strong_not_dice=3), 640, BAND, 1280) == pytest.approx(0.5 / 3)


def test_spots_mostly_not_dice_beside_a_few_dice_are_looked_at_shrunk():
    assert next_scale(look(0.5, [20.0], strong_not_dice=5), 640, BAND, 1280) == pytest.approx(0.5 / 3)
    assert next_scale(look(0.5, [20.0, 22.0], strong_not_dice=4), 640, BAND, 1280) is None


@pytest.mark.parametrize("side, want", [(1280, 0.25 * 2.5), (640, 1.0), (320, None)])
def test_an_empty_look_tries_larger_only_where_the_frame_has_pixels_to_spare(side, want):
    scale = 320 / side
    got = next_scale(look(scale, []), side, BAND, 1280)
    assert got == (None if want is None else pytest.approx(want))


def test_a_step_too_small_to_matter_is_not_taken():
    # the frame can be enlarged only 1.1 times more before the cap: not worth a look
    assert MIN_STEP > 1.1
    assert next_scale(look(0.9, [8.0]), 356, BAND, 1280) is None


def test_the_look_with_dice_in_the_band_is_kept():
    small = look(0.25, [8.0] * 5)
    fitted = look(0.6, [19.0] * 4)
    assert better(small, fitted, BAND)
    assert not better(fitted, small, BAND)


def test_then_the_look_with_more_dice_then_the_more_confident():
    assert better(look(0.5, [20.0] * 3), look(0.3, [30.0] * 4), BAND)
    assert not better(look(0.5, [20.0] * 4), look(0.3, [30.0] * 3), BAND)
    assert better(look(0.5, [20.0] * 3, [0.8] * 3), look(0.3, [30.0] * 3, [0.95] * 3), BAND)
    assert not better(look(0.5, [20.0] * 3), look(0.3, [30.0] * 3), BAND)


def test_two_empty_looks_keep_the_first():
    assert not better(look(0.5), look(0.2), BAND)
    assert look(0.5).typical_px is None
