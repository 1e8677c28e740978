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


def test_no_translucent_share_leaves_every_scene_as_it_was():
    a, b = render_scene(21, n_dice=6), render_scene(21, n_dice=6, translucent=0.0)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice


def _see_through_seeds(count: int) -> list[int]:
    """Seeds whose one big die comes out translucent at ``translucent=1``."""
    seeds = []
    for seed in range(200):
        glass = render_scene(seed, n_dice=1, die_px=(120, 120), translucent=1.0)
        plain = render_scene(seed, n_dice=1, die_px=(120, 120))
        if not np.array_equal(glass.image, plain.image):
            seeds.append(seed)
        if len(seeds) == count:
            break
    return seeds


def test_translucent_dice_keep_their_labels_and_change_only_the_die():
    seeds = _see_through_seeds(3)
    assert len(seeds) == 3
    for seed in seeds:
        glass = render_scene(seed, n_dice=1, die_px=(120, 120), translucent=1.0)
        plain = render_scene(seed, n_dice=1, die_px=(120, 120))
        assert glass.dice == plain.dice and len(glass.dice) == 1
        x, y, w, h = (int(v) for v in glass.dice[0].box)
        diff = np.abs(glass.image.astype(int) - plain.image.astype(int)).max(axis=2)
        face = diff[y + h // 8:y + 7 * h // 8, x + w // 8:x + 7 * w // 8]
        assert face.mean() > 3  # the face is seen through, with hidden pips and shine
        far = diff.copy()
        far[max(y - h // 2, 0):y + h + h // 2, max(x - w // 2, 0):x + w + w // 2] = 0  # face and sides
        assert far.max() <= 2  # the table is untouched (JPEG rounding aside)


@pytest.mark.parametrize("value", [1, 3, 6])
def test_hidden_pips_show_through_fainter_than_real_ones(value):
    """Through a grey body, red hidden pips tint the face but never look as solid as a red pip."""
    from companion.vision.render import _see_through

    reddest = []
    for seed in range(8):
        patch = np.full((160, 160, 3), 100.0, np.float32)
        behind = np.full_like(patch, 100.0)
        red = np.array([0.0, 0.0, 255.0], np.float32)
        _see_through(np.random.default_rng(seed), patch, behind, np.array([80.0, 80.0], np.float32), 150.0,
                     np.eye(2, dtype=np.float32), value, red, 12.0, 40.0)
        tint = patch[..., 2] - patch[..., 0]  # red minus blue: 0 on the bare grey body
        assert patch[..., 0].min() >= 30  # a real red pip has no blue at all
        reddest.append(float(tint.max()))
    assert min(reddest) > 20
