"""`purser advise` from the shell, on the test run's cached Yahtzee table."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


@pytest.fixture
def cached(monkeypatch, advisor_cache, yahtzee_free):
    monkeypatch.setenv("PURSER_ADVISOR_CACHE", str(advisor_cache))


def test_expected_score_of_a_fresh_game(purser, cached):
    out = purser.run("advise", "yahtzee", "--expected", "--rule", "joker=free").stdout
    assert "254.5896" in out


def test_hint_for_a_roll_as_json(purser, cached):
    out = purser.run(
        "advise", "yahtzee", "--dice", "4", "4", "4", "2", "6", "--rolls-left", "2", "--rule", "joker=free", "--json"
    ).stdout
    data = json.loads(out)
    assert data["best"]["hold"] == [4, 4, 4]
    assert data["choices"][0] == data["best"]


def test_box_advice_with_used_boxes(purser, cached):
    out = purser.run(
        "advise", "yahtzee", "--dice", "6", "6", "6", "6", "6", "--used", "sixes,yahtzee=50", "--rule", "joker=free"
    ).stdout
    assert "best to score" in out and "Large Straight 40" in out


@pytest.mark.parametrize(
    "args, words, code",
    [
        (["chess", "--expected"], "no score sheet called 'chess'", 2),
        (["yahtzee", "--rule", "joker=free"], "give --dice", 2),
        (["yahtzee", "--dice", "1", "2", "3", "4", "9", "--rule", "joker=free"], "1 to 6", 2),
    ],
)
def test_bad_requests_are_clear_errors(purser, cached, args, words, code):
    assert words in purser.run("advise", *args, expect=code).stderr


def test_advise_shares_the_sheet_arguments_without_loading_the_score_command():
    code = "import sys, companion.cli.advise_cmd; print('companion.cli.score_cmd' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
