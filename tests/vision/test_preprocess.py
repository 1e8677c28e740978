"""The finder's input: a frame shrunk to fit by default, or resized by a chosen scale, on a
canvas of whole 32-pixel blocks."""

import numpy as np
import pytest

from companion.vision.preprocess import FINDER_SIDE, finder_input


@pytest.mark.parametrize(
    "h, w, canvas",
    [
        (480, 640, (256, 320)),
        (640, 640, (320, 320)),
        (1080, 1920, (192, 320)),
        (100, 200, (160, 320)),
        (640, 480, (320, 256)),
    ],
)
def test_by_default_the_frame_fits_the_finder_square(h, w, canvas):
    frame = np.full((h, w, 3), 255, np.uint8)
    blob, scale = finder_input(frame)
    assert blob.shape == (1, 3, *canvas) and blob.dtype == np.float32
    assert scale == pytest.approx(FINDER_SIDE / max(h, w))
    filled = blob[0, 0] > 0  # white frame pixels are +0.5, the rest is mid-grey 0
    assert filled[:, 0].sum() == round(h * scale) and filled[0].sum() == round(w * scale)


@pytest.mark.parametrize(
    "h, w, scale, want",
    [
        (1080, 1920, 0.5, (544, 960)),  # 540x960, canvas rounded up to multiples of 32
        (480, 640, 0.1, (64, 64)),  # the coarse look of a large frame: a small canvas
        (480, 640, 0.01, (32, 32)),  # never smaller than one block
        (480, 640, 1.0, (480, 640)),
    ],
)
def test_a_chosen_scale_resizes_onto_a_canvas_of_whole_blocks(h, w, scale, want):
    frame = np.full((h, w, 3), 255, np.uint8)
    blob, used = finder_input(frame, scale)
    assert used == scale
    assert blob.shape[2:] == want
    assert blob[0, 0, : round(h * scale), : round(w * scale)].min() == pytest.approx(0.5)
    assert blob[0, 0, round(h * scale) :].max(initial=0.0) == 0.0
