"""Every rule of "7", table-driven, on the engine directly."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games import ConfigError, IllegalAction, resolve_config, seven

PLAYERS = ("Ana", "Ben", "Cy")


def new(players=PLAYERS, **rules):
    return seven.initial_state(resolve_config(seven.RULES, rules), players, seed=1)


def play(state, player, **fields):
    return seven.apply(state, {"type": "play", "player": player, **fields})


def run(state, *actions):
    events = []
    for player, fields in actions:
        if fields == "penalty":
            state, ev = seven.apply(state, {"type": "penalty", "player": player})
        else:
            state, ev = play(state, player, **fields)
        events.extend(ev)
    return state, events


# -- set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_deal_gives_seven_cards_each_and_the_rest_to_the_draw_pile(n):
    names = [f"P{i}" for i in range(n)]
    s = new(names)
    assert s.hands == (7,) * n
    assert s.draw_pile == 80 - 7 * n
    assert (s.round, s.turn, s.pile, s.total) == (1, 0, 0, 0)


@pytest.mark.parametrize("players", [["Solo"], [f"P{i}" for i in range(8)], ["Ana", "ana"], ["Ana", " "]])
def test_bad_seatings_are_refused(players):
    with pytest.raises(ConfigError):
        new(players)


def test_a_deck_too_small_to_deal_is_refused():
    with pytest.raises(ConfigError, match="cannot deal"):
        new(hand_size=11, deck_size=30)


# -- rules 2-3: the running total ------------------------------------------------------------


@pytest.mark.parametrize(
    "before, card, on, expected_total",
    [
        # empty pile: any card starts it, whatever the placement
        ([], 1, "hole", 1),
        ([], 6, "number", 6),
        # hole on hole shows only the new card
        ([3], 3, "hole", 3),
        ([3], 5, "hole", 5),
        # hole on number adds the number beneath
        ([3], 1, "number", 4),
        ([2], 4, "number", 6),
        ([2, 3], 2, "number", 5),  # the number beneath is the top card's 3, not the total
    ],
)
def test_totals_made_by_each_placement(before, card, on, expected_total):
    s = new()
    seats = list(PLAYERS)
    for i, c in enumerate(before):
        s, _ = play(s, seats[i % 3], card=c, on="hole")
    s, _ = play(s, seats[len(before) % 3], card=card, on=on)
    assert s.total == expected_total


@pytest.mark.parametrize(
    "first, card, on, message",
    [
        (4, 3, "hole", "lower than the 4"),  # rule 3: never lower than the total
        (4, 1, "hole", "lower than the 4"),
        (5, 3, "number", "above 7"),  # rule 3: 7 may not be exceeded
        (6, 6, "number", "above 7"),
        (3, 8, "hole", "numbered 1 to 7"),  # no such card
        (3, 0, "hole", "numbered 1 to 7"),
        (3, 2, None, '"on"'),  # placement must be said on a pile
        (3, 2, "sideways", '"on" must be'),
    ],
)
def test_plays_that_break_the_rules_are_refused_and_change_nothing(first, card, on, message):
    s, _ = play(new(), "Ana", card=first, on="hole")
    fields = {"card": card} if on is None else {"card": card, "on": on}
    with pytest.raises(IllegalAction, match=message):
        play(s, "Ben", **fields)
    assert s.turn == 1 and s.total == first  # the state given is untouched


def test_total_form_checks_the_same_rules():
    s, _ = play(new(), "Ana", total=4)
    with pytest.raises(IllegalAction, match="lower"):
        play(s, "Ben", total=3)
    with pytest.raises(IllegalAction, match="above 7"):
        play(s, "Ben", total=8)
    s2, _ = play(s, "Ben", total=4)  # the same total is allowed ("higher than or the same")
    assert s2.total == 4 and s2.top is None
    with pytest.raises(IllegalAction, match="not known"):
        play(s2, "Cy", card=1, on="number")  # the number beneath was never stated


def test_card_and_total_must_agree():
    s, _ = play(new(), "Ana", card=3, on="hole")
    with pytest.raises(IllegalAction, match="makes 5, not 6"):
        play(s, "Ben", card=2, on="number", total=6)


# -- turn order and bad input -----------------------------------------------------------------


@pytest.mark.parametrize(
    "action, message",
    [
        ({"type": "play", "player": "Ben", "card": 3, "on": "hole"}, "Ana's turn"),
        ({"type": "play", "player": "Zed", "card": 3, "on": "hole"}, "nobody called"),
        ({"type": "play", "card": 3}, '"player"'),
        ({"type": "play", "player": "Ana", "card": "three", "on": "hole"}, "whole number"),
        ({"type": "play", "player": "Ana", "card": True, "on": "hole"}, "whole number"),
        ({"type": "play", "player": "Ana"}, "needs the"),
        ({"type": "shuffle", "player": "Ana"}, "no 'shuffle' action"),
        ({"player": "Ana"}, 'no "type"'),
        ({"type": "penalty", "player": "Ana"}, "new pile"),
    ],
)
def test_malformed_or_out_of_turn_actions(action, message):
    s = new()
    with pytest.raises(IllegalAction, match=message):
        seven.apply(s, action)


def test_player_names_match_case_insensitively():
    s, _ = play(new(), "ana", card=2, on="hole")
    assert s.turn == 1


# -- rule 4: drawing after a play ---------------------------------------------------------------


def test_a_play_below_seven_draws_a_card():
    s, events = play(new(), "Ana", card=3, on="hole")
    assert s.hands[0] == 7 and s.draw_pile == 80 - 21 - 1 and s.pile == 1
    assert [e["type"] for e in events] == ["played", "drew"]


# -- rule 5: seven ---------------------------------------------------------------------------


def test_reaching_seven_sets_the_pile_aside_and_the_caller_restarts_without_drawing():
    s, _ = play(new(), "Ana", card=3, on="hole")
    s, events = play(s, "Ben", card=4, on="number")
    assert [e["type"] for e in events] == ["played", "seven", "restart"]
    assert s.hands[1] == 6 and s.set_aside == 2 and s.pile == 0 and s.turn == 1 and s.no_draw_start
    s, events = play(s, "Ben", card=2, on="hole")
    assert s.hands[1] == 5, "starting the new pile after Seven draws no card"
    assert [e["type"] for e in events] == ["played"]
    assert s.turn == 2 and s.total == 2


def test_a_seven_card_on_an_empty_pile_is_an_immediate_seven():
    s, events = play(new(), "Ana", card=7, on="hole")
    assert "seven" in [e["type"] for e in events] and s.turn == 0 and s.set_aside == 1


# -- rule 6: penalty ------------------------------------------------------------------------


def test_penalty_draws_one_card_and_passes_the_turn():
    s, _ = play(new(), "Ana", card=6, on="hole")
    s, events = seven.apply(s, {"type": "penalty", "player": "Ben"})
    assert s.hands[1] == 8 and s.turn == 2 and s.total == 6
    assert [e["type"] for e in events] == ["penalty", "drew"]


def test_empty_draw_pile_reshuffles_set_aside_cards():
    s = replace(new(), draw_pile=0, set_aside=5, pile=1, total=3, top=3)
    s, events = seven.apply(s, {"type": "penalty", "player": "Ana"})
    assert [e["type"] for e in events] == ["penalty", "reshuffle", "drew"]
    assert s.draw_pile == 4 and s.set_aside == 0


def test_no_cards_anywhere_skips_the_draw():
    s = replace(new(), draw_pile=0, set_aside=0, pile=1, total=3, top=3)
    s, events = seven.apply(s, {"type": "penalty", "player": "Ana"})
    assert "no_draw" in [e["type"] for e in events] and s.hands[0] == 7


# -- rule 7 and scoring ----------------------------------------------------------------------


def test_finishing_order_and_chips_for_three_players():
    s = new(hand_size=1)
    s, ev = run(s, ("Ana", {"card": 7, "on": "hole"}))  # Ana's last card makes 7: 1st
    assert s.finishing == (0,) and s.turn == 1
    s, ev = run(s, ("Ben", {"card": 7, "on": "hole"}))  # Ben 2nd, Cy last: round over
    chips = {e["player"]: e["chips"] for e in ev if e["type"] == "chips"}
    assert chips == {"Ana": 3, "Ben": 2, "Cy": 1}
    assert s.round == 2 and s.chips == (3, 2, 1)
    assert s.turn == 1, "next_seat: round 2 is started by the seat after round 1's starter"


def _seven_then_last_card(**rules):
    """Ana 3 on hole; Ben 4 on number (Seven, no draw); Ben starts a new pile with his last card."""
    s = new(("Ana", "Ben"), hand_size=2, **rules)
    return run(
        s, ("Ana", {"card": 3, "on": "hole"}), ("Ben", {"card": 4, "on": "number"}), ("Ben", {"card": 5, "on": "hole"})
    )


def test_rule_7_read_literally_a_last_card_that_does_not_make_seven_does_not_finish():
    s, ev = _seven_then_last_card()
    assert s.finishing == () and s.hands == (2, 1), "Ben draws a card and plays on"
    assert s.pile == 1 and s.total == 5 and s.players[s.turn] == "Ana"
    assert [e["type"] for e in ev][-2:] == ["no_seven", "drew"]
    assert "a round is won only by reaching 7 with the last card" in ev[-2]["text"]
    assert "finishes" not in " ".join(e["text"] for e in ev)


def test_rule_7_house_rule_empty_hand_finishes_whatever_the_total():
    s, ev = _seven_then_last_card(finish_on="empty_hand")
    assert any(e["type"] == "finished" and e["player"] == "Ben" and e["place"] == 1 for e in ev)
    assert "no_seven" not in [e["type"] for e in ev]
    assert s.round == 2 and s.round_results == ((1, 0),)


def test_rule_7_a_hand_emptied_with_nothing_left_to_draw_finishes():
    s, _ = run(
        new(("Ana", "Ben"), hand_size=2), ("Ana", {"card": 3, "on": "hole"}), ("Ben", {"card": 4, "on": "number"})
    )
    s = replace(s, draw_pile=0, set_aside=0)  # every other card is out of reach
    s, ev = run(s, ("Ben", {"card": 5, "on": "hole"}))
    assert [e["type"] for e in ev][1:4] == ["no_seven", "no_draw", "finished"]
    assert s.round_results == ((1, 0),), "Ben cannot draw, so his empty hand finishes him"


@pytest.mark.parametrize(
    "starter_rule, expected", [("next_seat", "Ben"), ("round_winner", "Cy"), ("last_place", "Ana")]
)
def test_next_round_starter_rule(starter_rule, expected):
    s = new(hand_size=1, next_round_starter=starter_rule)
    s, _ev = run(
        s,
        ("Ana", {"card": 3, "on": "hole"}),  # total 3, Ana draws back to 1 card
        ("Ben", "penalty"),  # Ben holds 2
        ("Cy", {"card": 4, "on": "number"}),  # 4 + 3 = 7 with Cy's last card: Cy 1st
        ("Ana", {"card": 2, "on": "hole"}),  # Ana starts a pile and draws
        ("Ben", {"card": 5, "on": "number"}),  # 5 + 2 = 7: Ben restarts without drawing
        ("Ben", {"card": 7, "on": "hole"}),  # Ben's last card: 2nd; Ana last
    )
    assert s.round_results == ((2, 1, 0),)
    assert s.chips == (1, 2, 3)
    assert s.players[s.turn] == expected and s.round == 2


def test_two_to_four_players_end_after_the_set_number_of_rounds():
    s = new(("Ana", "Ben"), hand_size=1, rounds=2)
    s, _ = run(s, ("Ana", {"card": 7, "on": "hole"}))
    assert s.round == 2 and not s.over
    s, _ev = run(s, ("Ben", {"card": 7, "on": "hole"}))
    assert s.over and s.chips == (3, 3)
    assert seven.summary(s).winners == ("Ana", "Ben")
    assert seven.legal_actions(s) == []
    with pytest.raises(IllegalAction, match="over"):
        play(s, "Ana", card=1, on="hole")


def test_five_or_more_players_play_until_the_chips_run_out():
    names = ("A", "B", "C", "D", "E")
    s = new(names, hand_size=1, chips=20)
    for p in "ABCD":  # each lays a 7 with their only card
        s, _ = run(s, (p, {"card": 7, "on": "hole"}))
    assert s.chips == (5, 4, 3, 2, 1) and s.chips_left == 5 and s.round == 2 and not s.over
    for p in "BCDE":  # round 2 is started by B
        s, _ev = run(s, (p, {"card": 7, "on": "hole"}))
    assert s.over
    assert s.chips == (5, 9, 3, 2, 1), "only the 5 chips left go out, to the round's winner"
    assert seven.summary(s).winners == ("B",)


def test_cards_are_conserved_through_a_round():
    s = new()
    s, _ = run(
        s,
        ("Ana", {"card": 3, "on": "hole"}),
        ("Ben", {"card": 4, "on": "number"}),
        ("Ben", {"card": 1, "on": "hole"}),
        ("Cy", "penalty"),
        ("Ana", {"card": 5, "on": "hole"}),
    )
    assert sum(s.hands) + s.draw_pile + s.pile + s.set_aside == 80


def test_summary_says_who_acts_and_what_they_may_do():
    s, _ = play(new(), "Ana", card=3, on="hole")
    summary = seven.summary(s)
    assert summary.to_act == ("Ben",)
    assert "3 to 7" in summary.prompt and "penalty" in summary.prompt
    assert summary.detail["hands"] == {"Ana": 7, "Ben": 7, "Cy": 7}


def test_legal_actions_are_exactly_the_plays_the_rules_allow():
    s, _ = play(new(), "Ana", card=3, on="hole")
    legal = seven.legal_actions(s)
    holes = sorted(a["card"] for a in legal if a.get("on") == "hole")
    numbers = sorted(a["card"] for a in legal if a.get("on") == "number")
    assert holes == [3, 4, 5, 6, 7]
    assert numbers == [1, 2, 3, 4]
    assert {"type": "penalty", "player": "Ben"} in legal
    for action in legal:
        seven.apply(s, action)  # every listed action is accepted
