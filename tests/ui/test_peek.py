"""A Scallywagger Adventure card Purser dealt stays off the shared screen (buttons, their
actions, the history, the message line), and its holder sees it only through a peek: after
passing the tablet, only while holding it (or, after a tap, until the next tap), and it is
taken out of every widget when they let go."""

from __future__ import annotations

import json
import time
from typing import Any

from companion.games import views
from tests.ui import kivy_driver as kd

#: One copy of each Adventure card, each name found nowhere else in the game.
RULES = {
    "first_captain": "first_seat",
    "treasure_cards": "Map:2",
    "adventure_cards": "Kraken:1:others-1,Mutiny:1:self-1,Sirens:1:target-1",
}


def everything_said(root: Any) -> str:
    """Every text under ``root``, shown or not, with the actions its buttons carry and the rows
    of its lists: what a widget holds, not only what it draws now."""
    out = []
    for w in kd.walk(root):
        for name in ("text", "action", "value"):
            value = getattr(w, name, None)
            if value:
                out.append(json.dumps(value, default=str))
        out.extend(json.dumps(row, default=str) for row in getattr(w, "data", None) or [] if isinstance(row, dict))
    return "\n".join(out)


def on_the_window() -> str:
    from kivy.base import EventLoop

    return "\n".join(everything_said(top) for top in EventLoop.window.children)


def ben_draws_a_concealed_card(app: Any) -> tuple[Any, str]:
    """A game where Ben has drawn an Adventure card from Purser's deck; the screen and the card."""
    app.start_game("scallywagger", ["Ana", "Ben"], RULES, seed=3)
    kd.pump()
    screen = app.manager.current_screen
    c = app.controller
    for action in (
        {"type": "bid", "player": "Ana", "quantity": 1, "face": 6},
        {"type": "call", "player": "Ben"},
        {"type": "reveal", "count": 0},
    ):
        assert c.act(action)
    kd.pump(3)
    kd.tap_key(screen, "draw:adventure")  # the public button: Purser draws from its own deck
    (card,) = views.private_view(c.game, c.state, "Ben").concealed
    screen.show_history = True
    kd.pump(3)
    return screen, card


def test_the_shared_screen_never_shows_the_card_and_a_held_peek_does(app, shots):
    screen, card = ben_draws_a_concealed_card(app)
    assert "Ben draws an Adventure card and keeps it concealed." in everything_said(screen)  # history and message
    assert card not in on_the_window()
    assert [b.text for b in kd.find_all(screen.ids.peeks, cls="PButton")] == ["Peek: Ben"]

    kd.tap_key(screen, "peek:Ben")
    peek = screen.peek
    assert peek is not None and peek.parent is not None  # open, covering the game
    assert peek.title.text == "Only Ben should look" and "tap and hold to see your card" in peek.caption.text
    assert card not in on_the_window()  # nothing private until Ben touches it
    peek_shot(peek, shots, "peek-covered")

    pad = kd.find_open(key="peek:hold")
    finger = _press(pad)
    time.sleep(0.45)  # longer than a tap: a hold
    kd.pump(2)
    assert peek.showing and peek.cards.text == card and kd.visible(peek.cards)
    assert card not in everything_said(screen)  # the game under the peek still names nothing
    peek_shot(peek, shots, "peek-held")
    private = views.private_view(app.controller.game, app.controller.state, "Ben").actions
    assert [b.action for b in kd.find_all(peek.actions, cls="PButton")] == [dict(a) for a in private]
    assert private and all(a["card"] == card for a in private)  # Ben's own moves, naming the card
    finger.touch_up()
    kd.pump(2)
    assert not peek.showing and card not in on_the_window()  # let go: gone from every widget

    kd.tap_key(peek, "peek:close")
    assert peek.parent is None and card not in on_the_window()
    kd.tap_key(screen, "peek:Ben")  # the peek can be asked for again,
    again = screen.peek
    assert again is not peek and again.parent is not None
    app.start_game("seven", ["Ana", "Ben"], {}, seed=1)  # and another game closes it
    kd.pump(3)
    assert again.parent is None and card not in on_the_window()


def test_a_tap_shows_the_card_until_the_next_tap_a_change_of_game_or_a_few_seconds(app, monkeypatch):
    from companion.ui.widgets import peek as peek_module

    monkeypatch.setattr(peek_module, "HOLD_SECONDS", 60.0)  # a tap, however slow the machine runs the test
    screen, card = ben_draws_a_concealed_card(app)
    kd.tap_key(screen, "peek:Ben")
    peek = screen.peek
    kd.tap(kd.find_open(key="peek:hold"))
    assert peek.showing and card in peek.cards.text and "(tap to hide)" in peek.caption.text
    kd.tap(kd.find_open(key="peek:hold"))
    assert not peek.showing and card not in on_the_window()
    kd.tap(kd.find_open(key="peek:hold"))
    assert card in on_the_window()
    app.controller.act({"type": "bid", "player": "Ben", "quantity": 1, "face": 2})  # the game moves on
    kd.pump(2)
    assert not peek.showing and card not in on_the_window()
    monkeypatch.setattr(peek_module, "TAP_SHOW_SECONDS", 0.3)
    kd.tap(kd.find_open(key="peek:hold"))
    assert card in peek.cards.text
    kd.wait_until(lambda: not peek.showing, 10, "the peek to hide itself")
    assert card not in on_the_window()
    app.go_home()  # leaving the game closes the peek
    kd.pump(3)
    assert peek.parent is None and card not in on_the_window()


def test_a_private_move_from_the_peek_reveals_the_card_to_the_table(app, monkeypatch):
    from companion.ui.widgets import peek as peek_module

    monkeypatch.setattr(peek_module, "HOLD_SECONDS", 60.0)
    screen, card = ben_draws_a_concealed_card(app)
    kd.tap_key(screen, "peek:Ben")
    peek = screen.peek
    kd.tap(kd.find_open(key="peek:hold"))
    (move,) = kd.find_all(peek.actions, cls="PButton")  # two players: the card aims at Ana, if at anyone
    assert move.action["card"] == card and move.action["player"] == "Ben"
    kd.tap(move)
    assert peek.parent is None
    assert f"Adventure card {card}" in app.controller.message  # now the table sees it, as the rules say
    assert app.controller.session.history()[-1].action["card"] == card
    assert not kd.find_all(screen.ids.peeks, cls="PButton")  # nothing concealed is left to peek at


def peek_shot(peek: Any, directory: Any, name: str) -> None:
    """Save the open peek (it covers the app, outside its root) as ``directory/name.png``."""
    directory.mkdir(parents=True, exist_ok=True)
    kd.pump(2, draw=True)
    peek.export_to_png(str(directory / f"{name}.png"))
    assert (directory / f"{name}.png").stat().st_size > 1000


def _press(widget: Any) -> Any:
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(*widget.center)
    finger = UnitTestTouch(x, y)
    finger.touch_down()
    kd.pump(1)
    return finger
