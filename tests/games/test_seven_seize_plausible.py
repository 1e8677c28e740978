"""Weigh-off readings the pieces on the pan cannot give are refused, with the reason, and
change nothing: a typed or empty-pan 0 g, a removal that adds weight, 1e9 g, impossible
domino counts."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import IllegalAction
from companion.games import seven_seize as game
from companion.games.seven_seize.phases import start_weighoff
from companion.games.seven_seize.plausible import domino_counts, pip_range
from companion.games.seven_seize.weighing import ImpossibleReading
from companion.scale import open_scale
from tests.support.seize import new


def weighoff(collections: dict[str, int], players=("Ana", "Ben", "Cy"), **rules):
    """The weigh-off of a finished game whose collections hold ``collections`` pieces."""
    s = new(players, **rules)
    counts = tuple(collections[n] for n in s.seats)
    assert sum(counts) == 49
    s = replace(s, collections=counts, bag=0, round=7)
    return start_weighoff(s, [])


def weigh(state, player, **reading):
    return game.apply(state, {"type": "weigh", "player": player, **reading})


def refused(state, player, match, **reading):
    with pytest.raises(IllegalAction, match=match) as caught:
        weigh(state, player, **reading)
    return str(caught.value)


def test_zero_grams_for_twenty_pieces_is_refused_and_explained():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14})
    why = refused(s, "Ana", "cannot weigh 0.0 g", grams=0)
    assert "Ana's 20 pieces" in why and "lightest_piece_g" in why and "at least 4.0 g" in why
    assert "weigh again" in why and "\n" not in why


def test_zero_grams_for_twenty_pieces_cannot_win_a_cursed_game():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, cursed=True)
    refused(s, "Ana", "cannot weigh 0.0 g", grams=0)
    s, _ = weigh(s, "Ana", grams=61.0)
    s, _ = weigh(s, "Ben", grams=45.5)
    s, _ = weigh(s, "Cy", grams=40.0)
    assert game.summary(s).winners == ("Cy",)


def test_an_empty_simulated_pan_is_refused():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14})
    with open_scale("sim://?clock=virtual&seed=4") as scale:
        empty = scale.weigh_stable(timeout=30).to_json()
        scale.place([3.0] * 20)
        full = scale.weigh_stable(timeout=30).to_json()
    assert abs(empty["grams"]) < 0.5
    refused(s, "Ana", "Ana's 20 pieces cannot weigh", weighing=empty)
    s, events = weigh(s, "Ana", weighing=full)
    assert events[0]["type"] == "weighed" and s.weighoff.full[0].value == pytest.approx(60.0, abs=0.3)


def test_a_billion_grams_is_refused():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14})
    why = refused(s, "Ana", "cannot weigh 1000000000.0 g", grams=1e9)
    assert "heaviest_piece_g" in why and "at most 2000.0 g" in why


def test_removing_a_piece_cannot_add_weight():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, tie_confidence=0.95)
    s, _ = weigh(s, "Ana", grams=81.0)
    s, _ = weigh(s, "Ben", grams=80.5)  # a tie with Ana: both take one piece off
    s, _ = weigh(s, "Cy", grams=50.0)
    assert s.weighoff.waiting() == ("Ana", "Ben") and s.weighoff.on_pan("Ana") == 19
    before = s
    why = refused(s, "Ana", "removing a piece cannot add weight", grams=95.0)
    assert "95.0 g after removing 1 piece" in why and "81.0 g" in why
    assert s == before
    s, _ = weigh(s, "Ana", grams=77.0)
    s, _ = weigh(s, "Ben", grams=79.5)
    assert game.summary(s).winners == ("Ben",)


def test_the_same_pieces_weighed_again_must_agree():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, balance="two_pans")
    s, _ = weigh(s, "Ana", grams=81.0)
    s, _ = weigh(s, "Ben", grams=60.0)  # Ana stays in and meets Cy: both pans weighed afresh
    assert s.weighoff.waiting() == ("Ana", "Cy")
    why = refused(s, "Ana", "the same pieces cannot change weight", grams=70.0)
    assert "81.0 g before and 70.0 g now" in why
    s, _ = weigh(s, "Ana", grams=81.4)  # within the typed reading's uncertainty


def test_a_reading_only_the_house_rules_rule_out_may_be_kept_when_confirmed():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, lightest_piece_g=2.0)
    with pytest.raises(ImpossibleReading, match="lightest_piece_g") as caught:
        weigh(s, "Ana", grams=30.0)
    assert caught.value.confirmable, "a screen may offer to keep it"
    s, events = weigh(s, "Ana", grams=30.0, confirm=True)
    assert events[0]["type"] == "reading_confirmed" and "kept at the table's word" in events[0]["text"]
    assert s.weighoff.full[0].value == 30.0


def test_impossible_readings_cannot_be_confirmed_away():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14})
    s, _ = weigh(s, "Ana", grams=81.0)
    s, _ = weigh(s, "Ben", grams=80.5)
    s, _ = weigh(s, "Cy", grams=50.0)
    with pytest.raises(ImpossibleReading, match="cannot add weight") as caught:
        weigh(s, "Ana", grams=95.0, confirm=True)
    assert not caught.value.confirmable


def test_the_first_collections_weighed_narrow_the_piece_weights():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, piece_spread=5.0)
    s, _ = weigh(s, "Ana", grams=200.0)  # 10 g a piece on average
    why = refused(s, "Ben", "cannot weigh 20.0 g", grams=20.0)  # 1.3 g a piece: under 10 / 5
    assert "Ana's pieces average 10.00 g" in why and "piece_spread" in why and "at least 30.0 g" in why
    s, _ = weigh(s, "Ben", grams=20.0, confirm=True)
    off = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, piece_spread=0.0)
    off, _ = weigh(off, "Ana", grams=200.0)
    weigh(off, "Ben", grams=20.0)  # not learned: only the house-rule bounds apply


def test_a_lightest_piece_heavier_than_the_heaviest_is_a_setting_error():
    from companion.games import ConfigError

    with pytest.raises(ConfigError, match="lightest piece"):
        new(lightest_piece_g=50.0, heaviest_piece_g=10.0)


# -- dominoes -----------------------------------------------------------------------------------


def test_a_double_nine_set_cannot_show_twenty_pips_on_twenty_three_dominoes():
    assert pip_range(23, 18)[0] == 114  # 0+1+2+2+3+3+4+4+4+5+5+5+6+6+6+6+7+7+7+7+8+8+8
    s = weighoff({"Ana": 23, "Ben": 13, "Cy": 13}, booty="dominoes")
    why = refused(s, "Ana", "cannot show 20 pips", pips=20)
    assert "the 23 lowest show 114" in why and "double-nine" in why
    assert "confirm" not in why, "a count is exact: nothing to confirm"


@pytest.mark.parametrize("max_pips, dominoes, sets", [(18, 55, 1), (12, 56, 2), (17, None, None)])
def test_domino_sets_follow_the_highest_domino(max_pips, dominoes, sets):
    counts = domino_counts(max_pips)
    if dominoes is None:
        assert counts is None and pip_range(3, max_pips) == (0, 3 * max_pips)
        return
    assert len(counts) == dominoes and max(counts) == max_pips and counts.count(max_pips) == sets
    assert pip_range(len(counts), max_pips) == (sum(counts), sum(counts))


def test_domino_counts_must_add_up_across_collections():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, booty="dominoes")
    low20, _ = pip_range(20, 18)
    low35, _ = pip_range(35, 18)
    s, _ = weigh(s, "Ana", pips=low20)  # the 20 lowest dominoes of the set
    why = refused(s, "Ben", "with the collections counted so far", pips=pip_range(15, 18)[0])
    assert f"{low20 + pip_range(15, 18)[0]} pips on 35 dominoes" in why and f"show {low35} to" in why


def test_domino_tie_break_removals_are_checked_exactly():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, booty="dominoes")
    s, _ = weigh(s, "Ana", pips=170)
    s, _ = weigh(s, "Ben", pips=170)
    s, _ = weigh(s, "Cy", pips=120)  # 460 pips on 49 dominoes: a double-nine set shows 398 to 484
    assert s.weighoff.waiting() == ("Ana", "Ben")
    refused(s, "Ana", "removing a domino cannot add pips", pips=171)
    refused(s, "Ana", "show at most 18", pips=151)
    listed = [a["pips"] for a in game.legal_actions(s) if a["player"] == "Ana"]
    assert listed == list(range(152, 171)), "only the counts one domino less can leave"
    s, _ = weigh(s, "Ana", pips=165)


def test_refusals_are_words_for_the_table_and_a_kept_reading_says_only_why_it_was_doubted():
    s = weighoff({"Ana": 20, "Ben": 15, "Cy": 14}, lightest_piece_g=2.0)
    with pytest.raises(ImpossibleReading) as caught:
        weigh(s, "Ana", grams=30.0)
    message = str(caught.value)
    assert message.endswith("Check the pan holds just those pieces and the scale is tared, then weigh again.")
    assert '"confirm"' not in message and "{" not in message, "how to confirm is the front end's to say"
    s, events = weigh(s, "Ana", grams=30.0, confirm=True)
    assert events[0]["text"] == (
        "Ana's reading is kept at the table's word, though the house rules say it is unlikely: the lightest piece "
        "weighs 2 g (house rule lightest_piece_g), which makes at least 40.0 g."
    )
    dominoes = weighoff({"Ana": 23, "Ben": 13, "Cy": 13}, booty="dominoes")
    with pytest.raises(ImpossibleReading) as caught:
        weigh(dominoes, "Ana", pips=20)
    assert str(caught.value).endswith("show 114. Count the pips again.") and not caught.value.confirmable
