"""Every failure a user can meet at the command line: one line on stderr, its documented exit
code, and the database byte for byte as it was.

Most cases run the command line's ``main`` in this process (fast); the ones that are about
the process itself (a strict UTF-8 locale on stdin, a disk filling under a running
`purser play`) run the real `purser` in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.errors import ExitCode
from tests.support.cli import PurserCLI
from tests.support.faults import digest, fill, poke, read_only, small_filesystem

PLAYERS = ["Ana", "Ben", "Cy"]
MOVE = {"type": "play", "player": "Ana", "total": 3}


def one_line(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("purser"), result.stderr
    assert "Traceback" not in result.stderr
    return lines[0]


@pytest.fixture
def purser(tmp_path):
    """The command line, in process, on a fresh database."""
    return PurserCLI(tmp_path / "purser.db", in_process=True)


@pytest.fixture
def game(purser):
    """A game of "7" with one move, the database closed and checkpointed; returns its id."""
    sid = purser.new("seven", PLAYERS, seed=3)
    purser.play_ok(sid, [MOVE])
    return sid


@pytest.mark.parametrize(
    "args, code, words",
    [
        (["show", "99999999999999999999999999"], ExitCode.NOT_FOUND, "no game session"),
        (["show", "-1"], ExitCode.NOT_FOUND, "no game session"),
        (["undo", "0"], ExitCode.NOT_FOUND, "no game session"),
        (["new", "seven", "--players", "A,B", "--seed", str(10**30)], ExitCode.USAGE, "seed must be"),
        (["new", "seven", "--players", "A,B", "--seed", "-5"], ExitCode.USAGE, "seed must be"),
        (["new", "seven", "--players", "A,B", "--seed", "9" * 5000], ExitCode.USAGE, "seed must be"),
        (["new", "seven", "--seed", "1"], ExitCode.USAGE, "required: --players"),
        (["show", "1", "--db", ""], ExitCode.USAGE, "no database file was given"),
        (["import", "/nonexistent/export.json"], ExitCode.NOT_FOUND, "no file"),
    ],
)
def test_absurd_arguments_are_one_line_and_change_nothing(purser, game, args, code, words):
    before = digest(purser.db)
    r = purser.run(*args, expect=code)
    assert words in one_line(r)
    assert digest(purser.db) == before


def test_a_database_in_a_missing_folder_is_refused_and_no_folder_is_made(purser, tmp_path):
    target = tmp_path / "no" / "such" / "p.db"
    r = purser.run("new", "seven", "--players", "A,B", "--db", str(target), expect=ExitCode.NOT_FOUND)
    assert "does not exist" in one_line(r)
    assert not (tmp_path / "no").exists()


def test_invalid_utf8_on_stdin_under_a_strict_utf8_locale(tmp_path):
    """The real process, with Python's text stdin strict about UTF-8."""
    cli = PurserCLI(tmp_path / "p.db")
    sid = cli.new("seven", PLAYERS, seed=3)
    before = digest(cli.db)
    env = dict(cli.env(), LC_ALL="C.UTF-8", LANG="C.UTF-8", PYTHONUTF8="1", PYTHONIOENCODING="utf-8:strict")
    lines = b'{"type": "play", "player": "An\xff", "total": 3}\n\xc3\x28\n' + json.dumps(MOVE).encode() + b"\n"
    r = subprocess.run(
        [sys.executable, "-m", "companion", "play", str(sid)],
        input=lines,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert r.returncode == ExitCode.USAGE and r.stderr == b"", r.stderr[-2000:]  # the first refusal's code
    answers = [json.loads(x) for x in r.stdout.splitlines()]
    assert [a["ok"] for a in answers] == [False, False, True]
    assert all("not UTF-8" in a["message"] for a in answers[:2])
    assert digest(cli.db) != before and cli.show(sid)["cursor"] == 1


def test_the_default_data_folder_is_still_made(tmp_path):
    env = dict(os.environ, PURSER_DATA_DIR=str(tmp_path / "data" / "purser"))
    env.pop("PURSER_DB", None)
    r = subprocess.run(
        [sys.executable, "-m", "companion", "new", "seven", "--players", "A,B"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "data" / "purser" / "purser.db").exists()


@pytest.mark.parametrize(
    "line, words",
    [
        (b'{"type": "play", "player": "Ana", "total": \xff\xfe}', "not UTF-8"),
        (b'{"type": "play", "player": "Ana", "total": ' + b"9" * 5000 + b"}", "5000 digits"),
        (b"[" * 100_000 + b"]" * 100_000, "too long"),
        (b"[" * 20_000 + b"]" * 20_000, "nested far too deeply"),
        (b'{"type": "play", "player": "Ana", "total": NaN}', "NaN"),
        (b'{"type": "play", "player": "Ana", "total": 1e999}', "too large"),
        (b'{"type": "play", "player": "Ana", "total": 3, "junk": "' + b"x" * 10_000_000 + b'"}', "too long"),
        (b'{"type": "play", "player": "Ana", "total": 3, "junk": "x"}', 'no field "junk"'),
    ],
    ids=["bad-utf8", "5000-digits", "100k-deep", "20k-deep", "nan", "1e999", "10MB-field", "unknown-key"],
)
def test_hostile_lines_in_play_get_an_error_object_and_the_stream_goes_on(purser, game, line, words):
    before = digest(purser.db)
    r = purser.run("play", str(game), input=line + b"\n", expect=ExitCode.USAGE)
    assert r.stderr == "", r.stderr[-2000:]
    (answer,) = [json.loads(x) for x in r.stdout.splitlines()]
    assert answer["ok"] is False and answer["error"] == "malformed" and words in answer["message"]
    assert digest(purser.db) == before
    nxt = purser.play(game, [line.decode("utf-8", "replace")[:200], {"type": "play", "player": "Ben", "total": 4}])
    assert nxt[-1]["ok"] and nxt[-1]["seq"] == 2


# -- import ------------------------------------------------------------------------------------


@pytest.fixture
def export(purser, game, tmp_path):
    path = tmp_path / "game.json"
    purser.run("export", str(game), "-o", str(path))
    return path


def _tamper(text: str) -> str:
    data = json.loads(text)
    data["actions"][0]["total"] = 7
    return json.dumps(data)


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda t: t[: len(t) // 2], "not a Purser game export"),
        (lambda t: "{not json", "not a Purser game export"),
        (lambda t: "[" * 100_000 + "]" * 100_000, "nested far too deeply"),
        (lambda t: t.replace('"seed": 3', '"seed": ' + "9" * 5000), "5000 digits"),
        (lambda t: t.replace('"seed": 3', '"seed": 1e400'), "too large"),
        (_tamper, "changed after it was exported"),
        (lambda t: t.replace('"version": 2', '"version": 9'), "newer version"),
        (lambda t: t.replace('"players"', '"gamers"'), "damaged Purser game export"),
        (lambda t: json.dumps({**json.loads(t), "actions": "lots"}), "damaged Purser game export"),
    ],
    ids=["truncated", "not-json", "deep", "digits", "float-seed", "tampered", "newer", "renamed-key", "wrong-type"],
)
def test_bad_export_files_are_refused_in_one_line_and_import_nothing(purser, export, tmp_path, make, words):
    other = PurserCLI(tmp_path / "other.db", in_process=True)
    other.new("seven", ["Dee", "Eli"])  # an existing database must stay as it is
    before = digest(other.db)
    bad = tmp_path / "bad.json"
    bad.write_text(make(export.read_text()))
    r = other.run("import", str(bad), expect=ExitCode.DAMAGED)
    assert words in one_line(r)
    assert digest(other.db) == before


def test_invalid_utf8_export_is_refused(purser, export, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(export.read_bytes().replace(b'"Ana"', b'"An\xff"', 1))
    r = purser.run("import", str(bad), expect=ExitCode.DAMAGED)
    assert "not UTF-8" in one_line(r)


def test_importing_the_same_export_twice_keeps_one_game_and_one_set_of_wins(tmp_path):
    source = PurserCLI(tmp_path / "a.db", in_process=True)
    sid = source.new("seven", ["Ana", "Ben"], {"hand_size": 1, "rounds": 1})
    source.play_ok(sid, [{"type": "play", "player": "Ana", "card": 7, "on": "hole"}])
    path = tmp_path / "won.json"
    source.run("export", str(sid), "-o", str(path))
    target = PurserCLI(tmp_path / "b.db", in_process=True)
    first = int(target.run("import", str(path)).stdout)
    again = target.run("import", str(path))
    assert int(again.stdout) == first and f"already imported as game {first}" in one_line(again)
    assert len(json.loads(target.run("sessions", "--json").stdout)) == 1
    wins = {p["name"]: p["wins"] for p in json.loads(target.run("players", "--json").stdout)}
    assert wins == {"Ana": 1, "Ben": 0}


# -- damaged rows --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql, words",
    [
        ("UPDATE actions SET action = '{not json' WHERE session_id = ?", "action 1 cannot be read"),
        (
            'UPDATE actions SET action = \'{"type":"play","player":"Ana","total":7}\' WHERE session_id = ?',
            "altered after it was saved",
        ),
        ("UPDATE sessions SET cursor = 999 WHERE id = ?", "stands at action 999"),
        ("UPDATE sessions SET cursor = -1 WHERE id = ?", "below zero"),
        ("UPDATE sessions SET hardware = 'scale=usb' WHERE id = ?", "hardware settings cannot be read"),
        ("UPDATE sessions SET config = '[1' WHERE id = ?", "house rules cannot be read"),
        ("DELETE FROM actions WHERE session_id = ?", "stands at action 1 but its journal holds 0"),
    ],
    ids=["non-json-action", "edited-action", "cursor-999", "cursor-minus-1", "hardware", "config", "lost-action"],
)
def test_a_damaged_game_is_reported_with_its_id_and_the_others_stay_usable(purser, game, sql, words):
    healthy = purser.new("seven", ["Dee", "Eli"], seed=5)
    poke(purser.db, sql, game)
    before = digest(purser.db)
    for command in (["show", str(game)], ["undo", str(game)], ["export", str(game)]):
        r = purser.run(*command, expect=ExitCode.DAMAGED)
        line = one_line(r)
        assert f"game {game}" in line and "damaged" in line and words in line
    r = purser.run("play", str(game), input=json.dumps(MOVE) + "\n", expect=ExitCode.DAMAGED)
    assert f"game {game}" in one_line(r)
    assert digest(purser.db) == before
    # the other game, the list and the players still work
    purser.play_ok(healthy, [{"type": "play", "player": "Dee", "total": 2}])
    listed = {s["id"]: s for s in json.loads(purser.run("sessions", "--json").stdout)}
    assert set(listed) == {game, healthy}
    purser.run("players")
    assert purser.show(healthy)["cursor"] == 1


# -- read-only and full storage ---------------------------------------------------------------------


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_database_can_be_read_and_refuses_writes_in_one_line(purser, game, what):
    before = digest(purser.db)
    with read_only(purser.db if what == "file" else purser.db.parent):
        shown = purser.show(game)  # a healthy database is not "damaged"
        assert shown["cursor"] == 1
        purser.run("sessions")
        answers = purser.play(game, [{"type": "play", "player": "Ben", "total": 4}])
        assert answers[0]["error"] == "storage" and "read-only" in answers[0]["message"]
        for args in (["undo", str(game)], ["new", "seven", "--players", "A,B"]):
            r = purser.run(*args, expect=ExitCode.STORAGE)
            assert "read-only" in one_line(r)
        if what == "folder":
            r = purser.run(
                "new", "seven", "--players", "A,B", "--db", str(purser.db.parent / "new.db"), expect=ExitCode.STORAGE
            )
            assert "read-only" in one_line(r)
    assert digest(purser.db) == before
    assert purser.play_ok(game, [{"type": "play", "player": "Ben", "total": 4}])[0]["seq"] == 2


def test_a_full_disk_refuses_writes_in_one_line_and_keeps_the_game(tmp_path):
    with small_filesystem(tmp_path / "small", kilobytes=400) as folder:
        cli = PurserCLI(folder / "p.db", in_process=True)
        sid = cli.new("seven", PLAYERS, seed=3)
        play = subprocess.Popen(
            [sys.executable, "-m", "companion", "play", str(sid)],
            env=cli.env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert play.stdin and play.stdout
            play.stdin.write(json.dumps(MOVE) + "\n")
            play.stdin.flush()
            assert json.loads(play.stdout.readline())["ok"]
            filler = fill(folder)
            before = digest(cli.db)
            play.stdin.write(json.dumps({"type": "play", "player": "Ben", "total": 4}) + "\n")
            play.stdin.flush()
            refused = json.loads(play.stdout.readline())
            assert refused["ok"] is False and refused["error"] == "storage" and "full" in refused["message"]
            for args in (["new", "seven", "--players", "A,B"], ["undo", str(sid)]):
                r = cli.run(*args, expect=ExitCode.STORAGE)
                assert "full" in one_line(r)
            assert digest(cli.db) == before
            filler.unlink()  # space again: the same session goes on
            play.stdin.write(json.dumps({"type": "play", "player": "Ben", "total": 4}) + "\n")
            play.stdin.flush()
            assert json.loads(play.stdout.readline())["seq"] == 2
        finally:
            play.stdin.close()
            play.wait(timeout=60)
            play.stdout.close()
            play.stderr.close()
        assert play.returncode == ExitCode.STORAGE  # one line was refused; the session went on
        assert cli.show(sid)["cursor"] == 2
