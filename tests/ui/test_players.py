"""The Players screen: rename, merge and delete a profile, each asking first, in the real
app; refusals say why and change nothing; the dialogs fit both orientations."""

from __future__ import annotations

import pytest

from tests.ui import kivy_driver as kd

SIZES = {"landscape": (1280, 800), "portrait": (800, 1280)}


def finished_game(app, winner: str, loser: str) -> int:
    """A game of 7 that ``winner`` won against ``loser``; returns its id."""
    app.start_game("seven", [winner, loser], {"rounds": 1, "hand_size": 1}, seed=5)
    app.controller.act({"type": "play", "player": winner, "card": 7, "on": "hole"})
    assert app.controller.summary.over
    return app.controller.session.id


def game_in_play(app, *players: str) -> int:
    app.start_game("seven", list(players), {}, seed=3)
    return app.controller.session.id


def as_stored(app, sid: int) -> tuple:
    record = app.store.session(sid)
    return record.players, record.cursor, record.result, [e.hash for e in app.store.journal(sid)]


@pytest.fixture
def players(home):
    """The app on the Players screen, reached as a player would, no dialog open."""
    app = home
    kd.tap_key(app.root, "nav:players")
    screen = app.manager.current_screen
    assert screen.name == "players" and screen.dialog is None
    yield app, screen
    screen._close_dialog()
    kd.set_window(SIZES["landscape"])


def show_players(app) -> None:
    """Back on the Players screen, its cards made again and laid out."""
    app.go("players")
    kd.pump(4)


def choose(screen, name: str) -> None:
    """Tap ``name``'s Page button, scrolling the list of profiles to it first (the list
    grows with every player this module adds; a scroll settles over a few frames)."""
    button = kd.wait_for(screen, key=f"page:{name}")
    scroll = kd._in_scrollview(button)

    def in_view() -> bool:
        y = button.to_window(*button.pos)[1]
        bottom = scroll.to_window(*scroll.pos)[1]
        return bottom <= y and y + button.height <= bottom + scroll.height

    where = None
    for _ in range(60):
        kd.pump(2)
        now = button.to_window(*button.pos)
        if in_view() and now == where:
            break  # in view and no longer moving (a scroll can glide back for a few frames)
        if not in_view():
            scroll.scroll_to(button, padding=10, animate=False)
        where = now
    kd.tap(button)
    assert screen.chosen == name


def shot_of_dialog(view, shots, name: str) -> None:
    """A picture of an open dialog (``kd.shot`` draws the app under it only)."""
    shots.mkdir(parents=True, exist_ok=True)
    path = shots / f"{name}.png"
    kd.pump(2, draw=True)
    view.export_to_png(str(path))
    assert path.stat().st_size > 1000


def card_text(screen, name: str) -> str:
    return kd.texts(kd.find(screen, key=f"profile:{name}"))


def test_a_rename_keeps_the_games_wins_and_page(players):
    app, screen = players
    sid = finished_game(app, "Ria", "Sol")
    before = as_stored(app, sid)
    app.go_home()
    kd.pump()
    kd.tap_key(app.root, "nav:players")
    kd.pump(4)
    choose(screen, "Ria")
    kd.tap_key(screen, "player:rename")
    field = kd.find_open(key="rename:name")
    assert field.text == "Ria"
    kd.type_text(field, "Maria")
    kd.tap(kd.find_open(key="rename:yes"))
    assert screen.dialog is None
    assert "Ria is now called Maria." in kd.texts(screen)
    text = card_text(screen, "Maria")
    assert "1 played, 1 finished, 1 won" in text and "Also played as Ria" in text
    assert not kd.find_all(screen, key="profile:Ria")
    assert screen.chosen == "Maria" and screen.page_title.startswith("Maria: 1 played, 1 won of 1 finished")
    assert as_stored(app, sid) == before  # the game itself is as it was played
    # Sol's head-to-head names the profile, not the name she played under
    choose(screen, "Sol")
    assert "Maria" in kd.texts(screen.ids.rivals) and "Ria" not in kd.texts(screen.ids.rivals).split()


def test_a_refused_rename_says_why_in_the_dialog_and_changes_nothing(players):
    app, screen = players
    sid = game_in_play(app, "Vik", "Wyn")
    show_players(app)
    choose(screen, "Vik")
    kd.tap_key(screen, "player:rename")
    for name, words in (
        ("wyn", "already a player called 'Wyn'"),
        ("", "cannot be empty"),
        ("V" * 65, "at most 64 characters"),
    ):
        kd.type_text(kd.find_open(key="rename:name"), name)
        kd.tap(kd.find_open(key="rename:yes"))
        assert screen.dialog is not None and words in kd.texts(screen.dialog)
    kd.tap(kd.find_open(key="rename:no"))
    assert screen.dialog is None
    assert app.store.session(sid).profiles == ("Vik", "Wyn")
    assert {"Vik", "Wyn"} <= {p.name for p in app.store.players()}


def test_a_merge_is_offered_only_for_someone_else_and_asks_first(players):
    app, screen = players
    finished_game(app, "Tomas", "Uli")
    game_in_play(app, "Tom", "Uli")
    show_players(app)
    choose(screen, "Tom")
    kd.tap_key(screen, "player:merge")
    offered = {w.key for w in kd.find_all(screen.dialog, key=lambda k: k.startswith("merge:into:"))}
    assert "merge:into:Tomas" in offered
    assert "merge:into:Uli" not in offered and "merge:into:Tom" not in offered  # sat together / himself
    kd.tap(kd.find_open(key="merge:into:Tomas"))
    kd.tap(kd.find_open(key="confirm:no"))  # changed their mind: nothing happens
    assert {"Tom", "Tomas"} <= {p.name for p in app.store.players()}
    kd.tap_key(screen, "player:merge")
    kd.tap(kd.find_open(key="merge:into:Tomas"))
    kd.tap(kd.find_open(key="confirm:yes"))
    assert "Tom merged into Tomas." in kd.texts(screen)
    assert "Tom" not in {p.name for p in app.store.players()}
    text = card_text(screen, "Tomas")
    assert "2 played, 1 finished, 1 won" in text and "Also played as Tom" in text


def test_delete_asks_first_and_refuses_a_player_with_games(players):
    app, screen = players
    game_in_play(app, "Xan", "Yul")
    show_players(app)
    kd.type_text(kd.find(screen, key="new_name"), "Zack")
    kd.tap_key(screen, "add_player")
    choose(screen, "Xan")
    kd.tap_key(screen, "player:delete")
    assert "Xan cannot be deleted: Xan sat in game" in screen.error and "merge Xan into" in screen.error
    assert screen.dialog is None and "Xan" in {p.name for p in app.store.players()}
    choose(screen, "Zack")
    kd.tap_key(screen, "player:delete")
    kd.tap(kd.find_open(key="confirm:no"))
    assert "Zack" in {p.name for p in app.store.players()}
    kd.tap_key(screen, "player:delete")
    kd.tap(kd.find_open(key="confirm:yes"))
    assert "Zack was deleted." in kd.texts(screen)
    assert "Zack" not in {p.name for p in app.store.players()}
    assert not kd.find_all(screen, key="profile:Zack")


def test_a_profile_changed_elsewhere_is_not_changed_blindly(players):
    app, screen = players
    app.store.add_player("Abe")
    show_players(app)
    choose(screen, "Abe")
    kd.tap_key(screen, "player:rename")
    app.store.rename_player("Abe", "Abel")  # another window or the command line
    app.store.add_player("Abe")  # and someone new takes the name
    kd.type_text(kd.find_open(key="rename:name"), "Abraham")
    kd.tap(kd.find_open(key="rename:yes"))
    assert "another window" in screen.error
    assert {"Abe", "Abel"} <= {p.name for p in app.store.players()}
    assert "Abraham" not in {p.name for p in app.store.players()}


@pytest.mark.parametrize("orientation", list(SIZES))
def test_the_players_screen_and_its_dialogs_fit(players, shots, orientation):
    from kivy.core.window import Window
    from kivy.metrics import dp
    from kivy.uix.behaviors import ButtonBehavior

    app, screen = players
    for name in ("Bo", "Cai", "Dov", "Eli", "Fay", "Gus", "Hal"):
        app.store.add_player(name)
    kd.set_window(SIZES[orientation])
    show_players(app)
    choose(screen, "Bo")
    problems = []

    def check(root, what):
        width, height = Window.size
        for w in kd.walk(root):
            if not kd.visible(w):
                continue
            if isinstance(w, ButtonBehavior) and min(w.width, w.height) < dp(48):
                problems.append(
                    f"{what}: {type(w).__name__} {getattr(w, 'text', '')!r} is {w.width:.0f}x{w.height:.0f}"
                )
            x, y = w.to_window(*w.pos)
            if kd._in_scrollview(w) is None and (
                x < -1 or y < -1 or x + w.width > width + 1 or y + w.height > height + 1
            ):
                problems.append(f"{what}: {type(w).__name__} {getattr(w, 'text', '')[:20]!r} off the window")
        problems.extend(f"{what}: {p}" for p in kd.outside_parent(root))

    for key in ("player:rename", "player:merge", "player:delete"):
        assert kd.visible(kd.find(screen, key=key))
    check(app.root, "screen")
    kd.shot(app, shots, f"players-{orientation}")
    kd.tap_key(screen, "player:rename")
    check(screen.dialog, "rename")
    shot_of_dialog(screen.dialog, shots, f"players-rename-{orientation}")
    kd.tap(kd.find_open(key="rename:no"))
    kd.tap_key(screen, "player:merge")
    check(screen.dialog, "merge")
    shot_of_dialog(screen.dialog, shots, f"players-merge-{orientation}")
    kd.tap(kd.find_open(key="merge:into:Cai"))
    check(Window.children[0], "confirm merge")
    kd.tap(kd.find_open(key="confirm:no"))
    assert not problems, f"{orientation}:\n" + "\n".join(problems)


def test_the_new_game_form_drops_a_seat_whose_profile_was_renamed(players):
    app, screen = players
    form = app.go("newgame")
    form.clear_seats()
    for name in ("Ines", "Jory"):
        kd.type_text(kd.find(form, key="new_name"), name)
        kd.tap_key(form, "add_player")
    assert list(form.seats) == ["Ines", "Jory"]
    show_players(app)
    choose(screen, "Ines")
    kd.tap_key(screen, "player:rename")
    kd.type_text(kd.find_open(key="rename:name"), "Inez")
    kd.tap(kd.find_open(key="rename:yes"))
    app.go("newgame")
    kd.pump(3)
    assert list(form.seats) == ["Jory"]  # not a new profile under the old name at the start
    kd.tap_key(form, "player:Inez")
    assert list(form.seats) == ["Jory", "Inez"]


def test_a_rematch_seats_a_renamed_player_by_their_profile(players):
    app, screen = players
    sid = finished_game(app, "Kim", "Lou")
    show_players(app)
    choose(screen, "Kim")
    kd.tap_key(screen, "player:rename")
    kd.type_text(kd.find_open(key="rename:name"), "Kimberly")
    kd.tap(kd.find_open(key="rename:yes"))
    app.open_session(sid)  # a finished game opens on its result
    kd.pump(3)
    assert app.manager.current == "over"
    kd.tap_key(app.root, "over:rematch")
    rematch = app.controller.session
    assert rematch.id != sid and rematch.players == ("Kimberly", "Lou")
    assert "Kim" not in {p.name for p in app.store.players()}  # no stray profile under the old name
    assert app.store.player_sessions("Kimberly") == [sid, rematch.id]
