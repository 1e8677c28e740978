"""The finder's input: a frame shrunk to fit by default, or resized by a chosen scale."""

import numpy as np
import pytest

from companion.vision.preprocess import FINDER_SIDE, finder_input


@pytest.mark.parametrize("h, w", [(480, 640), (640, 640), (1080, 1920), (100, 200)])
def test_by_default_the_frame_fits_the_finder_square(h, w):
    frame = np.full((h, w, 3), 255, np.uint8)
    blob, scale = finder_input(frame)
    assert blob.shape == (1, 3, FINDER_SIDE, FINDER_SIDE) and blob.dtype == np.float32
    assert scale == pytest.approx(FINDER_SIDE / max(h, w))
    filled = blob[0, 0] > 0  # white frame pixels are +0.5, the rest is mid-grey 0
    assert filled[:, 0].sum() == round(h * scale) and filled[0].sum() == round(w * scale)


@pytest.mark.parametrize("h, w, scale, want", [
    (1080, 1920, 0.5, (544, 960)),   # 540x960, canvas rounded up to multiples of 32
    (480, 640, 0.1, (320, 320)),     # never smaller than the finder's own square
    (480, 640, 1.0, (480, 640)),
])
def test_a_chosen_scale_resizes_onto_a_canvas_of_whole_blocks(h, w, scale, want):
    frame = np.full((h, w, 3), 255, np.uint8)
    blob, used = finder_input(frame, scale)
    assert used == scale
    assert blob.shape[2:] == want
    assert blob[0, 0, :round(h * scale), :round(w * scale)].min() == pytest.approx(0.5)
    assert blob[0, 0, round(h * scale):].max(initial=0.0) == 0.0
