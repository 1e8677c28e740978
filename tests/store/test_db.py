"""The database: durable writes, and refusing files it must not touch."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from companion.store import GENESIS, NotFound, StaleWrite, Store, StoreCorrupt, StoreTooNew
from companion.store.schema import APPLICATION_ID, SCHEMA_VERSION


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "p.db") as s:
        yield s


def test_new_database_has_schema_wal_and_full_sync(tmp_path):
    path = tmp_path / "sub" / "new.db"
    with Store.open(path, create_folder=True) as store:
        conn = store._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def append(store, sid, *actions):
    """Append actions one after another from the current head; returns their entries."""
    entries = []
    for action in actions:
        journal = store.journal(sid)
        cursor = store.session(sid).cursor
        head = journal[cursor - 1].hash if cursor else GENESIS
        entries.append(store.append_action(sid, head, action))
    return entries


def test_sessions_and_actions_survive_reopening(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        sid = store.create_session("seven", {"rounds": 7}, 42, ["Ana", "Ben"])
        first = store.append_action(sid, GENESIS, {"type": "a"})
        second = store.append_action(sid, first.hash, {"type": "b"})
        assert (first.seq, second.seq) == (1, 2) and first.hash != second.hash
    with Store.open(path) as store:
        record = store.session(sid)
        assert (record.game, record.seed, record.players, record.cursor) == ("seven", 42, ("Ana", "Ben"), 2)
        assert record.config == {"rounds": 7}
        assert store.actions(sid) == [{"type": "a"}, {"type": "b"}]
        assert [e.hash for e in store.journal(sid)] == [first.hash, second.hash]


def test_appending_after_undo_drops_the_redo_tail(store):
    sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    entries = append(store, sid, {"n": 0}, {"n": 1}, {"n": 2})
    assert store.move_head(sid, entries[2].hash, entries[0].hash) == 1
    store.append_action(sid, entries[0].hash, {"n": "new"})
    assert store.actions(sid) == [{"n": 0}, {"n": "new"}]
    assert store.session(sid).cursor == 2


def test_a_stale_head_is_refused_and_writes_nothing(store):
    sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    (first,) = append(store, sid, {"type": "play", "player": "Ana"})
    with pytest.raises(StaleWrite, match="move 1 \\(play by Ana\\) was played"):
        store.append_action(sid, GENESIS, {"n": "stale"})
    with pytest.raises(StaleWrite):
        store.move_head(sid, GENESIS, first.hash)
    assert store.actions(sid) == [{"type": "play", "player": "Ana"}]


def test_undo_then_a_different_move_is_not_the_game_a_writer_saw(store):
    """ABA: the count of actions comes back to what it was, the head does not."""
    sid = store.create_session("seven", {}, 1, ["Ana", "Ben"])
    (seen,) = append(store, sid, {"type": "play", "player": "Ana", "total": 3})
    store.move_head(sid, seen.hash, GENESIS)
    store.append_action(sid, GENESIS, {"type": "play", "player": "Ana", "total": 5})
    before = store.actions(sid)
    with pytest.raises(StaleWrite, match="taken back") as caught:
        store.append_action(sid, seen.hash, {"type": "play", "player": "Ben", "total": 4})
    assert (caught.value.seq, caught.value.by) == (1, "Ana")
    assert store.actions(sid) == before


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
    append(store, a, {"n": 0})  # a was played most recently
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
        append(store, sid, *({"n": i, "pad": "x" * 200} for i in range(200)))
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
