"""Every phase, card power and tie rule of 7 Seize, table-driven, on the engine directly."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from companion.games import ConfigError, IllegalAction, find_game
from companion.games import seven_seize as game
from companion.games.seven_seize.phases import strumpet_options
from companion.games.seven_seize.plausible import pip_range
from tests.support.seize import act, auto_decide, counts, new, reveal_all, to_seize, with_collections

# Round 1 squabble that makes Ana Captain (the spades are then in the discard pile).
SQ = {"Ana": "9S", "Ben": "8S", "Cy": "7S"}


def test_registered_under_its_names():
    for name in ("seven-seize", "7seize", "7-seize", "seize", "Seize"):
        assert find_game(name) is game


# -- setting up --------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_setup(n):
    s = new([f"P{i}" for i in range(n)])
    assert (s.round, s.phase, s.bag, s.red, s.black) == (1, "squabble", 49, 0, 0)
    assert s.deck.draw == 52 - 3 * n
    assert s.seats == s.players + (("Interloper",) if n == 2 else ())
    assert s.collections == (0,) * len(s.seats)


@pytest.mark.parametrize("players", [[], ["Solo"], [f"P{i}" for i in range(8)], ["Ana", "ana"], ["Ana", "Interloper"]])
def test_bad_seatings_are_refused(players):
    with pytest.raises(ConfigError):
        new(players)


def test_interloper_is_an_ordinary_name_with_three_players():
    assert new(["Ana", "Ben", "Interloper"]).seats == ("Ana", "Ben", "Interloper")


@pytest.mark.parametrize("rule, value", [("balance", "three_pans"), ("tie_confidence", 1.5), ("seize_tie", "dice")])
def test_bad_house_rules_are_refused(rule, value):
    with pytest.raises(ConfigError):
        new(**{rule: value})


# -- squabble for Captain ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, rules, captain",
    [
        ({"Ana": "9H", "Ben": "10C", "Cy": "2S"}, {}, "Ben"),  # highest Number card
        ({"Ana": "AS", "Ben": "2C", "Cy": "KH"}, {}, "Ben"),  # J/Q/K/A count 1
        ({"Ana": "7D", "Ben": "7S", "Cy": "3H"}, {}, "Ben"),  # round 1 tie: spades beat diamonds
        ({"Ana": "7C", "Ben": "7H", "Cy": "7D"}, {}, "Ben"),  # hearts beat diamonds and clubs
        ({"Ana": "JD", "Ben": "QC", "Cy": "2D"}, {}, "Cy"),  # a 2 beats every face card
        ({"Ana": "JS", "Ben": "QH", "Cy": "AS"}, {}, "Cy"),  # same suit: rank A, K, Q, J
        ({"Ana": "JS", "Ben": "QH", "Cy": "AS"}, {"squabble_face_tie": "seat"}, "Ana"),
        ({"Ana": "KC", "Ben": "QC", "Cy": "JC"}, {}, "Ana"),
    ],
)
def test_squabble_round_one(cards, rules, captain):
    s, events = reveal_all(new(**rules), cards)
    assert s.players[s.captain] == captain
    assert s.phase == "divvy" and s.pending is None
    assert set(s.deck.discard) == set(cards.values())  # the revealed cards are discarded
    assert events[-1]["type"] == "captain"


def _to_round_two(**rules):
    s = to_seize(new(**rules), SQ, red=3)
    s, _ = reveal_all(s, {"Ana": "2C", "Ben": "3C", "Cy": "4C"})
    assert s.round == 2 and s.phase == "squabble"
    return s


def test_later_squabble_tie_is_settled_by_the_previous_captain():
    s = _to_round_two()
    s, events = reveal_all(s, {"Ana": "2H", "Ben": "10D", "Cy": "10H"})
    assert s.pending is not None and s.pending.kind == "captain"
    assert events[-1]["type"] == "captain_tie"
    assert game.legal_actions(s) == [
        {"type": "captain", "player": "Ana", "captain": "Ben"},
        {"type": "captain", "player": "Ana", "captain": "Cy"},
    ]
    summary = game.summary(s)
    assert summary.to_act == ("Ana",) and summary.detail["waiting"]["kind"] == "captain"
    with pytest.raises(IllegalAction, match="did not tie"):
        act(s, "captain", "Ana", captain="Ana")
    with pytest.raises(IllegalAction, match="Ana's decision"):
        act(s, "captain", "Ben", captain="Ben")
    with pytest.raises(IllegalAction, match="first"):
        act(s, "divvy", "Ana", red=3)
    s, _ = act(s, "captain", "Ana", captain="Ben")  # the lower suit may be chosen
    assert s.players[s.captain] == "Ben" and s.players[s.previous_captain] == "Ana"
    assert s.phase == "divvy"


def test_later_squabble_tie_by_suit_when_the_table_prefers():
    s = _to_round_two(squabble_tie="suit")
    s, _ = reveal_all(s, {"Ana": "2H", "Ben": "10D", "Cy": "10H"})
    assert s.pending is None and s.players[s.captain] == "Cy"


@pytest.mark.parametrize(
    "card, problem",
    [("", "not a card"), ("1S", "not a card"), ("11H", "not a card"), ("QX", "not a card"), ("9S", "discard pile")],
)
def test_bad_reveals_are_refused(card, problem):
    s = to_seize(new(), SQ, red=3)
    with pytest.raises(IllegalAction, match=problem):
        act(s, "reveal", "Ana", card=card)


def test_a_card_cannot_be_revealed_twice_or_by_two_players():
    s, _ = act(new(), "reveal", "Ana", card="5H")
    with pytest.raises(IllegalAction, match="Ana already revealed the 5 of hearts"):
        act(s, "reveal", "Ben", card="5h")
    with pytest.raises(IllegalAction, match="Ana has already revealed"):
        act(s, "reveal", "Ana", card="6H")
    with pytest.raises(IllegalAction, match="nobody called"):
        act(s, "reveal", "Zed", card="6H")


def test_reveal_options_are_every_card_still_out_for_every_player_still_to_reveal():
    s, _ = act(new(), "reveal", "Ana", card="5H")
    actions = game.legal_actions(s)
    assert {a["player"] for a in actions} == {"Ben", "Cy"}
    assert len(actions) == 2 * 51 and all(a["card"] != "5H" for a in actions)


# -- divvy -------------------------------------------------------------------------------------


@pytest.mark.parametrize("red, black", [(1, 6), (3, 4), (6, 1), (None, 2), (5, None)])
def test_divvy(red, black):
    s, _ = reveal_all(new(), SQ)
    fields = {k: v for k, v in (("red", red), ("black", black)) if v is not None}
    s, _ = act(s, "divvy", "Ana", **fields)
    assert s.red + s.black == 7 and s.bag == 42 and s.phase == "seize"
    assert s.red == (red if red is not None else 7 - black)


@pytest.mark.parametrize(
    "player, fields, problem",
    [
        ("Ana", {"red": 0, "black": 7}, "at least 1"),
        ("Ana", {"red": 7}, "at least 1"),
        ("Ana", {"red": 3, "black": 3}, "exactly 7"),
        ("Ana", {}, "how many"),
        ("Ana", {"red": "3"}, "whole number"),
        ("Ben", {"red": 3}, "Ana's decision"),
    ],
)
def test_bad_divvies_are_refused(player, fields, problem):
    s, _ = reveal_all(new(), SQ)
    with pytest.raises(IllegalAction, match=problem):
        act(s, "divvy", player, **fields)


def test_divvy_options_are_one_to_six():
    s, _ = reveal_all(new(), SQ)
    assert [(a["red"], a["black"]) for a in game.legal_actions(s)] == [(r, 7 - r) for r in range(1, 7)]


# -- seize: card powers, the Number cards' round and round, the swab -----------------------------


@pytest.mark.parametrize(
    "red, cards, preset, rules, expected",
    [
        # Lookout seizes 1; Numbers round and round on Black; the swab gives Red's 2 to Ana (first).
        (3, {"Ana": "AH", "Ben": "2C", "Cy": "3C"}, {}, {}, {"Ana": 3, "Ben": 2, "Cy": 2}),
        # Knave seizes 2, or the 1 that is there.
        (1, {"Ana": "JH", "Ben": "2C", "Cy": "5C"}, {}, {}, {"Ana": 1, "Ben": 3, "Cy": 3}),
        (4, {"Ana": "JD", "Ben": "6H", "Cy": "10C"}, {}, {}, {"Ana": 2, "Ben": 2, "Cy": 3}),
        # Numbers: highest first, so the 9 gets the odd piece; each colour from its own stash.
        (5, {"Ana": "4D", "Ben": "9H", "Cy": "2S"}, {}, {}, {"Ana": 2, "Ben": 3, "Cy": 2}),
        # An empty stash gives nothing; leftover Black goes to the first actor though their card is red.
        (2, {"Ana": "10H", "Ben": "5D", "Cy": "3H"}, {}, {}, {"Ana": 6, "Ben": 1, "Cy": 0}),
        (1, {"Ana": "AH", "Ben": "2H", "Cy": "3H"}, {}, {}, {"Ana": 7, "Ben": 0, "Cy": 0}),
        # Quartermaster swaps the whole stash: counts stay, the stash is there for the 5 after.
        (4, {"Ana": "5H", "Ben": "KH", "Cy": "6C"}, {"Ben": 2}, {}, {"Ana": 4, "Ben": 2, "Cy": 3}),
        # ... returning only from pieces held before seizing: keeps the difference.
        (
            4,
            {"Ana": "5H", "Ben": "KH", "Cy": "6C"},
            {"Ben": 2},
            {"quartermaster_return": "previous_collection"},
            {"Ana": 2, "Ben": 4, "Cy": 3},
        ),
        (
            4,
            {"Ana": "5H", "Ben": "KH", "Cy": "6C"},
            {},
            {"quartermaster_return": "previous_collection"},
            {"Ana": 0, "Ben": 4, "Cy": 3},
        ),
        # Face cards never seize again in the round and round; leftovers are swabbed.
        (6, {"Ana": "AC", "Ben": "JH", "Cy": "2H"}, {}, {}, {"Ana": 1 + 0, "Ben": 2, "Cy": 4}),
    ],
)
def test_seize_powers(red, cards, preset, rules, expected):
    s = with_collections(to_seize(new(**rules), SQ, red=red), preset)
    start = sum(s.collections)
    s, events = reveal_all(s, cards)
    s, more = auto_decide(s)
    events += more
    assert counts(s) == expected
    assert sum(s.collections) == start + 7 and s.red == s.black == 0
    assert s.round == 2 and s.phase == "squabble"
    assert s.booty_total == 49


def test_quartermaster_waits_for_the_return_and_lists_exactly_it():
    s = with_collections(to_seize(new(), SQ, red=4), {"Ben": 2})
    s, _events = reveal_all(s, {"Ana": "5H", "Ben": "KH", "Cy": "6C"})
    assert counts(s)["Ben"] == 6 and s.red == 0  # seized all
    assert game.legal_actions(s) == [{"type": "quartermaster", "player": "Ben", "returned": 4}]
    assert game.summary(s).to_act == ("Ben",)
    with pytest.raises(IllegalAction, match="exactly 4"):
        act(s, "quartermaster", "Ben", returned=3)
    with pytest.raises(IllegalAction, match="Ben's decision"):
        act(s, "quartermaster", "Ana", returned=4)
    s, _ = act(s, "quartermaster", "Ben", returned=4)
    assert counts(s)["Ben"] == 2


@pytest.mark.parametrize(
    "rule, words",
    [
        ("whole_collection", "chosen from the whole collection"),
        ("previous_collection", "chosen from the pieces held before this seize"),
    ],
)
def test_quartermaster_prompt_follows_the_return_house_rule(rule, words):
    s = with_collections(to_seize(new(quartermaster_return=rule), SQ, red=4), {"Ben": 2})
    s, _ = reveal_all(s, {"Ana": "5H", "Ben": "KH", "Cy": "6C"})
    prompt = game.summary(s).prompt
    assert prompt.startswith("Ben: return ") and words in prompt
    assert "whole collection" not in prompt or rule == "whole_collection"


def test_quartermaster_on_an_empty_stash_does_nothing():
    s = to_seize(new(), SQ, red=1)
    s, events = reveal_all(s, {"Ana": "AH", "Ben": "KD", "Cy": "2C"})
    assert s.pending is None and counts(s)["Ben"] == 0
    assert any(e["type"] == "nothing" and e["player"] == "Ben" for e in events)


@pytest.mark.parametrize(
    "rule, expected",
    [
        ("same_colour", [{"choice": "seize"}, {"choice": "steal", "victim": "Ben"}]),
        (
            "any_player",
            [{"choice": "seize"}, {"choice": "steal", "victim": "Ben"}, {"choice": "steal", "victim": "Cy"}],
        ),
    ],
)
def test_strumpet_options(rule, expected):
    s = with_collections(to_seize(new(strumpet_steal=rule), SQ, red=3), {"Ben": 2, "Cy": 1})
    s, _ = reveal_all(s, {"Ana": "QH", "Ben": "5D", "Cy": "6C"})
    assert s.pending.kind == "strumpet"
    options = [{k: v for k, v in a.items() if k in ("choice", "victim")} for a in game.legal_actions(s)]
    assert options == expected
    assert game.summary(s).detail["waiting"]["options"] == expected


def test_strumpet_steal_and_seize():
    base = with_collections(to_seize(new(), SQ, red=3), {"Ben": 2, "Cy": 1})
    base, _ = reveal_all(base, {"Ana": "QH", "Ben": "5D", "Cy": "6C"})
    stolen, events = act(base, "strumpet", "Ana", choice="steal", victim="Ben")
    assert events[0]["type"] == "stole"
    # Ana +1 from Ben; then Ben (5D) takes all 3 Red, Cy (6C) all 4 Black.
    assert counts(stolen) == {"Ana": 1, "Ben": 1 + 3, "Cy": 1 + 4}
    seized, _ = act(base, "strumpet", "Ana", choice="seize")
    assert counts(seized) == {"Ana": 1, "Ben": 2 + 2, "Cy": 1 + 4}
    with pytest.raises(IllegalAction, match="cannot steal from Cy"):
        act(base, "strumpet", "Ana", choice="steal", victim="Cy")
    with pytest.raises(IllegalAction, match='"choice"'):
        act(base, "strumpet", "Ana", choice="pout")


@pytest.mark.parametrize(
    "red, black, collections, expected",
    [
        (0, 3, {"Ben": 0, "Cy": 0}, []),  # the empty case: nothing to seize, nobody to rob
        (0, 3, {"Ben": 1, "Cy": 4}, ["Ben"]),  # only the red revealer
        (2, 3, {"Ben": 0, "Cy": 4}, [None]),
    ],
)
def test_strumpet_options_table(red, black, collections, expected):
    s = to_seize(new(), SQ, red=3)
    s, _ = act(s, "reveal", "Ben", card="5D")
    s, _ = act(s, "reveal", "Cy", card="6C")
    s = replace(s, seize_cards=("QH", *s.seize_cards[1:]), red=red, black=black)
    s = with_collections(s, collections)
    assert [None if o is None else s.seats[o] for o in strumpet_options(s, 0)] == expected


def test_same_rank_is_ordered_by_the_captain():
    s = to_seize(new(), SQ, red=3)
    s, events = reveal_all(s, {"Ana": "2C", "Ben": "5H", "Cy": "5D"})
    assert s.pending.kind == "order" and events[-1]["type"] == "order_tie"
    assert game.legal_actions(s) == [
        {"type": "order", "player": "Ana", "order": ["Ben", "Cy"]},
        {"type": "order", "player": "Ana", "order": ["Cy", "Ben"]},
    ]
    with pytest.raises(IllegalAction, match="Ana's decision"):
        act(s, "order", "Ben", order=["Ben", "Cy"])
    for bad in (["Ben"], ["Ben", "Ben"], ["Ben", "Cy", "Ana"], []):
        with pytest.raises(IllegalAction, match="exactly"):
            act(s, "order", "Ana", order=bad)
    cy_first, _ = act(s, "order", "Ana", order=["Cy", "Ben"])
    assert counts(cy_first) == {"Ana": 4, "Ben": 1, "Cy": 2}
    ben_first, _ = act(s, "order", "Ana", order=["ben", "cy"])
    assert counts(ben_first) == {"Ana": 4, "Ben": 2, "Cy": 1}


def test_same_rank_by_suit_when_the_table_prefers():
    s = to_seize(new(seize_tie="suit"), SQ, red=3)
    s, _ = reveal_all(s, {"Ana": "2C", "Ben": "5D", "Cy": "5H"})
    assert s.pending is None and counts(s) == {"Ana": 4, "Ben": 1, "Cy": 2}  # hearts before diamonds


def test_tied_first_group_decides_who_swabs():
    s = to_seize(new(), SQ, red=5)
    s, _ = reveal_all(s, {"Ana": "AH", "Ben": "AD", "Cy": "2C"})
    s, _ = act(s, "order", "Ana", order=["Ben", "Ana"])
    assert counts(s) == {"Ana": 1, "Ben": 1 + 3, "Cy": 2}
    assert s.history[-1].order == (1, 0, 2)


def test_four_of_a_rank_lists_every_ordering():
    s = to_seize(new(["A1", "A2", "A3", "A4"]), {"A1": "10S", "A2": "9S", "A3": "8S", "A4": "7S"}, red=3)
    s, _ = reveal_all(s, {"A1": "4H", "A2": "4D", "A3": "4C", "A4": "4S"})
    assert len(game.legal_actions(s)) == 24


# -- 2-player Interloper -----------------------------------------------------------------------


def _two(**rules):
    s = to_seize(new(["Ana", "Ben"], **rules), {"Ana": "9S", "Ben": "8S"}, red=3)
    assert s.players[s.captain] == "Ana" and s.non_captain == 1
    return s


def test_interloper_card_is_drawn_by_the_non_captain_after_the_divvy():
    s, _ = reveal_all(new(["Ana", "Ben"]), {"Ana": "9S", "Ben": "8S"})
    before = s.deck.draw
    s, events = act(s, "divvy", "Ana", red=3)
    assert s.deck.draw == before - 1
    assert events[-1]["type"] == "interloper_card" and events[-1]["player"] == "Ben"
    with pytest.raises(IllegalAction, match="nobody called"):
        act(new(["Ana", "Ben"]), "reveal", "Interloper", card="2H")  # no card for Captain
    assert game.summary(s).to_act == ("Ana", "Ben")


@pytest.mark.parametrize(
    "captain_cards, non_captain", [({"Ana": "9S", "Ben": "8S"}, "Ben"), ({"Ana": "2S", "Ben": "8S"}, "Ana")]
)
def test_the_prompt_gives_the_interlopers_card_to_the_non_captain(captain_cards, non_captain):
    s, _ = reveal_all(new(["Ana", "Ben"]), captain_cards)
    captain = s.players[s.captain]
    s, _ = act(s, "divvy", captain, red=3)
    prompt = game.summary(s).prompt
    assert f"{non_captain} reveals the Interloper's card too." in prompt
    assert f"{captain} reveals the Interloper's card" not in prompt
    s, _ = act(s, "reveal", captain, card="3C")  # the Captain's own card does not move the Interloper's
    assert f"{non_captain} reveals the Interloper's card too." in game.summary(s).prompt


def test_the_interlopers_collection_is_among_the_scores():
    s = with_collections(_two(), {"Interloper": 3, "Ana": 1})
    scores = game.summary(s).scores
    assert scores == {"Ana": 1.0, "Ben": 0.0, "Interloper": 3.0}
    assert game.summary(new()).scores == {"Ana": 0.0, "Ben": 0.0, "Cy": 0.0}, "no ghost seat with three players"


def test_non_captain_picks_the_interlopers_pieces():
    s = _two()
    s, _ = reveal_all(s, {"Interloper": "AH", "Ana": "2C", "Ben": "3C"})
    assert s.pending.kind == "pick"
    assert game.legal_actions(s) == [
        {"type": "pick", "player": "Ben", "for": "Interloper", "stash": "red", "pieces": 1}
    ]
    assert game.summary(s).to_act == ("Ben",)
    with pytest.raises(IllegalAction, match="Ben's decision"):
        act(s, "pick", "Ana", pieces=1)
    with pytest.raises(IllegalAction, match="1 piece here"):
        act(s, "pick", "Ben", pieces=2)
    with pytest.raises(IllegalAction, match="this decision is for Interloper"):
        act(s, "pick", "Ben", **{"for": "Ana"})
    s, _ = act(s, "pick", "Ben", pieces=1, stash="red")
    assert counts(s) == {"Ana": 2, "Ben": 2, "Interloper": 3}


def test_interloper_number_card_asks_for_a_pick_each_time_it_seizes():
    s = _two()
    s, _ = reveal_all(s, {"Interloper": "9H", "Ana": "2H", "Ben": "3C"})
    picks = 0
    while s.pending is not None:
        assert s.pending.kind == "pick" and s.pending.amount == 1
        s, _ = game.apply(s, game.legal_actions(s)[0])
        picks += 1
    assert picks == 2 and counts(s) == {"Ana": 1, "Ben": 4, "Interloper": 2}


def test_interloper_strumpet_and_quartermaster_are_decided_by_the_non_captain():
    s = with_collections(_two(), {"Ana": 2, "Interloper": 1})
    s, _ = reveal_all(s, {"Interloper": "QD", "Ana": "KH", "Ben": "2C"})
    assert s.pending.kind == "quartermaster" and game.summary(s).to_act == ("Ana",)  # Ana's own K first
    s, _ = act(s, "quartermaster", "Ana", returned=3)
    assert s.pending.kind == "strumpet"
    assert game.legal_actions(s) == [
        {"type": "strumpet", "player": "Ben", "for": "Interloper", "choice": "seize"},
        {"type": "strumpet", "player": "Ben", "for": "Interloper", "choice": "steal", "victim": "Ana"},
    ]
    s, _ = act(s, "strumpet", "Ben", choice="steal", victim="Ana", **{"for": "Interloper"})
    assert counts(s)["Interloper"] == 2 and s.pending is None


def test_the_interloper_can_be_robbed():
    s = with_collections(_two(), {"Interloper": 2})
    s, _ = reveal_all(s, {"Interloper": "5D", "Ana": "QH", "Ben": "2C"})
    s, _ = act(s, "strumpet", "Ana", choice="steal", victim="Interloper")
    assert counts(s)["Ana"] == 1
    assert s.pending.kind == "pick" and counts(s)["Interloper"] == 2 - 1 + 1  # robbed, then its 5 seizes 1
    s, _ = auto_decide(s)  # ... and the rest of Red, a pick at a time
    assert counts(s) == {"Ana": 1, "Ben": 4, "Interloper": 1 + 3}


def test_interloper_quartermaster_return_is_made_by_the_non_captain():
    s = with_collections(_two(), {"Interloper": 1})
    s, _ = reveal_all(s, {"Interloper": "KH", "Ana": "2C", "Ben": "3C"})
    assert game.legal_actions(s) == [{"type": "quartermaster", "player": "Ben", "for": "Interloper", "returned": 3}]


# -- deck tracking -----------------------------------------------------------------------------


def test_cards_seen_and_still_out():
    s = to_seize(new(), SQ, red=3)
    s, _ = act(s, "reveal", "Ana", card="QH")
    deck = game.summary(s).detail["deck"]
    assert deck["seen"] == ["9S", "8S", "7S", "QH"]
    assert len(deck["still_out"]) == 48 and "QH" not in deck["still_out"]
    assert deck["draw"] == 52 - 9 and deck["on_table"] == ["QH"]


@pytest.mark.parametrize(
    "players, reshuffle",
    [
        (2, None),
        (3, None),
        (4, {"round": 5, "at": "draw"}),
        (5, {"round": 4, "at": "draw"}),
        (7, {"round": 3, "at": "draw"}),
    ],
)
def test_when_the_deck_reshuffles(players, reshuffle):
    s = new([f"P{i}" for i in range(players)])
    assert game.summary(s).detail["deck"]["next_reshuffle"] == reshuffle


def test_reshuffle_happens_and_frees_the_discards():
    names = [f"P{i}" for i in range(7)]
    s = new(names)
    all_events = []
    while len(s.history) < 3:
        s, events = game.apply(s, game.legal_actions(s)[0])
        all_events += events
    reshuffles = [e for e in all_events if e["type"] == "reshuffle"]
    assert len(reshuffles) == 1 and reshuffles[0]["cards"] == 42  # 3 rounds x 14 revealed
    assert s.deck.reshuffles == 1 and s.deck.draw == 42 - (14 - 3) and s.deck.discard == ()
    assert len(game.summary(s).detail["deck"]["still_out"]) == 52


# -- the weigh-off in the game -----------------------------------------------------------------


def _to_weighoff(players=("Ana", "Ben", "Cy"), **rules):
    s = new(players, **rules)
    while s.phase not in ("weighoff", "over"):
        s, _ = game.apply(s, game.legal_actions(s)[0])
    return s


def test_game_ends_after_seven_rounds_with_an_empty_bag():
    s = _to_weighoff()
    assert (s.round, s.bag, s.red, s.black, sum(s.collections)) == (7, 0, 0, 0, 49)
    assert len(s.history) == 7 and s.phase == "weighoff"
    assert game.summary(s).detail["waiting"]["kind"] == "weigh"


def test_weigh_actions_listed_use_the_scale():
    s = _to_weighoff(balance="two_pans")
    assert game.legal_actions(s) == [
        {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0},
        {"type": "weigh", "player": "Ben", "from": "scale", "channel": 1},
    ]


@pytest.mark.parametrize(
    "rules, fields, uncertainty",
    [
        ({}, {"grams": 150}, 1 / math.sqrt(3)),
        ({"typed_resolution_g": 0.1}, {"grams": 150.2}, 0.1 / math.sqrt(3)),
        ({}, {"grams": 150, "uncertainty_g": 0.3}, 0.3),
        (
            {},
            {
                "weighing": {
                    "grams": 150.04,
                    "uncertainty_g": 0.02,
                    "samples": 40,
                    "channel": 0,
                    "calibration": "sim-1",
                    "raw_counts": [1, 2],
                    "backend": "sim",
                }
            },
            0.02,
        ),
    ],
)
def test_weighing_forms(rules, fields, uncertainty):
    s = _to_weighoff(**rules)
    name = s.weighoff.waiting()[0]
    s, events = act(s, "weigh", name, **fields)
    reading = s.weighoff.full[s.weighoff.contestants.index(name)]
    assert reading.uncertainty == pytest.approx(uncertainty)
    assert reading.value == pytest.approx(fields.get("grams", 150.04))
    assert events[0]["type"] == "weighed"


@pytest.mark.parametrize(
    "rules, fields, problem",
    [
        ({}, {}, "exactly one"),
        ({}, {"grams": 1, "pips": 3}, "exactly one"),
        ({}, {"pips": 30}, "dominoes house rule"),
        ({"booty": "dominoes"}, {"grams": 100}, "pips"),
        ({"booty": "dominoes"}, {"pips": -1}, "fewer than 0"),
        ({"booty": "dominoes"}, {"pips": 10_000}, "cannot show 10000 pips: in a double-nine set the 39 highest"),
        ({}, {"grams": -5}, "less than nothing"),
        ({}, {"grams": float("nan")}, "must be a number"),
        ({}, {"grams": True}, "must be a number"),
        ({}, {"grams": 5, "uncertainty_g": -1}, "negative"),
        ({}, {"weighing": {"grams": 5}}, "uncertainty_g"),
        ({}, {"weighing": "heavy"}, "stable weighing"),
        ({}, {"weighing": {"grams": 5, "uncertainty_g": -0.1}}, "negative"),
        ({}, {"weighing": {"grams": -50, "uncertainty_g": 0.1}}, "empty pan"),
        ({}, {"weighing": {"grams": 5, "uncertainty_g": 0.1, "channel": -1}}, "0 for pan A, 1 for pan B"),
        ({}, {"weighing": {"grams": 5, "uncertainty_g": 0.1, "raw_counts": ["x"]}}, "whole numbers"),
    ],
)
def test_bad_weighings_are_refused(rules, fields, problem):
    s = _to_weighoff(**rules)
    with pytest.raises(IllegalAction, match=problem):
        act(s, "weigh", s.weighoff.waiting()[0], **fields)


def test_weighing_before_the_end_is_refused():
    with pytest.raises(IllegalAction, match="after round 7"):
        act(new(), "weigh", "Ana", grams=100)


def _finish_weighoff(s, grams):
    while s.phase == "weighoff":
        name = s.weighoff.waiting()[0]
        s, _ = act(s, "weigh", name, grams=grams[name])
    return s


@pytest.mark.parametrize(
    "cursed, grams, winner",
    [
        (False, {"Ana": 100.0, "Ben": 120.0, "Cy": 90.0}, "Ben"),
        (True, {"Ana": 100.0, "Ben": 120.0, "Cy": 90.0}, "Cy"),
    ],
)
def test_weighoff_winner(cursed, grams, winner):
    s = _finish_weighoff(_to_weighoff(cursed=cursed), grams)
    summary = game.summary(s)
    assert summary.over and summary.winners == (winner,)
    assert summary.to_act == () and game.legal_actions(s) == []
    with pytest.raises(IllegalAction, match="over"):
        act(s, "weigh", "Ana", grams=1)


def test_interloper_in_the_weighoff_follows_the_house_rule():
    s = _to_weighoff(("Ana", "Ben"))
    assert s.weighoff.contestants == ("Ana", "Ben", "Interloper")
    per_piece = {"Ana": 2.0, "Ben": 2.0, "Interloper": 20.0}  # few but heavy pieces can win
    s = _finish_weighoff(s, {n: per_piece[n] * s.weighoff.on_pan(n) for n in per_piece})
    assert game.summary(s).winners == ("Interloper",)
    s = _to_weighoff(("Ana", "Ben"), interloper_weighs=False)
    assert s.weighoff.contestants == ("Ana", "Ben")
    with pytest.raises(IllegalAction, match="no collection"):
        act(s, "weigh", "Interloper", grams=10)


def test_dominoes_are_counted_in_pips():
    s = _to_weighoff(booty="dominoes")
    name = s.weighoff.waiting()[0]
    pieces = s.weighoff.on_pan(name)
    pips = [a["pips"] for a in game.legal_actions(s) if a["player"] == name]
    low, high = pip_range(pieces, 18)
    assert pips == list(range(low, high + 1)) and low > 0, "only counts the dominoes can show"
    s, _ = act(s, "weigh", name, pips=low + 40)
    assert s.weighoff.full[0].unit == "pips"


# -- summary -----------------------------------------------------------------------------------


def test_summary_is_json_ready_and_names_the_phase_facts():
    s = to_seize(new(), SQ, red=3)
    summary = game.summary(s)
    json.dumps(summary.to_json())
    d = summary.detail
    assert d["phase"] == "seize" and d["round"] == 1 and d["captain"] == "Ana"
    assert d["stashes"] == {"red": 3, "black": 4} and d["bag"] == 42 and d["booty_total"] == 49
    assert d["collections"] == {"Ana": 0, "Ben": 0, "Cy": 0}
    assert d["waiting"]["kind"] == "reveal" and summary.to_act == ("Ana", "Ben", "Cy")
    assert "reveal a card to seize" in summary.prompt
    assert summary.scores == {"Ana": 0.0, "Ben": 0.0, "Cy": 0.0}


def test_summary_history_records_each_round():
    s = to_seize(new(), SQ, red=3)
    s, _ = reveal_all(s, {"Ana": "AH", "Ben": "2C", "Cy": "3C"})
    history = game.summary(s).detail["history"]
    assert history == [
        {
            "round": 1,
            "captain": "Ana",
            "squabble": SQ,
            "seize": {"Ana": "AH", "Ben": "2C", "Cy": "3C"},
            "divvy": {"red": 3, "black": 4},
            "order": ["Ana", "Cy", "Ben"],
            "gained": {"Ana": 3, "Ben": 2, "Cy": 2},
        }
    ]


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "reveal",
        {"type": ""},
        {"type": "dance", "player": "Ana"},
        {"type": "reveal"},
        {"type": "reveal", "player": 3, "card": "2H"},
    ],
)
def test_malformed_actions_are_refused(action):
    with pytest.raises(IllegalAction):
        game.apply(new(), action)


def test_two_pans_are_named_a_and_b_and_stored_weigh_actions_keep_their_channel():
    s = _to_weighoff(balance="two_pans")
    assert game.summary(s).prompt == "Ana on pan A, Ben on pan B: weigh both."
    assert [a["channel"] for a in game.legal_actions(s)] == [0, 1]  # the action format is unchanged

    def stored(name, channel):  # a weigh action as journals hold it
        grams = 5.0 * s.weighoff.on_pan(name) + channel
        return {
            "type": "weigh",
            "player": name,
            "weighing": {
                "grams": grams,
                "uncertainty_g": 0.02,
                "samples": 40,
                "channel": channel,
                "calibration": "sim-1",
            },
        }

    s, _ = game.apply(s, stored("Ana", 0))
    with pytest.raises(IllegalAction, match="both collections were read from pan A; on a two-pan balance"):
        game.apply(s, stored("Ben", 0))
    s, events = game.apply(s, stored("Ben", 1))
    contest = next(e for e in events if e["type"] == "contest")
    assert contest["text"].endswith("(pan A) and Cy (pan B) contest their collections.")
    assert contest["pans"] == {contest["pair"][0]: 0, "Cy": 1}
    assert s.weighoff.full[1].channel == 1
