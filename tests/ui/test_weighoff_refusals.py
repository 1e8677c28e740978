"""A weigh-off reading the engine refuses as impossible, on the tablet: its reason with
"Weigh again", and "Keep this reading" beside it only when the house-rule piece weights
alone rule it out (keeping sends that very reading again, confirmed). Nothing refused is
saved; what is kept is the balance's own reading, not a new one."""

from __future__ import annotations

import random

import pytest

from tests.ui import kivy_driver as kd

SCALE_URL = "sim://?clock=virtual&seed=5"
PLAYERS = ("Ana", "Ben", "Cy")


def _weighoff(app, rules: dict):
    """A 7 Seize game at its weigh-off, on the weigh-off screen, with a live reading."""
    app.start_game("seven-seize", list(PLAYERS), rules, seed=3)
    session, rng = app.controller.session, random.Random(3)
    while session.summary().detail["phase"] != "weighoff":
        session.apply(rng.choice(session.legal_actions()))
    app.controller.refresh()
    screen = app.go("weighoff", controller=app.controller)
    kd.wait_until(lambda: app.hardware.grams is not None, 30, "a live reading")
    return screen


def _weigh(app, screen, player: str, grams: float) -> None:
    """Put ``grams`` on the pan and tap ``player``'s weigh button."""
    scale = app.hardware.scale
    scale.clear(0)
    scale.place(grams, 0)
    kd.tap_key(screen, f"weigh:{player}")
    kd.wait_until(lambda: not app.controller.busy, 60, f"{player}'s weighing")


def _keys(root) -> set[str]:
    return {b.key for b in kd.find_all(root, cls="PButton") if kd.visible(b)}


@pytest.fixture
def empty_pan(app):
    yield
    app.hardware.scale.clear(0)


def test_a_reading_only_the_house_rules_rule_out_can_be_kept(app, empty_pan, shots):
    screen = _weighoff(app, {"lightest_piece_g": 2.0})
    controller = app.controller
    wo = controller.summary.detail["weighoff"]
    player = next(p for p in wo["waiting"] if wo["pieces"][p] >= 3)
    pieces = wo["pieces"][player]
    before = controller.session.cursor
    _weigh(app, screen, player, 1.0 * pieces)  # 1 g a piece: under the 2 g house rule
    assert controller.session.cursor == before  # nothing saved
    refused = controller.refusal
    assert refused["confirmable"] and "weighing" in refused["action"]
    kd.pump(2)
    assert screen.ids.refusal.shown
    why = screen.ids.refusal_text.text
    assert why.startswith(f"{player}'s {pieces} pieces cannot weigh ")
    assert "lightest_piece_g" in why and why.endswith("then weigh again.")
    assert '"confirm"' not in why and "{" not in why  # words for the table, not JSON
    assert {"keep-reading", "weigh-again"} <= _keys(screen.ids.refusal)
    assert controller.message == f"{player}'s reading was not kept: see why above the weigh buttons."
    assert kd.outside_parent(screen) == []
    kd.shot(app, shots, "weighoff-refused")
    kd.tap_key(screen, "keep-reading")
    assert controller.message_kind == "info", controller.message
    assert f"{player}'s reading is kept at the table's word" in controller.message
    assert "weigh again" not in controller.message
    kept = controller.session.history()[-1].action
    assert kept == {**refused["action"], "confirm": True}  # that very reading, raw counts and all
    assert controller.summary.detail["weighoff"]["weights"][player]["value"] == refused["action"]["weighing"]["grams"]
    kd.pump(2)
    assert not screen.ids.refusal.shown and controller.refusal is None
    assert not _keys(screen.ids.refusal)


def test_a_reading_no_booty_can_give_offers_only_to_weigh_again(app, empty_pan):
    screen = _weighoff(app, {})
    controller = app.controller
    session = controller.session
    wo = controller.summary.detail["weighoff"]
    first, second, third = wo["waiting"][:3]
    for player, grams in ((first, 100.3), (second, 100.0), (third, 50.0)):  # typed: first and second tie
        session.apply({"type": "weigh", "player": player, "grams": grams})
    controller.refresh()
    kd.pump(2)
    assert controller.summary.detail["weighoff"]["waiting"] == [first, second]  # one piece off each
    before = session.cursor
    _weigh(app, screen, first, 120.0)  # more than before removing a piece
    assert session.cursor == before
    kd.pump(2)
    assert screen.ids.refusal.shown and not controller.refusal["confirmable"]
    assert "removing a piece cannot add weight" in screen.ids.refusal_text.text
    assert _keys(screen.ids.refusal) == {"weigh-again"}  # nothing to keep
    app.hardware.scale.clear(0)
    app.hardware.scale.place(95.0, 0)
    kd.tap_key(screen, "weigh-again")  # weighs that collection afresh
    kd.wait_until(lambda: not controller.busy, 60, "the weighing again")
    assert controller.message_kind == "info", controller.message
    assert session.cursor == before + 1 and "confirm" not in session.history()[-1].action
    assert session.history()[-1].action["weighing"]["grams"] == pytest.approx(95.0, abs=0.2)
    kd.pump(2)
    assert not screen.ids.refusal.shown


def test_typed_grams_refused_can_be_typed_again_or_kept(app):
    screen = _weighoff(app, {"lightest_piece_g": 2.0})
    controller = app.controller
    wo = controller.summary.detail["weighoff"]
    player = next(p for p in wo["waiting"] if wo["pieces"][p] >= 3)
    kd.type_text(screen.ids.typed, "1")
    kd.tap_key(screen, f"typed:{player}")
    kd.pump(2)
    assert screen.ids.refusal.shown and controller.refusal["action"] == {
        "type": "weigh",
        "player": player,
        "grams": 1.0,
    }
    kd.tap_key(screen, "weigh-again")  # the kitchen scale is read again: the field is ready for it
    kd.pump(2)
    assert not screen.ids.refusal.shown and screen.ids.typed.focus and screen.ids.typed.selection_text == "1"
    kd.tap_key(screen, f"typed:{player}")
    kd.pump(2)
    kd.tap_key(screen, "keep-reading")
    assert controller.message_kind == "info", controller.message
    assert controller.session.history()[-1].action == {"type": "weigh", "player": player, "grams": 1.0, "confirm": True}
