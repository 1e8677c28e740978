"""Swashbuckle by taps: the roll-off, typed dice with holds, scoring options best first, a
curse, a Piracy with its pillage, undo, and the end of the match with totals and monikers;
the sheet that fits, the dice camera, fixing a die, and the hint."""

from __future__ import annotations

import pytest

from tests.ui import kivy_driver as kd

CAMERA_URL = "sim://?dice=5&seed=7"
SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}


def _roll(screen, *dice: int) -> None:
    if not screen.pad_shown:
        kd.tap_key(screen, "pad:open")
    for value in dice:
        kd.tap_key(screen, f"pad:{value}")
    kd.tap_key(screen, "roll:typed")


def _options(screen) -> list[str]:
    return [b.text for b in kd.find_all(screen.ids.options, cls="PButton")]


def _sheet(screen, box: str, player: str) -> str:
    """The sheet's cell for ``box`` (a box key, or a footer row name) in ``player``'s column."""
    sheet = screen.ids.sheet
    heads = [
        sheet.cell(f"head:{i}").text
        for i in range(len(screen.controller.summary.scores) * 6)
        if sheet.cell(f"head:{i}") is not None
    ]
    col = heads.index(player)
    for key in (f"box:{box}:{col}", f"extra:{box}:{col}"):
        if sheet.cell(key) is not None:
            return sheet.cell(key).text
    for r in range(4):
        name = sheet.cell(f"name:foot:{r}")
        if name is not None and name.text == box:
            return sheet.cell(f"foot:{r}:{col}").text
    raise AssertionError(f"no row {box!r} on the sheet")


def _dice(screen) -> list[int]:
    return [int(f.value) for f in reversed(screen.ids.dice_row.children)]


@pytest.fixture
def landscape(app):
    kd.set_window(SIZES["landscape"])
    yield
    kd.set_window(SIZES["landscape"])


def test_a_short_swashbuckle_match_by_taps(app, shots, landscape):
    app.start_game("swashbuckle", ["Ana", "Ben"], {}, seed=1)
    kd.wait_until(lambda: app.hardware.has_frame, 60, "the camera")  # the pad shows only when asked for
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    assert app.manager.current == "swashbuckle"
    assert "Who starts?" in screen.prompt
    kd.tap_key(screen, "rolloff:Ana:5")
    kd.tap_key(screen, "rolloff:Ben:2")
    assert screen.prompt.startswith("Ana: roll five dice")

    _roll(screen, 1, 1, 3, 3, 5)
    assert _dice(screen) == [1, 1, 3, 3, 5]
    assert _options(screen)[:3] == ["Flotsam  13", "Threes  6", "Fives  5"]  # best first
    assert screen.ids.sheet.cell("box:flotsam:0").text == "+13"  # the open box shows what it would score
    kd.tap_key(screen, "die:0")
    kd.tap_key(screen, "die:1")  # hold the ones, roll three dice
    assert [f.held for f in reversed(screen.ids.dice_row.children)] == [True, True, False, False, False]
    _roll(screen, 1, 1, 2)
    assert _options(screen)[0] == "Aces High  40"
    kd.shot(app, shots, "swashbuckle-options")
    kd.tap(screen.ids.sheet.cell("box:aces_high:0"))  # scored by tapping its box on the sheet
    assert _sheet(screen, "aces_high", "Ana") == "40"
    assert screen.ids.sheet.cell("box:aces_high:0").flash > 0  # lit up for the table

    # The curse is offered only now, at the end of Ana's turn.
    assert [b.key for b in kd.find_all(screen.ids.options, cls="PButton")] == ["curse:Ana:Ben"]
    kd.tap_key(screen, "curse:Ana:Ben")
    assert "roll only FOUR dice" in screen.prompt
    _roll(screen, 2, 3, 4, 5)
    kd.tap_key(screen, "score:succession_4")
    assert _sheet(screen, "succession_4", "Ben") == "30"

    _roll(screen, 1, 2, 3, 4, 5)
    assert "Piracy  roll all five again" in _options(screen)
    kd.tap_key(screen, "score:piracy")
    assert "Piracy! Roll all five dice once more." in screen.prompt
    _roll(screen, 6, 6, 6, 5, 5)
    assert "= 28" in screen.prompt
    kd.tap_key(screen, "pillage:Ana:")
    assert _sheet(screen, "piracy", "Ana") == "28"
    assert _sheet(screen, "Pillaged", "Ben") == "-28"
    kd.tap_key(app.root, "undo")
    assert _sheet(screen, "piracy", "Ana") == ""
    kd.tap_key(app.root, "redo")
    assert _sheet(screen, "piracy", "Ana") == "28"
    kd.shot(app, shots, "swashbuckle-piracy")

    # The rest of the match, turn by turn through the same session (no taps), then the last
    # turn by taps: the sheet ends with the totals and the players' monikers.
    session = c.session
    for _ in range(200):
        s = session.summary()
        if s.over or (
            s.detail["turn"]["player"] == "Ben"
            and sum(v is None for v in s.detail["pirates"]["Ben"]["columns"][0]["boxes"].values()) == 1
            and not s.detail["turn"]["rolls"]
        ):
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
    # The end of the match: the result screen with standings and monikers, then the sheet.
    assert app.manager.current == "over"
    over = app.manager.current_screen
    monikers = c.summary.detail["monikers"]
    winner = c.summary.winners[0]
    assert f"{winner} wins!" in over.winner
    standings = kd.texts(over.ids.standings)
    for player in ("Ana", "Ben"):
        assert monikers[player] is None or monikers[player] in standings
    kd.shot(app, shots, "swashbuckle-result")
    kd.tap_key(app.root, "over:game")
    assert screen.prompt.startswith("Match over:")
    for player in ("Ana", "Ben"):
        assert _sheet(screen, "Total", player) == f"{c.summary.scores[player]:g}"
        assert _sheet(screen, "Moniker", player) == (monikers[player] or "")
    # Over, nothing is left to roll, hold or hint: the pad, the camera and the hint are gone.
    assert not screen.pad_shown and not kd.visible(screen.ids.read_dice) and not kd.visible(screen.ids.preview)
    assert not screen.can_hint
    kd.shot(app, shots, "swashbuckle-over")
    # Titles earned are kept on the players' profiles and shown with them.
    titles = {p: app.store.player(p).profile.get("titles", {}).get("swashbuckle") for p in ("Ana", "Ben")}
    assert any(titles.values())
    kd.tap_key(app.root, "home")
    kd.tap_key(app.root, "nav:players")
    text = kd.texts(app.manager.current_screen)
    for title in titles.values():
        if title:
            assert f"{title} (Swashbuckle)" in text


@pytest.mark.parametrize("players", [3, 5])
def test_who_starts_fits_under_the_game_bar(app, players, landscape):
    """The roll-off rows stay inside the screen; the prompt is not pushed under the bar, and the
    dice pad (which the roll-off does not use) is not offered."""
    names = ["Ana", "Ben", "Cy", "Dee", "Eve"][:players]
    app.start_game("swashbuckle", names, {}, seed=1)
    kd.pump(3)
    screen = app.manager.current_screen
    assert "Who starts?" in screen.prompt
    assert kd.outside_parent(app.root) == []
    bar = kd.find(app.root, cls="GameBar")
    assert (
        screen.ids.prompt.to_window(*screen.ids.prompt.pos)[1] + screen.ids.prompt.height
        <= bar.to_window(*bar.pos)[1] + 1
    )
    assert not screen.pad_shown and not kd.visible(screen.ids.read_dice)
    for name in names:
        kd.find(screen, key=f"rolloff:{name}:6")


@pytest.mark.parametrize("orientation", list(SIZES))
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_sheet_reads_whole_at_any_table(app, players, orientation):
    """Every box name whole, every player's column and total on screen (no swiping)."""
    from kivy.core.window import Window

    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fin"][:players]
    app.start_game("swashbuckle", names, {"who_starts": "seating"}, seed=1)
    app.controller.act({"type": "roll", "player": "Ana", "dice": [1, 2, 3, 4, 6]})
    kd.set_window(SIZES[orientation])
    try:
        screen = app.manager.current_screen
        sheet = screen.ids.sheet
        assert kd.elided(sheet) == []
        assert kd.elided(kd.find(app.root, cls="Leaderboard")) == []
        assert not kd.find_all(screen, cls="Carousel")
        width, height = Window.size
        for i, name in enumerate(names):
            head, total = sheet.cell(f"head:{i}"), sheet.cell(f"foot:0:{i}")
            assert head.text == name and total.text == "0"
            for cell in (head, total):
                x, y = cell.to_window(*cell.pos)
                assert kd.visible(cell) and x >= 0 and x + cell.width <= width + 1 and 0 <= y < height
        assert kd.outside_parent(app.root) == []
    finally:
        kd.set_window(SIZES["landscape"])


def test_dice_are_drawn_as_dice_at_their_size(app, landscape):
    app.start_game("swashbuckle", ["Ana", "Ben"], {"who_starts": "seating"}, seed=1)
    app.controller.act({"type": "roll", "player": "Ana", "dice": [6, 6, 4, 6, 1]})
    kd.pump(3)
    screen = app.manager.current_screen
    faces = list(reversed(screen.ids.dice_row.children))
    assert [f.value for f in faces] == [1, 4, 6, 6, 6]  # as the engine keeps them: sorted
    from kivy.metrics import dp

    assert all(f.width >= dp(84) - 1 and f.height >= dp(84) for f in faces)
    pad = kd.find(screen, key="pad:1")
    assert min(faces[0].size) > pad.height  # bigger than the entry pad, which they no longer look like


def test_the_camera_box_waits_for_a_frame_before_reading(app, landscape):
    app.start_game("swashbuckle", ["Ana"], {}, seed=4)
    hw = app.hardware
    hw.open_camera()  # reopened: no frame yet
    kd.pump(1)
    screen = app.manager.current_screen
    preview = screen.ids.preview
    if not hw.has_frame:
        assert preview.color[3] == 0 and preview.texture is None  # no white box
        assert kd.find(screen, key="roll:camera").disabled
    kd.wait_until(lambda: hw.has_frame, 60, "a camera frame")
    kd.pump(2)
    assert preview.color[3] == 1 and not kd.find(screen, key="roll:camera").disabled


def test_dice_read_by_the_camera_and_a_die_fixed_by_tapping_it(app, landscape):
    """A roll read from the (simulated) camera: sure dice are taken as read; when the reader is
    unsure, nothing is decided until a player confirms, fixing a die by tapping it."""
    app.start_game("swashbuckle", ["Cy"], {}, seed=2)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    kd.wait_until(lambda: app.hardware.has_frame, 60, "the camera")
    seen_before = app.hardware.camera.roll_index
    kd.tap_key(screen, "roll:camera")
    kd.wait_until(lambda: not c.busy, 60, "the dice reading")
    assert app.hardware.camera.roll_index == seen_before + 1  # the simulated table rolled again
    assert c.message_kind != "error", c.message
    read = c.session.history()[-1].action["detections"]  # what the camera saw is in the journal
    if not (read["unsure"] or len(read["dice"]) != 5):  # read with confidence: force a doubt to fix
        c.undo()
        c.act(
            {
                "type": "roll",
                "player": "Cy",
                "detections": {"dice": [dict(d, unsure=(i == 2)) for i, d in enumerate(read["dice"])], "unsure": 1},
            }
        )
        kd.pump(2)
    assert screen.confirming and "confirm the dice" in screen.prompt
    assert "No dice rolled yet" not in kd.texts(screen)
    assert not kd.find_all(screen.ids.options, cls="PButton", key=lambda k: k.startswith("score:"))
    seen = [int(f.value) for f in reversed(screen.ids.dice_row.children)]
    doubtful = [i for i, f in enumerate(reversed(screen.ids.dice_row.children)) if f.unsure]
    target = doubtful[0] if doubtful else 0
    new_value = 6 if seen[target] != 6 else 1
    kd.tap_key(screen, f"die:{target}")
    assert screen.fix_text.startswith(f"Die {target + 1}: {seen[target]}")
    assert kd.outside_parent(app.root) == [] and kd.elided(screen.ids.fix_row) == []
    kd.tap_key(screen, f"fix:{new_value}")
    fixed = [*seen[:target], new_value, *seen[target + 1 :]]
    while len(fixed) < 5:  # the camera missed a die: add it on the pad
        kd.tap_key(screen, "pad:3")
        fixed.append(3)
    for i in range(len(fixed) - 1, 4, -1):  # one too many: remove it
        kd.tap_key(screen, f"die:{i}")
        kd.tap_key(screen, "fix:remove")
        fixed.pop()
    kd.tap_key(screen, "confirm")
    assert c.message_kind != "error", c.message
    assert sorted(c.summary.detail["turn"]["dice"]) == sorted(fixed)
    assert kd.find_all(screen.ids.options, cls="PButton", key=lambda k: k.startswith("score:"))


def test_dice_the_reader_could_not_read_are_counted(app, landscape):
    app.start_game("swashbuckle", ["Cy"], {}, seed=2)
    c = app.controller
    c.act(
        {
            "type": "roll",
            "player": "Cy",
            "detections": {
                "dice": [{"value": v, "box": [0, 0, 10, 10], "confidence": 0.9, "unsure": False} for v in (2, 3, 4)],
                "unsure": 0,
                "unreadable": 2,
            },
        }
    )
    kd.pump(2)
    screen = app.manager.current_screen
    assert screen.confirming
    assert "2 dice could not be read" in screen.ids.unread.text


def test_the_hint_shows_the_best_hold(app, landscape):
    app.start_game("yacht", ["Ana"], {}, seed=1)
    app.controller.act({"type": "roll", "player": "Ana", "dice": [6, 6, 6, 2, 1]})
    kd.pump(2)
    screen = app.manager.current_screen
    kd.tap_key(screen, "hint")
    kd.wait_until(lambda: app.advice.state == "ready", 240, "the Yacht best-play table")
    kd.pump(2)
    assert screen.hint_text.startswith("Best: hold 6 6 6"), screen.hint_text
    assert "expected" in screen.hint_text
