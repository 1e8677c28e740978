"""The session commands, run as a real subprocess: new, play, show, undo, redo, sessions, export, import."""

from __future__ import annotations

import json

import pytest

from companion.errors import ExitCode
from tests.support.cli import PurserCLI

# A whole game of "7" for Ana, Ben and Cy with one-card hands over two rounds.
# Hand computation of the chips (3 players: 1st gets 3, 2nd 2, 3rd 1):
#   round 1: Ben makes 7 with his last card (1st), Cy opens the next pile with a 7 (2nd), Ana 3rd
#            -> Ben 3, Cy 2, Ana 1
#   round 2 (Ben starts): Cy makes 7 (1st); Ana starts a pile with 6, Ben takes a penalty,
#            Ana makes 7 (2nd); Ben 3rd -> Cy 3, Ana 2, Ben 1
#   totals: Ana 3, Ben 4, Cy 5: Cy wins.
GAME = [
    {"type": "play", "player": "Ana", "card": 3, "on": "hole"},
    {"type": "play", "player": "Ben", "card": 4, "on": "number"},
    {"type": "play", "player": "Cy", "card": 7, "on": "hole"},
    {"type": "play", "player": "Ben", "card": 2, "on": "hole"},
    {"type": "play", "player": "Cy", "card": 5, "on": "number"},
    {"type": "play", "player": "Ana", "card": 6, "on": "hole"},
    {"type": "penalty", "player": "Ben"},
    {"type": "play", "player": "Ana", "card": 1, "on": "number"},
]
RULES = {"hand_size": 1, "rounds": 2}


def test_games_lists_seven_with_player_counts(purser):
    out = purser.run("games").stdout
    assert '"7" (2-7 players)' in out


def test_a_whole_game_of_seven_through_play(purser):
    sid = purser.new("seven", ["Ana", "Ben", "Cy"], RULES)
    results = purser.play_ok(sid, GAME)
    assert [r["seq"] for r in results] == list(range(1, len(GAME) + 1))
    assert any(e["type"] == "seven" for e in results[1]["events"])
    shown = purser.show(sid)
    assert shown["summary"]["scores"] == {"Ana": 3, "Ben": 4, "Cy": 5}
    assert shown["summary"]["over"] and shown["summary"]["winners"] == ["Cy"]
    assert shown["legal_actions"] == []
    listed = json.loads(purser.run("sessions", "--json").stdout)
    assert listed[0]["finished"] and listed[0]["winners"] == ["Cy"]


@pytest.mark.parametrize(
    "line, error, words",
    [
        ("{not json", "malformed", "not valid JSON"),
        ("[1, 2]", "malformed", "JSON object"),
        ('{"card": 3}', "malformed", 'no "type"'),
        ('{"type": "dance", "player": "Ana"}', "malformed", "no 'dance' action"),
        ('{"type": "play", "player": "Ana", "card": 3, "on": "hole", "junk": 1}', "malformed", 'no field "junk"'),
        ('{"type": "play", "player": "Ana", "card": "3", "on": "hole"}', "malformed", '"card" must be a whole number'),
        ('{"type": "play", "player": "Zed", "card": 3, "on": "hole"}', "illegal", "nobody called 'Zed'"),
        ('{"type": "play", "player": "Ben", "card": 3, "on": "hole"}', "illegal", "Ana's turn"),
        ('{"type": "play", "player": "Ana", "card": 9, "on": "hole"}', "illegal", "no 9"),
        ('{"type": "undo"}', "illegal", "nothing to undo"),
        ('{"type": "weigh", "player": "Ana", "from": "scale"}', "malformed", "no 'weigh' action"),
    ],
)
def test_bad_lines_get_an_error_object_change_nothing_and_the_stream_goes_on(purser, line, error, words):
    sid = purser.new("seven", ["Ana", "Ben", "Cy"], RULES)
    code = {"malformed": ExitCode.USAGE, "illegal": ExitCode.ILLEGAL}[error]
    results = purser.play(sid, [line, GAME[0]], expect=code)  # the refusal's code, after the session went on
    assert results[0]["ok"] is False and results[0]["error"] == error
    assert words in results[0]["message"]
    assert results[1] == {**results[1], "ok": True, "seq": 1}


def test_play_ends_with_the_code_of_its_first_refused_line(tmp_path):
    cli = PurserCLI(tmp_path / "p.db", in_process=True)
    sid = cli.new("seven", ["Ana", "Ben", "Cy"], RULES)
    assert cli.play(sid, [], expect=0) == []
    assert [r["seq"] for r in cli.play(sid, GAME[:2], expect=0)] == [1, 2]  # every line applied: 0
    illegal = {"type": "play", "player": "Ana", "card": 9, "on": "hole"}
    answers = cli.play(sid, [GAME[2], illegal, "{not json", {"type": "undo"}], expect=ExitCode.ILLEGAL)
    assert [r["ok"] for r in answers] == [True, False, False, True]  # the session went on after both
    answers = cli.play(sid, ["{not json", illegal], expect=ExitCode.USAGE)
    assert [r.get("error") for r in answers] == ["malformed", "illegal"]
    for _ in range(2):
        cli.run("undo", str(sid))
    assert cli.play(sid, [{"type": "undo"}, {"type": "redo"}], expect=ExitCode.ILLEGAL)[1]["redone"] == 1


def test_play_ends_with_7_when_the_hardware_gave_no_reading(tmp_path):
    cli = PurserCLI(tmp_path / "p.db", in_process=True)
    sid = cli.new("swashbuckle", ["Ana", "Ben"], camera=f"file://{tmp_path / 'no-such-photo.png'}")
    answers = cli.play(
        sid,
        [{"type": "roll_off", "player": "Ana", "from": "camera"}, {"type": "roll_off", "player": "Ana", "dice": [6]}],
        expect=ExitCode.HARDWARE,
    )
    assert answers[0]["error"] == "hardware" and answers[1]["seq"] == 1


def test_undo_and_redo_in_the_stream_and_as_commands(purser):
    sid = purser.new("seven", ["Ana", "Ben", "Cy"], RULES)
    results = purser.play_ok(sid, [GAME[0], GAME[1], {"type": "undo"}, {"type": "redo"}, {"type": "undo"}])
    assert results[2]["undone"] == 2 and results[3]["redone"] == 2
    assert purser.show(sid)["cursor"] == 1
    assert "Redid 2" in purser.run("redo", str(sid)).stdout
    assert "Undid 2" in purser.run("undo", str(sid)).stdout
    shown = purser.show(sid, history=5)
    assert shown["can_redo"] and [h["seq"] for h in shown["history"]] == [1]


def test_export_and_import_round_trip(purser, tmp_path):
    sid = purser.new("seven", ["Ana", "Ben", "Cy"], RULES)
    purser.play_ok(sid, GAME[:3])
    out = tmp_path / "game.json"
    purser.run("export", str(sid), "-o", str(out))
    other = PurserCLI(tmp_path / "other.db")
    new_id = int(other.run("import", str(out)).stdout)
    assert other.show(new_id)["summary"] == purser.show(sid)["summary"]
    again = other.run("import", str(out))
    assert int(again.stdout) == new_id and f"already imported as game {new_id}" in again.stderr
    assert len(json.loads(other.run("sessions", "--json").stdout)) == 1


def test_unknown_game_bad_rule_and_missing_session_are_clear_errors(purser):
    r = purser.run("new", "chess", "--players", "A,B", expect=2)
    assert "does not know a game called 'chess'" in r.stderr
    r = purser.run("new", "seven", "--players", "A,B", "--rule", "rounds=many", expect=2)
    assert "needs a whole number" in r.stderr
    r = purser.run("new", "seven", "--players", "A,B", "--rule", "colour=red", expect=2)
    assert "no house rule called 'colour'" in r.stderr
    r = purser.run("show", "99", expect=8)
    assert "no game session 99" in r.stderr


def test_a_corrupt_database_is_refused_and_left_untouched(purser):
    purser.db.write_bytes(b"this is not a database" * 20)
    before = purser.db.read_bytes()
    r = purser.run("sessions", expect=5)
    assert "not a Purser database" in r.stderr
    assert purser.db.read_bytes() == before


def test_help_shows_each_games_actions_and_house_rules(purser):
    out = purser.run("play", "--help").stdout
    assert '{"type": "penalty", "player": "Ben"}' in out
    assert "next_round_starter (default next_seat)" in out
