"""Two writers on one game: the app and a second process (`purser`) on the same database.

A move made from a view the other process has overtaken is not saved; the app shows the
game as it now stands, says what changed, offers its legal actions, and goes on.
"""

from __future__ import annotations

from tests.support.cli import PurserCLI
from tests.ui import kivy_driver as kd


def test_a_stale_move_is_refused_and_the_screen_refreshed_and_offered_again(home, shots):
    app = home
    app.start_game("seven", ["Ana", "Ben", "Cy"], {}, seed=3)
    kd.pump(3)
    c = app.controller
    sid = c.session.id
    other = PurserCLI(app.db_path)

    assert c.act({"type": "play", "player": "Ana", "total": 3})
    # The other process takes the move back and plays a different one: same count, other game.
    other.run("undo", str(sid))
    other.play_ok(sid, [{"type": "play", "player": "Ana", "total": 5}])

    revision = c.revision
    assert not c.act({"type": "play", "player": "Ben", "total": 4})  # legal only on the 3 the app saw
    kd.pump(3)
    assert c.message_kind == "error"
    assert "changed in another window or process" in c.message and "move 1 (play by Ana)" in c.message
    assert c.revision > revision
    assert "the pile shows 5" in c.summary.prompt
    assert "the pile shows 5" in kd.texts(app.root)
    assert {"type": "play", "player": "Ben", "card": 6, "on": "hole"} in c.legal  # offered on the 5 now shown
    shown = other.show(sid, history=5)
    assert [h["action"]["total"] for h in shown["history"]] == [5]
    kd.shot(app, shots, "stale-write-refreshed")

    # The refreshed screen plays on, and so does an undo from a view that is current again.
    assert c.act({"type": "play", "player": "Ben", "total": 6})
    other.play_ok(sid, [{"type": "penalty", "player": "Cy"}])
    assert not c.undo()  # the app's view predates Cy's penalty
    assert "move 3 (penalty by Cy) was played" in c.message
    assert c.undo() and c.session.cursor == 2
    assert other.show(sid)["cursor"] == 2


def test_an_idle_screen_shows_a_move_made_on_another_device_by_itself(home):
    app = home
    app.start_game("seven", ["Ana", "Ben", "Cy"], {}, seed=4)
    kd.pump(3)
    c = app.controller
    sid = c.session.id
    other = PurserCLI(app.db_path)
    revision = c.revision

    other.play_ok(sid, [{"type": "play", "player": "Ana", "total": 4}])
    kd.wait_until(lambda: c.session.cursor == 1, 10, "the app to notice the other device's move")
    assert c.message_kind == "info"
    assert c.message == "Changed on another device or window: move 1 (play by Ana) was played."
    assert "the pile shows 4" in c.summary.prompt
    assert "the pile shows 4" in kd.texts(app.root)
    assert c.revision > revision and c.legal == c.session.legal_actions()  # offered on the 4 now shown

    other.run("undo", str(sid))
    kd.wait_until(lambda: c.session.cursor == 0, 10, "the app to notice the undo")
    assert c.message == "Changed on another device or window: move 1 was taken back."
    # Nothing changed elsewhere: following says nothing and keeps the message.
    assert not c.follow()
    assert c.act({"type": "play", "player": "Ana", "total": 2})
    assert other.show(sid)["cursor"] == 1
