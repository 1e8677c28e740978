"""Table sessions: the journal is the truth; undo, redo and reopening all replay it."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from companion.session import MalformedAction, NothingToUndo, TableSession, replay
from companion.store import GENESIS, AlreadyStored, Store, StoreError

ROUND = [
    {"type": "play", "player": "Ana", "card": 3, "on": "hole"},
    {"type": "play", "player": "Ben", "card": 4, "on": "number"},
    {"type": "play", "player": "Cy", "card": 7, "on": "hole"},
]


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "t.db") as s:
        yield s


@pytest.fixture
def session(store):
    return TableSession.create(store, "seven", ["Ana", "Ben", "Cy"], {"hand_size": 1, "rounds": 2}, seed=5)


def test_state_is_the_replay_of_the_journal(session):
    for action in ROUND:
        session.apply(action)
    states, _ = replay(session.game, session.config, session.players, session.seed, ROUND)
    assert session.state == states[-1]


def test_an_illegal_action_is_refused_and_nothing_is_stored(session, store):
    session.apply(ROUND[0])
    before = session.state
    with pytest.raises(IllegalAction, match=r"Cy's turn|Ben's turn"):
        session.apply({"type": "play", "player": "Cy", "card": 5, "on": "hole"})
    assert session.state == before
    assert store.actions(session.id) == [ROUND[0]]


def test_undo_and_redo_move_the_cursor_and_survive_reopening(tmp_path):
    path = tmp_path / "t.db"
    with Store.open(path) as store:
        s = TableSession.create(store, "seven", ["Ana", "Ben", "Cy"], {"hand_size": 1}, seed=5)
        for action in ROUND:
            s.apply(action)
        s.undo()
        assert s.cursor == 2 and s.can_redo
        sid, undone_state = s.id, s.state
    with Store.open(path) as store:
        again = TableSession(store, sid)
        assert again.cursor == 2 and again.state == undone_state
        entry = again.redo()
        assert entry.seq == 3 and "Cy lays a 7" in entry.text
        assert again.cursor == 3 and not again.can_redo


def test_a_new_action_after_undo_drops_the_redo_tail(session, store):
    for action in ROUND[:2]:
        session.apply(action)
    session.undo()
    session.apply({"type": "play", "player": "Ben", "card": 5, "on": "hole"})
    assert not session.can_redo
    assert store.actions(session.id)[-1]["card"] == 5
    assert len(store.actions(session.id)) == 2


def test_nothing_to_undo_or_redo_is_a_clear_error(session):
    with pytest.raises(NothingToUndo, match="nothing to undo"):
        session.undo()
    with pytest.raises(NothingToUndo, match="nothing to redo"):
        session.redo()


def test_history_says_what_happened_in_words(session):
    for action in ROUND:
        session.apply(action)
    session.undo()
    texts = [e.text for e in session.history()]
    assert texts[0] == "Ana lays a 3; the pile shows 3. Ana draws a card."
    assert len(texts) == 2
    assert session.history(include_undone=True)[-1].undone


def test_finishing_marks_the_session_with_its_winners_and_undo_reopens_it(store):
    s = TableSession.create(store, "seven", ["Ana", "Ben"], {"hand_size": 1, "rounds": 1}, seed=1)
    s.apply({"type": "play", "player": "Ana", "card": 7, "on": "hole"})
    record = store.session(s.id)
    assert record.finished and record.result["winners"] == ["Ana"]
    s.undo()
    assert not store.session(s.id).finished


def test_export_then_import_gives_the_same_game(session, tmp_path):
    for action in ROUND:
        session.apply(action)
    session.undo()
    with Store.open(tmp_path / "other.db") as other:
        copy = TableSession.import_(other, session.export())
        assert copy.state == session.state and copy.uuid == session.uuid
        assert copy.cursor == session.cursor and copy.can_redo


def test_importing_a_game_into_its_own_database_adds_nothing(session, store):
    session.apply(ROUND[0])
    with pytest.raises(AlreadyStored, match=f"already imported as game {session.id}"):
        TableSession.import_(store, session.export())
    assert [r.id for r in store.sessions()] == [session.id]


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "not a Purser game export"),
        ({"format": "purser-session", "version": 99}, "newer version"),
        ({"format": "purser-session", "version": 1, "game": "seven"}, "cannot be imported"),
        (
            {
                "format": "purser-session",
                "version": 1,
                "game": "seven",
                "players": ["A", "B"],
                "config": {},
                "seed": 1,
                "actions": [{"type": "penalty", "player": "A"}],
            },
            "cannot be imported",
        ),
        (
            {
                "format": "purser-session",
                "version": 1,
                "game": "seven",
                "players": ["A", "B"],
                "config": {},
                "seed": 10**30,
                "actions": [],
            },
            "seed must be",
        ),
        (
            {
                "format": "purser-session",
                "version": 1,
                "game": "seven",
                "players": ["A", "B"],
                "config": {},
                "seed": 1,
                "actions": [],
                "cursor": -1,
            },
            "stands at action -1",
        ),
    ],
)
def test_bad_imports_are_refused_and_store_nothing(store, data, message):
    with pytest.raises(StoreError, match=message):
        TableSession.import_(store, data)
    assert store.sessions() == []


def test_an_action_that_still_asks_for_hardware_is_not_applied(store):
    s = TableSession.create(store, "seven-seize", ["Ana", "Ben"], seed=1)
    with pytest.raises(IllegalAction, match="measurement first"):
        s.apply({"type": "weigh", "player": "Ana", "from": "scale"})
    assert s.cursor == 0


def test_resolving_an_unknown_source_is_refused(store):
    s = TableSession.create(store, "yahtzee", ["Ana", "Ben"], seed=1)
    with pytest.raises(MalformedAction, match='"from" must be "scale" or "camera", not "telescope"'):
        s.resolve({"type": "roll", "player": "Ana", "from": "telescope"})


def test_resolving_an_action_without_a_source_leaves_it_as_it_is(session):
    action = {"type": "play", "player": "Ana", "card": 3, "on": "hole"}
    assert session.resolve(action) == action


def test_a_game_whose_rules_no_longer_accept_its_journal_is_reported_damaged(store):
    sid = store.create_session("seven", {"hand_size": 1}, 1, ["Ana", "Ben"])
    store.append_action(sid, GENESIS, {"type": "penalty", "player": "Ana"})
    with pytest.raises(StoreError, match="cannot be replayed"):
        TableSession(store, sid)
