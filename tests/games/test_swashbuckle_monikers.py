"""Monikers and titles from a history of matches: every threshold boundary pinned."""

from __future__ import annotations

import pytest

from companion.games import find_game
from companion.games.swashbuckle.monikers import MatchResult, moniker_for, titles

SWASH = find_game("swashbuckle")


@pytest.mark.parametrize(
    "plunder, moniker",
    [
        (-40, "shark_bait"),
        (0, "shark_bait"),
        (129, "shark_bait"),
        (130, "knave"),
        (137, "knave"),
        (138, "cabin_boy"),
        (146, "cabin_boy"),
        (147, "scallywag"),
        (156, "scallywag"),
        (157, "sea_hag"),
        (168, "sea_hag"),
        (169, "rascalion"),
        (180, "rascalion"),
        (181, None),
        (200, None),
        (228, None),
        (229, "buccaneer"),
        (242, "buccaneer"),
        (243, "seadog"),
        (254, "seadog"),
        (255, "swashbuckler"),
        (266, "swashbuckler"),  # the rulebook's Sunnyseas: 255 -> Swashbuckler
        (267, "coxswain"),
        (289, "coxswain"),
        (290, "quartermaster"),
        (300, "quartermaster"),
        (301, "first_mate"),
        (340, "first_mate"),
        (341, "captain"),
        (500, "captain"),
    ],
)
def test_each_moniker_boundary(plunder, moniker):
    found = moniker_for(plunder)
    assert (found.key if found else None) == moniker


def history(*matches):
    return [MatchResult.of(m) for m in matches]


def test_no_history_no_titles():
    assert titles([]) == {}


def test_a_lower_score_never_takes_a_moniker_away():
    t = titles(history({"Sunny": 255, "Ben": 150}, {"Sunny": 140, "Ben": 200}))
    assert t["Sunny"].moniker.key == "swashbuckler" and t["Sunny"].best == 255
    assert t["Ben"].moniker.key == "scallywag"  # 200 earns none, 150 stays
    assert t["Sunny"].styled() == "Swashbuckler Sunny"


def test_a_score_with_no_moniker_gives_none():
    t = titles(history({"Ana": 200}))
    assert t["Ana"].moniker is None and t["Ana"].prefix == "" and t["Ana"].styled() == "Ana"


def test_only_one_captain_the_highest_match_score_keeps_it():
    t = titles(history({"Ana": 350, "Ben": 200}, {"Ana": 250, "Ben": 360}))
    assert t["Ben"].moniker.key == "captain"
    assert t["Ana"].moniker.key == "first_mate" and t["Ana"].demoted


def test_equal_best_scores_the_first_captain_keeps_it():
    t = titles(history({"Ana": 350}, {"Ben": 350}))
    assert (t["Ana"].moniker.key, t["Ben"].moniker.key) == ("captain", "first_mate")


@pytest.mark.parametrize(
    "scores, scourge",
    [
        ([], False),
        ([341, 341], False),
        ([341, 341, 340], False),  # 340 is not more than 340
        ([341, 400, 341], True),
        ([341, 100, 350, 200, 345], True),
    ],
)
def test_scourge_of_the_seven_seas_after_three_matches_above_340(scores, scourge):
    t = titles(history(*({"Ana": s, "Ben": 1, "Cy": 1} for s in scores)))
    assert t.get("Ana") is None if not scores else t["Ana"].scourge == scourge


def test_scourge_comes_before_the_moniker():
    t = titles(history(*({"Ana": 350} for _ in range(3))))
    assert t["Ana"].prefix == "Scourge of the 7 Seas Captain"


@pytest.mark.parametrize(
    "matches, kraken",
    [
        ([(331, 2)] * 6, True),
        ([(331, 2)] * 5, False),
        ([(331, 2)] * 3 + [(330, 2)] + [(331, 2)] * 3, False),  # 330 breaks the run
        ([(331, 2)] * 3 + [(200, 1)] + [(331, 2)] * 3, True),  # a match with one opponent is skipped
        ([(331, 1)] * 6, False),  # never against two others
        ([(100, 3)] + [(331, 3)] * 6, True),
        ([(331, 0)] * 6, False),  # solo matches
    ],
)
def test_kraken_after_six_matches_above_330_against_two_or_more(matches, kraken):
    hist = []
    for plunder, opponents in matches:
        hist.append({"Ana": plunder, **{f"P{i}": 100 for i in range(opponents)}})
    t = titles(history(*hist))
    assert t["Ana"].kraken == kraken


def test_kraken_is_not_a_moniker():
    t = titles(history(*({"Ana": 335, "Ben": 1, "Cy": 1} for _ in range(6))))
    assert t["Ana"].moniker.key == "first_mate" and t["Ana"].kraken
    assert t["Ana"].styled("Sunnyseas") == "First Mate Kraken Sunnyseas"


def test_titles_from_stored_results_read_the_moniker_plunder():
    results = [
        {"scores": {"Ana": 700.0, "Ben": 100.0}, "detail": {"moniker_plunder": {"Ana": 350, "Ben": 50}}},
        {"scores": {"Ana": 260.0}},  # no detail: the scores are used
    ]
    found = SWASH.titles_from_results(results)
    assert found["Ana"]["moniker"] == "captain" and found["Ana"]["title"] == "Captain"
    assert found["Ben"]["moniker"] == "shark_bait"


@pytest.mark.parametrize(
    "profiles, rules",
    [
        ({}, {}),
        ({"Ana": {}, "Ben": {"swashbuckle": {"moniker": "first_mate"}}}, {}),
        ({"Ana": {}, "Ben": {"swashbuckle": {"moniker": "captain"}}}, {"captain": "Ben"}),
        (
            {"Ana": {"swashbuckle": {"pirate_name": "Davy Jones"}}, "Ben": {"swashbuckle": {"moniker": "captain"}}},
            {"captain": "Ben", "davy_jones": "Ana"},
        ),
    ],
)
def test_a_seated_captain_becomes_the_captain_setting(profiles, rules):
    assert SWASH.rules_from_profiles(profiles) == rules


def test_the_last_davy_jones_keeps_the_name_and_earlier_ones_must_rename():
    results = [
        {"scores": {"Ana": 200.0, "Ben": 150.0}, "detail": {"davy_jones": "Ana"}},
        {"scores": {"Cy": 260.0, "Ben": 150.0}, "detail": {"davy_jones": None}},  # Ana not seated: nothing changes
    ]
    found = SWASH.titles_from_results(results)
    assert found["Ana"]["pirate_name"] == "Davy Jones" and found["Ana"]["title"] == "Davy Jones"
    assert "pirate_name" not in found["Cy"]
    found = SWASH.titles_from_results([*results, {"scores": {"Cy": 300.0}, "detail": {"davy_jones": "Cy"}}])
    assert found["Cy"]["pirate_name"] == "Davy Jones" and found["Cy"]["title"] == "Quartermaster Davy Jones"
    assert found["Ana"]["pirate_name"] is None and found["Ana"]["must_rename"] is True
