"""`purser play` on a 7 Seize weigh-off reading the engine calls impossible: a reading only the
house-rule piece weights rule out is refused with "confirmable": true and, in "keep", the
line that keeps that very reading (the balance's own for a weighing from the scale); a
reading no booty can give is refused without one."""

from __future__ import annotations

import pytest

from companion.errors import ExitCode
from companion.session import TableSession
from companion.store import Store
from tests.support.cli import PurserCLI

HINT = 'If that really is the weight, send the line in "keep" (this reading, "confirm": true).'


def _at_weighoff(db, rules: dict) -> tuple[int, dict[str, int]]:
    """A 3-player 7 Seize game at its weigh-off on an empty simulated pan: its id and the pieces."""
    with Store.open(db) as store:
        session = TableSession.create(
            store, "seven-seize", ["Ana", "Ben", "Cy"], rules, seed=4, hardware={"scale": "sim://?clock=virtual&seed=4"}
        )
        while session.state.phase != "weighoff":
            session.apply(session.legal_actions()[0])
        return session.id, session.summary().detail["weighoff"]["pieces"]


@pytest.fixture
def cli(tmp_path):
    return PurserCLI(tmp_path / "purser.db", in_process=True)


def test_a_typed_reading_the_house_rules_rule_out_says_how_to_keep_it(cli):
    sid, pieces = _at_weighoff(cli.db, {"lightest_piece_g": 2.0})
    player = next(p for p, n in pieces.items() if n >= 3)
    line = {"type": "weigh", "player": player, "grams": 1.0}
    [answer] = cli.play(sid, [line], expect=ExitCode.ILLEGAL)
    assert answer["ok"] is False and answer["error"] == "illegal" and answer["confirmable"] is True
    assert "lightest_piece_g" in answer["message"] and answer["message"].endswith(HINT)
    assert answer["keep"] == {**line, "confirm": True}
    [kept] = cli.play(sid, [answer["keep"]], expect=0)
    assert "kept at the table's word" in kept["events"][0]["text"]
    assert cli.show(sid)["summary"]["detail"]["weighoff"]["weights"][player]["value"] == 1.0


def test_keep_holds_the_balances_own_reading_not_a_new_weighing(cli):
    sid, pieces = _at_weighoff(cli.db, {})
    player = next(p for p, n in pieces.items() if n >= 25)  # at least 5 g at 0.2 g a piece
    [answer] = cli.play(sid, [{"type": "weigh", "player": player, "from": "scale"}], expect=ExitCode.ILLEGAL)
    assert answer["confirmable"] is True and answer["message"].endswith(HINT)
    keep = answer["keep"]
    assert "from" not in keep and keep["confirm"] is True and keep["player"] == player
    assert abs(keep["weighing"]["grams"]) < 0.5 and keep["weighing"]["raw_counts"]  # the empty pan, as read
    [kept] = cli.play(sid, [keep], expect=0)
    assert kept["ok"]
    shown = cli.show(sid, history=1)
    assert shown["summary"]["detail"]["weighoff"]["weights"][player]["value"] == keep["weighing"]["grams"]
    assert shown["history"][-1]["action"]["weighing"] == keep["weighing"]


def test_a_reading_no_booty_can_give_has_nothing_to_keep(cli):
    sid, pieces = _at_weighoff(cli.db, {})
    first, second, third = pieces
    ties = [{"type": "weigh", "player": p, "grams": g} for p, g in ((first, 100.3), (second, 100.0), (third, 50.0))]
    cli.play(sid, ties, expect=0)  # the first two tie: one piece off each, weighed again
    [answer] = cli.play(
        sid, [{"type": "weigh", "player": first, "grams": 120.0, "confirm": True}], expect=ExitCode.ILLEGAL
    )
    assert answer["confirmable"] is False and "keep" not in answer
    assert "removing a piece cannot add weight" in answer["message"] and '"confirm"' not in answer["message"]
