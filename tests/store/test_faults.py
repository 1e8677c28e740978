"""The database under faults: a full disk (SQLite's page limit), a step of an action that
fails, read-only files, an older database to upgrade. Nothing half-written, ever."""

from __future__ import annotations

import sqlite3

import pytest

from companion.games import find_game
from companion.session import TableSession
from companion.store import GameDamaged, StorageFull, Store, StoreReadOnly, StoreUsage
from companion.store.schema import MIGRATIONS
from tests.support.faults import digest, read_only

ROUND = [
    {"type": "play", "player": "Ana", "card": 3, "on": "hole"},
    {"type": "play", "player": "Ben", "card": 4, "on": "number"},
]


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        s = TableSession.create(store, "seven", ["Ana", "Ben"], {"hand_size": 1, "rounds": 1}, seed=1)
        s.apply(ROUND[0])
    return path


def test_a_full_disk_refuses_the_action_and_leaves_everything_as_it_was(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        s = TableSession.create(store, "seven", ["Ana", "Ben", "Cy"], {"rounds": 7}, seed=1)
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages}")  # the disk holds not one page more
        saved = 0
        with pytest.raises(StorageFull, match=r"full.*nothing was saved"):
            for _ in range(1000):
                action = s.legal_actions()[0]
                before = (s.cursor, s.state, s.finished, store.actions(s.id), store.session(s.id).cursor)
                s.apply(action)
                saved += 1
        assert saved > 0
        assert (s.cursor, s.state, s.finished, store.actions(s.id), store.session(s.id).cursor) == before
        store._conn.execute(f"PRAGMA max_page_count = {pages + 100}")  # space again
        s.apply(action)
        assert TableSession(store, s.id).cursor == saved + 1


def test_a_failing_step_of_an_action_rolls_the_whole_action_back(db, monkeypatch):
    """The finishing move's titles step fails: the move and the finish flag go with it."""
    game = find_game("seven")

    def broken(_results):
        raise RuntimeError("titles step failed")

    monkeypatch.setattr(game, "titles_from_results", broken, raising=False)
    before = digest(db)
    with Store.open(db) as store:
        session = TableSession(store, 1)
        with pytest.raises(RuntimeError):
            session.apply({"type": "play", "player": "Ben", "card": 4, "on": "number"})
        assert session.cursor == 1 and not session.finished
        record = store.session(1)
        assert record.cursor == 1 and not record.finished and record.result is None
        assert len(store.actions(1)) == 1
    assert digest(db) == before


def test_nested_transactions_commit_together(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        with pytest.raises(ZeroDivisionError), store.transaction():
            store.add_player("Ana")
            with store.transaction():
                store.add_player("Ben")
            1 / 0  # noqa: B018
        assert store.players() == []


def test_a_read_only_database_reads_and_refuses_writes(db):
    before = digest(db)
    with read_only(db.parent), Store.open(db) as store:
        assert store.read_only
        session = TableSession(store, 1)
        assert session.cursor == 1
        with pytest.raises(StoreReadOnly, match="read-only"):
            session.apply(ROUND[1])
        assert session.cursor == 1
    assert digest(db) == before


def test_paths_that_name_no_database_are_refused(tmp_path):
    with pytest.raises(StoreUsage, match="no database file"):
        Store.open("")
    with pytest.raises(StoreUsage, match="is a folder"):
        Store.open(tmp_path)


def test_a_version_1_database_is_upgraded_with_ids_and_hashes(tmp_path):
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + "\nPRAGMA user_version = 1;")
    conn.execute("INSERT INTO players (name, created) VALUES ('Ana', 'x'), ('Ben', 'x')")
    conn.execute(
        "INSERT INTO sessions (game, config, seed, created, updated, cursor) "
        "VALUES ('seven', '{\"hand_size\": 1}', 1, 'x', 'x', 1)"
    )
    conn.execute("INSERT INTO seats VALUES (1, 0, 1), (1, 1, 2)")
    conn.execute("INSERT INTO actions VALUES (1, 1, ?, 'x')", ('{"type":"play","player":"Ana","card":3,"on":"hole"}',))
    conn.commit()
    conn.close()
    with Store.open(path) as store:
        session = TableSession(store, 1)
        assert session.cursor == 1 and len(session.uuid) == 36
        session.apply(ROUND[1])
    with Store.open(path) as store:
        assert TableSession(store, 1).cursor == 2


def test_an_edited_journal_row_is_damage_not_a_different_game(db):
    conn = sqlite3.connect(db)
    conn.execute(
        "UPDATE actions SET action = ? WHERE session_id = 1", ('{"type":"play","player":"Ana","card":5,"on":"hole"}',)
    )
    conn.commit()
    conn.close()
    with Store.open(db) as store, pytest.raises(GameDamaged, match=r"game 1 .* altered"):
        TableSession(store, 1)
