"""`purser players`: list, add, rename, merge and delete profiles; one-line refusals with
their exit codes, and a refusal changes nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest

from companion.errors import ExitCode
from tests.support.cli import PurserCLI


def snapshot(path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


@pytest.fixture
def cli(tmp_path):
    """Ana beat Ben in game 1 (a finished game of 7); Benjamin and Cy play game 2."""
    purser = PurserCLI(tmp_path / "purser.db", in_process=True)
    purser.run("new", "seven", "--players", "Ana,Ben", "--seed", "5", "--rule", "hand_size=1", "--rule", "rounds=1")
    purser.run("play", "1", input='{"type": "play", "player": "Ana", "card": 7, "on": "hole"}\n')
    purser.run("new", "seven", "--players", "Benjamin,Cy", "--seed", "6")
    return purser


def stats(cli) -> dict[str, dict]:
    return {p["name"]: p for p in json.loads(cli.run("players", "--json").stdout)}


def test_rename_keeps_the_games_and_wins(cli):
    before = cli.run("export", "1").stdout
    r = cli.run("players", "rename", "Ana", "Anna")
    assert r.stdout == "Ana is now called Anna: 1 game, 1 won (past games keep the name they were played under)\n"
    assert r.stderr == ""
    anna = stats(cli)["Anna"]
    assert (anna["played"], anna["wins"], anna["profile"]["aliases"]) == (1, 1, ["Ana"])
    assert "Ana" not in stats(cli)
    assert cli.run("export", "1").stdout == before  # the game as it was played, same checksum
    assert "Ana, Ben" in cli.run("sessions").stdout


def test_merge_counts_both_and_prints_the_result(cli):
    r = cli.run("players", "merge", "Ben", "Benjamin")
    assert r.stdout == "Merged Benjamin into Ben: 2 games, 0 won; also played as Benjamin\n"
    assert sorted(stats(cli)) == ["Ana", "Ben", "Cy"]
    assert stats(cli)["Ben"]["played"] == 2
    # the merged player's game goes on under the name it was started with
    shown = json.loads(cli.run("show", "2", "--json").stdout)
    assert shown["players"] == ["Benjamin", "Cy"] and shown["summary"]["to_act"] == ["Benjamin"]
    move = shown["legal_actions"][0]
    answer = json.loads(cli.run("play", "2", input=json.dumps(move) + "\n").stdout)
    assert answer["ok"] is True


def test_delete_a_player_without_games_and_json_answers(cli):
    cli.run("players", "add", "Zed")
    r = cli.run("players", "delete", "zed", "--json")
    assert json.loads(r.stdout) == {"deleted": "Zed"}
    assert "Zed" not in stats(cli)
    r = cli.run("players", "rename", "Cy", "Cyrus", "--json")
    assert json.loads(r.stdout)["name"] == "Cyrus"


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["rename", "Ana", "ben"], ExitCode.ERROR, "already a player called 'Ben'"),
        (["rename", "Ana", ""], ExitCode.USAGE, "cannot be empty"),
        (["rename", "Ana", "x" * 65], ExitCode.USAGE, "at most 64 characters"),
        (["rename", "Ana", "Ana\tB"], ExitCode.USAGE, "control characters"),
        (["rename", "Zed", "Zeb"], ExitCode.NOT_FOUND, "no player called 'Zed'"),
        (["rename", "Ana"], ExitCode.USAGE, "required: NEW"),
        (["merge", "Ana", "Ben"], ExitCode.ERROR, "sat at the same table in game 1"),
        (["merge", "Cy", "cy"], ExitCode.USAGE, "the same player"),
        (["merge", "Ana", "Zed"], ExitCode.NOT_FOUND, "no player called 'Zed'"),
        (["delete", "Ana"], ExitCode.ERROR, "Ana sat in game 1"),
        (["delete", "Zed"], ExitCode.NOT_FOUND, "no player called 'Zed'"),
        (["delete", "  "], ExitCode.USAGE, "the name given is empty"),
        (["add", ""], ExitCode.USAGE, "cannot be empty"),
        (["rename"], ExitCode.USAGE, "required"),
        (["shred", "Ana"], ExitCode.USAGE, "invalid choice"),
    ],
    ids=lambda v: "_".join(a.replace(" ", "") or "EMPTY" for a in v)[:30] if isinstance(v, list) else "",
)
def test_refusals_are_one_line_with_their_exit_code_and_change_nothing(cli, args, code, words):
    before = snapshot(cli.db)
    r = cli.run("players", *args, expect=code)
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("purser") and words in r.stderr
    assert "Traceback" not in r.stderr
    assert snapshot(cli.db) == before


def test_the_real_command_line_ends_with_the_documented_codes(tmp_path):
    purser = PurserCLI(tmp_path / "purser.db")  # a real process: exit status and streams
    purser.run("new", "seven", "--players", "Ana,Ben", "--seed", "1")
    r = purser.run("players", "merge", "Ana", "Ben", expect=ExitCode.ERROR)
    assert r.stderr.count("\n") == 1 and "same table" in r.stderr
    purser.run("players", "rename", "Ben", "Benedict")
    assert "Benedict" in purser.run("players").stdout
    assert "rename OLD NEW" in purser.run("players", "--help").stdout
