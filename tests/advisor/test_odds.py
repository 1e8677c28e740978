"""Bid odds: exact binomial sums checked against brute-force enumeration of every roll."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.advisor.odds import (
    OddsError,
    bid_odds,
    binomial_at_least,
    binomial_pmf,
    counting,
    die_probability,
    parse_bid,
    parse_dice,
)


def brute_force(dice, quantity, face, own=(), wild=False):
    """P(at least) and P(exactly) by rolling every unseen die every way (6^n outcomes)."""
    unseen = dice - len(own)
    at_least = exact = 0
    for roll in itertools.product(range(1, 7), repeat=unseen):
        n = counting(own, face, wild) + counting(roll, face, wild)
        at_least += n >= quantity
        exact += n == quantity
    total = 6**unseen
    return Fraction(at_least, total), Fraction(exact, total)


CASES = [
    # (dice on the table, quantity, face, own dice)
    (0, 1, 4, ()),  # no dice at all: nothing can be true
    (1, 1, 6, ()),
    (2, 1, 1, ()),
    (3, 2, 5, ()),
    (4, 1, 2, (2,)),  # own die already makes it
    (4, 3, 2, (2, 1)),
    (5, 2, 1, (1, 3)),  # a bid on 1s
    (5, 4, 6, (6, 6, 6, 6, 6)),  # all dice own: certain, never exact
    (6, 3, 4, ()),
    (6, 6, 3, ()),  # every die
    (6, 7, 3, ()),  # more than the dice on the table
    (6, 2, 4, (4, 4, 2)),
    (6, 4, 5, (1, 1, 5)),
    (6, 1, 6, (2, 3, 4, 5)),
]


@pytest.mark.parametrize("wild", [False, True])
@pytest.mark.parametrize("dice, quantity, face, own", CASES)
def test_odds_equal_brute_force_enumeration(dice, quantity, face, own, wild):
    odds = bid_odds(dice, quantity, face, own, wild)
    assert (odds.at_least, odds.exact) == brute_force(dice, quantity, face, own, wild)


@given(dice=st.integers(0, 5), quantity=st.integers(1, 7), face=st.integers(1, 6), wild=st.booleans(), data=st.data())
@settings(max_examples=80, deadline=None)
def test_odds_equal_brute_force_for_any_small_table(dice, quantity, face, wild, data):
    own = tuple(data.draw(st.lists(st.integers(1, 6), max_size=dice), label="own"))
    odds = bid_odds(dice, quantity, face, own, wild)
    assert (odds.at_least, odds.exact) == brute_force(dice, quantity, face, own, wild)


def test_the_documented_example():
    odds = bid_odds(20, 5, 4, (4, 4, 2, 6, 1))
    assert (odds.unseen, odds.own_count, odds.need) == (15, 2, 3)
    expected = 1 - sum(binomial_pmf(15, k, Fraction(1, 6)) for k in range(3))
    assert odds.at_least == expected and round(float(expected), 4) == 0.4678
    wild = bid_odds(20, 5, 4, (4, 4, 2, 6, 1), wild_ones=True)
    assert (wild.own_count, wild.need, wild.p_die) == (3, 2, Fraction(1, 3))


@pytest.mark.parametrize("n", [0, 1, 7, 40])
@pytest.mark.parametrize("p", [Fraction(1, 6), Fraction(1, 3)])
def test_binomial_sums_are_exact_distributions(n, p):
    assert sum(binomial_pmf(n, k, p) for k in range(n + 1)) == 1
    for k in range(-1, n + 2):
        assert binomial_at_least(n, k, p) == sum((binomial_pmf(n, i, p) for i in range(max(k, 0), n + 1)), Fraction(0))


@pytest.mark.parametrize(
    "face, wild, p", [(4, False, Fraction(1, 6)), (4, True, Fraction(1, 3)), (1, True, Fraction(1, 6))]
)
def test_die_probability(face, wild, p):
    assert die_probability(face, wild) == p


@pytest.mark.parametrize(
    "args, message",
    [
        ((5, 2, 7, ()), "faces 1 to 6"),
        ((5, 0, 3, ()), "at least one die"),
        ((5, 2, 3, (1, 2, 3, 4, 5, 6)), "only 5 are on the table"),
        ((5, 2, 3, (0,)), "0 is not one"),
        ((-1, 2, 3, ()), "negative"),
    ],
)
def test_questions_without_an_answer_are_refused(args, message):
    with pytest.raises(OddsError, match=message):
        bid_odds(*args)


@pytest.mark.parametrize(
    "text, bid", [("5x4", (5, 4)), (" 12X6 ", (12, 6)), ("3*2", (3, 2)), ("1x1", (1, 1)), ("4x5s", (4, 5))]
)
def test_parse_bid(text, bid):
    assert parse_bid(text) == bid


@pytest.mark.parametrize("text", ["", "5", "x4", "5x", "fivex4", "5x7", "0x3", "5x0"])
def test_parse_bid_refuses_nonsense(text):
    with pytest.raises(OddsError):
        parse_bid(text)


@pytest.mark.parametrize("text, dice", [("", ()), ("4,4,2,6,1", (4, 4, 2, 6, 1)), ("3 5", (3, 5)), ("6,", (6,))])
def test_parse_dice(text, dice):
    assert parse_dice(text) == dice


@pytest.mark.parametrize("text", ["4,7", "a,b", "0"])
def test_parse_dice_refuses_nonsense(text):
    with pytest.raises(OddsError):
        parse_dice(text)


def test_json_is_plain_data():
    data = bid_odds(3, 1, 6).to_json()
    assert data["at_least_fraction"] == "91/216" and data["exact_fraction"] == "25/72"
    assert data["bid"] == {"quantity": 1, "face": 6} and isinstance(data["at_least"], float)
