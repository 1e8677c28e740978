"""Swashbuckle by taps: the roll-off, typed dice with holds, scoring options best first, a
curse, a Piracy with its pillage, undo, and the end of the match with totals and monikers."""

from __future__ import annotations

from tests.ui import kivy_driver as kd

CAMERA_URL = "sim://?dice=5&seed=7"


def _roll(screen, *dice: int) -> None:
    for value in dice:
        kd.tap_key(screen, f"pad:{value}")
    kd.tap_key(screen, "roll:typed")


def _options(screen) -> list[str]:
    return [b.text for b in kd.find_all(screen.ids.options, cls="PButton")]


def _sheet(screen, box_label: str, player: str) -> str:
    table = screen._tables[0]
    header = [table.children[-1 - i].text for i in range(table.cols)]
    col = header.index(player)
    for row in range(40):
        cell = table.cell(row, 0)
        if cell is None:
            break
        if cell.text == box_label:
            return table.cell(row, col).text
    raise AssertionError(f"no row {box_label!r} on the sheet")


def test_a_short_swashbuckle_match_by_taps(app, shots):
    app.start_game("swashbuckle", ["Ana", "Ben"], {}, seed=1)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    assert app.manager.current == "swashbuckle"
    assert "Who starts?" in screen.prompt
    kd.tap_key(screen, "rolloff:Ana:5")
    kd.tap_key(screen, "rolloff:Ben:2")
    assert screen.prompt.startswith("Ana: roll five dice")

    _roll(screen, 1, 1, 3, 3, 5)
    assert [b.text for b in kd.find_all(screen.ids.dice_row, cls="PToggle")] == ["1", "1", "3", "3", "5"]
    assert _options(screen)[:3] == ["Flotsam  13", "Threes  6", "Fives  5"]  # best first
    kd.tap_key(screen, "die:0")
    kd.tap_key(screen, "die:1")  # hold the ones, roll three dice
    _roll(screen, 1, 1, 2)
    assert _options(screen)[0] == "Aces High  40"
    kd.shot(app, shots, "swashbuckle-options")
    kd.tap_key(screen, "score:aces_high")
    assert _sheet(screen, "Aces High", "Ana") == "40"

    # The curse is offered only now, at the end of Ana's turn.
    assert [b.key for b in kd.find_all(screen.ids.options, cls="PButton")] == ["curse:Ana:Ben"]
    kd.tap_key(screen, "curse:Ana:Ben")
    assert "roll only FOUR dice" in screen.prompt
    _roll(screen, 2, 3, 4, 5)
    kd.tap_key(screen, "score:succession_4")
    assert _sheet(screen, "Succession of 4", "Ben") == "30"

    _roll(screen, 1, 2, 3, 4, 5)
    assert "Piracy  roll all five again" in _options(screen)
    kd.tap_key(screen, "score:piracy")
    assert "Piracy! Roll all five dice once more." in screen.prompt
    _roll(screen, 6, 6, 6, 5, 5)
    assert "= 28" in screen.prompt
    kd.tap_key(screen, "pillage:Ana:")
    assert _sheet(screen, "Piracy", "Ana") == "28"
    assert _sheet(screen, "Pillaged", "Ben") == "-28"
    kd.tap_key(app.root, "undo")
    assert _sheet(screen, "Piracy", "Ana") == ""
    kd.tap_key(app.root, "redo")
    assert _sheet(screen, "Piracy", "Ana") == "28"
    kd.shot(app, shots, "swashbuckle-piracy")

    # The rest of the match, turn by turn through the same session (no taps), then the last
    # turn by taps: the sheet ends with the totals and the players' monikers.
    session = c.session
    for _ in range(200):
        s = session.summary()
        if s.over or (s.detail["turn"]["player"] == "Ben" and sum(
                v is None for v in s.detail["pirates"]["Ben"]["columns"][0]["boxes"].values()) == 1
                and not s.detail["turn"]["rolls"]):
            break
        legal = session.legal_actions()
        scores = [a for a in legal if a["type"] == "score"]
        if scores:
            session.apply(scores[0])
        elif any(a["type"] == "pillage" for a in legal):
            session.apply(next(a for a in legal if a["type"] == "pillage"))
        else:
            roll = next(a for a in legal if a["type"] == "roll" and not a.get("keep"))
            n = s.detail["turn"]["dice_in_play"]
            session.apply({k: v for k, v in roll.items() if k != "from"} | {"dice": [2, 3, 3, 5, 6][:n]})
    c.refresh()
    kd.pump()
    assert not c.summary.over
    _roll(screen, 4, 4, 4, 2, 2)
    kd.tap(kd.find_all(screen.ids.options, cls="PButton")[0])
    assert c.summary.over
    assert screen.prompt.startswith("Match over:")
    for player in ("Ana", "Ben"):
        assert _sheet(screen, "Match total", player) == f"{c.summary.scores[player]:g}"
    monikers = c.summary.detail["monikers"]
    for player in ("Ana", "Ben"):
        assert _sheet(screen, "Moniker", player) == (monikers[player] or "")
    kd.shot(app, shots, "swashbuckle-over")
    # Titles earned are kept on the players' profiles and shown with them.
    titles = {p: app.store.player(p).profile.get("titles", {}).get("swashbuckle") for p in ("Ana", "Ben")}
    assert any(titles.values())
    kd.tap_key(app.root, "home")
    kd.tap_key(app.root, "nav:players")
    text = kd.texts(app.manager.current_screen)
    for player, title in titles.items():
        if title:
            assert f"{title} (Swashbuckle)" in text


def test_portrait_swipes_between_players(app, shots):
    from kivy.core.window import Window

    app.open_session(app.store.sessions()[0].id)

    Window.size = (800, 1280)
    try:
        kd.pump(3)
        screen = app.manager.current_screen
        carousel = kd.find(screen, cls="Carousel")
        assert len(carousel.slides) == 2
        kd.shot(app, shots, "swashbuckle-portrait")
    finally:
        Window.size = (1280, 800)
        kd.pump(3)
    assert not kd.find_all(screen, cls="Carousel")


def test_dice_read_by_the_camera_and_unsure_ones_confirmed(app):
    """A roll read from the (simulated) camera: sure dice are taken as read; when the reader
    is unsure, nothing is decided until a player confirms the dice on the pad."""
    app.start_game("swashbuckle", ["Cy"], {}, seed=2)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    kd.wait_until(lambda: app.hardware.camera_state == "ready", 60, "the camera")
    kd.tap_key(screen, "roll:camera")
    kd.wait_until(lambda: not c.busy, 60, "the dice reading")
    assert c.message_kind != "error", c.message
    read = c.session.history()[-1].action["detections"]  # what the camera saw is in the journal
    seen = [d["value"] for d in read["dice"]]
    truth = sorted(d.value for d in app.hardware.camera.truth)
    confirm = kd.find(screen, key="confirm")
    if read["unsure"] or len(seen) != 5:
        assert not confirm.disabled and "confirm the dice" in screen.prompt
        assert not kd.find_all(screen.ids.options, cls="PButton", key=lambda k: k.startswith("score:"))
        kd.tap_key(screen, "pad:clear")
        for value in truth:
            kd.tap_key(screen, f"pad:{value}")
        kd.tap(confirm)
        assert c.message_kind != "error", c.message
        assert sorted(c.summary.detail["turn"]["dice"]) == truth
    else:
        assert confirm.disabled
        assert sorted(c.summary.detail["turn"]["dice"]) == sorted(seen)
    assert kd.find_all(screen.ids.options, cls="PButton", key=lambda k: k.startswith("score:"))
