"""No scale and no camera: clear states, the manual way in, never a freeze or a crash."""

from __future__ import annotations

from tests.ui import kivy_driver as kd

SCALE_URL = "serial:///dev/purser-no-such-port"
CAMERA_URL = "file:///nonexistent/purser/dice.png"


def test_hardware_screen_says_what_is_missing(app, shots):
    screen = app.go("hardware")
    kd.wait_until(
        lambda: app.hardware.scale_state == "missing" and app.hardware.camera_state == "missing",
        60,
        "both devices to be given up on",
    )
    assert screen.ids.scale_state.text == "Not available"
    assert "Type weights in by hand" in screen.ids.scale_message.text
    assert "Tap the dice in by hand" in screen.ids.camera_message.text
    assert kd.find(screen, key="weigh").disabled and kd.find(screen, key="tare").disabled
    assert not kd.visible(app.root.ids.banner)  # nothing simulated: no banner
    assert app.hardware.grams is None
    states = []
    app.hardware.bind(scale_state=lambda _hw, state: states.append(state))
    kd.tap_key(screen, "retry_scale")  # looks again, in the background
    kd.wait_until(lambda: states[-1:] == ["missing"], 60, "the scale to be given up on again")
    assert states == ["opening", "missing"]
    kd.shot(app, shots, "hardware-missing")


def test_reading_dice_without_a_camera_explains_and_typing_works(app):
    app.start_game("swashbuckle", ["Ana"], {}, seed=1)
    kd.pump()
    screen = app.manager.current_screen
    controller = app.controller
    # No camera: reading is not offered, the pad is, and the camera's state says why.
    assert kd.find(screen, key="roll:camera").disabled and screen.pad_shown
    assert app.hardware.camera_message.startswith("No camera")
    listed = next(a for a in controller.legal if a["type"] == "roll" and "from" in a)
    controller.act(listed)  # asked for all the same (another screen, a script): explained, nothing kept
    kd.wait_until(lambda: not controller.busy, 60, "the failed reading")
    assert controller.message_kind == "error" and "Nothing was recorded" in controller.message
    assert controller.session.cursor == 0
    for value in (6, 6, 6, 2, 1):
        kd.tap_key(screen, f"pad:{value}")
    kd.tap_key(screen, "roll:typed")
    assert controller.session.cursor == 1
    assert sorted(controller.summary.detail["turn"]["dice"]) == [1, 2, 6, 6, 6]


def test_weighing_without_a_scale_explains_and_typed_grams_work(app):
    import random

    app.start_game("seven-seize", ["Ana", "Ben"], {}, seed=2)
    session = app.controller.session
    rng = random.Random(5)
    while session.summary().detail["phase"] != "weighoff":
        session.apply(rng.choice(session.legal_actions()))
    app.controller.refresh()
    kd.pump()
    screen = app.go("weighoff", controller=app.controller)
    kd.pump()
    assert screen.ids.live.text == "no scale"
    controller = app.controller
    first = controller.summary.detail["weighoff"]["waiting"][0]
    # no balance: no weigh button, the typed way in instead
    assert kd.find_all(screen.ids.weigh_buttons, cls="PButton") == []
    assert "type the grams below" in kd.texts(screen.ids.weigh_buttons)
    assert kd.find(screen, key="tare").disabled
    listed = next(a for a in controller.legal if a["type"] == "weigh" and a["player"] == first and "from" in a)
    controller.act(listed)  # asked for all the same (a script): explained, nothing kept
    kd.wait_until(lambda: not controller.busy, 60, "the failed weighing")
    assert controller.message_kind == "error" and "Nothing was recorded" in controller.message
    before = controller.session.cursor
    kd.type_text(screen.ids.typed, "98.5")
    kd.tap_key(screen, f"typed:{first}")
    assert controller.session.cursor == before + 1
    assert "98.5" in controller.message
