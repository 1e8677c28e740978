"""SIGKILL between every two steps of a user action: the database is as before it or as after.

The action runs in a forked child that kills itself with SIGKILL just before its Nth SQL
statement, for every N the action executes. A finishing move writes the move, the
finished flag with the result, and titles on the players' profiles; an undo takes them
back; an import writes a whole game and its consequences. After each kill the database
must show the whole action or none of it.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.session import TableSession
from companion.store import Store
from tests.support.swashbuckle_plans import SOLO_417

# A solo Swashbuckle match (16 turns) whose last score finishes it and earns a title.
PLAN = SOLO_417
LAST = {"type": "score", "player": "Ana", "box": "piracy"}


def _snapshot(db: Path) -> tuple:
    """What a user could see: every game's position, finish and result, and every profile."""
    with Store.open(db) as store:
        games = tuple((r.id, r.cursor, r.finished, repr(r.result), len(store.actions(r.id))) for r in store.sessions())
        for r in store.sessions():
            TableSession(store, r.id)  # every game still replays
        return games, tuple((p.name, repr(p.profile)) for p in store.players())


def _run_killed_at(db: Path, action: Callable[[Store], None], kill_at: int | None) -> int:
    """Run ``action`` in a forked child killed before SQL statement ``kill_at``; returns how
    many statements it ran when not killed."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        count = 0
        try:
            store = Store.open(db)

            def trace(_sql: str) -> None:
                nonlocal count
                count += 1
                if count == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)

            store._conn.set_trace_callback(trace)
            action(store)
            store._conn.set_trace_callback(None)
            os.write(write, str(count).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        ran = pipe.read()
    _, status = os.waitpid(pid, 0)
    if kill_at is not None and ran == "":
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    return int(ran) if ran else -1


def _finish(sid: int) -> Callable[[Store], None]:
    return lambda store: TableSession(store, sid).apply(LAST)


def _undo(sid: int) -> Callable[[Store], None]:
    return lambda store: TableSession(store, sid).undo()


@pytest.fixture
def almost_finished(tmp_path) -> tuple[Path, int, dict]:
    db = tmp_path / "p.db"
    with Store.open(db) as store:
        s = TableSession.create(store, "swashbuckle", ["Ana"], seed=1)
        for dice, box in PLAN[:-1]:
            s.apply({"type": "roll", "player": "Ana", "dice": dice})
            s.apply({"type": "score", "player": "Ana", "box": box})
        s.apply({"type": "roll", "player": "Ana", "dice": PLAN[-1][0]})
        s.apply(LAST)
        export = s.export()  # the finished game, for the import case
        s.undo()
        assert not s.finished
    return db, s.id, export


def _every_kill_point(db: Path, action: Callable[[Store], None]) -> tuple[tuple, tuple, int]:
    """Kill before every statement of ``action``; returns (before, after, statements)."""
    pristine = db.read_bytes()
    before = _snapshot(db)
    statements = _run_killed_at(db, action, None)
    after = _snapshot(db)
    assert statements > 3 and after != before
    for kill_at in range(1, statements + 1):
        db.write_bytes(pristine)
        for extra in ("-wal", "-shm"):
            Path(str(db) + extra).unlink(missing_ok=True)
        _run_killed_at(db, action, kill_at)
        seen = _snapshot(db)
        assert seen in (before, after), f"killed before statement {kill_at} of {statements}: half an action"
    return before, after, statements


def test_a_finishing_move_killed_at_any_step_is_all_or_nothing(almost_finished):
    db, sid, _ = almost_finished
    before, after, _ = _every_kill_point(db, _finish(sid))
    (game_before,), (game_after,) = before[0], after[0]
    assert not game_before[2] and game_after[2]  # the finish flag came with the move
    assert "Captain" not in repr(before[1]) and "Captain" in repr(after[1])  # and so did the title


def test_an_undo_of_the_finishing_move_killed_at_any_step_is_all_or_nothing(almost_finished):
    db, sid, _ = almost_finished
    with Store.open(db) as store:
        TableSession(store, sid).redo()
    before, after, _ = _every_kill_point(db, _undo(sid))
    assert before[0][0][2] and not after[0][0][2]


def test_an_import_killed_at_any_step_is_all_or_nothing(almost_finished, tmp_path):
    _, _, export = almost_finished
    db = tmp_path / "other.db"
    Store.open(db).close()
    before, after, _ = _every_kill_point(db, lambda store: TableSession.import_(store, export))
    assert before[0] == () and after[0][0][2]
