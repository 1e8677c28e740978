"""A maker's first balance on the tablet: two-channel firmware with one amplifier fitted
(pan B missing), on the simulator's own clock. The balance weighs on pan A and names pan B's
fault with the wire to check; the hardware screen says what `purser scale info` says; an
unplugged balance is waited for and picked up again; a weighing that cannot settle says
why in one line; the live reading never shows "-0.0 g"."""

from __future__ import annotations

import random
import re

import pytest

from tests.ui import kivy_driver as kd

SCALE_URL = "sim://?channels=2&missing=1&pieces=25&clock=virtual"
PLAYERS = ("Ana", "Ben", "Cy")


@pytest.fixture
def balance(app):
    """The simulated balance as the address makes it (25 g on pan A, no amplifier on pan B),
    opened afresh after the test whatever it did to it."""
    kd.wait_until(lambda: app.hardware.scale_state == "ready" and len(app.hardware.pans) == 2, 60, "the balance")
    yield app.hardware.scale
    app.hardware.weigh_timeout_s = 15.0
    app.hardware.open_scale()
    kd.wait_until(lambda: app.hardware.scale_state == "ready", 60, "the balance opened again")


def _weighoff(app, rules: dict) -> object:
    """A 7 Seize game at its weigh-off, on the weigh-off screen."""
    app.start_game("seven-seize", list(PLAYERS), rules, seed=1)
    session, rng = app.controller.session, random.Random(1)
    while session.summary().detail["phase"] != "weighoff":
        session.apply(rng.choice(session.legal_actions()))
    app.controller.refresh()
    screen = app.go("weighoff", controller=app.controller)
    kd.wait_until(lambda: app.hardware.grams is not None, 30, "a live reading")
    return screen


def _cli_info(capsys) -> dict[str, list[str]]:
    """`purser scale info` on the same address, its lines by pan."""
    from companion.cli import main

    capsys.readouterr()
    assert main(["scale", "info", SCALE_URL]) == 0
    pans: dict[str, list[str]] = {}
    current = ""
    for line in capsys.readouterr().out.splitlines():
        found = re.match(r"pan ([AB])\s+(.*)", line)
        if found:
            current = found.group(1)
            pans[current] = [found.group(2)]
        elif current and line.startswith("          "):
            pans[current].append(line.strip())
        else:
            current = ""
    return pans


def test_the_hardware_screen_says_what_scale_info_says_pan_by_pan(app, balance, capsys):
    screen = app.go("hardware")
    kd.wait_until(
        lambda: set(screen.pan_rows) == {0, 1} and app.hardware.pan(0)["noise_measured"],
        30,
        "both pans reported, pan A's noise measured",
    )
    assert screen.ids.scale_state.text.startswith("Connected")  # not "Fault": pan A weighs
    a, b = screen.pan_rows[0], screen.pan_rows[1]
    assert a.headline.text in ("Pan A: steady", "Pan A: settling")
    assert b.headline.text == "Pan B: cannot weigh" and b.headline.role == "bad"
    cli = _cli_info(capsys)
    # calibrations: the same words and figures
    for row, pan in ((a, "A"), (b, "B")):
        assert row.calibration.text == "C" + cli[pan][0][1:]
    # pan A: averaging and motion band as the driver says; the noise measured at rest against the datasheet
    noise = re.match(
        r"noise ([0-9.]+) g rms \(([0-9.]+)x the datasheet, measured at rest\); "
        r"averages (\d+) readings, motion band \+-([0-9.]+) g",
        cli["A"][1],
    )
    assert noise, cli["A"]
    assert f"averages {noise.group(3)} readings, motion band ±{noise.group(4)} g" in a.details.text
    shown = re.search(r"Noise ±([0-9.]+) g rms, ([0-9.]+)× the HX711's at 80 SPS \(measured at rest\)", a.details.text)
    assert shown, a.details.text
    assert float(shown.group(1)) == pytest.approx(float(noise.group(1)), rel=0.35)
    assert f"Wired to {cli['A'][2].removeprefix('wired ')}." in a.details.text
    # pan B: why it cannot weigh, with the wire to check, and its pins
    assert (
        cli["B"][1]
        == "cannot weigh: pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND)"
    )
    assert b.details.text == (
        "No amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND). Wired to DOUT D4, SCK D5."
    )
    # weighing, taring and calibrating only on the pan that can
    assert not kd.find(screen, key="weigh").disabled and screen.pan_note == ""
    kd.tap_key(screen, "pan:1")
    assert screen.channel == 1
    for key in ("weigh", "tare", "calibrate"):
        assert kd.find(screen, key=key).disabled
    assert screen.ids.pan_note.text.startswith("Pan B cannot weigh: no amplifier answers - check DOUT on D4")
    kd.wait_until(lambda: screen.ids.live.text == "no weight", 10, "pan B's live box")
    kd.tap_key(screen, "pan:0")
    kd.wait_until(lambda: not kd.find(screen, key="weigh").disabled, 10, "pan A weighable again")
    kd.tap_key(screen, "weigh")
    kd.wait_until(lambda: screen.weigh_text.startswith("Steady weight"), 30, "the weighing")
    assert re.match(r"Steady weight on pan A: 2[45]\.\d\d g ± 0\.0\d g", screen.weigh_text), screen.weigh_text


def test_a_one_amplifier_balance_weighs_the_weigh_off_on_pan_a_and_names_pan_b(app, balance, shots):
    screen = _weighoff(app, {})
    controller = app.controller
    assert screen.ids.live.text == "25.0 g" and screen.ids.live_pan.text == "pan A"
    assert screen.ids.note.text.startswith("Pan B cannot weigh: no amplifier answers - check DOUT on D4")
    player = controller.summary.detail["weighoff"]["waiting"][0]
    button = kd.find(screen.ids.weigh_buttons, key=f"weigh:{player}")
    assert button.text == f"Weigh {player} (pan A)" and not button.disabled
    before = controller.session.cursor
    kd.tap(button)
    kd.wait_until(lambda: not controller.busy, 60, "the weighing")
    assert controller.message_kind != "error", controller.message
    assert controller.session.cursor == before + 1
    weight = controller.summary.detail["weighoff"]["weights"][player]
    assert weight["value"] == pytest.approx(25.0, abs=3 * weight["uncertainty"] + 0.01)
    kd.shot(app, shots, "weighoff-one-amplifier")


def test_a_collection_due_on_the_missing_pan_is_weighed_on_the_working_one(app, balance):
    screen = _weighoff(app, {"balance": "two_pans"})
    controller = app.controller
    pans = controller.summary.detail["weighoff"]["pans_for"]
    on_b = next(n for n, pan in pans.items() if pan == 1)
    buttons = {b.key: b for b in kd.find_all(screen.ids.weigh_buttons, cls="PButton")}
    assert buttons[f"weigh:{on_b}"].text == f"Weigh {on_b} on pan A (pan B cannot weigh)"
    assert all(b.action["channel"] == 0 for b in buttons.values())  # no button for the pan that cannot weigh
    kd.tap(buttons[f"weigh:{on_b}"])
    kd.wait_until(lambda: not controller.busy, 60, "the weighing")
    assert controller.message_kind != "error", controller.message
    assert controller.summary.detail["weighoff"]["weights"][on_b]["value"] == pytest.approx(25.0, abs=0.2)


def test_an_unplugged_balance_is_waited_for_and_picked_up_again(app, balance):
    screen = _weighoff(app, {})
    controller = app.controller
    player = controller.summary.detail["weighoff"]["waiting"][0]
    balance.unplug()
    kd.wait_until(lambda: app.hardware.scale_state == "waiting", 30, "the balance to be waited for")
    kd.pump(2)
    assert screen.ids.live.text == "waiting..." and screen.ids.steady.text == ""
    assert screen.ids.note.text.startswith("Waiting for the simulated balance (its cable is unplugged).")
    assert "carries on by itself" in screen.ids.note.text
    assert kd.find(screen.ids.weigh_buttons, key=f"weigh:{player}").disabled  # held, not gone
    assert not kd.find(screen, key="typed").disabled  # grams can still be typed
    hardware = app.go("hardware")
    kd.pump(2)
    assert hardware.ids.scale_state.text.startswith("Waiting for the balance")
    assert hardware.ids.live.text == "waiting..." and kd.find(hardware, key="weigh").disabled
    app.go("weighoff", controller=controller)
    kd.pump(2)
    for _ in range(5):  # it stays waiting, and nothing breaks
        kd.pump(2)
        assert app.hardware.scale_state == "waiting"
    balance.replug()
    kd.wait_until(
        lambda: app.hardware.scale_state == "ready" and app.hardware.grams is not None,
        30,
        "the balance picked up again",
    )
    button = kd.find(screen.ids.weigh_buttons, key=f"weigh:{player}")
    kd.wait_until(lambda: not button.disabled, 10, "the weigh button back")
    assert not screen.ids.note.text.startswith("Waiting")
    kd.tap(button)
    kd.wait_until(lambda: not controller.busy, 60, "the weighing")
    assert controller.message_kind != "error", controller.message
    assert player in controller.summary.detail["weighoff"]["weights"]


def test_a_weighing_that_cannot_settle_says_it_was_motion_in_one_line(app, balance):
    screen = _weighoff(app, {})
    controller = app.controller
    bar = kd.find(screen, cls="MessageBar")
    height = bar.height
    player = controller.summary.detail["weighoff"]["waiting"][0]
    shaking = [True]

    def nudge(on: bool) -> None:
        if shaking[0]:
            balance.place(5.0, 0) if on else balance.remove(5.0, 0)

    for i in range(400):  # a hand on the pan: on and off every 0.1 s, for 40 s of the balance's clock
        balance.at(0.1 * i, lambda on=(i % 2 == 0): nudge(on))
    app.hardware.weigh_timeout_s = 2.0
    before = controller.session.cursor
    try:
        kd.tap_key(screen, f"weigh:{player}")
        kd.wait_until(lambda: not controller.busy, 60, "the weighing to give up")
    finally:
        shaking[0] = False
    assert controller.message_kind == "error"
    assert controller.message == (
        "No steady weight on pan A: the load kept moving - keep hands and the table "
        "still. Nothing was recorded; try again or enter the value by hand."
    )
    assert controller.session.cursor == before
    assert screen.ids.advice.text.startswith("Keep hands and the table still, then weigh again")
    assert "electrical noise" not in screen.ids.advice.text
    kd.pump(2)
    assert bar.height == height and kd.outside_parent(screen) == []


def test_the_live_reading_never_shows_minus_zero(app, balance):
    screen = app.go("hardware")
    kd.tap_key(screen, "tare")
    kd.wait_until(lambda: screen.weigh_text.startswith("Tared"), 30, "the tare")
    seen: list[str] = []
    readings: list[float] = []
    screen.ids.live.bind(text=lambda _l, text: seen.append(text))
    app.hardware.bind(grams=lambda _h, grams: grams is not None and readings.append(grams))
    kd.wait_until(lambda: len(readings) >= 25 and min(readings) < 0, 60, "readings either side of zero")
    assert min(readings) > -0.1  # the pan is empty: it reads round zero, below it as often as above
    assert seen and "-0.0 g" not in seen
    assert set(seen) <= {"0.0 g", "-0.1 g", "0.1 g", "waiting..."}, set(seen)


def test_a_reopened_balance_shows_its_own_reading_not_the_last_ones(app, balance):
    screen = app.go("hardware")
    kd.tap_key(screen, "tare")
    kd.wait_until(lambda: screen.weigh_text.startswith("Tared"), 30, "the tare")
    kd.wait_until(lambda: app.hardware.grams is not None and abs(app.hardware.grams) < 0.2, 30, "a zero reading")
    app.hardware.open_scale()  # the simulator comes back untared, with its 25 g
    assert app.hardware.grams is None and not app.hardware.stable
    kd.wait_until(lambda: app.hardware.grams is not None, 30, "the reopened balance's reading")
    assert app.hardware.grams == pytest.approx(25.0, abs=0.2)
