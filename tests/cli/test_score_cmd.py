"""`purser score`: the scoring options of a roll from the shell.

One test runs the real command in a subprocess; the rest call the same entry point
in-process (``companion.cli.main``), which is quicker on a busy machine.
"""

from __future__ import annotations

import json

import pytest

from companion.cli import main


def run(capsys, *args, expect=0):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == expect, err
    return out, err


def test_the_rulebook_example_prints_its_five_options_best_first(purser):
    out = purser.run("score", "swashbuckle", "1", "1", "1", "3", "3").stdout.splitlines()
    assert out[0] == "Swashbuckle, 1 1 1 3 3 on an empty sheet: 5 scoring options"
    assert [line.split()[-1] for line in out[1:]] == ["25", "9", "9", "6", "3"]
    assert [" ".join(line.split()[:-1]) for line in out[1:]] == ["Full Boat", "3 Alike", "Flotsam", "Threes", "Ones"]


def test_json_with_used_boxes_and_a_sheet_setting(capsys):
    out, _ = run(
        capsys,
        "score",
        "yahtzee",
        "4",
        "4",
        "4",
        "4",
        "4",
        "--used",
        "yahtzee=50,fours=12",
        "--rule",
        "joker=forced",
        "--json",
    )
    data = json.loads(out)
    assert data["used"] == {"fours": 12, "yahtzee": 50}
    assert [(o["box"], o["points"], o["bonus"]) for o in data["options"]] == [
        ("large_straight", 40, 100),
        ("small_straight", 30, 100),
        ("full_house", 25, 100),
        ("three_kind", 20, 100),
        ("four_kind", 20, 100),
        ("chance", 20, 100),
    ]


def test_scuttles_and_cursed_rolls(capsys):
    out, _ = run(
        capsys,
        "score",
        "swash",
        "2",
        "3",
        "4",
        "6",
        "6",
        "--used",
        "ones,twos,threes,fours,fives,sixes,3 alike,flotsam,swashbuckle=0",
    )
    assert "nothing scores: scuttle one of 7 boxes" in out and "Piracy" in out
    cursed, _ = run(capsys, "score", "swashbuckle", "5", "5", "5", "5", "--cursed", "--json")
    assert json.loads(cursed)["options"][0] == {
        "box": "four_alike",
        "label": "4 Alike",
        "points": 40,
        "scuttle": False,
        "how": "score",
        "column": 1,
        "bonus": 0,
    }


@pytest.mark.parametrize(
    "args, message, code",
    [
        (["score", "chess", "1", "2", "3", "4", "5"], "no score sheet called 'chess'", 2),
        (["score", "yacht", "1", "2", "3", "4"], "give 5 dice", 2),
        (["score", "yacht", "1", "2", "3", "4", "7"], "1 to 6", 2),
        (["score", "yacht", "1", "2", "3", "4", "5", "--used", "pool"], "no box called 'pool'", 2),
        (["score", "yacht", "1", "2", "3", "4", "5", "--rule", "joker=free"], "no sheet setting 'joker'", 2),
    ],
)
def test_bad_input_is_explained(capsys, args, message, code):
    out, err = run(capsys, *args, expect=code)
    assert message in err and out == ""


def test_games_rules_and_help_show_the_swashbuckle_settings(capsys):
    rules, _ = run(capsys, "games", "--rules")
    for key in (
        "succession_4_points (default 30)",
        "aces_high_points (default 40)",
        "pieces_of_8_points (default 30)",
        "blimey_threshold (default 67)",
        "waterline_after (default swashbuckle)",
        "joker (default forced)",
    ):
        assert key in rules
    assert "yacht" in rules and "yahtzee" in rules
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    helped = capsys.readouterr().out
    assert '{"type": "pillage", "player": "Ana", "target": "Ben"}' in helped
