"""Whole Scallywagger games: one scripted 4-player game through `purser play`, and random
legal games whose journal always replays to the same state."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import IllegalAction, resolve_config
from companion.games import scallywagger as sw
from companion.session import replay


def detections(total, face, count, unsure=()):
    """What the dice reader returns for ``total`` dice, ``count`` of them showing ``face``.

    Dice at the ``unsure`` positions are flagged for a player to confirm.
    """
    filler = [f for f in (2, 3, 4, 5, 6) if f != face]
    values = [face] * count + [filler[i % len(filler)] for i in range(total - count)]
    return {
        "dice": [
            {
                "value": v,
                "box": [40.0 * (i % 8), 40.0 * (i // 8), 32.0, 32.0],
                "confidence": 0.55 if i in unsure else 0.97,
                "unsure": i in unsure,
            }
            for i, v in enumerate(values)
        ],
        "unsure": len(unsure),
    }


def reveal(total, face, count, unsure=()):
    return {"type": "reveal", "detections": detections(total, face, count, unsure)}


def bid(player, quantity, face):
    return {"type": "bid", "player": player, "quantity": quantity, "face": face}


def call(player):
    return {"type": "call", "player": player}


def parlay(player):
    return {"type": "parlay", "player": player}


def pass_(player):
    return {"type": "pass", "player": player}


def draw(player, deck):
    return {"type": "draw", "player": player, "deck": deck}


# Crewmates after each turn are in the comments (Ana Ben Cy Dee).
SCRIPT = [
    {"type": "first_captain", "player": "Cy"},
    # turn 1, 20 dice: Dee's four 4s stands; Ana loses one                      4 5 5 5
    bid("Cy", 3, 4),
    bid("Dee", 4, 4),
    call("Ana"),
    reveal(20, 4, 5),
    draw("Dee", "treasure"),
    # turn 2, 19 dice: Dee declines her Treasure; Ben's Parlay on three 6s: the camera
    # reads four 6s but is unsure of one, which a player confirms as a 2     3 5 4 4
    pass_("Dee"),
    bid("Dee", 2, 6),
    bid("Ana", 3, 6),
    parlay("Ben"),
    reveal(19, 6, 4, unsure=(3,)),
    {"type": "confirm", "die": 3, "value": 2, "player": "Cy"},
    draw("Ben", "adventure"),
    # turn 3, 16 dice: Dee uses her Treasure; Ben reveals his Adventure card out of turn;
    # Cy catches Ben's three 5s                                                3 4 4 4
    {"type": "use", "player": "Dee", "card": "Treasure"},
    bid("Ana", 2, 5),
    {"type": "adventure", "player": "Ben", "card": "Adventure"},
    bid("Ben", 3, 5),
    call("Cy"),
    reveal(16, 5, 2),
    draw("Cy", "treasure"),
    # turn 4, 15 dice: Cy's Parlay on four 3s is wrong (five): Cy loses two     3 4 2 4
    pass_("Cy"),
    bid("Ben", 4, 3),
    parlay("Cy"),
    reveal(15, 3, 5),
    draw("Ben", "treasure"),
    # turn 5, 13 dice: Dee's Parlay on one 2 is right (typed count); she declines the draw  2 3 1 4
    pass_("Cy"),
    pass_("Ben"),
    bid("Cy", 1, 2),
    parlay("Dee"),
    {"type": "reveal", "count": 1},
    pass_("Dee"),
    # turn 6, 10 dice: Ana calls Dee's three 4s; the faces are typed in         2 3 1 3
    pass_("Ben"),
    pass_("Cy"),
    bid("Dee", 3, 4),
    call("Ana"),
    {"type": "reveal", "dice": [4, 4, 2, 2, 3, 5, 6, 6, 2, 3]},
    draw("Ana", "adventure"),
    # turn 7, 9 dice: Ben wrongly calls Ana's two 6s; Ana keeps her Adventure concealed  2 2 1 3
    pass_("Ben"),
    pass_("Cy"),
    bid("Ana", 2, 6),
    call("Ben"),
    reveal(9, 6, 3),
    draw("Ana", "treasure"),
    # turn 8, 8 dice: Cy's Parlay on one 1 is right                             1 1 1 2
    pass_("Ben"),
    pass_("Cy"),
    pass_("Ana"),
    bid("Ben", 1, 1),
    parlay("Cy"),
    reveal(8, 1, 1),
    draw("Cy", "adventure"),
    # turn 9, 5 dice: Ana catches Dee's two 5s                                  1 1 1 1
    pass_("Cy"),
    pass_("Ana"),
    pass_("Ben"),
    bid("Cy", 2, 3),
    bid("Dee", 2, 5),
    call("Ana"),
    reveal(5, 5, 1),
    draw("Ana", "treasure"),
    # turn 10, 4 dice: Ana's Parlay on one 4 is right: everyone else is out     1 0 0 0
    pass_("Ana"),
    pass_("Ben"),
    pass_("Cy"),
    bid("Dee", 1, 4),
    parlay("Ana"),
    reveal(4, 4, 1),
]

OUTCOMES = [
    "bid_confirmed",
    "parlay_right",
    "bid_false",
    "parlay_wrong",
    "parlay_right",
    "bid_false",
    "bid_confirmed",
    "parlay_right",
    "bid_false",
    "parlay_right",
]


def test_a_whole_four_player_game_through_purser_play(purser):
    sid = purser.new("scallywagger", ["Ana", "Ben", "Cy", "Dee"], seed=11)
    results = purser.play_ok(sid, SCRIPT)
    events = [e for r in results for e in r["events"]]
    assert [e["type"] for e in events if e["type"] in set(OUTCOMES)] == OUTCOMES
    assert [e["player"] for e in events if e["type"] == "out"] == ["Ben", "Cy", "Dee"]
    # the unsure die held the Parlay until it was confirmed
    confirm_step = SCRIPT.index({"type": "confirm", "die": 3, "value": 2, "player": "Cy"})
    assert [e["type"] for e in results[confirm_step - 1]["events"]] == ["unsure"]
    assert "parlay_right" in [e["type"] for e in results[confirm_step]["events"]]
    assert results[-1]["prompt"] == "Game over: Ana wins."

    shown = purser.show(sid)
    summary = shown["summary"]
    assert summary["over"] and summary["winners"] == ["Ana"]
    assert summary["scores"] == {"Ana": 1.0, "Ben": 0.0, "Cy": 0.0, "Dee": 0.0}
    assert shown["legal_actions"] == []
    decks = summary["detail"]["decks"]
    # Treasure drawn 5 times: Dee used hers, Ben's and Cy's were discarded when they went
    # out, Ana holds two. Adventure drawn 3 times, each discarded at the end of its turn.
    assert decks["treasure"] == {"deck": 15, "discard": 3, "shuffles": 1}
    assert decks["adventure"] == {"deck": 17, "discard": 3, "shuffles": 1}
    assert summary["detail"]["treasure"]["Ana"] == ["Treasure", "Treasure"]

    # a refused action changes nothing and says why
    refused = purser.play(sid, [bid("Ana", 1, 2)])[0]
    assert refused == {"ok": False, "error": "illegal", "message": "the game is over"}


def test_the_same_script_with_too_many_dice_seen_surely_is_refused_mid_game(purser):
    sid = purser.new("scallywagger", ["Ana", "Ben", "Cy", "Dee"], seed=11)
    results = purser.play(sid, [*SCRIPT[:4], reveal(21, 4, 5)])
    assert all(r["ok"] for r in results[:4])
    assert results[4]["ok"] is False and "camera saw 21 dice but 20 crewmates" in results[4]["message"]
    assert purser.show(sid)["summary"]["detail"]["phase"] == "reveal"


def test_the_same_script_with_a_die_the_camera_missed_goes_on_once_it_is_added(purser):
    sid = purser.new("scallywagger", ["Ana", "Ben", "Cy", "Dee"], seed=11)
    results = purser.play_ok(sid, [*SCRIPT[:4], reveal(19, 4, 5)])
    assert [e["type"] for e in results[4]["events"]] == ["missed"]
    assert results[4]["prompt"] == "The camera missed 1 die: a player adds what each shows."
    shown = purser.show(sid)
    assert shown["summary"]["detail"]["reveal"]["missing"] == 1
    assert [a["value"] for a in shown["legal_actions"]] == [1, 2, 3, 4, 5, 6]
    # the missed die was a 4: Dee's four 4s stand, as in the game where the camera saw it
    added = purser.play_ok(sid, [{"type": "add", "value": 4, "player": "Ben"}])[0]
    assert [e["type"] for e in added["events"]][:3] == ["add", "revealed", "bid_confirmed"]
    assert added["events"][0]["text"] == "Ben adds a die the camera missed, showing 4."
    assert purser.play_ok(sid, SCRIPT[5:7])


# -- random legal games ------------------------------------------------------------------------------

CARD_RULES = {
    "treasure_cards": "Rum Barrel:2:self+1,Cutlass:2:target-1,Broadside:1:others-1,Compass:1:self+1:lasting,"
    "Powder:2:target-1:anytime,Map:1",
    "adventure_cards": "Kraken:1:others-1,Mutiny:1:self-1,Fog:2",
}

RULE_SETS = st.fixed_dictionaries(
    {
        "crewmates": st.integers(1, 3),
        "first_captain": st.sampled_from(["ask", "random", "first_seat"]),
        "raise_rule": st.sampled_from(["any_face", "no_lower_face"]),
        "parlay": st.sampled_from(["last_bid", "any_bid"]),
        "ones": st.sampled_from([("lowest_face", False), ("lowest_face", True), ("never", False), ("aces", True)]),
        "cards": st.sampled_from([CARD_RULES, {}, {"treasure_cards": "", "adventure_cards": "Fog:1"}]),
        "max_crewmates": st.sampled_from([0, 3]),
    }
)


def _config(drawn):
    rules = dict(drawn)
    ones_bids, wild = rules.pop("ones")
    rules.update(rules.pop("cards"), ones_bids=ones_bids, wild_ones=wild)
    return resolve_config(sw.RULES, rules)


def _cards_total(state):
    held = sum(len(h) for h in state.hands)
    return held + sum(len(p.deck) + len(p.discard) for p in (state.treasure, state.adventure))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=RULE_SETS, n=st.integers(2, 5), seed=st.integers(0, 2**31 - 1))
def test_random_games_replay_from_their_journal(data, rules, n, seed):
    config = _config(rules)
    players = ["Ana", "Ben", "Cy", "Dee", "Eli"][:n]
    state = sw.initial_state(config, players, seed)
    cards = _cards_total(state)
    journal = []
    for _ in range(120):
        legal = [a for a in sw.legal_actions(state) if "from" not in a]
        if not legal:
            break
        action = data.draw(st.sampled_from(legal), label="action")
        if action["type"] == "reveal" and data.draw(st.booleans(), label="camera"):
            # what the dice reader would have returned, sometimes unsure of a few dice
            faces = data.draw(
                st.lists(st.integers(1, 6), min_size=state.dice_on_table, max_size=state.dice_on_table), label="faces"
            )
            unsure = data.draw(st.sets(st.integers(0, max(state.dice_on_table - 1, 0)), max_size=3), label="unsure")
            action = {
                "type": "reveal",
                "detections": {
                    "dice": [
                        {"value": v, "box": [0, 0, 1, 1], "confidence": 0.9, "unsure": i in unsure}
                        for i, v in enumerate(faces)
                    ]
                },
            }
        if data.draw(st.integers(0, 9), label="junk") == 0:
            junk = data.draw(
                st.dictionaries(
                    st.sampled_from(
                        ["type", "player", "quantity", "face", "card", "count", "die", "value", "deck", "target"]
                    ),
                    st.none() | st.integers(-2, 30) | st.text(max_size=8),
                    max_size=4,
                ),
                label="junk action",
            )
            try:
                state2, _ = sw.apply(state, junk)
            except IllegalAction:
                pass
            else:
                state, journal = state2, [*journal, junk]
        before = state
        state, events = sw.apply(state, action)
        assert before is not state and all(isinstance(e["text"], str) for e in events)
        journal.append(action)
        assert all(c >= 0 for c in state.crew)
        assert _cards_total(state) == cards, "cards are never created or lost"
        if state.phase != "over":
            assert len(state.alive) >= 2
            assert state.phase == "setup" or state.crew[state.token] > 0 or state.bids
        else:
            assert len(state.alive) <= 1 and sw.summary(state).over
    states, _ = replay(sw, config, players, seed, journal)
    assert states[-1] == state
    # the stored config comes back from JSON with lists instead of tuples: same game
    assert replay(sw, json.loads(json.dumps(config)), players, seed, journal)[0][-1] == state


def test_replay_refuses_a_journal_the_rules_do_not_allow():
    config = resolve_config(sw.RULES, {"first_captain": "first_seat"})
    with pytest.raises(IllegalAction, match="fewer dice"):
        replay(sw, config, ["Ana", "Ben"], 1, [bid("Ana", 3, 4), bid("Ben", 2, 4)])
