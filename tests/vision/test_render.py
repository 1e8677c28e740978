"""The synthetic renderer: deterministic from its seed, labels that describe the picture."""

import cv2
import numpy as np
import pytest

from companion.vision.render import PIP_LAYOUT, render_scene
from companion.vision.render_dice import PlacedDie, side_values


@pytest.mark.parametrize("variety", [False, True])
def test_same_seed_same_picture_and_labels(variety):
    a, b = render_scene(11, variety=variety), render_scene(11, variety=variety)
    assert np.array_equal(a.image, b.image)
    assert a.dice == b.dice and a.tray == b.tray


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
        assert x >= 0 and y >= 0 and x + w <= 320 + 1e-3 and y + h <= 240 + 1e-3
        assert 10 <= w <= 60 and 10 <= h <= 60


def test_labelled_dice_are_visible():
    """Each readable labelled box differs from the table around it (a die is really drawn there)."""
    scene = render_scene(5, n_dice=6)
    img = scene.image.astype(float)
    for die in scene.dice:
        if not die.readable:
            continue
        x, y, w, h = (int(v) for v in die.box)
        inside = img[y + h // 4 : y + 3 * h // 4, x + w // 4 : x + 3 * w // 4]
        assert inside.std() > 5  # pips on a face, not a flat patch of table


def test_every_face_has_its_pip_count():
    assert {v: len(p) for v, p in PIP_LAYOUT.items()} == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}


def test_faces_come_out_in_all_values():
    values = {d.value for s in range(8) for d in render_scene(s, n_dice=8).dice}
    assert values == {1, 2, 3, 4, 5, 6}


def _pips_on_top(image, die):
    """Blobs of another colour than the face inside the top face (its outline pulled in by 20 %)."""
    corners = np.array(die.corners)
    centre = corners.mean(0)
    m = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(m, [np.round(centre + (corners - centre) * 0.8).astype(np.int32)], 1)
    body = np.median(image[m > 0].astype(float), 0)
    far = (np.linalg.norm(image.astype(float) - body, axis=2) > 40) & (m > 0)
    far = cv2.morphologyEx(far.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(far)
    return sum(1 for area in stats[1:, 4] if area > 25)


@pytest.mark.parametrize("tilt", [0.0, 0.3])
def test_the_label_is_the_number_of_pips_on_the_top_face(tilt):
    """Counted in the picture, inside the labelled top face, from above and at about 60 degrees
    (where the side faces with their own pips show beside it)."""
    checked = 0
    for seed in range(10):
        scene = render_scene(seed, 640, 480, n_dice=3, die_px=(110, 110), tilt=(tilt, tilt))
        for die in scene.dice:
            if die.readable:
                assert _pips_on_top(scene.image, die) == die.value, (seed, die)
                checked += 1
    assert checked >= 12


def test_boxes_hold_the_top_face_only():
    """The box encloses the top face's corners, however far the sides of a tilted die show."""
    for seed in range(6):
        scene = render_scene(seed, 640, 480, die_px=(40, 80), tilt=(0.3, 0.3))
        for die in scene.dice:
            c = np.clip(np.array(die.corners), 0, (640, 480))
            x, y, w, h = die.box
            assert np.allclose(c.min(0), (x, y), atol=1e-3) and np.allclose(c.max(0), (x + w, y + h), atol=1e-3)


def test_opposite_faces_add_to_seven():
    rng = np.random.default_rng(0)
    for top in range(1, 7):
        a, b, c, d = side_values(rng, top)
        assert {a, b, c, d, top, 7 - top} == set(range(1, 7))
        assert a + c == 7 and b + d == 7


def test_a_leaning_die_rests_on_the_table():
    die = PlacedDie((2.0, 1.0), 1.0, 0.3, 4, 0, lean=0.5, lean_dir=1.0)
    corners = die.corners()
    assert corners[:, 2].min() == pytest.approx(0.0)
    assert np.linalg.norm(corners[4] - corners[0]) == pytest.approx(1.0)


def test_varied_scenes_cover_the_sizes_and_kinds_asked_of_training():
    """Over a few varied scenes: dice from under 25 px to over 150 px, grey and round-view
    pictures, scenes with a tray or mat, and dice labelled unreadable (hidden or leaning)."""
    sizes, grey, trays, unreadable, many = [], 0, 0, 0, 0
    for seed in range(40):
        scene = render_scene(seed, 320, 320, variety=True, die_px=(12, 128))
        sizes += [max(d.box[2:]) for d in scene.dice if d.readable]
        img = scene.image.astype(int)
        grey += int(np.abs(img[..., 0] - img[..., 2]).max() <= 2)
        trays += scene.tray is not None
        unreadable += sum(not d.readable for d in scene.dice)
        many += len(scene.dice) >= 15
    assert min(sizes) < 25 and max(sizes) > 100
    assert grey >= 2 and trays >= 10 and unreadable >= 3 and many >= 3


def test_dice_in_a_tray_lie_inside_it():
    checked = 0
    for seed in range(40):
        scene = render_scene(seed, 320, 320, variety=True, die_px=(12, 60))
        if scene.tray is None:
            continue
        poly = np.array(scene.tray, np.float32).reshape(-1, 1, 2)
        for die in scene.dice:
            if die.readable:
                # the tray outline is its floor; the top of a die near a wall can appear just beyond it
                centre = np.array(die.corners).mean(0)
                slack = 0.5 * max(die.box[2:])
                assert cv2.pointPolygonTest(poly, (float(centre[0]), float(centre[1])), True) > -slack, (seed, die)
                checked += 1
    assert checked >= 20
