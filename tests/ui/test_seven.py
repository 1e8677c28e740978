"""The "7" screen, played by tapping: new game form, play pad, undo/redo, history, keep-awake."""

from __future__ import annotations

from tests.ui import kivy_driver as kd


def _start_seven(app, names=("Ana", "Ben", "Cy")):
    kd.tap_key(app.root, "new:seven")
    screen = app.manager.current_screen
    assert app.manager.current == "newgame"
    kd.tap_key(screen, "clear_seats")
    for name in names:
        kd.type_text(kd.find(screen, key="new_name"), name)
        kd.tap_key(screen, "add_player")
    kd.tap_key(screen, "start")
    assert app.manager.current == "seven", screen.error
    return app.manager.current_screen


def test_a_game_of_seven_by_taps(home, shots):
    app = home
    screen = _start_seven(app)
    kd.shot(app, shots, "seven-start")
    from companion.ui.awake import is_kept_awake

    assert is_kept_awake()
    assert "Ana: start a new pile" in screen.ids.prompt.text
    # An empty pile: any card may start it, hole on hole only.
    assert all(not kd.find(screen, key=f"play:{c}:hole").disabled for c in range(1, 8))
    assert all(kd.find(screen, key=f"play:{c}:number").disabled for c in range(1, 8))
    assert kd.find(screen, key="penalty").disabled

    kd.tap_key(screen, "play:3:hole")
    assert screen.ids.total.text == "3"
    assert "Ben" in screen.ids.prompt.text
    # Cards that would lower the total are refused by the engine, so they are not offered.
    assert kd.find(screen, key="play:2:hole").disabled
    assert not kd.find(screen, key="play:4:hole").disabled
    number = kd.find(screen, key="play:2:number")
    assert "makes 5" in number.text

    kd.tap(number)
    assert screen.ids.total.text == "5"
    kd.tap_key(screen, "penalty")
    assert "Cy cannot play and takes a penalty card" in kd.texts(app.root)
    assert "Ana" in screen.ids.prompt.text
    kd.shot(app, shots, "seven-played")

    kd.tap_key(app.root, "undo")
    assert "Cy" in screen.ids.prompt.text
    assert screen.ids.total.text == "5"
    kd.tap_key(app.root, "history")
    history = kd.texts(kd.find(screen, cls="HistoryPanel"))
    assert "Ben lays a 2; the pile shows 5." in history
    assert "(undone)" in history
    kd.tap_key(app.root, "redo")
    assert "Ana" in screen.ids.prompt.text
    assert kd.find(app.root, key="redo").disabled
    kd.shot(app, shots, "seven-history")

    # Leaving the game lets the screen sleep again; the game waits on the home screen.
    kd.tap_key(app.root, "home")
    assert app.manager.current == "home"
    assert not is_kept_awake()
    assert "3 moves" in kd.texts(app.root)


def test_seven_refuses_a_bad_seating_and_says_why(home):
    app = home
    kd.tap_key(app.root, "new:seven")
    screen = app.manager.current_screen
    kd.tap_key(screen, "clear_seats")
    kd.type_text(kd.find(screen, key="new_name"), "Solo")
    kd.tap_key(screen, "add_player")
    kd.tap_key(screen, "start")
    assert app.manager.current == "newgame"
    assert "2 to 7 players" in screen.error
