"""Player profiles: renaming, merging and deleting them, each one transaction that changes
no game (journals, hashes, results), and refusals that leave the database as it was."""

from __future__ import annotations

import sqlite3

import pytest

from companion.errors import ExitCode
from companion.store import (
    GENESIS,
    BadName,
    NameTaken,
    NotFound,
    PlayedTogether,
    PlayerHasGames,
    ProfileChanged,
    Store,
    StoreReadOnly,
)
from companion.store.schema import MIGRATIONS, SCHEMA_VERSION
from tests.support.faults import read_only


def snapshot(path) -> list[str]:
    """Every row of the database as SQL (the file's bytes move between it and its WAL)."""
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


def play(store: Store, sid: int, *actions: dict) -> None:
    head = store.journal(sid)[-1].hash if store.journal(sid) else GENESIS
    for action in actions:
        head = store.append_action(sid, head, action).hash


@pytest.fixture
def table(tmp_path):
    """Ana and Ben played game 1 (Ana won); Benjamin and Cy game 2; Dee has no game yet."""
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        one = store.create_session("seven", {}, 1, ["Ana", "Ben"])
        play(store, one, {"type": "play", "player": "Ana"}, {"type": "play", "player": "Ben"})
        store.set_result(one, {"winners": ["Ana"], "scores": {"Ana": 3, "Ben": 1}})
        two = store.create_session("seven", {}, 2, ["Benjamin", "Cy"])
        play(store, two, {"type": "play", "player": "Benjamin"})
        store.add_player("Dee")
        store.update_profiles({"Ana": {"favourite": "rum"}, "Benjamin": {"ship": "Gull", "favourite": "tea"}})
    return path


def games_as_stored(store: Store) -> list[tuple]:
    """What a rename or merge must never change: every game's seats, journal and hashes."""
    return [
        (r.id, r.players, r.cursor, r.result, [(e.seq, e.action, e.hash) for e in store.journal(r.id)])
        for r in store.sessions()
    ]


def test_a_rename_keeps_the_games_and_their_journals_as_they_were(table):
    with Store.open(table) as store:
        before = games_as_stored(store)
        ana = store.player("Ana")
        record = store.rename_player("Ana", "Anna")
        assert (record.id, record.name) == (ana.id, "Anna")
        assert record.profile == {"favourite": "rum", "aliases": ["Ana"]}
        assert games_as_stored(store) == before  # same seats' names, actions and hashes
        assert store.session(1).players == ("Ana", "Ben") and store.session(1).profiles == ("Anna", "Ben")
        assert store.player_sessions("anna") == [1]
        with pytest.raises(NotFound):
            store.player("Ana")
    with Store.open(table) as store:  # durable
        assert store.player("Anna").id == ana.id


def test_a_game_in_play_goes_on_after_its_player_is_renamed(table):
    with Store.open(table) as store:
        head = store.journal(2)[-1].hash
        store.rename_player("Benjamin", "Ben J")
        entry = store.append_action(2, head, {"type": "play", "player": "Cy"})  # the head it saw still holds
        assert entry.seq == 2
        new = store.create_session("seven", {}, 3, ["Benjamin", "Cy"])  # the name is free again
        assert store.session(new).profiles == ("Benjamin", "Cy")
        assert store.player("Benjamin").id != store.player("Ben J").id


def test_a_rename_may_change_capitals_only_and_back(table):
    with Store.open(table) as store:
        assert store.rename_player("ana", "ANA").name == "ANA"
        assert store.player("ANA").profile.get("aliases") is None  # the same name, in other capitals
        store.rename_player("ANA", "Anita")
        assert store.rename_player("Anita", "Ana").profile["aliases"] == ["Anita"]


def test_renaming_to_the_same_name_changes_nothing(table):
    with Store.open(table) as store:
        before = snapshot(table)
        assert store.rename_player("Ana", "  Ana ").name == "Ana"
        assert snapshot(table) == before


def test_a_merge_counts_both_profiles_games_for_the_one_kept(table):
    with Store.open(table) as store:
        before = games_as_stored(store)
        ben, benjamin = store.player("Ben"), store.player("Benjamin")
        record = store.merge_players("Ben", "Benjamin")
        assert record.id == ben.id and record.name == "Ben"
        assert record.profile == {"ship": "Gull", "favourite": "tea", "aliases": ["Benjamin"]}
        assert store.player_sessions("Ben") == [1, 2]
        assert [p.name for p in store.players()] == ["Ana", "Ben", "Cy", "Dee"]
        assert store.session(2).players == ("Benjamin", "Cy") and store.session(2).profiles == ("Ben", "Cy")
        assert games_as_stored(store) == before
        with pytest.raises(NotFound):
            store.player_sessions("Benjamin")
        assert benjamin.id not in {p.id for p in store.players()}


def test_a_merge_keeps_the_facts_of_the_profile_kept(table):
    with Store.open(table) as store:
        store.rename_player("Ana", "Ana Maria")
        store.merge_players("Ana Maria", "Benjamin")
        profile = store.player("Ana Maria").profile
        assert profile["favourite"] == "rum" and profile["ship"] == "Gull"
        assert profile["aliases"] == ["Ana", "Benjamin"]


def test_a_player_without_games_can_be_deleted(table):
    with Store.open(table) as store:
        dee = store.delete_player("dee")
        assert dee.name == "Dee"
        assert "Dee" not in {p.name for p in store.players()}
        again = store.add_player("Dee")
        assert again.key != dee.key  # a new profile, even if SQLite gives its id again
        with pytest.raises(ProfileChanged):
            store.rename_player("Dee", "Dora", seen=dee.key)
        dee_key = again.key
        store.rename_player("Dee", "Dora", seen=dee_key)


def test_names_of_a_new_profile_are_checked(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        assert store.add_player("  Ana  ").name == "Ana"
        assert store.add_player("Ünal 🏴‍☠️").name == "Ünal 🏴‍☠️"  # any script, emoji joined by U+200D
        assert len(store.add_player("x" * 64).name) == 64
        for bad in ("", "   ", "x" * 65, "Ana\nBen", "A\tB", "A\x00", "A\u2028B"):
            with pytest.raises(BadName):
                store.add_player(bad)
            with pytest.raises(BadName):
                store.create_session("seven", {}, 1, ["Cy", bad])
        assert [p.name for p in store.players()] == ["Ana", "x" * 64, "Ünal 🏴‍☠️"]
        assert store.sessions() == []


REFUSALS = [
    (lambda s: s.rename_player("Ana", "ben"), NameTaken, ExitCode.ERROR, "already a player called 'Ben'"),
    (lambda s: s.rename_player("Ana", ""), BadName, ExitCode.USAGE, "cannot be empty"),
    (lambda s: s.rename_player("Ana", "  "), BadName, ExitCode.USAGE, "cannot be empty"),
    (lambda s: s.rename_player("Ana", "A" * 65), BadName, ExitCode.USAGE, "at most 64 characters"),
    (lambda s: s.rename_player("Ana", "Ana\nBen"), BadName, ExitCode.USAGE, "line breaks"),
    (lambda s: s.rename_player("Zed", "Zeb"), NotFound, ExitCode.NOT_FOUND, "no player called 'Zed'"),
    (lambda s: s.rename_player("", "Zeb"), BadName, ExitCode.USAGE, "name given is empty"),
    (lambda s: s.rename_player("Ana", "Anna", seen=(1, "then")), ProfileChanged, ExitCode.STALE, "another window"),
    (lambda s: s.merge_players("Ana", "Ben"), PlayedTogether, ExitCode.ERROR, "same table in game 1"),
    (lambda s: s.merge_players("Ana", "ANA"), BadName, ExitCode.USAGE, "the same player"),
    (lambda s: s.merge_players("Ana", "Zed"), NotFound, ExitCode.NOT_FOUND, "no player called 'Zed'"),
    (lambda s: s.merge_players("Zed", "Ana"), NotFound, ExitCode.NOT_FOUND, "no player called 'Zed'"),
    (
        lambda s: s.merge_players("Ben", "Benjamin", seen=(s.player("Ben").key, (3, "x"))),
        ProfileChanged,
        ExitCode.STALE,
        "renamed",
    ),
    (lambda s: s.delete_player("Ana"), PlayerHasGames, ExitCode.ERROR, "Ana sat in game 1, which keeps"),
    (lambda s: s.delete_player("Zed"), NotFound, ExitCode.NOT_FOUND, "no player called 'Zed'"),
    (lambda s: s.delete_player("Dee", seen=s.player("Ana").key), ProfileChanged, ExitCode.STALE, "look"),
]


@pytest.mark.parametrize(
    ("change", "error", "code", "words"), REFUSALS, ids=[f"{r[1].__name__}-{i}" for i, r in enumerate(REFUSALS)]
)
def test_a_refused_change_says_why_in_one_line_and_changes_nothing(table, change, error, code, words):
    before = snapshot(table)
    with Store.open(table) as store:
        with pytest.raises(error, match=words) as caught:
            change(store)
        assert caught.value.exit_code == code
        assert "\n" not in str(caught.value)
        assert store.player("Ana").name == "Ana"  # the store still works
    assert snapshot(table) == before


def test_players_who_shared_several_games_are_named_with_them(table):
    with Store.open(table) as store:
        for seed in range(3, 8):
            store.create_session("seven", {}, seed, ["Cy", "Dee"])
        with pytest.raises(PlayedTogether) as caught:
            store.merge_players("Cy", "Dee")
        assert caught.value.games == (3, 4, 5, 6, 7)
        assert "5 games (3, 4, 5 and 2 more)" in str(caught.value)


def test_the_profile_a_window_saw_guards_its_change(table):
    with Store.open(table) as store:
        seen = store.player("Ana").key
        store.rename_player("Ana", "Anna")  # another window renames her ...
        store.add_player("Ana")  # ... and someone new takes the name
        with pytest.raises(ProfileChanged):
            store.delete_player("Ana", seen=seen)  # the window's "delete Ana" meant her
        assert store.rename_player("Anna", "Annie", seen=seen).key == seen


def test_a_read_only_database_refuses_every_change(table):
    before = snapshot(table)
    with read_only(table.parent), Store.open(table) as store:
        assert store.read_only
        for change in (
            lambda: store.rename_player("Ana", "Anna"),
            lambda: store.merge_players("Ben", "Benjamin"),
            lambda: store.delete_player("Dee"),
        ):
            with pytest.raises(StoreReadOnly) as caught:
                change()
            assert caught.value.exit_code == ExitCode.STORAGE
        assert store.player_sessions("Ana") == [1]  # reading still works
    assert snapshot(table) == before


def test_a_failure_inside_a_merge_undoes_all_of_it(table):
    before = snapshot(table)
    with Store.open(table) as store:
        with pytest.raises(RuntimeError), store.transaction():
            store.merge_players("Ben", "Benjamin")
            raise RuntimeError("the next step of the same change failed")
        assert store.player("Benjamin").name == "Benjamin"
    assert snapshot(table) == before


def test_a_version_2_database_keeps_its_seat_names(tmp_path):
    path = tmp_path / "v2.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0] + MIGRATIONS[1] + "\nPRAGMA user_version = 2;")
    conn.execute("INSERT INTO players (name, created) VALUES ('Ana', 'x'), ('Ben', 'x')")
    conn.execute(
        "INSERT INTO sessions (game, config, seed, created, updated, uuid) VALUES ('seven', '{}', 1, 'x', 'x', 'u')"
    )
    conn.execute("INSERT INTO seats VALUES (1, 0, 2), (1, 1, 1)")
    conn.commit()
    conn.close()
    with Store.open(path) as store:
        assert store._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert store.session(1).players == ("Ben", "Ana")
        store.rename_player("Ben", "Benedict")
        assert store.session(1).players == ("Ben", "Ana")
        assert store.session(1).profiles == ("Benedict", "Ana")
