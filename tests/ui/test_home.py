"""Home, new game, players and past games screens."""

from __future__ import annotations

from companion.games import game_names, list_games
from tests.ui import kivy_driver as kd


def test_home_offers_every_registered_game(home):
    app = home
    keys = {w.key for w in kd.find_all(app.root, cls="PButton", key=lambda k: k.startswith("new:"))}
    assert keys == {f"new:{name}" for name in {g.NAME for g in list_games()}}
    assert len(keys) == len(game_names())
    unfinished = [r for r in app.store.sessions() if not r.finished]
    if unfinished:
        assert {w.key for w in kd.find_all(app.root, cls="PButton", key=lambda k: k.startswith("resume:"))} == {
            f"resume:{r.id}" for r in unfinished
        }
    else:
        assert "No game in play" in kd.texts(app.root)


def test_new_game_form_shows_house_rules_with_defaults(home):
    app = home
    kd.tap_key(app.root, "new:seven")
    screen = app.manager.current_screen
    text = kd.texts(screen)
    from companion.games import find_game

    for rule in find_game("seven").RULES:
        assert rule.help in text
    assert "Hand size  (default 7)" in text.replace("[b]", "").replace("[/b]", "")
    field = kd.find(screen, key="rule:hand_size")
    kd.tap_key(screen, "rule:hand_size:+")
    assert field.text == "8"
    assert screen.ids.rules.values == {"hand_size": "8"}
    kd.tap_key(screen, "rule:next_round_starter:round_winner")
    assert screen.ids.rules.values["next_round_starter"] == "round_winner"
    # A value the engine refuses is reported, and nothing is started or stored.
    kd.type_text(field, "99")
    kd.tap_key(screen, "clear_seats")
    for name in ("Ivo", "Jo"):
        kd.type_text(kd.find(screen, key="new_name"), name)
        kd.tap_key(screen, "add_player")
    before = len(app.store.sessions())
    kd.tap_key(screen, "start")
    assert app.manager.current == "newgame"
    assert "hand_size" in screen.error and "at most 11" in screen.error
    assert len(app.store.sessions()) == before


def test_seating_order_is_the_order_players_are_tapped(home):
    app = home
    kd.tap_key(app.root, "new:seven")
    screen = app.manager.current_screen
    kd.tap_key(screen, "clear_seats")
    for name in ("Zed", "Amy"):
        kd.type_text(kd.find(screen, key="new_name"), name)
        kd.tap_key(screen, "add_player")
    kd.tap_key(screen, "clear_seats")
    kd.tap_key(screen, "player:Zed")
    kd.tap_key(screen, "player:Amy")
    assert list(screen.seats) == ["Zed", "Amy"]
    kd.tap_key(screen, "start")
    assert app.manager.current == "seven"
    assert app.controller.session.players == ("Zed", "Amy")
    assert "Zed: start a new pile" in app.manager.current_screen.ids.prompt.text


def test_players_screen_shows_profiles_with_statistics(home):
    app = home
    app.start_game("seven", ["Quin", "Rex"], {}, seed=3)  # one game in play, of its own
    app.go_home()
    kd.pump()
    kd.tap_key(app.root, "nav:players")
    screen = app.manager.current_screen
    kd.type_text(kd.find(screen, key="new_name"), "Newcomer")
    kd.tap_key(screen, "add_player")
    newcomer = kd.find(screen, key="profile:Newcomer")
    assert "0 played, 0 finished, 0 won" in kd.texts(newcomer)
    assert "1 played, 0 finished, 0 won" in kd.texts(kd.find(screen, key="profile:Quin"))


def test_a_finished_game_appears_in_past_games_with_its_winner(home):
    app = home
    app.start_game("seven", ["Pat", "Lou"], {"rounds": 1, "hand_size": 1}, seed=5)
    kd.pump()
    screen = app.manager.current_screen
    kd.tap_key(screen, "play:7:hole")  # Pat plays the last card: out first, the round and game end
    assert app.controller.summary.over
    assert app.manager.current == "over"  # the result, with what to do next
    assert "Pat wins!" in kd.texts(app.manager.current_screen)
    kd.tap_key(app.root, "over:game")
    assert "Game over: Pat won" in screen.ids.prompt.text
    kd.tap_key(app.root, "home")
    kd.tap_key(app.root, "nav:past")
    text = kd.texts(app.manager.current_screen)
    assert "Won by Pat" in text
    kd.tap_key(app.root, "back")
    kd.tap_key(app.root, "nav:players")
    assert "1 played, 1 finished, 1 won" in kd.texts(kd.find(app.manager.current_screen, key="profile:Pat"))


def test_a_finished_game_opens_read_only_and_reopening_asks_first(home):
    app = home
    app.start_game("seven", ["Uma", "Vic"], {"rounds": 1, "hand_size": 1}, seed=5)
    kd.pump()
    kd.tap_key(app.manager.current_screen, "play:7:hole")  # Uma's last card: the game is over
    sid = app.controller.session.id
    kd.tap_key(app.root, "over:done")
    kd.tap_key(app.root, "nav:past")
    kd.tap_key(app.root, f"open:{sid}")
    assert app.manager.current == "over"  # opened on its result
    kd.tap_key(app.root, "over:game")
    c = app.controller
    undo = kd.find(app.root, key="undo")
    assert c.locked and (undo.disabled or not kd.visible(undo))
    assert not c.undo() and not c.act({"type": "penalty", "player": "Vic"})
    assert c.session.finished and c.session.cursor == 1
    assert app.store.session(sid).result["winners"] == ["Uma"]  # the winner stays in the statistics
    # Reopening asks; saying no changes nothing.
    kd.tap_key(app.root, "reopen")
    kd.tap(kd.find_open(key="confirm:no"))
    assert c.locked
    kd.tap_key(app.root, "reopen")
    kd.tap(kd.find_open(key="confirm:yes"))
    assert not c.locked
    kd.tap_key(app.root, "undo")
    assert not c.session.finished and app.store.session(sid).result is None


def test_buttons_keep_the_sizes_screens_ask_for(home):
    from kivy.metrics import dp

    from companion.ui.widgets.base import PButton, PToggle

    app = home
    tile = kd.find(app.root, key="new:swashbuckle")
    assert tile.height >= dp(84) - 1  # a two-line tile, not squeezed to one line's height
    big = PButton(height=dp(90), font_size=dp(40))
    chip = PToggle(height=dp(70))
    kd.pump(1)
    assert (big.height, big.font_size, chip.height) == (dp(90), dp(40), dp(70))


def test_an_unfinished_game_can_be_abandoned(home):
    app = home
    app.start_game("seven", ["Wes", "Xia"], {}, seed=9)
    sid = app.controller.session.id
    app.go_home()
    kd.pump()
    kd.tap_key(app.root, f"abandon:{sid}")
    kd.tap(kd.find_open(key="confirm:yes"))
    assert sid not in {r.id for r in app.store.sessions()}
    assert not kd.find_all(app.root, key=f"resume:{sid}")


def test_a_history_entry_shows_the_game_after_that_move(home):
    app = home
    app.start_game("seven", ["Yan", "Zoe"], {}, seed=1)
    c = app.controller
    first = next(a for a in c.legal if a["type"] == "play")
    c.act(first)
    c.act(next(a for a in c.legal if a["type"] == "play"))
    kd.tap_key(app.root, "history")
    kd.pump(3)
    lines = kd.find_all(app.root, cls="HistoryLine")
    oldest = next(line for line in lines if line.seq == 1)
    kd.tap(oldest)
    panel = kd.find_open(key="moment")
    text = kd.texts(panel)
    assert "After move 1" in text and c.history[0].text in text
    kd.tap(kd.find_open(key="moment:close"))
    kd.tap_key(app.root, "history")
