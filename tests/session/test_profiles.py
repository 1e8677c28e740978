"""Renaming and merging profiles: statistics and titles follow the profile, games (their
journals, exports, replays) stay exactly as they were played."""

from __future__ import annotations

import json

import pytest

from companion.games import find_game
from companion.session import TableSession
from companion.session import profiles as profiles_module
from companion.session.exports import read_export
from companion.session.profiles import merge_candidates, merge_players, player_stats, rename_player
from companion.session.titles import as_profiles, seating_rules
from companion.store import PlayedTogether, Store
from tests.session.test_titles import HIGH, play_solo
from tests.support.faults import digest

ONE_CARD = {"hand_size": 1, "rounds": 1}


def stats_of(store, name):
    return next(s for s in player_stats(store) if s.name == name)


def test_a_renamed_captain_keeps_the_title_and_starts_the_next_match(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        play_solo(store, "Ana", HIGH)
        titles = store.player("Ana").profile["titles"]
        rename_player(store, "Ana", "Anna")
        profile = store.player("Anna").profile
        assert profile["titles"] == titles == {"swashbuckle": "Captain"}
        assert profile["aliases"] == ["Ana"]
        assert seating_rules(store, find_game("swashbuckle"), ["Ben", "Anna"]) == {"captain": "Anna"}
        assert seating_rules(store, find_game("swashbuckle"), ["Ben", "Ana"]) == {}  # a new player now
        s = stats_of(store, "Anna")
        assert (s.played, s.finished, s.wins, dict(s.wins_by_game)) == (1, 1, 1, {"swashbuckle": 1})


def test_merged_matches_earn_the_titles_of_the_whole_history(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        play_solo(store, "Ben", HIGH)
        play_solo(store, "Benjamin", HIGH)
        play_solo(store, "Benjamin", HIGH)
        assert store.player("Ben").profile["titles"] == {"swashbuckle": "Captain"}  # 1 match above 340
        merge_players(store, "Ben", "Benjamin")
        assert store.player("Ben").profile["titles"] == {"swashbuckle": "Scourge of the 7 Seas Captain"}
        assert store.player("Ben").profile["swashbuckle"]["matches"] == 3
        assert [p.name for p in store.players()] == ["Ben"]
        s = stats_of(store, "Ben")
        assert (s.played, s.wins, s.aliases) == (3, 3, ["Benjamin"])


def test_a_failing_titles_step_leaves_the_merge_undone(tmp_path, monkeypatch):
    path = tmp_path / "p.db"
    with Store.open(path) as store:
        play_solo(store, "Ben", HIGH)
        store.add_player("Benjamin")
    with Store.open(path) as store:
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = digest(path)

    def broken(_store):
        raise OSError("titles could not be worked out")

    monkeypatch.setattr(profiles_module, "_refresh_all_titles", broken)
    with Store.open(path) as store:
        with pytest.raises(OSError):
            merge_players(store, "Ben", "Benjamin")
        assert [p.name for p in store.players()] == ["Ben", "Benjamin"]
        with pytest.raises(OSError):
            rename_player(store, "Ben", "Benedict")
        assert store.player("Ben").profile["titles"] == {"swashbuckle": "Captain"}
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert digest(path) == before


def test_a_game_open_in_another_window_plays_on_through_a_rename(tmp_path):
    path = tmp_path / "p.db"
    with Store.open(path) as store, Store.open(path) as other:
        game = TableSession.create(store, "seven", ["Ana", "Ben"], ONE_CARD, seed=5)
        exported = game.export()
        rename_player(other, "Ana", "Anna")  # another window, another connection
        game.apply({"type": "play", "player": "Ana", "card": 7, "on": "hole"})  # no stale write: same game
        assert game.finished and game.summary().winners == ("Ana",)
        assert game.players == ("Ana", "Ben")
        assert TableSession(store, game.id).profiles == ("Anna", "Ben")
        s = stats_of(store, "Anna")
        assert (s.played, s.finished, s.wins) == (1, 1, 1)
        assert {x.name for x in player_stats(store)} == {"Anna", "Ben"}
        assert exported["players"] == ["Ana", "Ben"]


def test_exports_and_replays_are_the_same_before_and_after(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        first = TableSession.create(store, "seven", ["Ana", "Ben"], ONE_CARD, seed=5)
        first.apply({"type": "play", "player": "Ana", "card": 7, "on": "hole"})
        second = TableSession.create(store, "seven", ["Benjamin", "Cy"], ONE_CARD, seed=6)
        before = [TableSession(store, s.id).export() for s in (first, second)]
        rename_player(store, "Ana", "Anna")
        merge_players(store, "Ben", "Benjamin")
        after = [TableSession(store, s.id).export() for s in (first, second)]
        assert after == before  # same journal, same names, same checksum
        for s in (first, second):
            again = TableSession(store, s.id)  # the journal replays as it was played
            assert again.state == s.state and again.head == s.head
    with Store.open(tmp_path / "q.db") as elsewhere:  # and imports elsewhere as it was played
        imported = TableSession.import_(elsewhere, read_export(json.dumps(after[0])))
        assert imported.players == ("Ana", "Ben") and imported.finished


def test_players_who_sat_together_are_no_merge_candidates(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        TableSession.create(store, "seven", ["Ana", "Ben"], seed=1)
        TableSession.create(store, "seven", ["Benjamin", "Cy"], seed=2)
        store.add_player("Dee")
        assert merge_candidates(store, "Ben") == ["Benjamin", "Cy", "Dee"]
        assert merge_candidates(store, "Benjamin") == ["Ana", "Ben", "Dee"]
        merge_players(store, "Ben", "Benjamin")
        assert merge_candidates(store, "Ben") == ["Dee"]  # now sat with Ana and Cy
        with pytest.raises(PlayedTogether):
            merge_players(store, "Ben", "Cy")


def test_results_name_the_profiles_when_titles_are_worked_out():
    result = {
        "scores": {"Ana": 300, "Ben": 200},
        "winners": ["Ana"],
        "detail": {"moniker_plunder": {"Ana": 310}},
        "prompt": "Game over: Ana won",
    }
    # Ana is now called Ben, and Ben is now called Bob: both at once, never one into the other
    swapped = as_profiles(result, ["Ana", "Ben"], ["Ben", "Bob"])
    assert swapped["scores"] == {"Ben": 300, "Bob": 200}
    assert swapped["winners"] == ["Ben"] and swapped["detail"] == {"moniker_plunder": {"Ben": 310}}
    assert swapped["prompt"] == "Game over: Ana won"  # words stay as they were said
    assert as_profiles(result, ["Ana", "Ben"], ["Ana", "Ben"]) is result


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda store: merge_players(store, "Ben", "Benjamin"), id="merge"),
        pytest.param(lambda store: rename_player(store, "Benjamin", "Benji"), id="rename"),
    ],
)
def test_a_merge_or_rename_killed_at_any_step_is_all_or_nothing(tmp_path, change):
    from tests.session.test_crash_points import _every_kill_point

    db = tmp_path / "p.db"
    with Store.open(db) as store:
        play_solo(store, "Ben", HIGH)
        play_solo(store, "Benjamin", HIGH)
        play_solo(store, "Benjamin", HIGH)
    before, after, statements = _every_kill_point(db, change)
    assert statements > 3 and before[1] != after[1]  # the profiles changed, and no game did:
    assert [g[:4] for g in before[0]] == [g[:4] for g in after[0]]
