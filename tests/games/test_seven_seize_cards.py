"""7 Seize's cards and deck: parsing, the two orders, colours, draws and reshuffles."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from companion.games.seven_seize.cards import (
    ALL_CARDS,
    Deck,
    card_label,
    card_name,
    colour_of,
    is_number,
    order_by_suit,
    parse_card,
    seize_rank,
    squabble_value,
)


@pytest.mark.parametrize(
    "text, card",
    [
        ("QH", "QH"),
        ("qh", "QH"),
        (" 10s ", "10S"),
        ("TS", "10S"),
        ("Q♥", "QH"),
        ("A♠", "AS"),
        ("2 c", "2C"),
        ("7♢", "7D"),
    ],
)
def test_parse_card(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "Q", "H", "1S", "11D", "QX", "JOKER", "10", 12, None, ["QH"]])
def test_not_cards_are_refused(text):
    with pytest.raises(IllegalAction):
        parse_card(text)


@pytest.mark.parametrize(
    "card, value, rank, colour, number, name, label",
    [
        ("10S", 10, 4, "black", True, "10 of spades", "10♠"),
        ("2H", 2, 12, "red", True, "2 of hearts", "2♥"),
        ("AD", 1, 0, "red", False, "ace of diamonds", "A♦"),
        ("KC", 1, 1, "black", False, "king of clubs", "K♣"),
        ("QH", 1, 2, "red", False, "queen of hearts", "Q♥"),
        ("JS", 1, 3, "black", False, "jack of spades", "J♠"),
    ],
)
def test_card_facts(card, value, rank, colour, number, name, label):
    assert squabble_value(card) == value
    assert seize_rank(card) == rank
    assert colour_of(card) == colour
    assert is_number(card) is number
    assert card_name(card) == name and card_label(card) == label


def test_the_deck_has_52_distinct_cards():
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 52


@pytest.mark.parametrize(
    "cards, order",
    [({}, []), ({3: "5C", 1: "5H", 2: "5S", 0: "5D"}, [2, 1, 0, 3]), ({4: "QH", 1: "JH"}, [1, 4])],
)
def test_order_by_suit(cards, order):
    assert order_by_suit(cards) == order


@pytest.mark.parametrize(
    "draw, discard, take, after, reshuffles",
    [
        (10, 5, 0, 10, []),  # the empty case: nothing drawn
        (10, 5, 4, 6, []),
        (10, 5, 10, 5, [5]),  # emptied by the last card: reshuffled at once
        (3, 40, 10, 33, [40]),  # runs out mid-draw
    ],
)
def test_deck_take(draw, discard, take, after, reshuffles):
    pile = ALL_CARDS[:discard]
    deck, sizes = Deck(draw, pile).take(take)
    assert deck.draw == after and sizes == reshuffles
    assert deck.discard == (() if reshuffles else pile)
    assert deck.reshuffles == len(reshuffles)


def test_discards_are_kept_in_card_order_once_each():
    deck = Deck(30).discard_cards(["2C", "AS"]).discard_cards(["AS", "KH"])
    assert deck.discard == ("AS", "KH", "2C")
