"""The tray: parsing, containment, bounds and masks, and finding it in a frame."""

import cv2
import numpy as np
import pytest

from companion.vision import VisionError
from companion.vision.tray import BadTray, Tray, detect_tray


@pytest.mark.parametrize(
    "text", ["", "0.1,0.2,0.3", "a,b,c,d", "0,0,1.5,1", "0,0;1,0", "0,0;1,1;0.5,0.5", "0.2,0.2,0.2,0.9", "0,0;1;1,1"]
)
def test_bad_trays_are_refused_with_a_message(text):
    with pytest.raises(BadTray) as err:
        Tray.parse(text)
    assert str(err.value)


def test_rectangle_and_polygon_forms():
    rect = Tray.parse("0.5,0.5,0.1,0.2")  # corners in any order
    assert rect.bounds(100, 100) == (10, 20, 50, 50)
    tri = Tray.parse("0,0;1,0;0,1")
    assert Tray.parse(str(tri)) == tri
    pts = np.array([[10, 10], [90, 90], [5, 80]], float)
    assert tri.contains(pts, 100, 100).tolist() == [True, False, True]


def test_contains_with_no_points():
    assert Tray.parse("0,0,1,1").contains(np.zeros((0, 2)), 10, 10).shape == (0,)


def test_mask_covers_the_tray_only():
    m = Tray.rectangle(0.25, 0.25, 0.75, 0.75).mask(200, 100)
    assert m.shape == (100, 200)
    assert m[50, 100] == 255 and m[5, 5] == 0 and m[50, 190] == 0
    assert 0.2 < (m > 0).mean() < 0.3


def _tray_scene(seed=0):
    """A speckled carpet with a felt tray floor (x 160-480, y 100-380) and a grey laptop."""
    rng = np.random.default_rng(seed)
    img = rng.integers(60, 200, (480, 640, 3)).astype(np.uint8)  # speckle
    img = cv2.GaussianBlur(img, (3, 3), 0)
    cv2.rectangle(img, (150, 90), (490, 390), (40, 40, 160), -1)  # the tray's wall
    cv2.rectangle(img, (160, 100), (480, 380), (40, 120, 30), -1)  # its green floor
    cv2.rectangle(img, (520, 0), (640, 200), (170, 170, 170), -1)  # a laptop
    dice = np.array([[250, 200], [300, 260], [400, 300]], float)
    for x, y in dice:
        cv2.rectangle(img, (int(x) - 15, int(y) - 15), (int(x) + 15, int(y) + 15), (240, 240, 240), -1)
    return img, dice


def test_the_tray_holding_the_dice_is_found():
    img, dice = _tray_scene()
    tray = detect_tray(img, dice)
    assert tray is not None
    x0, y0, x1, y1 = tray.bounds(640, 480)
    assert 120 <= x0 <= 170 and 70 <= y0 <= 110 and 470 <= x1 <= 520 and 370 <= y1 <= 420
    assert tray.contains(dice, 640, 480).all()
    assert not tray.contains(np.array([[60.0, 440.0], [580.0, 100.0]]), 640, 480).any()  # carpet, laptop
    assert detect_tray(img, dice) == tray  # deterministic


def test_a_region_without_the_dice_is_no_tray():
    img, _ = _tray_scene()
    assert detect_tray(img, np.array([[60.0, 440.0], [40.0, 40.0], [600.0, 460.0]])) is None


def test_a_plain_table_has_no_tray():
    img = np.full((480, 640, 3), 180, np.uint8)
    assert detect_tray(img) is None
    assert detect_tray(img[..., 0]) is None  # grey frames too


def test_detect_tray_refuses_what_is_not_a_picture():
    with pytest.raises(VisionError):
        detect_tray(np.zeros((10, 10), np.float32))
