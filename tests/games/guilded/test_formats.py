"""Each format's figures and seatings, and deck checks, table-driven."""

from __future__ import annotations

import pytest

from companion.games import ConfigError, IllegalAction, guilded, resolve_config
from companion.games.guilded.formats import FORMATS, DeckCard, deck_problems, parse_deck
from companion.games.guilded.settings import resolve_settings
from tests.games.guilded.support import Table

PAIR = ("Ana", "Ben")
FOUR = ("Ana", "Ben", "Cy", "Dee")


@pytest.mark.parametrize(
    "fmt, players, vault, deck_size, timer_s, best_of, first_stage",
    [
        ("standard", PAIR, 30, 40, 50 * 60, 1, "roll"),
        ("standard", FOUR, 30, 40, 50 * 60, 1, "roll"),
        ("standard", ("Ana", "Ben", "Cy"), 30, 40, 50 * 60, 1, "roll"),
        ("draft", PAIR, 20, 30, 40 * 60, 1, "building"),
        ("arena", PAIR, 30, 30, 40 * 60, 3, "roll"),
        ("arena", FOUR, 30, 30, 40 * 60, 3, "roll"),
        ("guild_master", ("Ana", "Ben", "Cy"), 40, 60, None, 1, "roll"),
    ],
)
def test_format_setup(fmt, players, vault, deck_size, timer_s, best_of, first_stage):
    t = Table(players, format=fmt)
    s = t.state
    assert s.settings.timer_s == timer_s and s.settings.best_of == best_of
    assert s.stage == first_stage
    for seat in s.seats:
        assert (seat.vault, seat.hand, seat.deck) == (vault, 7, deck_size - 7)
    summary = guilded.summary(s)
    assert summary.scores == {p: float(vault) for p in players}
    assert summary.detail["format"]["key"] == fmt


@pytest.mark.parametrize(
    "fmt, players",
    [
        ("draft", FOUR),
        ("draft", ("Ana", "Ben", "Cy")),
        ("arena", ("Ana", "Ben", "Cy")),
        ("standard", ("Solo",)),
        ("guild_master", ("Ana", "Ben", "Cy", "Dee", "Eli")),
    ],
)
def test_seatings_a_format_does_not_allow(fmt, players):
    with pytest.raises(ConfigError):
        guilded.initial_state(resolve_config(guilded.RULES, {"format": fmt}), players, 1)


@pytest.mark.parametrize(
    "rules, field, value",
    [
        ({"casual": True}, "timer_s", None),
        ({"timer_minutes": 30}, "timer_s", 1800),
        ({"vault": 25}, "vault", 25),
        ({"deck_size": 45}, "deck_size", 45),
        ({"format": "arena", "best_of": 5}, "best_of", 5),
        ({"format": "draft", "building_minutes": 20}, "building_s", 1200),
        ({"format": "draft", "casual": True}, "building_s", None),
        ({"format": "arena"}, "shared_turns", True),
        ({"format": "arena", "team_turns": "separate"}, "shared_turns", False),
        ({"team_turns": "shared"}, "shared_turns", True),
        ({}, "shared_turns", False),
    ],
)
def test_house_rules_override_format_figures(rules, field, value):
    settings = resolve_settings(resolve_config(guilded.RULES, rules), 2)
    assert getattr(settings, field) == value


def test_best_of_must_be_odd():
    with pytest.raises(ConfigError, match="odd"):
        resolve_settings(resolve_config(guilded.RULES, {"best_of": 2}), 2)


@pytest.mark.parametrize(
    "fmt, team_turns, order",
    [
        # 2v2 teams sit alternately: Ana and Cy against Ben and Dee
        ("standard", "format", [("Ana",), ("Ben",), ("Cy",), ("Dee",), ("Ana",)]),
        ("arena", "format", [("Ana", "Cy"), ("Ben", "Dee"), ("Ana", "Cy")]),
        ("standard", "shared", [("Ana", "Cy"), ("Ben", "Dee"), ("Ana", "Cy")]),
    ],
)
def test_two_versus_two_turn_order(fmt, team_turns, order):
    t = Table(FOUR, format=fmt, team_turns=team_turns).start("Ana")
    seen = []
    for _ in order:
        seen.append(tuple(t.state.players[s] for s in t.state.active))
        t.next_turn()
    assert seen == order
    assert t.state.sides == (0, 1, 0, 1)


# -- deck checks ---------------------------------------------------------------------------------


def cards(n: int, **extra) -> list[dict]:
    """A deck of ``n`` one-star cards, plus ``extra`` name -> (stars, count)."""
    deck = [{"name": "Deckhand", "stars": 1, "count": n - sum(c for _, c in extra.values())}]
    deck += [{"name": name, "stars": s, "count": c} for name, (s, c) in extra.items()]
    return deck


@pytest.mark.parametrize(
    "fmt, deck, extra, problems",
    [
        ("standard", cards(40), None, []),
        ("standard", cards(40, Kraken=(4, 1), Sloop=(3, 3)), None, []),
        ("standard", cards(39), None, ["has 39 cards"]),
        ("standard", cards(41), None, ["has 41 cards"]),
        ("standard", cards(40, Kraken=(4, 2)), None, ["'Kraken' is a 4-star card and appears 2 times"]),
        ("standard", cards(40, Kraken=(4, 1), kraken=(4, 1)), None, ["appears 2 times"]),
        ("draft", cards(30), None, []),
        ("draft", cards(40), None, ["has 40 cards; Draft needs exactly 30"]),
        ("arena", cards(30), {"name": "Champ", "stars": 3, "class": "Rogue"}, []),
        ("arena", cards(30), None, ["needs a Champion"]),
        ("arena", cards(30, Kraken=(4, 1)), {"name": "Kraken", "stars": 4}, ["appears 2 times"]),
        ("guild_master", cards(60), {"name": "Boss", "stars": 3}, []),
        ("guild_master", cards(60), {"name": "Boss", "stars": 2}, ["Rare or Legendary"]),
        ("guild_master", cards(60), None, ["needs its Guild Master"]),
        ("guild_master", cards(61), {"name": "Boss", "stars": 4}, ["has 61 cards"]),
    ],
)
def test_deck_problems(fmt, deck, extra, problems):
    f = FORMATS[fmt]
    extra_card = DeckCard(extra["name"], extra["stars"], 1, "", extra.get("class", "")) if extra else None
    found = deck_problems(f, f.deck_size, True, parse_deck(deck), extra_card)
    assert len(found) == len(problems)
    for text, want in zip(found, problems, strict=False):
        assert want in text


def test_arena_decks_are_single_class():
    deck = parse_deck(
        [
            {"name": "A", "stars": 1, "count": 15, "class": "Rogue"},
            {"name": "B", "stars": 1, "count": 15, "class": "Mage"},
        ]
    )
    found = deck_problems(FORMATS["arena"], 30, True, deck, DeckCard("C", 3, 1, "", "Rogue"))
    assert found == ["Arena decks are single-class, and this one mixes Mage, Rogue"]


def test_at_least_deck_size_house_rule():
    f = FORMATS["standard"]
    assert deck_problems(f, 40, False, parse_deck(cards(45))) == []
    assert "at least 40" in deck_problems(f, 40, False, parse_deck(cards(35)))[0]


@pytest.mark.parametrize(
    "raw, message",
    [
        ("forty cards", "must be a list"),
        ([{"stars": 1}], 'needs a "name"'),
        ([{"name": "A"}], 'needs "stars"'),
        ([{"name": "A", "stars": 5}], "1 to 4 stars"),
        ([{"name": "A", "stars": 1, "count": 0}], "at least 1"),
        ([{"name": "A", "stars": 1, "kind": "spell"}], "kind"),
        (["A"], "must be an object"),
    ],
)
def test_malformed_deck_lists(raw, message):
    with pytest.raises(IllegalAction, match=message):
        parse_deck(raw)


def test_deck_action_counts_the_registered_deck():
    t = Table(deck_size_exact=False)
    t.do("deck", player="Ana", cards=cards(44))
    assert t.seat("Ana").deck == 44 - 7 and t.seat("Ana").deck_list
    t.refused("deck", "has 39 cards", player="Ben", cards=cards(39))


def test_required_deck_check_blocks_keeping():
    t = Table(deck_check="required")
    t.do("roll", player="Ana", value=4)
    t.do("roll", player="Ben", value=2)
    t.do("go_first", player="Ana", first="Ben")
    t.refused("keep", "deck list", player="Ana")
    t.do("deck", player="Ana", cards=cards(40))
    t.do("keep", player="Ana")
    t.do("deck", player="Ben", cards=cards(40))
    t.do("keep", player="Ben")
    assert t.state.stage == "play" and t.turn_player() == "Ben"
    t.refused("deck", "before the game starts", player="Ana", cards=cards(40))
