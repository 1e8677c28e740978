"""Invariants of whole matches played by random legal actions (hypothesis):
every match ends after exactly 16 turns per player per column, the totals are the sum of
the boxes and bonuses, and replaying the journal gives the same state."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import find_game
from companion.games.scoresheet.sheet import UPPER
from companion.session.replay import replay

SWASH = find_game("swashbuckle")
PROFILE = settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def dice_of(n):
    """Dice that make rare boxes come up: any dice, five alike, straights."""
    options = [st.lists(st.integers(1, 6), min_size=n, max_size=n), st.integers(1, 6).map(lambda f: [f] * n)]
    if n == 5:
        options.append(st.sampled_from([[1, 2, 3, 4, 5], [6, 5, 4, 3, 2]]))
    if n >= 4:
        options.append(st.sampled_from([[1, 1, 1, 1] + [4] * (n - 4), [1, 1, 2, 2, 2][:n]]))
    return st.one_of(*options)


def thrown_count(state, action):
    """How many dice a listed roll throws."""
    if action["type"] == "roll_off":
        return [1]
    turn = state.turn
    kept = len(action.get("keep", []))
    if turn.dice.rolls == 0 or (turn.piracy and turn.dice.rolls == 0):
        if turn.piracy:
            return [5]
        return [4, 5] if turn.curse == "waiting" else [5]
    return [len(turn.dice.dice) - kept]


def concrete(data, state, action):
    """A listed action made concrete: camera rolls get dice (sometimes unsure camera data)."""
    action = dict(action)
    if action.pop("from", None) is None:
        if action["type"] == "confirm" and data.draw(st.booleans()):
            action["dice"] = data.draw(dice_of(len(action["dice"])))
        return action
    n = data.draw(st.sampled_from(thrown_count(state, action)))
    values = data.draw(dice_of(n))
    if action["type"] != "roll_off" and data.draw(st.integers(0, 7)) == 0:
        flags = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
        action["detections"] = {
            "dice": [{"value": v, "unsure": f} for v, f in zip(values, flags, strict=False)],
            "unsure": sum(flags),
        }
    else:
        action["dice"] = values
    return action


def expected_total(state, seat):
    """A player's total added up by hand from the raw boxes, as the rulebook describes."""
    sheet = state.sheet
    pirate = state.pirates[seat]
    total = 0
    for index, column in enumerate(pirate.columns):
        upper = sum(s for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section == UPPER)
        lower = sum(s for b, s in zip(sheet.boxes, column.scores, strict=False) if b.section != UPPER)
        blimey = 45 if upper > 67 else 0
        smooth = 10 if all(s != 0 for s in column.scores) else 0
        total += upper + blimey + lower + 50 * column.marks + smooth + pirate.pillaged[index]
    return total - (15 if pirate.hornswaggle else 0) - pirate.penalties


rules_st = st.fixed_dictionaries(
    {
        "who_starts": st.sampled_from(["roll_off", "seating"]),
        "pillage_mode": st.sampled_from(["steal", "add"]),
        "captain_double_pillage": st.booleans(),
        "solo_challenge": st.booleans(),
        "etiquette_penalty": st.booleans(),
        "full_boat_five_alike": st.booleans(),
        "waterline_after": st.sampled_from(["swashbuckle", "flotsam", "sixes"]),
    }
)


@PROFILE
@given(
    data=st.data(),
    players=st.integers(1, 3),
    columns=st.sampled_from([1, 1, 1, 2]),
    rules=rules_st,
    captain=st.integers(-1, 2),
)
def test_any_legal_match_ends_after_sixteen_turns_per_column_with_honest_totals(data, players, columns, rules, captain):
    names = ["Ana", "Ben", "Cy"][:players]
    if columns > 1:
        names = names[:2]
    config = {**rules, "columns": columns, "captain": names[captain] if 0 <= captain < len(names) else ""}
    state = SWASH.initial_state(config, names, 11)
    journal, scored = [], dict.fromkeys(names, 0)
    for _ in range(2000):
        if state.phase == "over":
            break
        legal = SWASH.legal_actions(state)
        assert legal, "a match in play always offers an action"
        penalties = [a for a in legal if a["type"] in ("etiquette", "calculator")]
        moves = [a for a in legal if a not in penalties]
        pool = penalties if penalties and data.draw(st.integers(0, 19)) == 0 else moves
        action = concrete(data, state, data.draw(st.sampled_from(pool)))
        state, events = SWASH.apply(state, action)
        journal.append(action)
        for e in events:
            if e["type"] in ("scored", "piracy"):
                scored[e["player"]] += 1
            if e["type"] == "piracy":
                assert e["points"] > 0  # a scuttled Piracy box pillages nobody
    assert state.phase == "over"
    assert scored == dict.fromkeys(names, 16 * columns)
    assert all(p.turns == 16 * columns and p.done for p in state.pirates)
    summary = SWASH.summary(state)
    for seat, name in enumerate(names):
        assert summary.scores[name] == expected_total(state, seat)
    if rules["pillage_mode"] == "add":
        assert all(v == 0 for p in state.pirates for v in p.pillaged)
    json.dumps(summary.to_json())
    states, _ = replay(SWASH, config, names, 11, journal)
    assert states[-1] == state
