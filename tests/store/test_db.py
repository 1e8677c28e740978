"""The database: durable writes, and refusing files it must not touch."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from companion.store import NotFound, Store, StoreConflict, StoreCorrupt, StoreTooNew
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


def test_new_database_has_schema_wal_and_full_sync(tmp_path):
    path = tmp_path / "sub" / "new.db"
    with Store.open(path) as store:
        conn = store._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_sessions_and_actions_survive_reopening(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        sid = store.create_session("seven", {"rounds": 7}, 42, ["Ana", "Ben"])
        assert store.append_action(sid, 0, {"type": "a"}) == 1
        assert store.append_action(sid, 1, {"type": "b"}) == 2
    with Store.open(path) as store:
        record = store.session(sid)
        assert (record.game, record.seed, record.players, record.cursor) == ("seven", 42, ("Ana", "Ben"), 2)
        assert record.config == {"rounds": 7}
        assert store.actions(sid) == [{"type": "a"}, {"type": "b"}]


def test_appending_after_undo_drops_the_redo_tail(store):
    sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    for i in range(3):
        store.append_action(sid, i, {"n": i})
    store.set_cursor(sid, 3, 1)
    store.append_action(sid, 1, {"n": "new"})
    assert store.actions(sid) == [{"n": 0}, {"n": "new"}]
    assert store.session(sid).cursor == 2


def test_a_stale_cursor_is_a_conflict_and_writes_nothing(store):
    sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    store.append_action(sid, 0, {"n": 0})
    with pytest.raises(StoreConflict):
        store.append_action(sid, 0, {"n": "stale"})
    with pytest.raises(StoreConflict):
        store.set_cursor(sid, 0, 1)
    assert store.actions(sid) == [{"n": 0}]


def test_players_are_profiles_shared_between_sessions(store):
    store.create_session("seven", {}, 1, ["Ana", "Ben"])
    store.create_session("seven", {}, 1, ["ana", "Cy"])
    assert [p.name for p in store.players()] == ["Ana", "Ben", "Cy"]
    store.update_profiles({"Ana": {"titles": {"swashbuckle": "Captain"}}})
    assert store.player("ANA").profile == {"titles": {"swashbuckle": "Captain"}}
    with pytest.raises(NotFound):
        store.player("Zed")


def test_sessions_list_unfinished_first_then_most_recent(store):
    a = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    b = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    c = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    store.set_result(b, {"winners": ["Ana"]})
    store.append_action(a, 0, {"n": 0})  # a was played most recently
    assert [r.id for r in store.sessions()] == [a, c, b]
    assert store.session(b).result == {"winners": ["Ana"]}


def test_missing_session_is_not_found(store):
    with pytest.raises(NotFound, match="no game session 99"):
        store.session(99)


# -- refusing files ---------------------------------------------------------------------------

@pytest.mark.parametrize(
    "content",
    [
        b"this is a text file, not a database\n" * 10,
        b"SQLite format 3\x00" + b"\xff" * 200,
        b"\x00" * 4096,
    ],
    ids=["text", "bad-header", "zeros"],
)
def test_garbage_files_are_refused_and_left_untouched(tmp_path, content):
    path = tmp_path / "bad.db"
    path.write_bytes(content)
    before = digest(path)
    with pytest.raises(StoreCorrupt, match="left untouched"):
        Store.open(path)
    assert digest(path) == before
    assert not (tmp_path / "bad.db-wal").exists()


def test_a_damaged_purser_database_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
        for i in range(200):
            store.append_action(sid, i, {"n": i, "pad": "x" * 200})
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, page):  # scribble over every other page body
        data[offset + 100 : offset + 900] = b"\xa5" * 800
    path.write_bytes(bytes(data))
    before = digest(path)
    with pytest.raises(StoreCorrupt):
        Store.open(path)
    assert digest(path) == before


def test_a_database_from_a_newer_purser_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "p.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreTooNew, match="newer version"):
        Store.open(path)
    assert digest(path) == before


def test_another_programs_database_is_refused(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.commit()
    conn.close()
    before = digest(path)
    with pytest.raises(StoreCorrupt, match="another program"):
        Store.open(path)
    assert digest(path) == before


def test_an_empty_file_becomes_a_new_database(tmp_path):
    path = tmp_path / "empty.db"
    path.touch()
    with Store.open(path) as store:
        assert store.sessions() == []
