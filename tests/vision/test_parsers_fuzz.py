"""Parsers of outside input never crash: they accept or refuse with the subsystem's error."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.vision import BadTray, Tray, VisionError, open_source
from companion.vision.evaluate import BadLabels, load_labels
from companion.vision.sources import read_image


@given(st.text(max_size=60))
def test_tray_text_is_read_or_refused(text):
    try:
        tray = Tray.parse(text)
    except BadTray:
        return
    assert np.allclose(Tray.parse(str(tray)).corners, tray.corners, atol=1e-5)
    assert tray.mask(32, 24).dtype == np.uint8


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_picture_bytes_are_read_or_refused(tmp_path, data):
    path = tmp_path / "photo.jpg"
    path.write_bytes(data)
    try:
        image = read_image(path)
    except VisionError:
        return
    assert image.ndim == 3


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=300))
def test_label_files_are_read_or_refused(tmp_path, data):
    (tmp_path / "labels.jsonl").write_bytes(data)
    try:
        labels = load_labels(tmp_path)
    except BadLabels:
        return
    assert all(1 <= d.value <= 6 for lab in labels for d in lab.dice)


@settings(max_examples=40)
@given(st.text(max_size=40))
def test_camera_addresses_open_or_are_refused(text):
    try:
        source = open_source("sim://?" + text)
    except VisionError:
        return
    source.close()
