"""The weigh-off procedure on its own: comparisons, brackets, tie-breaks, pans, curses."""

from __future__ import annotations

import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction
from companion.games.seven_seize.weighoff import PIPS, Reading, WeighOff, compare, coverage_factor


def g(value: float, u: float = 0.05, channel: int | None = None) -> Reading:
    return Reading(value, u, "g", source="scale" if channel is not None else "typed", channel=channel)


def run(wo: WeighOff, weights: dict[str, list[float]], u: float = 0.05) -> tuple[WeighOff, list[dict]]:
    """Feed each due collection its next listed weight until the weigh-off needs none."""
    events: list[dict] = []
    queues = {k: list(v) for k, v in weights.items()}
    while wo.waiting() and queues.get(wo.waiting()[0]):
        name = wo.waiting()[0]
        wo, caused = wo.record(name, g(queues[name].pop(0), u, channel=wo.pan_for(name)))
        events += caused
    assert all(not q for q in queues.values()), f"weights left over: {queues}"
    return wo, events


# -- comparing two readings --------------------------------------------------------------------


@pytest.mark.parametrize("confidence, k", [(0.95, 1.959964), (0.99, 2.575829), (0.6826895, 1.0), (0.5, 0.674490)])
def test_coverage_factor(confidence, k):
    assert coverage_factor(confidence) == pytest.approx(k, abs=1e-5)


@pytest.mark.parametrize("confidence", [0.0, 1.0, -0.5, 2.0])
def test_impossible_confidence_is_refused(confidence):
    with pytest.raises(ValueError):
        coverage_factor(confidence)


@pytest.mark.parametrize(
    "a, b, cursed, outcome",
    [
        (g(100.0, 0.1), g(100.1, 0.1), False, "tie"),  # 0.1 < 1.96 * 0.141
        (g(100.0, 0.1), g(100.3, 0.1), False, "b"),  # 0.3 > 0.277
        (g(100.0, 0.1), g(100.3, 0.1), True, "a"),  # cursed: the lighter stays
        (g(100.0, 0.01), g(100.1, 0.01), False, "b"),
        (g(50.0, 0.0), g(50.0, 0.0), False, "tie"),  # equal always ties, even exact
        (g(50.0, 0.0), g(50.001, 0.0), False, "b"),  # exact readings: any difference counts
        (g(0.0, 0.0), g(0.0, 0.0), True, "tie"),
        (Reading(41, 0, PIPS), Reading(40, 0, PIPS), False, "a"),
        (Reading(41, 0, PIPS), Reading(41, 0, PIPS), False, "tie"),
    ],
)
def test_compare(a, b, cursed, outcome):
    result = compare(a, b, 0.95, cursed)
    assert result.outcome == outcome
    assert result.combined == pytest.approx(math.hypot(a.uncertainty, b.uncertainty))
    assert result.threshold == pytest.approx(1.959964 * result.combined, rel=1e-5)


@pytest.mark.parametrize("difference, at_95", [(0.25, "tie"), (0.30, "b")])
def test_the_confidence_level_moves_the_line(difference, at_95):
    a, b = g(100.0, 0.1), g(100.0 + difference, 0.1)
    assert compare(a, b, 0.95).outcome == at_95  # 1.96 * 0.1414 = 0.277
    assert compare(a, b, 0.99).outcome == "tie"  # 2.576 * 0.1414 = 0.364
    assert compare(a, b, 0.6).outcome == "b"  # 0.842 * 0.1414 = 0.119


# -- setting up -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "names, pieces, kwargs",
    [
        ((), (), {}),  # the empty case
        (("A", "B"), (3,), {}),
        (("A", "A"), (3, 3), {}),
        (("A", "B"), (3, -1), {}),
        (("A", "B"), (3, 3), {"pans": 3}),
        (("A", "B"), (3, 3), {"unit": "oz"}),
        (("A", "B"), (3, 3), {"confidence": 1.0}),
    ],
)
def test_bad_setups_are_refused(names, pieces, kwargs):
    with pytest.raises(ValueError):
        WeighOff.start(names, pieces, **kwargs)


def test_a_lone_collection_wins_unweighed_only_if_it_is_alone():
    wo, _ = WeighOff.start(["A"], [5])
    assert wo.waiting() == ("A",)
    wo, _ = wo.record("A", g(30.0))
    assert wo.done and wo.winners == ("A",)


# -- one pan ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "weights, cursed, queue, eliminated, winner",
    [
        ({"A": 100, "B": 120, "C": 90, "D": 110}, False, ("C", "A", "D"), ("C", "A", "D"), "B"),
        ({"A": 100, "B": 120, "C": 90, "D": 110}, True, ("B", "D", "A"), ("B", "D", "A"), "C"),
        ({"A": 100, "B": 50}, False, ("B",), ("B",), "A"),
    ],
)
def test_one_pan_bracket(weights, cursed, queue, eliminated, winner):
    wo, _ = WeighOff.start(list(weights), [5] * len(weights), cursed=cursed)
    assert wo.waiting() == tuple(weights)  # everyone weighs once, in seat order
    for name, grams in weights.items():
        wo, events = wo.record(name, g(grams))
    assert wo.queue == () and wo.eliminated == eliminated and wo.winners == (winner,)
    assert [c.pair for c in wo.contests] == [(winner, q) for q in queue]
    assert [e["player"] for e in events if e["type"] == "eliminated"] == list(eliminated)
    assert events[-1]["type"] == "weighoff_won" and wo.instruction() == f"{winner} wins the weigh-off."
    places = [(r["player"], r["place"]) for r in wo.ranking()]
    assert places[0] == (winner, 1) and [p for _, p in places] == [1, 2, 3, 4][: len(weights)]


def test_one_pan_near_tie_asks_both_to_remove_a_piece_and_reweigh():
    wo, _ = WeighOff.start(["A", "B", "C"], [6, 5, 4])
    wo, _ = wo.record("A", g(100.00))
    wo, _ = wo.record("B", g(100.05))  # level with A within 1.96 * 0.0707 = 0.139 g
    wo, events = wo.record("C", g(60.0))
    assert wo.eliminated == ("C",)
    assert wo.contest is not None and wo.contest.pair == ("B", "A")
    assert wo.waiting() == ("B", "A") and wo.removed == (1, 1, 0)
    assert (wo.on_pan("A"), wo.on_pan("B")) == (5, 4)
    tie = [e for e in events if e["type"] == "tie"]
    assert len(tie) == 1 and "remove" in tie[0]["text"] and "95%" in tie[0]["text"]
    assert "remove" in wo.instruction()
    with pytest.raises(IllegalAction, match="not due"):
        wo.record("C", g(1.0))
    # Still level after one piece each: again.
    wo, _ = wo.record("B", g(90.00))
    wo, events = wo.record("A", g(90.03))
    assert wo.removed == (2, 2, 0) and not wo.done
    wo, _ = wo.record("A", g(80.5))
    wo, events = wo.record("B", g(81.0))
    assert wo.done and wo.winners == ("B",) and wo.eliminated == ("C", "A")
    contest = wo.contests[-1]
    assert len(contest.bouts) == 3 and [b.removed for b in contest.bouts] == [(0, 0), (1, 1), (2, 2)]
    assert wo.removed == (0, 0, 0)  # the pieces went back
    assert any(e["type"] == "pieces_back" for e in events)
    assert wo.to_json()["contests"][-1]["tie_breaks"] == 2


def _b_holds_and_ties_with_the_weakest(pieces_return: bool) -> WeighOff:
    # B holds (100.10); A (weakest, 100.00) comes first and is level; so is C (100.05).
    wo, _ = WeighOff.start(["A", "B", "C"], [5, 5, 5], pieces_return=pieces_return)
    wo, _ = run(wo, {"A": [100.00], "B": [100.10], "C": [100.05]})
    assert wo.contest.pair == ("B", "A") and wo.waiting() == ("B", "A")
    wo, _ = wo.record("B", g(95.0))
    wo, _ = wo.record("A", g(90.0))
    assert wo.eliminated[0] == "A" and wo.contests[0].winner == "B"
    return wo


def test_stay_out_carries_the_shortened_weight_into_the_next_contest():
    wo = _b_holds_and_ties_with_the_weakest(pieces_return=False)
    # B carries 95.0 (one piece out) against C's whole 100.05: C wins outright, no weighing.
    assert wo.done and wo.winners == ("C",) and wo.eliminated == ("A", "B")
    assert wo.contests[-1].bouts[0].readings[0].value == 95.0 and len(wo.contests[-1].bouts) == 1
    assert wo.removed == (1, 1, 0)


def test_returned_pieces_make_the_holder_whole_again():
    wo = _b_holds_and_ties_with_the_weakest(pieces_return=True)
    # B is whole again (100.10) against C (100.05): level, so another tie-break.
    assert not wo.done and wo.contest.pair == ("B", "C") and wo.removed == (0, 1, 1)
    wo, _ = run(wo, {"B": [96.0], "C": [94.0]})
    assert wo.winners == ("B",) and wo.eliminated == ("A", "C") and wo.removed == (0, 0, 0)


def test_empty_collections_weigh_zero_without_the_pan():
    wo, events = WeighOff.start(["A", "B", "C"], [0, 4, 0])
    assert wo.waiting() == ("B",)
    assert [e["player"] for e in events if e["type"] == "weighed"] == ["A", "C"]
    wo, _ = wo.record("B", g(40.0))
    assert wo.winners == ("B",)


def test_cursed_empty_collections_that_stay_level_share_the_win():
    wo, events = WeighOff.start(["A", "B", "C"], [0, 4, 0], cursed=True)
    wo, events = wo.record("B", g(40.0))
    assert wo.done and set(wo.winners) == {"A", "C"}
    assert any(e["type"] == "drawn" for e in events)
    assert wo.contests[-1].drawn and wo.contests[-1].pair == ("A", "C") and wo.eliminated == ("B",)
    assert [r["place"] for r in wo.ranking()] == [1, 1, 3]


def test_a_side_out_of_pieces_stays_at_zero_while_the_other_sheds():
    wo, _ = WeighOff.start(["A", "B"], [1, 3], cursed=True)
    wo, _ = wo.record("A", g(2.00))
    wo, _ = wo.record("B", g(2.05))  # tie
    assert wo.waiting() == ("B",)  # A had one piece: it is off the pan now, 0 exactly
    wo, _ = wo.record("B", g(1.0))
    assert wo.winners == ("A",)  # cursed: 0 beats 1.0


def test_pips_are_exact_and_equal_pips_tie():
    wo, _ = WeighOff.start(["A", "B"], [4, 4], unit=PIPS)
    with pytest.raises(IllegalAction, match="pips"):
        wo.record("A", g(10.0))
    wo, _ = wo.record("A", Reading(30, 0, PIPS))
    wo, _ = wo.record("B", Reading(30, 0, PIPS))
    assert wo.waiting() == ("A", "B") and "level on 30 pips each" in wo.instruction()
    assert "confidence" not in wo.instruction(), "an exact count has no confidence level"
    assert "count again" in wo.instruction()
    wo, _ = wo.record("A", Reading(21, 0, PIPS))
    wo, _ = wo.record("B", Reading(22, 0, PIPS))
    assert wo.winners == ("B",)


# -- two pans ---------------------------------------------------------------------------------


def test_two_pans_contest_in_seat_order_and_weigh_both_each_time():
    wo, _ = WeighOff.start(["A", "B", "C"], [4, 4, 4], pans=2)
    assert wo.waiting() == ("A", "B") and (wo.pan_for("A"), wo.pan_for("B")) == (0, 1)
    assert wo.instruction() == "A on pan A, B on pan B: weigh both."
    wo, _ = wo.record("A", g(50.0, channel=0))
    with pytest.raises(IllegalAction, match=r"both collections were read from pan A; .* one collection on each pan"):
        wo.record("B", g(60.0, channel=0))
    wo, _ = wo.record("B", g(60.0, channel=1))
    assert wo.eliminated == ("A",) and wo.waiting() == ("B", "C")
    wo, _ = wo.record("C", g(59.98, channel=1))
    wo, events = wo.record("B", g(60.01, channel=0))
    assert any(e["type"] == "tie" for e in events) and wo.waiting() == ("B", "C")
    wo, _ = run(wo, {"B": [55.0], "C": [52.0]})
    assert wo.winners == ("B",) and wo.eliminated == ("A", "C")
    assert {n: r["value"] for n, r in wo.to_json()["weights"].items()} == {"A": 50.0, "B": 60.0, "C": 59.98}


# -- ranking and JSON -------------------------------------------------------------------------


def test_ranking_never_splits_level_collections():
    wo, _ = WeighOff.start(["A", "B", "C", "D"], [5, 5, 5, 5])
    wo, _ = run(wo, {"A": [200.0], "B": [100.0], "C": [100.05], "D": [50.0]})
    ranking = wo.ranking()
    assert [(r["player"], r["place"]) for r in ranking] == [("A", 1), ("C", 2), ("B", 2), ("D", 4)]


def test_to_json_names_everything_the_screen_shows():
    wo, _ = WeighOff.start(["A", "B"], [3, 0])
    data = wo.to_json()
    assert data["waiting"] == ["A"] and data["weights"]["B"]["value"] == 0.0 and data["weights"]["A"] is None
    assert data["coverage_factor"] == pytest.approx(1.96, abs=0.01) and data["confidence"] == 0.95
    wo, _ = wo.record("A", g(12.0))
    data = wo.to_json()
    assert data["done"] and data["winners"] == ["A"] and data["eliminated"] == ["B"]
    bout = data["contests"][0]["bouts"][0]
    assert bout["readings"]["A"]["value"] == 12.0 and bout["outcome"] == "a"


# -- invariants -------------------------------------------------------------------------------

weights_st = st.lists(st.floats(0.5, 500.0, allow_nan=False), min_size=2, max_size=7)


@settings(max_examples=60, deadline=None)
@given(weights=weights_st, cursed=st.booleans(), pans=st.sampled_from([1, 2]), data=st.data())
def test_the_weighoff_always_ends_and_clear_winners_win(weights, cursed, pans, data):
    names = [f"P{i}" for i in range(len(weights))]
    wo, _ = WeighOff.start(names, [20] * len(names), cursed=cursed, pans=pans)
    steps = 0
    while not wo.done:
        name = wo.waiting()[0]
        i = names.index(name)
        # Each piece removed takes a random share of the collection; noise stays inside u.
        share = 1.0 - wo.removed[i] / 20.0
        noise = data.draw(st.floats(-0.02, 0.02))
        wo, _ = wo.record(name, g(max(0.0, weights[i] * share + noise), 0.02, channel=wo.pan_for(name)))
        steps += 1
        assert steps < 500
    assert len(wo.winners) >= 1 and len(wo.eliminated) + len(wo.winners) == len(names)
    best = weights.index(min(weights) if cursed else max(weights))
    others = weights[:best] + weights[best + 1 :]
    if all(abs(weights[best] - w) > 0.2 for w in others):  # clearly better than everyone
        assert wo.winners == (names[best],)


def test_two_pans_are_pan_a_and_pan_b_as_the_balance_names_them_and_actions_keep_the_channel():
    wo, _ = WeighOff.start(["Ana", "Ben", "Cy"], [4, 4, 4], pans=2)
    texts = [wo.instruction()]
    assert texts[0] == "Ana on pan A, Ben on pan B: weigh both."
    events: list[dict] = []
    for name, grams in (("Ana", 60.0), ("Ben", 50.0), ("Ana", 59.99), ("Cy", 60.0), ("Ana", 55.0), ("Cy", 50.0)):
        wo, caused = wo.record(name, g(grams, channel=wo.pan_for(name)))
        events += caused
        texts += [e["text"] for e in caused] + [wo.instruction()]
    assert wo.winners == ("Ana",) and any(e["type"] == "tie" for e in events)
    assert "Ana (pan A) and Cy (pan B) contest their collections." in texts
    assert not [t for t in texts if re.search(r"\bpans? \d", t)], "pans are A and B in words"
    assert all(set(e["pans"].values()) <= {0, 1} for e in events if "pans" in e), "the data keeps the channel"
