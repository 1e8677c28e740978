"""Frame sources chosen by URL: the simulator, pictures, folders, videos, cameras."""

import cv2
import numpy as np
import pytest

from companion.vision import CameraNotFound, EndOfFrames, VisionError, open_source
from companion.vision.sources import SimSource


def test_sim_is_the_default_and_is_deterministic():
    with open_source() as a, open_source("sim://") as b:
        fa, fb = a.read(), b.read()
    assert fa.shape == (480, 640, 3) and fa.dtype == np.uint8
    assert np.array_equal(fa, fb)
    assert isinstance(a, SimSource) and len(a.truth) >= 1


def test_sim_settings_from_the_url():
    with open_source("sim://?seed=4&dice=3&width=320&height=200") as s:
        frame = s.read()
        assert frame.shape == (200, 320, 3)
        assert 1 <= len(s.truth) <= 3


def test_sim_rolls_again_after_tumbling():
    s = open_source("sim://?seed=2&dice=4&still=3&tumble=2")
    assert isinstance(s, SimSource)
    frames = [s.read() for _ in range(10)]
    assert [s.is_tumbling(i) for i in range(10)] == [True, True, False, False, False] * 2
    # still frames of one roll are the same picture up to sensor noise; the next roll differs
    assert np.abs(frames[2].astype(int) - frames[4]).mean() < 3
    assert np.abs(frames[4].astype(int) - frames[7]).mean() > 3


@pytest.mark.parametrize("url", ["sim://?dice=x", "sim://?width=5", "sim://?still=-1", "ftp://camera", "cv://front"])
def test_bad_addresses_are_refused(url):
    with pytest.raises(VisionError) as err:
        open_source(url)
    assert str(err.value)


def test_missing_camera_is_camera_not_found():
    with pytest.raises(CameraNotFound, match="no camera 57"):
        open_source("cv://57")


def test_one_picture_gives_the_same_frame_every_read(tmp_path):
    img = np.random.default_rng(0).integers(0, 255, (60, 80, 3), dtype=np.uint8)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), img)
    for url in (f"file://{path}", str(path)):
        with open_source(url) as s:
            assert np.array_equal(s.read(), img) and np.array_equal(s.read(), img)


def test_folder_gives_pictures_in_name_order_then_ends(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((20, 30, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not a picture")
    with open_source(f"file://{tmp_path}") as s:
        assert [int(f[0, 0, 0]) for f in s.frames()] == [0, 50, 100]
        with pytest.raises(EndOfFrames):
            s.read()
    with open_source(f"file://{tmp_path}?loop=1") as s:
        assert [int(s.read()[0, 0, 0]) for _ in range(4)] == [0, 50, 100, 0]


def test_video_file_frames(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened()
    for i in range(5):
        writer.write(np.full((48, 64, 3), 40 * i, np.uint8))
    writer.release()
    with open_source(f"file://{path}") as s:
        frames = list(s.frames())
    assert len(frames) == 5 and frames[0].shape == (48, 64, 3)
    assert [round(float(f.mean()) / 40) for f in frames] == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("name", ["nothing.png", "nothing.avi", "nothing"])
def test_missing_file_is_camera_not_found(tmp_path, name):
    with pytest.raises(CameraNotFound, match="no picture"):
        open_source(f"file://{tmp_path / name}")


def test_empty_folder_is_camera_not_found(tmp_path):
    with pytest.raises(CameraNotFound, match="no pictures"):
        open_source(f"file://{tmp_path}")


@pytest.mark.parametrize("content", [b"", b"\x89PNG garbage", b"hello"])
def test_file_that_is_not_a_picture(tmp_path, content):
    path = tmp_path / "photo.jpg"
    path.write_bytes(content)
    with pytest.raises(VisionError, match="not a picture"):
        open_source(f"file://{path}")


def test_file_that_is_not_a_video(tmp_path):
    path = tmp_path / "roll.avi"
    path.write_bytes(b"not a video at all")
    with pytest.raises(VisionError, match="not a video"):
        open_source(f"file://{path}")


def test_auto_falls_back_to_the_simulator_and_says_which_cameras_it_tried():
    with open_source("auto://?cameras=57,58&seed=3&dice=4") as auto, open_source("sim://?seed=3&dice=4") as sim:
        assert auto.simulated and isinstance(auto, SimSource)
        assert "camera 57, camera 58" in auto.message and "SIMULATED" in auto.message
        assert np.array_equal(auto.read(), sim.read())  # the simulator's own settings still apply
    assert open_source("sim://").message == ""


def test_auto_with_no_fallback_is_camera_not_found():
    with pytest.raises(CameraNotFound, match="tried camera 57"):
        open_source("auto://?cameras=57&fallback=none")


@pytest.mark.parametrize("url", ["auto://?cameras=front", "auto://?fallback=maybe", "auto://?cameras=57&dice=x"])
def test_bad_auto_addresses_are_refused(url):
    with pytest.raises(VisionError) as err:
        open_source(url)
    assert str(err.value)


def test_a_tray_travels_with_the_camera_address():
    from companion.vision.sources import with_tray
    from companion.vision.tray import Tray

    assert open_source("sim://?seed=1").tray is None
    source = open_source("sim://?seed=1&tray=0.1,0.2,0.5,0.9")
    assert source.tray == Tray.rectangle(0.1, 0.2, 0.5, 0.9)
    url = with_tray("sim://?seed=1&dice=4", Tray.parse("0,0;1,0;0.5,1"))
    assert url.startswith("sim://?") and "seed=1" in url and "dice=4" in url
    assert open_source(url).tray == Tray.parse("0,0;1,0;0.5,1")
    assert with_tray(url, Tray.parse("0,0,1,1")).count("tray=") == 1  # replaced, not added
    assert "tray" not in with_tray(url, None) and with_tray("cv://0", None) == "cv://0"


@pytest.mark.parametrize("tray", ["0.1,0.2", "2,0,3,1", "a,b,c,d"])
def test_a_bad_tray_in_the_address_is_refused(tray):
    with pytest.raises(VisionError, match="tray"):
        open_source(f"sim://?tray={tray}")
