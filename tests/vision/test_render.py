"""The synthetic renderer: deterministic from its seed, labels that describe the picture."""

import numpy as np
import pytest

from companion.vision.render import PIP_LAYOUT, render_scene


def test_same_seed_same_picture_and_labels():
    a, b = render_scene(11), render_scene(11)
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice


def test_different_seeds_differ():
    assert not np.array_equal(render_scene(1).image, render_scene(2).image)


@pytest.mark.parametrize("n", [0, 1, 5, 20])
def test_labels_lie_inside_the_picture(n):
    scene = render_scene(3, width=320, height=240, n_dice=n, die_px=(20, 30))
    assert scene.image.shape == (240, 320, 3) and scene.image.dtype == np.uint8
    assert len(scene.dice) <= n
    if n:
        assert len(scene.dice) >= 1
    for die in scene.dice:
        x, y, w, h = die.box
        assert 1 <= die.value <= 6
        assert 0 <= x and 0 <= y and x + w <= 320 + 1e-3 and y + h <= 240 + 1e-3
        assert 10 <= w <= 60 and 10 <= h <= 60


def test_labelled_dice_are_visible():
    """Each labelled box differs from the table around it (a die is really drawn there)."""
    scene = render_scene(5, n_dice=6)
    img = scene.image.astype(float)
    for die in scene.dice:
        x, y, w, h = (int(v) for v in die.box)
        inside = img[y + h // 4:y + 3 * h // 4, x + w // 4:x + 3 * w // 4]
        assert inside.std() > 5  # pips on a face, not a flat patch of table


def test_every_face_has_its_pip_count():
    assert {v: len(p) for v, p in PIP_LAYOUT.items()} == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}


def test_faces_come_out_in_all_values():
    values = {d.value for s in range(8) for d in render_scene(s, n_dice=8).dice}
    assert values == {1, 2, 3, 4, 5, 6}


def test_boxes_hold_the_top_face_only():
    """A square face gives a near-square box, however far the sides of a tilted die show.

    A box around the whole die (face and sides) would be drawn out away from the camera,
    and its centre would not be the centre of the face that is read.
    """
    ratios = []
    for seed in range(20):
        scene = render_scene(seed, width=640, height=480, die_px=(40, 80), tilt=(0.3, 0.3))
        for die in scene.dice:
            x, y, w, h = die.box
            if x > 1 and y > 1 and x + w < 639 and y + h < 479:
                ratios.append(max(w, h) / min(w, h))
    assert len(ratios) > 50
    assert np.median(ratios) < 1.06  # whole-die boxes: about 1.15
    assert max(ratios) < 1.2  # only the camera's perspective stretches a face
