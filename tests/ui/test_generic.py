"""The generic game screen: an engine is playable from its summary() and legal_actions() alone;
typed actions are checked by the engine. Every registered game now has a screen of its own, so
a Guilded Treasures session is shown on the generic screen on purpose here."""

from __future__ import annotations

from companion.ui.app import GAME_SCREENS, SCREENS, game_screen_name
from tests.ui import kivy_driver as kd


def test_a_game_without_a_screen_of_its_own_gets_the_generic_one():
    assert game_screen_name("no-such-game") == "generic"
    assert set(GAME_SCREENS.values()) <= set(SCREENS)


def test_guilded_treasures_is_playable_on_the_generic_screen(home):
    app = home
    kd.tap_key(app.root, "new:guilded")
    form = app.manager.current_screen
    kd.tap_key(form, "clear_seats")
    for name in ("Ana", "Ben"):
        kd.type_text(kd.find(form, key="new_name"), name)
        kd.tap_key(form, "add_player")
    kd.tap_key(form, "start")
    assert app.manager.current == "guilded"  # its own screen; now the same session on the generic one
    app.go("generic", controller=app.controller)
    kd.pump(3)
    assert app.manager.current == "generic"
    screen = app.manager.current_screen
    assert screen.ids.prompt.text == app.controller.summary.prompt
    buttons = kd.find_all(screen, cls="PButton", action=lambda a: a is not None)
    assert [b.action for b in buttons] == app.controller.legal
    first = buttons[0]
    kd.tap(first)
    assert app.controller.session.cursor == 1
    assert screen.ids.prompt.text == app.controller.summary.prompt
    kd.tap_key(app.root, "undo")
    assert app.controller.session.cursor == 0


def test_a_typed_action_the_rules_refuse_is_explained_and_changes_nothing(home):
    app = home
    app.start_game("guilded", ["Ana", "Ben"], {}, seed=2)
    app.go("generic", controller=app.controller)
    kd.pump()
    screen = app.manager.current_screen
    before = app.controller.session.cursor
    kd.type_text(screen.ids.typed, '{"type": "bid", "player": "Nobody"}')
    kd.tap_key(screen, "send_typed")
    message = kd.find(app.root, cls="MessageBar").ids.msg
    assert message.text and app.controller.message_kind == "error"
    assert app.controller.session.cursor == before
    kd.type_text(screen.ids.typed, "not json")
    kd.tap_key(screen, "send_typed")
    assert "not a JSON action" in message.text
    assert app.controller.session.cursor == before


def test_many_actions_are_grouped_by_kind(home):
    app = home
    app.start_game("guilded", ["Ana", "Ben"], {}, seed=3)
    app.go("generic", controller=app.controller)
    kd.pump()
    screen = app.manager.current_screen
    session = app.controller.session
    while len(session.legal_actions()) <= 24:  # the set-up, to the first turn's many choices
        session.apply(session.legal_actions()[0])
    app.controller.refresh()
    kd.pump()
    legal = app.controller.legal
    kinds = list(dict.fromkeys(a["type"] for a in legal))
    assert len(kinds) > 1
    chips = kd.find_all(screen, cls="PToggle", key=lambda k: k.startswith("kind:"))
    assert [c.value for c in chips] == kinds
    shown = [b.action for b in kd.find_all(screen.ids.actions, cls="PButton")]
    assert shown == [a for a in legal if a["type"] == kinds[0]]
    kd.tap_key(screen, f"kind:{kinds[-1]}")
    shown = [b.action for b in kd.find_all(screen.ids.actions, cls="PButton")]
    assert shown == [a for a in legal if a["type"] == kinds[-1]]
