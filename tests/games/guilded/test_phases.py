"""The turn's phases in order, and every timed status acting at its phase."""

from __future__ import annotations

import pytest

from companion.games import guilded
from companion.games.guilded.state import PHASES, Treasure
from tests.games.guilded.support import Table

# The steps walked from Ana's turn 1 Rally phase to the end of turn 3 (Ana, Ben, Ana).
STEPS = [(1, p) for p in PHASES[PHASES.index("rally") :]] + [(2, p) for p in PHASES] + [(3, p) for p in PHASES]


def timeline(status: str, count: int, on: str, health: int = 20, damage: int = 0, **rules) -> dict:
    """Place ``count`` of ``status`` on a 20-health mercenary of ``on`` during Ana's turn-1
    Rally phase, then walk the phases; returns {(turn, phase): (count acting, health)}."""
    t = Table(**rules).start("Ana")
    t.to("rally")
    m = t.put(on, "Target", health, move=3)
    if damage:
        t.do("damage", target=m, amount=damage, damage_type="pure")
    t.do("add_status", target=m, status=status, count=count)
    seen = {(1, "rally"): (t.status(m, status), t.merc(m).health)}
    for turn, phase in STEPS[1:]:
        t.do("next_phase", player=t.turn_player())
        assert (t.state.turn, t.phase) == (turn, phase)
        seen[(turn, phase)] = (t.status(m, status), t.merc(m).health)
    return seen


def changes(seen: dict) -> list:
    """Only the steps where the count or health changed, in order."""
    out, last = [], None
    for step in STEPS:
        if seen[step] != last:
            out.append((step, seen[step]))
            last = seen[step]
    return out


@pytest.mark.parametrize(
    "status, count, on, rules, expected",
    [
        # Exhaust: one counter off at the start of its controller's Beginning phase only.
        ("exhaust", 2, "Ana", {}, [((1, "rally"), (2, 20)), ((3, "beginning"), (1, 20))]),
        ("exhaust", 2, "Ben", {}, [((1, "rally"), (2, 20)), ((2, "beginning"), (1, 20))]),
        # Bleed: damage equal to its counters in every End phase (or only its controller's).
        (
            "bleed",
            2,
            "Ana",
            {},
            [((1, "rally"), (2, 20)), ((1, "end"), (2, 18)), ((2, "end"), (2, 16)), ((3, "end"), (2, 14))],
        ),
        ("bleed", 2, "Ben", {"bleed_timing": "controller_end"}, [((1, "rally"), (2, 20)), ((2, "end"), (2, 18))]),
        (
            "bleed",
            7,
            "Ana",
            {},
            [((1, "rally"), (5, 20)), ((1, "end"), (5, 15)), ((2, "end"), (5, 10)), ((3, "end"), (5, 5))],
        ),
        # Blind: ends at its controller's next End phase.
        ("blind", 1, "Ana", {}, [((1, "rally"), (1, 20)), ((1, "end"), (0, 20))]),
        ("blind", 1, "Ben", {}, [((1, "rally"), (1, 20)), ((2, "end"), (0, 20))]),
        # Poison: no timing of its own.
        ("poison", 3, "Ana", {}, [((1, "rally"), (3, 20))]),
        # Fog and Silence: gone at the next End phase, whoever's turn.
        ("fog", 1, "Ben", {}, [((1, "rally"), (1, 20)), ((1, "end"), (0, 20))]),
        ("silence", 1, "Ben", {}, [((1, "rally"), (1, 20)), ((1, "end"), (0, 20))]),
        # Frost: removed at the end of its controller's First Movement phase.
        ("frost", 2, "Ana", {}, [((1, "rally"), (2, 20)), ((1, "attack"), (0, 20))]),
        ("frost", 3, "Ben", {}, [((1, "rally"), (3, 20)), ((2, "attack"), (0, 20))]),
        # Burn: acts in its controller's next Attack phase, then comes off at its end.
        ("burn", 1, "Ben", {}, [((1, "rally"), (1, 20)), ((2, "attack"), (1, 19)), ((2, "second_movement"), (0, 19))]),
        ("burn", 2, "Ben", {}, [((1, "rally"), (2, 20)), ((2, "attack"), (2, 18)), ((2, "second_movement"), (0, 18))]),
        ("burn", 3, "Ben", {}, [((1, "rally"), (3, 20)), ((2, "attack"), (3, 16)), ((2, "second_movement"), (0, 16))]),
        # Burn placed in its controller's own turn waits for their next turn.
        ("burn", 1, "Ana", {}, [((1, "rally"), (1, 20)), ((3, "attack"), (1, 19)), ((3, "second_movement"), (0, 19))]),
        # Stealth and Leech: no timing.
        ("stealth", 1, "Ana", {}, [((1, "rally"), (1, 20))]),
        ("leech", 1, "Ben", {}, [((1, "rally"), (1, 20))]),
        # Fortify: health up at once, no timing.
        ("fortify", 2, "Ana", {}, [((1, "rally"), (2, 23))]),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_status_timing(status, count, on, rules, expected):
    assert changes(timeline(status, count, on, **rules)) == expected


@pytest.mark.parametrize(
    "on, expected",
    [
        # placed after Ana's turn-1 Rally began: first heals at the owner's next Rally
        ("Ana", [((1, "rally"), (2, 10)), ((3, "rally"), (2, 12))]),
        ("Ben", [((1, "rally"), (2, 10)), ((2, "rally"), (2, 12))]),
    ],
)
def test_regen_heals_at_its_controllers_rally(on, expected):
    assert changes(timeline("regen", 2, on, damage=10)) == expected


def test_regen_never_heals_above_maximum():
    seen = timeline("regen", 5, "Ben", damage=2)
    assert seen[(2, "rally")] == (5, 20)


def test_phases_run_in_the_rulebooks_order():
    t = Table().start("Ana")
    seen = [t.phase]
    for _ in range(len(PHASES)):
        events = t.do("next_phase", player="Ana" if t.state.turn == 1 else "Ben")
        seen.append(t.phase)
    assert seen == [*list(PHASES), "beginning"]
    assert t.turn_player() == "Ben" and t.state.turn == 2
    assert events[-1]["type"] == "turn"


def test_draw_phase_draws_one_card_for_turn():
    t = Table().start("Ana")
    before = t.seat("Ana")
    t.do("next_phase", player="Ana")
    assert (t.seat("Ana").hand, t.seat("Ana").deck) == (before.hand + 1, before.deck - 1)
    assert t.seat("Ben").hand == 7


def test_first_turn_draw_house_rule():
    t = Table(first_turn_draw=False).start("Ana")
    t.to("acquire")
    assert t.seat("Ana").hand == 7
    t.next_turn()
    t.to("acquire")
    assert t.seat("Ben").hand == 8


def test_end_turn_runs_every_phase_effect_on_the_way():
    t = Table().start("Ana")
    m = t.put("Ana", health=10)
    t.do("add_status", target=m, status="bleed", count=3)
    t.do("add_status", target=m, status="frost", count=1)
    events = t.do("end_turn", player="Ana")
    assert t.phase == "end"
    assert t.merc(m).health == 7 and t.status(m, "frost") == 0
    assert [e["phase"] for e in events if e["type"] == "phase"] == list(PHASES[1:])
    assert t.seat("Ana").hand == 8, "the Draw phase still drew"


def test_hand_limit_at_the_end_phase():
    t = Table().start("Ana")
    t.do("counts", player="Ana", hand=11)
    assert "by the End phase" in t.summary().detail["reminders"][0]
    events = t.do("end_turn", player="Ana")
    assert any(e["type"] == "hand_limit" and e["discard"] == 3 for e in events), "12 cards after the draw"
    legal = guilded.legal_actions(t.state)
    assert {"type": "discard", "player": "Ana", "cards": 3} in legal
    assert {"type": "next_phase", "player": "Ana"} not in legal
    t.refused("next_phase", "discard 3", player="Ana")
    t.do("discard", player="Ana", cards=3)
    t.do("next_phase", player="Ana")
    assert t.turn_player() == "Ben"


@pytest.mark.parametrize(
    "phase", ["beginning", "draw", "acquire", "rally", "first_movement", "attack", "second_movement", "end"]
)
def test_summary_says_what_each_phase_allows(phase):
    t = Table().start("Ana")
    t.to(phase)
    detail = t.summary().detail
    assert detail["phase"] == phase and detail["allows"]
    assert detail["phase_title"] in t.summary().prompt


@pytest.mark.parametrize(
    "frost, scope, first, second",
    [
        (0, "turn", 3, 3),
        (1, "turn", 2, 2),
        (2, "turn", 1, 1),
        (3, "turn", 0, 0),
        (1, "counters", 2, 3),  # counters gone after First Movement: the full move stat again
        (3, "counters", 0, 3),
    ],
)
def test_frost_limits_movement(frost, scope, first, second):
    """Movement left in First and (having not moved) Second Movement, for a move-3 mercenary."""
    t = Table(frost_scope=scope).start("Ana")
    m = t.put("Ana", move=3)
    if frost:
        t.do("add_status", target=m, status="frost", count=frost)
    t.to("first_movement")
    assert t.summary().detail["mercenaries"][0]["movement_left"] == first
    t.to("second_movement")
    assert t.summary().detail["mercenaries"][0]["movement_left"] == second


def test_three_frost_stops_attacks_for_the_turn():
    t = Table().start("Ana")
    a = t.put("Ana", melee=2, move=2)
    b = t.put("Ben")
    t.do("add_status", target=a, status="frost", count=3)
    t.to("first_movement")
    t.refused("move", "frozen", player="Ana", merc=a, spaces=1)
    t.to("attack")
    assert t.status(a, "frost") == 0
    t.refused("attack", "frozen", player="Ana", merc=a, target=b)


def test_three_frost_under_counters_scope_can_attack_once_removed():
    t = Table(frost_scope="counters").start("Ana")
    a = t.put("Ana", melee=2, move=2)
    b = t.put("Ben")
    t.do("add_status", target=a, status="frost", count=3)
    t.to("attack")
    t.do("attack", player="Ana", merc=a, target=b)
    assert t.merc(b).health == 4


def test_burn_three_is_four_pure_damage_and_strips_treasures():
    t = Table().start("Ana")
    m = t.put("Ben", health=10, armour=5, defence=1)
    t.patch(m, treasures=(Treasure("Helm", 2),))
    t.do("add_status", target=m, status="burn", count=3)
    t.next_turn()
    t.to("attack")
    merc = t.merc(m)
    assert merc.health == 7, "4 pure: armour does not apply, defence takes 1"
    assert merc.treasures == () and not merc.defence_ready
