"""The match timer: time enters as "at" data on actions."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction, guilded
from tests.games.guilded.support import Table

T0 = 1_700_000_000.0


def clock(t: Table) -> dict:
    return guilded.summary(t.state).detail["clock"]


def test_the_clock_starts_at_the_first_timed_action_and_only_runs_forward():
    t = Table()
    assert clock(t)["started_at"] is None and clock(t)["elapsed_s"] == 0
    t.do("roll", player="Ana", value=3)
    t.do("roll", player="Ben", value=1, at=T0)
    t.do("clock", at=T0 + 90.5)
    assert clock(t)["elapsed_s"] == 90.5 and clock(t)["remaining_s"] == 50 * 60 - 90.5
    with pytest.raises(IllegalAction, match="time only runs forward, so this changes nothing"):
        t.do("clock", at=T0 + 30)  # a tablet clock stepping back: refused, not saved as a blank line
    assert clock(t)["elapsed_s"] == 90.5


def test_a_timed_action_with_an_earlier_clock_still_counts_but_moves_no_time():
    t = Table()
    t.do("roll", player="Ana", value=3, at=T0 + 90)
    events = t.do("roll", player="Ben", value=1, at=T0)
    assert events and clock(t)["last_at"] == T0 + 90


def test_a_clock_tick_says_where_the_clock_stands():
    t = Table()
    t.do("roll", player="Ana", value=3, at=T0)
    events = t.do("clock", at=T0 + 750)
    assert [e["text"] for e in events] == ["Clock: 12:30 played."]


def test_time_up_is_announced_once():
    t = Table(timer_minutes=1, time_up="announce")
    t.do("clock", at=T0)
    first = t.do("clock", at=T0 + 60)
    again = t.do("clock", at=T0 + 120)
    assert [e["type"] for e in first] == ["time_up"] and [e["type"] for e in again] == ["clock"]
    assert clock(t)["time_up"] and clock(t)["remaining_s"] == 0


@pytest.mark.parametrize("minutes, rule_minutes", [(15, 0), (20, 20)])
def test_draft_building_time(minutes, rule_minutes):
    t = Table(format="draft", building_minutes=rule_minutes)
    t.do("clock", at=T0)
    assert [e["type"] for e in t.do("clock", at=T0 + minutes * 60 - 1)] == ["clock"]
    events = t.do("clock", at=T0 + minutes * 60)
    assert [e["type"] for e in events] == ["building_time"]
    assert t.state.stage == "building", "building is never cut short"
    assert [e["type"] for e in t.do("clock", at=T0 + minutes * 60 + 5)] == ["clock"]
    t.do("decks_ready", at=T0 + 1000)
    assert clock(t)["started_at"] == T0 + 1000 and clock(t)["building"]["over"]


def test_a_clock_action_changes_nothing_else():
    t = Table().start("Ana")
    before = t.state
    t.do("clock", at=T0)
    assert t.state.seats == before.seats and t.state.phase == before.phase and t.state.turn == before.turn
