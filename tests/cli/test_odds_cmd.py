"""`purser odds` through the real command line."""

from __future__ import annotations

import json

import pytest


def test_odds_prints_both_probabilities(purser):
    out = purser.run("odds", "--dice", "20", "--bid", "5x4", "--own", "4,4,2,6,1").stdout
    assert "five 4s among 20 dice" in out and "3 more needed from 15 unseen" in out
    assert "bid true (at least 5):   46.8 %" in out
    assert "Parlay right (exactly 5): 23.6 %" in out


def test_odds_json_with_wild_ones(purser):
    data = json.loads(
        purser.run("odds", "--dice", "20", "--bid", "5x4", "--own", "4,4,2,6,1", "--wild-ones", "--json").stdout
    )
    assert data["wild_ones"] is True and data["own_count"] == 3 and data["need"] == 2
    # two of fifteen unseen dice count, each with chance 1/3: C(15,2) 2^13 / 3^15
    assert data["exact_fraction"] == "286720/4782969"
    assert data["at_least"] == pytest.approx(0.9806, abs=5e-4)


def test_odds_without_own_dice(purser):
    data = json.loads(purser.run("odds", "--dice", "3", "--bid", "1x6", "--json").stdout)
    assert data["at_least_fraction"] == "91/216" and data["unseen"] == 3 and data["own"] == []


@pytest.mark.parametrize(
    "args, message",
    [
        (["--dice", "3", "--bid", "2x7"], "faces 1 to 6"),
        (["--dice", "3", "--bid", "five fours"], "QUANTITYxFACE"),
        (["--dice", "3", "--bid", "2x6", "--own", "1,2,3,4"], "only 3 are on the table"),
        (["--dice", "3", "--bid", "2x6", "--own", "9"], "9 is not one"),
    ],
)
def test_bad_questions_get_a_clear_error(purser, args, message):
    result = purser.run("odds", *args, expect=2)
    assert message in result.stderr and result.stdout == ""


@pytest.mark.parametrize("bid, message", [("-1x2", "at least one die, not -1"), ("-3x7", "there is no 7")])
def test_a_negative_bid_is_a_bad_bid_not_an_unknown_option(purser, bid, message):
    result = purser.run("odds", "--dice", "5", "--bid", bid, expect=2)
    assert message in result.stderr and "expected one argument" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
