"""Titles on player profiles, derived from the stored finished matches."""

from __future__ import annotations

from companion.games import find_game
from companion.session.table import TableSession
from companion.session.titles import refresh_titles, rematch_rules, seating_rules
from companion.store import Store
from tests.support.swashbuckle_plans import SOLO_417

# 16 solo turns: (dice, box). All five-dice boxes score; the total is fixed by the plan.
HIGH = SOLO_417


def play_solo(store, name, plan, **rules):
    session = TableSession.create(store, "swashbuckle", [name], rules, seed=1)
    for dice, box in plan:
        session.apply({"type": "roll", "player": name, "dice": dice})
        session.apply({"type": "score", "player": name, "box": box})
    assert session.finished
    return session


def test_titles_follow_the_finished_matches(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        store.add_player("Ana")
        store.update_profiles({"Ana": {"favourite": "rum"}})
        session = play_solo(store, "Ana", HIGH)
        assert session.summary().scores == {"Ana": 417}
        profile = store.player("Ana").profile
        assert profile["favourite"] == "rum"  # other facts are kept
        assert profile["titles"] == {"swashbuckle": "Captain"}
        assert profile["swashbuckle"]["best"] == 417 and profile["swashbuckle"]["matches"] == 1
        # refreshing again changes nothing: nothing is counted twice
        refresh_titles(store, find_game("swashbuckle"))
        assert store.player("Ana").profile == profile
        # the Captain starts any match she sits in
        assert seating_rules(store, find_game("swashbuckle"), ["Ben", "Ana"]) == {"captain": "Ana"}
        assert seating_rules(store, find_game("seven"), ["Ben", "Ana"]) == {}
        session.undo()
        assert store.player("Ana").profile == {"favourite": "rum"}


def test_scourge_after_three_matches_above_340(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        for _ in range(3):
            play_solo(store, "Ana", HIGH)
        assert store.player("Ana").profile["titles"]["swashbuckle"] == "Scourge of the 7 Seas Captain"


def test_a_table_may_overrule_the_captain_setting(tmp_path):
    with Store.open(tmp_path / "p.db") as store:
        play_solo(store, "Ana", HIGH)
        session = TableSession.create(store, "swashbuckle", ["Ben", "Ana"], {"captain": ""}, seed=2)
        assert session.config["captain"] == "" and session.state.phase == "roll_off"


def test_a_rematch_keeps_the_house_rules_but_not_a_title_holders_seat():
    rules = rematch_rules({"captain": "Ana", "columns": 2, "pillage_mode": "add"}, ["Ana", "Ben"])
    assert rules == {"columns": 2, "pillage_mode": "add"}
    assert rematch_rules({"captain": "ANA"}, ["ana"]) == {}  # names match whatever their case
    assert rematch_rules({"captain": "Cy"}, ["Ana", "Ben"]) == {"captain": "Cy"}  # not seated: kept
