"""The tray: parsing, containment, bounds and masks."""

import numpy as np
import pytest

from companion.vision.tray import BadTray, Tray


@pytest.mark.parametrize("text", ["", "0.1,0.2,0.3", "a,b,c,d", "0,0,1.5,1", "0,0;1,0", "0,0;1,1;0.5,0.5",
                                  "0.2,0.2,0.2,0.9", "0,0;1;1,1"])
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
