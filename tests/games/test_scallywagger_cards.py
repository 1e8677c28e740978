"""Scallywagger decks: card specs, draws by seed, named draws, discards and reshuffles."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.games import ConfigError, IllegalAction
from companion.games.scallywagger.cards import (
    CardDef,
    Pile,
    build_catalogue,
    discard,
    draw,
    find_card,
    new_pile,
    parse_card,
)


@pytest.mark.parametrize(
    "spec, deck, expected",
    [
        ("Treasure:20", "treasure", CardDef("Treasure", "treasure", 20)),
        ("Rum Barrel:3:self+1", "treasure", CardDef("Rum Barrel", "treasure", 3, "once", "self", 1)),
        (" Spyglass : 2 : none : lasting ", "treasure", CardDef("Spyglass", "treasure", 2, "lasting")),
        ("Cutlass:2:target-1:anytime", "treasure", CardDef("Cutlass", "treasure", 2, "anytime", "target", -1)),
        ("Kraken:1:others-2", "adventure", CardDef("Kraken", "adventure", 1, "once", "others", -2)),
        ("Mutiny:4:SELF-1", "adventure", CardDef("Mutiny", "adventure", 4, "once", "self", -1)),
        ("Fog:2::", "adventure", CardDef("Fog", "adventure", 2)),
    ],
)
def test_card_specs(spec, deck, expected):
    card = parse_card(spec, deck)
    assert card == expected
    assert parse_card(card.spec(), deck) == card  # spec() writes what parse_card reads


@pytest.mark.parametrize(
    "spec, deck, message",
    [
        ("Rum", "treasure", "NAME:COPIES"),
        (":3", "treasure", "NAME:COPIES"),
        ("Rum:three", "treasure", "whole number"),
        ("Rum:0", "treasure", "1 to 99"),
        ("Rum:100", "treasure", "1 to 99"),
        ("Rum:3:self+0", "treasure", "the effect must be"),
        ("Rum:3:self+10", "treasure", "the effect must be"),
        ("Rum:3:everyone-1", "treasure", "the effect must be"),
        ("Rum:3:none:forever", "treasure", "once, lasting or anytime"),
        ("Kraken:3:none:lasting", "adventure", "Adventure cards"),
        ("Rum:3:none:once:extra", "treasure", "NAME:COPIES"),
    ],
)
def test_bad_card_specs_say_what_is_wrong(spec, deck, message):
    with pytest.raises(ConfigError, match=message):
        parse_card(spec, deck)


@pytest.mark.parametrize(
    "treasure, adventure, sizes",
    [
        ((), (), (0, 0)),  # no decks at all
        (("",), ("",), (0, 0)),  # `--rule treasure_cards=` (blank)
        (("Treasure:20",), ("Adventure:20",), (20, 20)),
        ("Rum:3:self+1,Spyglass:2", "Kraken:2:others-1", (5, 2)),  # one comma-separated string
        (["Rum:3", "Gold:1"], [], (4, 0)),  # a list, as stored in JSON
    ],
)
def test_catalogue_and_deck_sizes(treasure, adventure, sizes):
    catalogue = build_catalogue(treasure, adventure)
    t, a = new_pile(catalogue, "treasure", 1), new_pile(catalogue, "adventure", 1)
    assert (len(t.deck), len(a.deck)) == sizes
    assert Counter(catalogue[i].name for i in t.deck) == {c.name: c.copies for c in catalogue if c.deck == "treasure"}


def test_a_name_may_be_used_only_once():
    with pytest.raises(ConfigError, match="listed twice"):
        build_catalogue(["Gold:2"], ["gold:1"])


def test_find_card_is_case_insensitive():
    catalogue = build_catalogue(["Rum Barrel:2"], ["Kraken:1"])
    assert find_card(catalogue, "rum barrel") == 0
    assert find_card(catalogue, " KRAKEN ") == 1
    assert find_card(catalogue, "Parrot") is None


def test_shuffle_depends_only_on_seed():
    catalogue = build_catalogue([f"C{i}:1" for i in range(30)], [])
    assert new_pile(catalogue, "treasure", 7) == new_pile(catalogue, "treasure", 7)
    assert new_pile(catalogue, "treasure", 7).deck != new_pile(catalogue, "treasure", 8).deck


def test_draw_takes_the_top_card():
    pile = Pile(deck=(3, 1, 2), discard=(), shuffles=1)
    pile, card, reshuffled = draw(pile, "treasure", 1)
    assert (card, pile.deck, reshuffled) == (3, (1, 2), False)


def test_named_draw_takes_that_card_out_of_the_deck():
    catalogue = build_catalogue(["A:1", "B:2"], [])
    pile = Pile(deck=(0, 1, 1), discard=(), shuffles=1)
    pile, card, _ = draw(pile, "treasure", 1, wanted=1, catalogue=catalogue)
    assert card == 1 and pile.deck == (0, 1)
    pile, card, _ = draw(pile, "treasure", 1, wanted=1, catalogue=catalogue)
    with pytest.raises(IllegalAction, match="no B left"):
        draw(pile, "treasure", 1, wanted=1, catalogue=catalogue)


def test_empty_deck_reshuffles_its_discard_pile_at_the_next_draw():
    pile = discard(Pile(deck=(), discard=(), shuffles=1), [0, 1, 2, 3])
    assert pile.discard == (0, 1, 2, 3) and not pile.empty
    pile2, card, reshuffled = draw(pile, "adventure", 5)
    assert reshuffled and pile2.shuffles == 2 and pile2.discard == ()
    assert sorted((*pile2.deck, card)) == [0, 1, 2, 3]
    again = draw(pile, "adventure", 5)
    assert again == (pile2, card, True), "a reshuffle is the same every time it is replayed"


def test_drawing_from_nothing_is_refused():
    with pytest.raises(IllegalAction, match="both empty"):
        draw(Pile(deck=(), discard=(), shuffles=1), "treasure", 1)
