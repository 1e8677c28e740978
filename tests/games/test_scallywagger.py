"""Every Scallywagger rule, table-driven, on the engine directly."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from companion.games import ConfigError, IllegalAction, find_game, resolve_config
from companion.games import scallywagger as sw
from companion.games.scallywagger.bids import bid_words
from companion.games.scallywagger.cards import find_card
from companion.games.scallywagger.state import Held, next_alive, set_pile, usable

FOUR = ("Ana", "Ben", "Cy", "Dee")


def new(players=FOUR, seed=1, **rules):
    rules.setdefault("first_captain", "first_seat")
    return sw.initial_state(resolve_config(sw.RULES, rules), players, seed)


def act(state, **action):
    return sw.apply(state, action)


def run(state, *actions):
    events = []
    for action in actions:
        state, ev = sw.apply(state, action)
        events.extend(ev)
    return state, events


def bid(player, quantity, face):
    return {"type": "bid", "player": player, "quantity": quantity, "face": face}


def types(events):
    return [e["type"] for e in events]


def give(state, player, card, drawn=0, used=0):
    """Put a card in front of a player (as if drawn in turn ``drawn``)."""
    seat = state.players.index(player)
    hands = list(state.hands)
    hands[seat] = hands[seat] + (Held(find_card(state.catalogue, card), drawn, used),)
    return replace(state, hands=tuple(hands))


def crew(state):
    return dict(zip(state.players, state.crew, strict=False))


# -- set-up -----------------------------------------------------------------------------------


def test_registered_with_aliases():
    assert find_game("scallywagger") is sw and find_game("Scally") is sw and find_game("liars-dice") is sw


@pytest.mark.parametrize("n", [2, 3, 4, 8])
def test_every_captain_starts_with_five_crewmates(n):
    names = [f"P{i}" for i in range(n)]
    s = new(names)
    assert s.crew == (5,) * n and s.dice_on_table == 5 * n
    assert len(s.treasure.deck) == 20 and len(s.adventure.deck) == 20
    assert s.phase == "bidding" and s.token == 0 and s.actor == 0


def test_the_table_names_the_roll_off_winner_by_default():
    s = new(first_captain="ask")
    assert s.phase == "setup"
    summary = sw.summary(s)
    assert summary.to_act == FOUR and "Roll off" in summary.prompt
    assert sw.legal_actions(s) == [{"type": "first_captain", "player": p} for p in FOUR]
    with pytest.raises(IllegalAction, match="roll-off"):
        act(s, type="bid", player="Ana", quantity=1, face=2)
    s, events = act(s, type="first_captain", player="cy")
    assert s.token == 2 and s.actor == 2 and s.phase == "bidding"
    assert types(events) == ["first_captain", "bidding"]
    with pytest.raises(IllegalAction, match="not now"):
        act(s, type="first_captain", player="Ana")


def test_random_first_captain_comes_from_the_seed():
    firsts = {new(seed=seed, first_captain="random").token for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new(seed=5, first_captain="random") == new(seed=5, first_captain="random")


@pytest.mark.parametrize(
    "players, rules, message",
    [
        (["Solo"], {}, "2 to 8"),
        ([f"P{i}" for i in range(9)], {}, "2 to 8"),
        (["Ana", "ana"], {}, "same name"),
        (FOUR, {"ones_bids": "aces"}, "wild_ones"),
        (FOUR, {"treasure_cards": "Rum"}, "NAME:COPIES"),
        (FOUR, {"treasure_cards": "Gold:1", "adventure_cards": "Gold:1"}, "listed twice"),
    ],
)
def test_bad_set_ups_are_refused(players, rules, message):
    with pytest.raises(ConfigError, match=message):
        new(players, **rules)


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"crewmates": 0}, "at least"),
        ({"raise_rule": "whatever"}, "must be one of"),
        ({"ones_bids": "sometimes"}, "must be one of"),
        ({"parlay": "maybe"}, "must be one of"),
        ({"nonsense": 1}, "no house rule"),
    ],
)
def test_bad_house_rules_are_refused(rules, message):
    with pytest.raises(ConfigError, match=message):
        resolve_config(sw.RULES, rules)


# -- bidding ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules, bids, last, allowed",
    [
        ({}, [], (3, 2), True),
        ({}, [(3, 2)], (4, 2), True),
        ({}, [(3, 2)], (3, 5), True),
        ({}, [(3, 2)], (2, 6), False),
        ({}, [(3, 2)], (3, 2), False),
        ({}, [(3, 2)], (3, 1), False),
        ({}, [(3, 2)], (4, 1), True),
        ({}, [(3, 5)], (4, 2), True),
        ({"raise_rule": "no_lower_face"}, [(3, 5)], (4, 2), False),
        ({"ones_bids": "never"}, [], (2, 1), False),
        ({"ones_bids": "aces", "wild_ones": True}, [(5, 4)], (3, 1), True),
        ({"ones_bids": "aces", "wild_ones": True}, [(5, 4)], (2, 1), False),
        ({}, [], (21, 6), False),  # 20 dice on the table
        ({}, [(19, 6)], (20, 2), True),
    ],
)
def test_bidding_legality_through_the_engine(rules, bids, last, allowed):
    s = new(**rules)
    seats = list(FOUR)
    for i, (q, f) in enumerate(bids):
        s, _ = act(s, **bid(seats[i], q, f))
    player = seats[len(bids)]
    listed = {"type": "bid", "player": player, "quantity": last[0], "face": last[1]} in sw.legal_actions(s)
    assert listed == allowed
    if allowed:
        s2, events = act(s, **bid(player, *last))
        assert s2.bid.quantity == last[0] and s2.bid.face == last[1]
        assert events[0]["text"] == f"{player} bids {bid_words(*last)}."
    else:
        with pytest.raises(IllegalAction):
            act(s, **bid(player, *last))


def test_bidding_goes_clockwise_and_refuses_out_of_turn():
    s = new()
    with pytest.raises(IllegalAction, match="not Ben's turn"):
        act(s, **bid("Ben", 1, 2))
    s, _ = run(s, bid("Ana", 1, 2), bid("Ben", 2, 2), bid("Cy", 3, 2), bid("Dee", 4, 2))
    assert s.actor == 0, "after the last seat the bidding comes round to the first"
    with pytest.raises(IllegalAction, match="not Cy's turn"):
        act(s, type="call", player="Cy")


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "call", "player": "Ana"}, "no bid to call"),
        ({"type": "parlay", "player": "Ana"}, "no bid to call"),
        ({"type": "bid", "player": "Ana", "quantity": "3", "face": 2}, "whole number"),
        ({"type": "bid", "player": "Ana", "face": 2}, '"quantity"'),
        ({"type": "bid", "player": "Zed", "quantity": 3, "face": 2}, "nobody called"),
        ({"type": "reveal", "count": 3}, "not now"),
        ({"type": "draw", "player": "Ana", "deck": "treasure"}, "not now"),
        ({"type": "confirm", "die": 0, "value": 3}, "not now"),
        ({"type": "pass", "player": "Ana"}, "not now"),
        ({"type": "adventure", "player": "Ana", "card": "Adventure"}, "does not hold"),
        ({"type": "shout", "player": "Ana"}, "no 'shout' action"),
        ({"player": "Ana"}, 'no "type"'),
        ({"type": "reveal", "from": "camera"}, "measurement first"),
    ],
)
def test_malformed_or_untimely_actions_are_refused(action, message):
    s = new()
    with pytest.raises(IllegalAction, match=message):
        sw.apply(s, action)


# -- calling out the Scallywagger ------------------------------------------------------------------


@pytest.mark.parametrize(
    "bid_q, count, wild, loser, drawer, outcome",
    [
        (5, 5, False, "Ben", "Ana", "bid_confirmed"),  # exactly enough: the bid stands
        (5, 9, False, "Ben", "Ana", "bid_confirmed"),
        (5, 4, False, "Ana", "Ben", "bid_false"),  # one short: the bidder lied
        (5, 0, False, "Ana", "Ben", "bid_false"),
    ],
)
def test_call_outcomes(bid_q, count, wild, loser, drawer, outcome):
    s = new(wild_ones=wild)
    s, _ = run(s, bid("Ana", bid_q, 4), {"type": "call", "player": "Ben"})
    assert s.phase == "reveal" and s.challenge.kind == "call"
    s, events = act(s, type="reveal", count=count)
    assert outcome in types(events)
    assert crew(s)[loser] == 4 and sum(s.crew) == 19
    assert s.phase == "draw" and s.players[s.actor] == drawer and not s.draw_optional
    with pytest.raises(IllegalAction, match="must draw"):
        act(s, type="pass", player=drawer)


@pytest.mark.parametrize(
    "dice, wild, stands",
    [
        # five 4s called; twenty dice revealed
        ([4] * 5 + [2] * 15, False, True),
        ([4] * 4 + [1] * 1 + [2] * 15, False, False),
        ([4] * 4 + [1] * 1 + [2] * 15, True, True),  # the 1 is wild
        ([4] * 3 + [3] * 17, True, False),
    ],
)
def test_wild_ones_count_at_the_reveal(dice, wild, stands):
    s = new(wild_ones=wild)
    s, _ = run(s, bid("Ana", 5, 4), {"type": "call", "player": "Ben"}, {"type": "reveal", "dice": dice})
    assert (crew(s)["Ben"] == 4) == stands and (crew(s)["Ana"] == 4) != stands


def test_a_bid_on_ones_counts_only_ones_even_when_wild():
    s = new(wild_ones=True)
    s, events = run(
        s, bid("Ana", 3, 1), {"type": "call", "player": "Ben"}, {"type": "reveal", "dice": [1, 1, 2, 2, 2] + [6] * 15}
    )
    assert "bid_false" in types(events) and crew(s)["Ana"] == 4


# -- Parlay ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "count, right",
    [(5, True), (4, False), (6, False), (0, False)],
)
def test_parlay_outcomes(count, right):
    s = new()
    s, _ = run(s, bid("Ana", 4, 6), bid("Ben", 5, 3), {"type": "parlay", "player": "Cy"})
    s, events = act(s, type="reveal", count=count)
    if right:
        assert "parlay_right" in types(events)
        assert crew(s) == {"Ana": 4, "Ben": 4, "Cy": 5, "Dee": 4}, "every other Captain loses one"
        assert s.players[s.actor] == "Cy" and s.draw_optional
    else:
        assert "parlay_wrong" in types(events)
        assert crew(s) == {"Ana": 5, "Ben": 5, "Cy": 3, "Dee": 5}, "the caller loses two"
        assert s.players[s.actor] == "Ben" and not s.draw_optional, "the last bidder before the Parlay draws"


def test_the_parlay_winner_may_decline_the_draw():
    s = new()
    s, _ = run(s, bid("Ana", 2, 6), {"type": "parlay", "player": "Ben"}, {"type": "reveal", "count": 2})
    assert {"type": "pass", "player": "Ben"} in sw.legal_actions(s)
    s, events = act(s, type="pass", player="Ben")
    assert types(events)[0] == "no_draw" and s.turn == 2 and len(s.treasure.deck) == 20


@pytest.mark.parametrize(
    "parlay, action, accepted",
    [
        ("last_bid", {}, True),
        ("last_bid", {"quantity": 3, "face": 5}, True),  # repeating the standing bid is fine
        ("last_bid", {"quantity": 4, "face": 5}, False),
        ("any_bid", {"quantity": 7, "face": 2}, True),
        ("any_bid", {"quantity": 1, "face": 1}, True),
        ("any_bid", {}, False),
        ("any_bid", {"quantity": 21, "face": 2}, False),
        ("any_bid", {"quantity": 2, "face": 9}, False),
    ],
)
def test_parlay_reading(parlay, action, accepted):
    s, _ = act(new(parlay=parlay), **bid("Ana", 3, 5))
    full = {"type": "parlay", "player": "Ben", **action}
    if not accepted:
        with pytest.raises(IllegalAction):
            sw.apply(s, full)
        return
    s, _ = sw.apply(s, full)
    expected = (action.get("quantity", 3), action.get("face", 5))
    assert (s.challenge.quantity, s.challenge.face) == expected and s.challenge.bidder == 0


def test_any_bid_parlays_are_listed_for_every_quantity_and_face():
    s, _ = act(new(parlay="any_bid", ones_bids="never"), **bid("Ana", 3, 5))
    parlays = [a for a in sw.legal_actions(s) if a["type"] == "parlay"]
    assert len(parlays) == 20 * 5 and all(a["face"] != 1 for a in parlays)


# -- reveal from the camera -------------------------------------------------------------------------


def detections(values, unsure=()):
    return {
        "dice": [
            {
                "value": v,
                "box": [12.0 * i, 5.0, 10.0, 10.0],
                "confidence": 0.6 if i in unsure else 0.97,
                "unsure": i in unsure,
            }
            for i, v in enumerate(values)
        ],
        "unsure": len(unsure),
    }


def test_unsure_dice_are_confirmed_before_the_bid_is_settled():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    # the camera read die 2 as a 5 and die 7 as a 6, both unsure
    s, events = act(s, type="reveal", detections=detections([6, 6, 5, 2, 3, 4, 1, 6, 2, 2], unsure=(2, 7)))
    assert s.phase == "confirm" and types(events) == ["unsure"] and s.crew == (5, 5)
    legal = sw.legal_actions(s)
    assert len(legal) == 12 and {"type": "confirm", "die": 7, "value": 6} in legal
    assert "die 2 (read as 5)" in sw.summary(s).prompt
    with pytest.raises(IllegalAction, match="not now"):
        act(s, type="draw", player="Ana", deck="treasure")
    with pytest.raises(IllegalAction, match="not waiting"):
        act(s, type="confirm", die=0, value=6)
    s, events = act(s, type="confirm", die=2, value=6, player="Ben")
    assert s.phase == "confirm" and events[0]["text"] == "Ben confirms die 2 shows 6."
    s, events = act(s, type="confirm", die=7, value=5)
    assert "bid_false" not in types(events) and "bid_confirmed" in types(events)
    assert s.crew == (5, 4), "with both confirmed there are three 6s: the bid stands"
    assert s.reveal.dice == (6, 6, 6, 2, 3, 4, 1, 5, 2, 2)


def test_dice_the_camera_missed_are_added_before_the_bid_is_settled():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    # 8 dice seen of 10, one of them unsure
    s, events = act(s, type="reveal", detections=detections([6, 6, 5, 2, 3, 4, 1, 2], unsure=(2,)))
    assert s.phase == "confirm" and types(events) == ["missed", "unsure"] and s.crew == (5, 5)
    assert events[0]["text"] == (
        "The camera saw 8 of the 10 dice on the table: a player adds the 2 it missed, with their faces."
    )
    assert sw.summary(s).prompt == (
        "The camera is unsure of die 2 (read as 5): a player confirms what each shows. "
        "The camera missed 2 dice: a player adds what each shows."
    )
    legal = sw.legal_actions(s)
    assert [a for a in legal if a["type"] == "add"] == [{"type": "add", "value": v} for v in range(1, 7)]
    assert not [a for a in legal if a["type"] == "drop"]
    s, events = act(s, type="add", value=6, player="Ben")
    assert events[0]["text"] == "Ben adds a die the camera missed, showing 6." and s.phase == "confirm"
    s, events = act(s, type="confirm", die=2, value=2)
    assert s.phase == "confirm" and types(events) == ["confirm"], "one die is still missing"
    assert sw.summary(s).prompt == "The camera missed 1 die: a player adds what each shows."
    s, events = act(s, type="add", value=5)
    assert events[0]["text"] == "Added: a die the camera missed, showing 5."
    revealed = next(e for e in events if e["type"] == "revealed")
    assert revealed["count"] == 3 and sorted(revealed["dice"]) == [1, 2, 2, 2, 3, 4, 5, 6, 6, 6]
    assert s.crew == (5, 4), "three 6s with the one added: the bid stands"
    assert not [a for a in sw.legal_actions(s) if a["type"] == "add"]
    with pytest.raises(IllegalAction, match="not now"):
        act(s, type="add", value=6)


def test_a_camera_reading_with_too_many_dice_it_is_sure_of_changes_nothing():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    with pytest.raises(IllegalAction, match="camera saw 11 dice but 10 crewmates"):
        act(s, type="reveal", detections=detections([6] * 11))
    assert s.phase == "reveal" and s.crew == (5, 5)


def test_dice_the_camera_saw_too_many_of_are_said_to_be_no_dice_before_the_bid_is_settled():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    # 12 spots for 10 crewmates: two of the three unsure ones are no dice (a coin, a pip)
    s, events = act(s, type="reveal", detections=detections([6, 6, 6, 2, 3, 4, 1, 6, 2, 2, 6, 6], unsure=(7, 10, 11)))
    assert s.phase == "confirm" and "2 of them are no dice" in events[0]["text"]
    assert "2 of them are no dice: say which" in sw.summary(s).prompt
    legal = sw.legal_actions(s)
    assert [a for a in legal if a["type"] == "drop"] == [{"type": "drop", "die": i} for i in (7, 10, 11)]
    assert {"type": "confirm", "die": 7, "value": 6} in legal
    s, _ = act(s, type="confirm", die=7, value=6)
    # both left are no dice: a face for either is refused
    assert not [a for a in sw.legal_actions(s) if a["type"] == "confirm"]
    with pytest.raises(IllegalAction, match="one of those that are not dice"):
        act(s, type="confirm", die=10, value=6)
    s, events = act(s, type="drop", die=10, player="Ben")
    assert events[0]["text"] == "Ben says die 10 is no die." and s.phase == "confirm"
    s, events = act(s, type="drop", die=11)
    revealed = next(e for e in events if e["type"] == "revealed")
    assert revealed["count"] == 4 and len(revealed["dice"]) == 10
    assert s.crew == (5, 4), "four 6s among the ten dice: the bid of three stands"


def test_a_camera_reading_with_more_extra_dice_than_unsure_ones_changes_nothing():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    with pytest.raises(IllegalAction, match="camera saw 12 dice but 10 crewmates"):
        act(s, type="reveal", detections=detections([6] * 12, unsure=(3,)))
    assert s.phase == "reveal" and s.crew == (5, 5)


def test_reveal_lists_the_camera_and_every_count():
    s = new(("Ana", "Ben"))
    s, _ = run(s, bid("Ana", 3, 6), {"type": "call", "player": "Ben"})
    legal = sw.legal_actions(s)
    assert legal[0] == {"type": "reveal", "from": "camera"}
    assert [a["count"] for a in legal[1:]] == list(range(11))


# -- elimination and the winner -------------------------------------------------------------------


def test_a_captain_with_no_crewmates_is_out_and_skipped():
    s = new(crewmates=1, treasure_cards="", adventure_cards="")
    s, events = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 0})
    assert "out" in types(events) and crew(s)["Ana"] == 0
    assert "no_draw" in types(events), "with no decks, nobody draws"
    assert s.players[s.token] == "Ben" and s.turn == 2
    s, _ = run(s, bid("Ben", 1, 6), bid("Cy", 2, 6), bid("Dee", 3, 6))
    assert s.players[s.actor] == "Ben", "Ana is out: the bidding skips her"


@pytest.mark.parametrize(
    "kind, count, winner", [("call", 0, "Ben"), ("call", 1, "Ana"), ("parlay", 1, "Ben"), ("parlay", 0, "Ana")]
)
def test_the_last_captain_with_crewmates_wins(kind, count, winner):
    s = new(("Ana", "Ben"), crewmates=1)
    s, events = run(s, bid("Ana", 1, 6), {"type": kind, "player": "Ben"}, {"type": "reveal", "count": count})
    assert types(events)[-1] == "game_over"
    summary = sw.summary(s)
    assert s.phase == "over" and summary.over and summary.winners == (winner,) and summary.to_act == ()
    assert sw.legal_actions(s) == []
    with pytest.raises(IllegalAction, match="over"):
        act(s, **bid(winner, 1, 2))


def test_a_parlay_can_knock_out_several_captains_at_once():
    s = new(crewmates=1)
    s, events = run(s, bid("Ana", 2, 3), {"type": "parlay", "player": "Ben"}, {"type": "reveal", "count": 2})
    assert types(events).count("out") == 3 and sw.summary(s).winners == ("Ben",)


def test_a_wrong_parlay_with_one_crewmate_leaves_none():
    s = new(("Ana", "Ben", "Cy"), crewmates=1)
    s, _ = run(s, bid("Ana", 2, 3), {"type": "parlay", "player": "Ben"}, {"type": "reveal", "count": 0})
    assert s.crew == (1, 0, 1) and s.players[s.actor] == "Ana" and s.phase == "draw"


# -- the Treasure Token ----------------------------------------------------------------------------


def one_turn(s, opener, caller, count=0):
    """Opener bids one 6, the next calls; ``count`` 6s revealed; the drawer takes a Treasure card."""
    s, _ = run(s, bid(opener, 1, 6), {"type": "call", "player": caller}, {"type": "reveal", "count": count})
    if s.phase == "draw":
        s, _ = act(s, type="draw", player=s.players[s.actor], deck="treasure")
    if s.phase == "treasure":  # nobody uses the cards drawn in this test
        while s.phase == "treasure":
            s, _ = act(s, type="pass", player=s.players[s.actor])
    return s


@pytest.mark.parametrize("turns, holder", [(0, "Ana"), (1, "Ben"), (2, "Cy"), (3, "Dee"), (4, "Ana"), (5, "Ben")])
def test_the_token_passes_clockwise_after_each_resolution(turns, holder):
    s = new(crewmates=9)
    for _ in range(turns):
        opener = s.players[s.token]
        s = one_turn(s, opener, s.players[(s.token + 1) % 4])
    assert s.players[s.token] == holder and s.players[s.actor] == holder and s.turn == turns + 1


def test_the_token_skips_captains_who_are_out():
    s = new(crewmates=1, first_captain="first_seat")
    # Ana opens, Ben calls and is wrong: Ben is out; the token passes from Ana to Cy
    s = one_turn(s, "Ana", "Ben", count=1)
    assert crew(s)["Ben"] == 0 and s.players[s.token] == "Cy"


def test_the_token_passes_on_from_a_holder_who_was_knocked_out():
    s = new(("Ana", "Ben", "Cy"), crewmates=1, first_captain="first_seat")
    s = one_turn(s, "Ana", "Ben", count=0)  # Ana's bid was false: Ana (token holder) is out
    assert crew(s)["Ana"] == 0 and s.players[s.token] == "Ben"


# -- card draws, discards and reshuffles -------------------------------------------------------------


def test_drawn_treasure_is_face_up_and_adventure_concealed():
    s = new()
    s = one_turn(s, "Ana", "Ben", count=1)  # bid stands: Ana draws
    assert [sw.summary(s).detail["treasure"][p] for p in FOUR] == [["Treasure"], [], [], []]
    s, events = run(
        s,
        bid("Ben", 1, 6),
        {"type": "call", "player": "Cy"},
        {"type": "reveal", "count": 0},
        {"type": "draw", "player": "Cy", "deck": "adventure"},
    )
    drew = next(e for e in events if e["type"] == "draw")
    assert "card" not in drew and "concealed" in drew["text"] and "Adventure card" in drew["text"]
    detail = sw.summary(s).detail
    assert detail["adventure_concealed"]["Cy"] == 1
    assert sw.private_view(s, "Cy").concealed == ("Adventure",)
    assert sw.private_view(s, "Ben").concealed == ()
    assert detail["decks"]["treasure"]["deck"] == 19 and detail["decks"]["adventure"]["deck"] == 19


@pytest.mark.parametrize("deck", ["treasure", "adventure"])
def test_an_empty_deck_is_refilled_from_its_discard_pile(deck):
    s = new(treasure_cards="Gold:2", adventure_cards="Fog:2")
    pile = s.pile(deck)
    index = pile.deck[0]
    s = set_pile(s, deck, replace(pile, deck=(), discard=(index, index)))
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 1})
    s, events = act(s, type="draw", player="Ana", deck=deck)
    assert types(events)[:2] == ["reshuffle", "draw"]
    assert len(s.pile(deck).deck) == 1 and s.pile(deck).discard == () and s.pile(deck).shuffles == 2


def test_named_draws_track_a_real_deck():
    s = new(treasure_cards="Gold:1,Rum Barrel:2:self+1")
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 1})
    with pytest.raises(IllegalAction, match="no Treasure card called 'Parrot'"):
        act(s, type="draw", player="Ana", deck="treasure", card="Parrot")
    with pytest.raises(IllegalAction, match='"deck" must be'):
        act(s, type="draw", player="Ana", deck="booty")
    s, _events = act(s, type="draw", player="Ana", deck="treasure", card="rum barrel")
    assert sw.summary(s).detail["treasure"]["Ana"] == ["Rum Barrel"]
    assert sorted(s.catalogue[i].name for i in s.treasure.deck) == ["Gold", "Rum Barrel"]


def test_an_empty_deck_is_not_offered_and_both_empty_means_no_draw():
    s = new(treasure_cards="", adventure_cards="Fog:1")
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 1})
    assert sw.legal_actions(s) == [{"type": "draw", "player": "Ana", "deck": "adventure"}]
    with pytest.raises(IllegalAction, match="empty"):
        act(s, type="draw", player="Ana", deck="treasure")


def test_cards_are_conserved():
    s = new(treasure_cards="Gold:3:self+1", adventure_cards="Fog:3")
    for turn in range(8):
        opener = s.players[s.token]
        caller = s.players[s.actor + 1 if s.actor < 3 else 0]
        s, _ = run(s, bid(opener, 1, 6), {"type": "call", "player": caller}, {"type": "reveal", "count": turn % 2})
        s, _ = act(s, type="draw", player=s.players[s.actor], deck="adventure" if turn % 3 else "treasure")
        while s.phase == "treasure":
            seat = s.actor
            if usable(s, seat, "use"):
                s, _ = act(s, type="use", player=s.players[seat], card="Gold")
            else:
                s, _ = act(s, type="pass", player=s.players[seat])
        held = sum(len(h) for h in s.hands)
        assert held + sum(len(p.deck) + len(p.discard) for p in (s.treasure, s.adventure)) == 6


# -- Treasure cards and priority -----------------------------------------------------------------------

CARDS = {
    "treasure_cards": "Rum Barrel:3:self+1,Cutlass:2:target-1,Broadside:1:others-1,Spyglass:2:none:lasting,"
    "Compass:2:self+1:lasting,Powder:2:target-1:anytime,Map:2",
    "adventure_cards": "Kraken:2:others-1,Mutiny:2:self-1,Fog:2",
}


def cards_game(**rules):
    return new(**CARDS, **rules)


def to_next_turn(s):
    """Resolve the current turn: the opener bids one 6, the next Captain calls and loses one
    crewmate, the opener draws a Fog (an Adventure card, so nobody gains Treasure priority)."""
    opener, caller = s.players[s.actor], s.players[next_alive(s, s.actor)]
    s, _ = run(s, bid(opener, 1, 6), {"type": "call", "player": caller}, {"type": "reveal", "count": 1})
    s, _ = act(s, type="draw", player=opener, deck="adventure", card="Fog")
    return s


@pytest.mark.parametrize(
    "card, target, expected",
    [
        ("Rum Barrel", None, {"Ana": 0, "Ben": 1, "Cy": 0, "Dee": 0}),
        ("Cutlass", "Dee", {"Ana": 0, "Ben": 0, "Cy": 0, "Dee": -1}),
        ("Broadside", None, {"Ana": -1, "Ben": 0, "Cy": -1, "Dee": -1}),
        ("Map", None, {"Ana": 0, "Ben": 0, "Cy": 0, "Dee": 0}),
    ],
)
def test_treasure_effects_on_crewmates(card, target, expected):
    s = to_next_turn(give(cards_game(), "Ben", card))
    # turn 2: Ben holds the token and priority
    assert s.phase == "treasure" and s.players[s.actor] == "Ben"
    action = {"type": "use", "player": "Ben", "card": card} | ({"target": target} if target else {})
    assert action in sw.legal_actions(s)
    before = crew(s)
    s, events = sw.apply(s, action)
    assert {p: n - before[p] for p, n in crew(s).items()} == expected
    assert events[0]["type"] == "use" and card in events[0]["text"]
    assert s.phase == "bidding", "nobody else can use a card: the bidding begins"
    assert s.catalogue[s.treasure.discard[-1]].name == card


def test_priority_passes_clockwise_and_bidding_waits_for_everyone_to_decline():
    s = cards_game()
    s = give(give(give(s, "Ana", "Map"), "Cy", "Rum Barrel"), "Dee", "Map")
    s = to_next_turn(s)  # Ana drew another Map; token to Ben, who holds nothing
    assert s.players[s.actor] == "Cy", "Ben has nothing to use: priority goes to Cy"
    with pytest.raises(IllegalAction, match="not Dee's turn"):
        act(s, type="pass", player="Dee")
    s, _ = act(s, type="pass", player="Cy")
    assert s.players[s.actor] == "Dee"
    s, _ = act(s, type="use", player="Dee", card="Map")
    assert s.players[s.actor] == "Ana", "a use passes priority on and starts the round again"
    s, _ = act(s, type="pass", player="Ana")
    assert s.players[s.actor] == "Cy", "Cy declined before the use, so Cy is asked again"
    s, _ = act(s, type="pass", player="Cy")
    # Dee has no card left, Ana declined: the bidding begins with the token holder
    assert s.phase == "bidding" and s.players[s.actor] == "Ben"


def test_targets_must_be_other_captains_still_in():
    s = to_next_turn(give(cards_game(), "Ben", "Cutlass"))
    for target, message in (("Ben", "another Captain"), ("Zed", "nobody called")):
        with pytest.raises(IllegalAction, match=message):
            act(s, type="use", player="Ben", card="Cutlass", target=target)
    with pytest.raises(IllegalAction, match='"target"'):
        act(s, type="use", player="Ben", card="Cutlass")


def test_lasting_cards_stay_and_work_once_a_turn():
    s = to_next_turn(give(give(cards_game(), "Ben", "Compass"), "Ben", "Spyglass"))
    legal = sw.legal_actions(s)
    assert {"type": "use", "player": "Ben", "card": "Compass"} in legal
    assert {"type": "use", "player": "Ben", "card": "Spyglass"} not in legal, (
        "an effect-less lasting card is only tracked"
    )
    s, _ = act(s, type="use", player="Ben", card="Compass")
    assert crew(s)["Ben"] == 5 and sw.summary(s).detail["treasure"]["Ben"] == ["Compass", "Spyglass"]
    assert s.phase == "bidding"
    with pytest.raises(IllegalAction, match="cannot use Compass now"):
        act(s, type="use", player="Ben", card="Compass")
    s = to_next_turn(s)  # turn 3: Cy holds the token; Ben's Compass is usable again
    assert s.phase == "treasure" and s.players[s.actor] == "Ben"


def test_anytime_cards_work_during_bidding_out_of_turn():
    s = give(cards_game(), "Dee", "Powder")
    s = to_next_turn(s)
    s, _ = act(s, type="pass", player="Dee")
    assert s.phase == "bidding"
    s, _ = act(s, **bid("Ben", 2, 3))
    assert {"type": "use", "player": "Dee", "card": "Powder", "target": "Ana"} in sw.legal_actions(s)
    s, _ = act(s, type="use", player="Dee", card="Powder", target="Ana")
    assert crew(s)["Ana"] == 4 and s.players[s.actor] == "Cy" and s.phase == "bidding"


def test_max_crewmates_caps_gains():
    s = to_next_turn(give(cards_game(max_crewmates=4), "Ben", "Rum Barrel"))  # Ben is left with 4
    s, events = act(s, type="use", player="Ben", card="Rum Barrel")
    assert crew(s)["Ben"] == 4 and "crew_capped" in types(events)


# -- Adventure cards --------------------------------------------------------------------------------------


def test_adventure_cards_are_played_in_the_next_bidding_round_then_discarded():
    s = cards_game()
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 0})
    s, _ = act(s, type="draw", player="Ben", deck="adventure", card="Kraken")
    # turn 2, Ben opens; the Kraken may be revealed at any moment of this bidding round
    assert s.phase == "bidding" and s.turn == 2
    assert {"type": "adventure", "player": "Ben"} in sw.legal_actions(s)
    assert "Kraken" not in json.dumps(sw.legal_actions(s)), "the table's buttons never name a concealed card"
    assert {"type": "adventure", "player": "Ben", "card": "Kraken"} in sw.private_view(s, "Ben").actions
    s, _ = act(s, **bid("Ben", 2, 2))
    s, events = act(s, type="adventure", player="Ben")
    assert events[0]["card"] == "Kraken", "once shown, the card is public"
    assert crew(s) == {"Ana": 3, "Ben": 5, "Cy": 4, "Dee": 4}
    assert s.players[s.actor] == "Cy", "revealing a card does not take a turn"
    assert sw.summary(s).detail["adventure_revealed"]["Ben"] == ["Kraken"]
    with pytest.raises(IllegalAction, match="cannot use Kraken now"):
        act(s, type="adventure", player="Ben", card="Kraken")
    s, events = run(
        s,
        {"type": "call", "player": "Cy"},
        {"type": "reveal", "count": 2},
        {"type": "draw", "player": "Ben", "deck": "treasure", "card": "Map"},
    )
    assert "adventure_discard" in types(events)
    assert s.catalogue[s.adventure.discard[-1]].name == "Kraken" and s.hands[1] == (
        Held(find_card(s.catalogue, "Map"), 2),
    )


def test_an_unused_adventure_card_is_discarded_at_the_end_of_its_turn():
    s = give(cards_game(), "Cy", "Fog", drawn=0)
    assert sw.summary(s).detail["adventure_concealed"]["Cy"] == 1
    s = to_next_turn(s)
    assert sw.summary(s).detail["adventure_concealed"]["Cy"] == 0
    assert [s.catalogue[i].name for i in s.adventure.discard] == ["Fog"]


def test_an_adventure_card_cannot_be_used_in_the_turn_it_is_drawn_or_outside_bidding():
    s = cards_game()
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 0})
    s, _ = act(s, type="draw", player="Ben", deck="adventure", card="Mutiny")
    s, _ = run(s, bid("Ben", 1, 6), {"type": "call", "player": "Cy"}, {"type": "reveal", "count": 1})
    with pytest.raises(IllegalAction, match="not now"):
        act(s, type="adventure", player="Ben", card="Mutiny")
    s = to_next_turn(cards_game())  # Ana drew a Fog
    with pytest.raises(IllegalAction, match='Fog is an Adventure card: play it with the "adventure" action'):
        act(s, type="use", player="Ana", card="Fog")


def test_a_self_inflicted_knock_out_passes_the_turn_on():
    s = new(("Ana", "Ben", "Cy"), crewmates=1, **CARDS)
    s = give(s, "Ana", "Mutiny", drawn=0)
    s, events = act(s, type="adventure", player="Ana", card="Mutiny")
    assert crew(s)["Ana"] == 0 and types(events)[-2:] == ["out", "token"]
    assert s.players[s.token] == "Ben" and s.players[s.actor] == "Ben"
    assert [s.catalogue[i].name for i in s.adventure.discard] == ["Mutiny"], "an out Captain's cards are discarded"


# -- summary and legal actions ------------------------------------------------------------------------------


def test_summary_prompts_follow_the_turn():
    s = new()
    assert sw.summary(s).prompt == "Ana opens the bidding (20 dice on the table)."
    s, _ = act(s, **bid("Ana", 3, 4))
    summary = sw.summary(s)
    assert summary.to_act == ("Ben",) and "raise Ana's three 4s" in summary.prompt
    assert summary.scores == dict.fromkeys(FOUR, 5.0)
    assert summary.detail["bid"] == {"player": "Ana", "quantity": 3, "face": 4}
    s, _ = act(s, type="call", player="Ben")
    assert "count the 4s" in sw.summary(s).prompt and sw.summary(s).to_act == FOUR
    s, _ = act(s, type="reveal", count=3)
    assert sw.summary(s).prompt == "Ana draws a card from the Treasure or the Adventure deck."


def _walk(state, depth, seen):
    """Apply every listed action; go deeper with one action of each type. Each must be accepted."""
    if depth == 0:
        return
    deeper = {}
    for action in sw.legal_actions(state):
        if "from" in action:
            continue
        seen.add(action["type"])
        nxt, _ = sw.apply(state, action)
        deeper.setdefault(action["type"], nxt)
    for nxt in deeper.values():
        _walk(nxt, depth - 1, seen)


def test_every_listed_action_is_accepted():
    seen: set[str] = set()
    s = give(give(cards_game(crewmates=1), "Ana", "Cutlass"), "Cy", "Kraken", drawn=0)
    s = to_next_turn(give(s, "Dee", "Powder"))
    _walk(s, 7, seen)
    assert {"use", "pass", "bid", "call", "parlay", "reveal", "draw", "adventure"} <= seen


# -- hidden information ---------------------------------------------------------------------------------------


def test_a_concealed_adventure_card_is_named_nowhere_the_table_sees():
    s = cards_game()
    s, _ = run(s, bid("Ana", 1, 6), {"type": "call", "player": "Ben"}, {"type": "reveal", "count": 0})
    draw_action = {"type": "draw", "player": "Ben", "deck": "adventure", "card": "Mutiny"}
    s, events = act(s, **draw_action)
    public = json.dumps([sw.summary(s).to_json(), sw.legal_actions(s), events, sw.public_action(draw_action)])
    assert "Mutiny" not in public
    assert sw.public_action({"type": "draw", "player": "Ben", "deck": "treasure", "card": "Map"})["card"] == "Map"
    assert sw.private_view(s, "Ben").concealed == ("Mutiny",)


def test_revealing_without_naming_the_card_needs_it_named_when_two_differ():
    s = give(give(cards_game(), "Cy", "Fog", drawn=0), "Cy", "Mutiny", drawn=0)
    assert s.phase == "bidding"
    with pytest.raises(IllegalAction, match='holds 2 concealed Adventure cards: add the "card"'):
        act(s, type="adventure", player="Cy")
    s, events = act(s, type="adventure", player="Cy", card="Fog")
    assert events[0]["card"] == "Fog"
    s, events = act(s, type="adventure", player="Cy")
    assert events[0]["card"] == "Mutiny"


def test_a_target_offered_to_an_adventure_card_that_names_nobody_is_refused():
    s = give(new(treasure_cards="Map:2", adventure_cards="Fog:2,Boarding:2:target-1"), "Cy", "Fog", drawn=0)
    s = give(s, "Dee", "Boarding", drawn=0)
    offered = [a for a in sw.legal_actions(s) if a["type"] == "adventure"]
    assert offered == [{"type": "adventure", "player": "Cy"}, {"type": "adventure", "player": "Dee"}], (
        "the same button whatever the card: no target, so nothing tells the cards apart"
    )
    with pytest.raises(IllegalAction, match="Fog does not name a Captain"):
        act(s, type="adventure", player="Cy", target="Ana")
    s, events = act(s, type="adventure", player="Dee")  # shows the Boarding: it names a Captain
    assert events[0]["type"] == "adventure_shown" and "names the Captain it aims at" in events[0]["text"]
    assert sw.legal_actions(s) == [{"type": "adventure", "player": "Dee", "target": t} for t in ("Ana", "Ben", "Cy")]
    assert sw.summary(s).prompt == "Dee: name the Captain your Boarding aims at." and sw.summary(s).to_act == ("Dee",)
    with pytest.raises(IllegalAction, match="first, Dee names the Captain Boarding aims at"):
        act(s, **bid("Ana", 1, 6))
    s, events = act(s, type="adventure", player="Dee", target="Ana")
    assert crew(s)["Ana"] == 4 and events[0]["card"] == "Boarding" and s.revealing is None
    s = give(s, "Dee", "Boarding", drawn=0)
    s, events = act(s, type="adventure", player="Dee", card="Boarding", target="Ben")  # in one go
    assert crew(s)["Ben"] == 4
