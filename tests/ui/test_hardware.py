"""The hardware screen on the simulators: live weight, tare, a steady weighing, the camera
preview with the dice drawn on it, and the simulator banner. (The balance pan by pan:
test_balance_pans.py and test_balance_noise.py; the calibration wizard: test_calibrate.py.)"""

from __future__ import annotations

import pytest

from tests.ui import kivy_driver as kd

SCALE_URL = "sim://?pieces=123.4&seed=2"
CAMERA_URL = "sim://?dice=5&seed=7"


def test_banner_says_simulators_stand_in(home):
    app = home
    kd.wait_until(
        lambda: app.hardware.scale_state == "ready" and app.hardware.camera_state == "ready",
        what="both simulators to open",
    )
    banner = app.root.ids.banner
    assert kd.visible(banner)
    assert "the scale and the dice camera are simulated" in banner.text
    kd.tap(banner)
    assert app.manager.current == "hardware"


def test_live_weight_tare_and_a_steady_weighing(app, shots):
    screen = app.go("hardware")
    kd.wait_until(lambda: app.hardware.grams is not None and app.hardware.stable, what="a steady live reading")
    assert abs(app.hardware.grams - 123.4) < 0.5
    assert screen.ids.live.text.endswith(" g") and "123." in screen.ids.live.text
    assert screen.ids.steady.text == "STEADY"
    assert "Factory calibration" in screen.ids.calibration.text
    # one pan, described as `purser scale info` does: its noise, averaging, band, pins, calibration
    row = screen.pan_rows[0]
    assert row.headline.text.startswith("Pan A: ")
    assert "the HX711's at 80 SPS" in row.details.text and "Wired to DOUT D2, SCK D3" in row.details.text
    assert row.calibration.text.startswith(f"Calibration {app.hardware.scale.calibration(0).id} (factory)")
    assert set(screen.pan_rows) == {0}
    kd.tap_key(screen, "weigh")
    kd.wait_until(lambda: screen.weigh_text.startswith("Steady weight"), 60, "the weighing")
    grams = float(screen.weigh_text.split(":")[1].split("g")[0])
    assert abs(grams - 123.4) < 0.5
    kd.tap_key(screen, "tare")
    kd.wait_until(lambda: screen.weigh_text.startswith("Tared"), 60, "the tare")
    kd.wait_until(lambda: app.hardware.grams is not None and abs(app.hardware.grams) < 0.2, 30, "a zero reading")
    kd.shot(app, shots, "hardware")


def test_camera_preview_shows_the_frame_and_the_dice_read(app):
    screen = app.go("hardware")
    kd.wait_until(
        lambda: app.hardware.detections is not None and screen.ids.preview.texture is not None, what="a preview frame"
    )
    frame = app.hardware.frame
    assert tuple(screen.ids.preview.texture.size) == (frame.shape[1], frame.shape[0])
    detections = app.hardware.detections
    assert len(detections) > 0
    # One outline (and one label) per die read, drawn over the picture.
    from kivy.graphics import Line

    lines = [i for i in screen.ids.preview.canvas.after.children if isinstance(i, Line)]
    assert len(lines) == len(detections)
    assert screen.ids.dice.text.startswith("Dice: ")
    assert len(screen.ids.dice.text.split("(")[0].split()) - 1 == len(detections)


def test_a_tray_marked_on_the_preview_is_kept_for_the_camera_and_limits_the_reading(app):
    from kivy.graphics import Line
    from kivy.tests.common import UnitTestTouch

    from companion.ui.hardware import camera_key
    from companion.ui.settings import Settings
    from companion.vision.tray import Tray

    screen = app.go("hardware")
    preview = screen.ids.preview
    kd.wait_until(lambda: app.hardware.detections is not None and len(app.hardware.detections) > 1, what="dice read")
    width = app.hardware.frame.shape[1]
    xs = sorted(d.box[0] + d.box[2] / 2 for d in app.hardware.detections)
    split = (xs[0] + xs[-1]) / 2 / width  # a tray over the left part leaves the right-most die out
    before = len(app.hardware.detections)

    kd.tap_key(screen, "tray:draw")
    assert preview.drawing
    iw, ih = preview.norm_image_size
    left, bottom = preview.center_x - iw / 2, preview.center_y - ih / 2
    touch = UnitTestTouch(*preview.to_window(left + 1, bottom + ih - 1))  # top-left corner of the picture
    touch.touch_down()
    kd.pump(1)
    touch.touch_move(*preview.to_window(left + iw * split, bottom + ih * 0.5))
    kd.pump(1)
    touch.touch_move(*preview.to_window(left + iw * split, bottom + 1))
    touch.touch_up()
    kd.wait_until(lambda: app.hardware.tray != "", what="the camera to use the tray")
    assert not preview.drawing
    corners = Tray.parse(app.hardware.tray).corners
    assert max(x for x, _ in corners) == pytest.approx(split, abs=0.01)
    assert min(x for x, _ in corners) == pytest.approx(0, abs=0.01)
    saved = Settings.load(app.settings_file)[0]
    assert Tray.parse(saved.trays[camera_key(app.camera_url)]).corners == corners  # kept for this camera

    kd.wait_until(
        lambda: (
            app.hardware.detections is not None
            and app.hardware.frame is not None
            and len(app.hardware.detections) < before
        ),
        what="a reading inside the tray",
    )
    assert all(d.box[0] + d.box[2] / 2 < split * width for d in app.hardware.detections)
    outlines = [i for i in preview.canvas.after.children if isinstance(i, Line) and i.close]
    assert len(outlines) == 1  # the tray, drawn over the picture
    assert "inside the blue tray" in screen.ids.tray_text.text

    # Opening the camera again (another session, a restart) finds the tray kept for it.
    app.hardware.open_camera()
    kd.wait_until(lambda: app.hardware.camera_state == "ready", what="the camera to reopen")
    assert Tray.parse(app.hardware.tray).corners == corners

    kd.tap_key(screen, "tray:clear")
    kd.wait_until(lambda: app.hardware.tray == "", what="the tray cleared")
    assert Settings.load(app.settings_file)[0].trays[camera_key(app.camera_url)] == ""


def test_the_hardware_screen_opened_from_a_game_stays_live(app):
    app.start_game("swashbuckle", ["Ana"], {}, seed=1)
    kd.pump(2)
    kd.tap(app.root.ids.banner)  # the simulator banner, tapped mid-game
    assert app.manager.current == "hardware"
    frames: list[object] = []
    grams: list[object] = []
    app.hardware.bind(frame=lambda _h, frame: frames.append(frame), grams=lambda _h, g: grams.append(g))
    kd.wait_until(lambda: len(frames) >= 2 and len(grams) >= 3, 30, "the preview and the live weight to go on")
    app.go_home()


def _tray_photo(folder):
    """A 640x480 picture: four dice on a plain tray floor (x 120-520, y 80-400) with a
    wall, on a speckled carpet."""
    import cv2
    import numpy as np

    from companion.vision.render import render_scene

    rng = np.random.default_rng(5)
    img = rng.integers(60, 200, (480, 640, 3), dtype=np.uint8)
    img = cv2.GaussianBlur(img, (3, 3), 0)
    cv2.rectangle(img, (110, 70), (530, 410), (30, 30, 150), -1)  # the wall
    img[80:400, 120:520] = render_scene(11, 400, 320, n_dice=4).image
    path = folder / "tray.png"
    cv2.imwrite(str(path), img)
    return path


def test_find_the_tray_proposes_it_and_keeps_it_for_the_camera(app, tmp_path):
    from companion.ui.hardware import camera_key
    from companion.ui.settings import Settings
    from companion.vision.tray import Tray

    screen = app.go("hardware")
    try:
        assert app.use_camera(f"file://{_tray_photo(tmp_path)}") == ""
        kd.wait_until(lambda: app.hardware.camera_state == "ready" and app.hardware.has_frame, what="the photo")
        kd.tap_key(screen, "tray:find")
        kd.wait_until(lambda: app.hardware.tray != "", 60, "the tray found and used")
        x0, y0, x1, y1 = Tray.parse(app.hardware.tray).bounds(640, 480)
        assert 90 <= x0 <= 150 and 50 <= y0 <= 110 and 490 <= x1 <= 550 and 370 <= y1 <= 430  # the tray, not the carpet
        assert "Tray found and kept" in screen.ids.tray_text.text
        saved = Settings.load(app.settings_file)[0]
        assert saved.trays[camera_key(app.camera_url)] == app.hardware.tray

        # A picture with no tray in it: nothing is changed, and the player is told.
        kd.tap_key(screen, "tray:clear")
        kd.wait_until(lambda: app.hardware.tray == "", what="the tray cleared")
        assert app.use_camera("sim://?dice=5&seed=7") == ""
        kd.wait_until(lambda: app.hardware.camera_state == "ready" and app.hardware.has_frame, what="the simulator")
        kd.tap_key(screen, "tray:find")
        kd.wait_until(lambda: not screen.finding_tray, 60, "the search")
        assert app.hardware.tray == ""
        assert screen.ids.tray_text.text.startswith("No tray found in the picture")
    finally:
        app.use_camera(CAMERA_URL)
        kd.wait_until(lambda: app.hardware.camera_state == "ready", what="the camera back")
