"""Scallywagger by taps: the token, a bid on the pad, a raise, a call, the reveal counted
by hand, and the draw."""

from __future__ import annotations

from tests.ui import kivy_driver as kd


def test_a_turn_of_scallywagger(app, shots):
    app.start_game("scallywagger", ["Ana", "Ben", "Cy"], {}, seed=1)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    assert app.manager.current == "scallywagger"
    kd.tap_key(screen, "first_captain:Ana:")
    assert screen.ids.captains.cell(0, 3).text == "token"
    assert screen.ids.bid.text == "No bid yet"
    # Only legal bids are offered: pick the face, then the quantity.
    kd.tap_key(screen, "face:3")
    offered = [b.action for b in kd.find_all(screen.ids.quantities, cls="PButton")]
    assert offered == [a for a in c.legal if a["type"] == "bid" and a["face"] == 3]
    kd.tap_key(screen, "bid:4:3")
    assert screen.ids.bid.text == "four 3s (Ana)"
    assert not kd.find_all(screen, key=lambda k: k.startswith("bid:4:3"))  # no longer a raise
    kd.tap_key(screen, "face:5")
    kd.tap_key(screen, "bid:4:5")
    assert screen.ids.bid.text == "four 5s (Ben)"
    kd.shot(app, shots, "scallywagger-bidding")
    kd.tap_key(screen, "call::")  # Cy calls Ben a Scallywagger
    assert "reveal" in screen.prompt.lower()
    assert kd.find(screen, key="reveal:camera")
    kd.tap_key(screen, "reveal:5")  # five 5s on the table: the bid stands
    assert "Cy loses 1 crewmate" in c.message
    assert screen.ids.captains.cell(2, 1).text == "4"
    kd.tap_key(screen, "draw:treasure")
    assert c.summary.detail["token"] == "Ben"
    kd.tap_key(app.root, "undo")
    assert c.summary.detail["phase"] == "draw"


def test_every_bid_shows_its_exact_odds(app):
    from fractions import Fraction
    from math import comb

    app.start_game("scallywagger", ["Ana", "Ben"], {"wild_ones": True}, seed=2)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    kd.tap_key(screen, "first_captain:Ana:")
    dice = c.summary.detail["dice_on_table"]

    def at_least(q: int, p: Fraction) -> float:  # an independent binomial tail
        return float(sum(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(q, dice + 1)))

    kd.tap_key(screen, "face:4")
    for button in kd.find_all(screen.ids.quantities, cls="PButton"):
        q = button.action["quantity"]
        shown = f"{at_least(q, Fraction(2, 6)) * 100:.0f} %"  # wild ones: a 1 counts for a 4
        p = at_least(q, Fraction(2, 6))
        if 0 < p < 0.005:
            shown = "< 1 %"
        elif 0.995 < p < 1:
            shown = "> 99 %"
        assert shown in button.text, (q, button.text)
    kd.tap_key(screen, "bid:3:4")
    assert f"{at_least(3, Fraction(2, 6)) * 100:.0f} % likely true" in screen.ids.bid_odds.text


def _called(app):
    """A game of two where Ana bid two 3s and Ben called: the dice are to be revealed."""
    app.start_game("scallywagger", ["Ana", "Ben"], {}, seed=1)
    kd.pump()
    screen = app.manager.current_screen
    kd.tap_key(screen, "first_captain:Ana:")
    kd.tap_key(screen, "face:3")
    kd.tap_key(screen, "bid:2:3")
    kd.tap_key(screen, "call::")
    return screen, app.controller


def _detections(values, unsure, unreadable=0):
    dice = [{"value": v, "box": [0, 0, 9, 9], "confidence": 0.9, "unsure": i in unsure} for i, v in enumerate(values)]
    return {"dice": dice, "unsure": len(unsure), "unreadable": unreadable}


def test_a_die_of_the_reveal_is_confirmed_by_tapping_it(app):
    screen, c = _called(app)
    seen = [3, 3, 5, 1, 2, 6, 3, 4, 2, 1]
    c.act({"type": "reveal", "detections": _detections(seen, unsure=(1, 4), unreadable=1)})
    kd.pump(2)
    assert "1 die could not be read" in kd.texts(screen)
    faces = [kd.find(screen, key=f"reveal:{i}") for i in range(len(seen))]
    assert [f.value for f in faces] == seen and [f.unsure for f in faces].count(True) == 2
    assert not kd.find_all(screen.ids.others, cls="PButton")  # no wall of "Confirm (die, value)" buttons
    kd.tap(faces[1])
    assert screen.fix_text == "Die 2: 3?"
    kd.tap_key(screen, "fix:5")
    assert c.session.history()[-1].action == {"type": "confirm", "die": 1, "value": 5}
    kd.tap(kd.find(screen, key="reveal:4"))
    kd.tap_key(screen, "fix:2")
    assert c.summary.detail["phase"] != "confirm"
    assert kd.outside_parent(app.root) == []


def test_a_spot_the_camera_took_for_an_extra_die_is_taken_away_by_tapping_it(app):
    screen, c = _called(app)
    seen = [3, 3, 5, 1, 2, 6, 3, 4, 2, 1, 1]  # 11 spots for 10 crewmates: one is no die
    c.act({"type": "reveal", "detections": _detections(seen, unsure=(4, 10))})
    kd.pump(2)
    assert "1 of those marked ? is no die" in screen.fix_text
    kd.tap(kd.find(screen, key="reveal:10"))
    assert screen.can_drop and screen.can_confirm
    kd.tap_key(screen, "fix:none")
    assert c.session.history()[-1].action == {"type": "drop", "die": 10}
    assert kd.find_all(screen, key="reveal:10") == []
    kd.tap(kd.find(screen, key="reveal:4"))
    assert not screen.can_drop and screen.can_confirm  # ten dice left: this one is a die
    kd.tap_key(screen, "fix:2")
    assert c.summary.detail["phase"] != "confirm"
    assert c.session.history()[-1].action == {"type": "confirm", "die": 4, "value": 2}


def test_dice_the_camera_missed_are_added_with_their_faces(app):
    screen, c = _called(app)
    seen = [3, 3, 5, 1, 2, 6, 3, 4]  # 8 dice seen of 10
    c.act({"type": "reveal", "detections": _detections(seen, unsure=())})
    kd.pump(2)
    assert screen.missing_text == "The camera missed 2 dice: add what each shows, one by one."
    assert screen.reveal_shown  # the preview's boxes show which dice it missed
    assert screen.ids.add_row.shown and not screen.ids.fix_row.shown
    assert not kd.find_all(screen.ids.others, cls="PButton")  # no "Add (value)" buttons below
    kd.tap_key(screen, "add:3")
    assert c.session.history()[-1].action == {"type": "add", "value": 3}
    assert screen.missing_text == "The camera missed 1 die: add what it shows."
    kd.tap_key(screen, "add:6")
    assert c.summary.detail["phase"] != "confirm" and not screen.reveal_shown
    assert c.summary.detail["reveal"]["dice"] == [*seen, 3, 6]
    assert not screen.ids.add_row.shown and kd.find_all(screen, key="reveal:9")
    assert kd.outside_parent(app.root) == []
