"""Moves checked at the edge: every action a game offers or documents passes its schema;
wrong fields, kinds, ranges and sizes are refused in words a player understands."""

from __future__ import annotations

import json
import random

import pytest

from companion.games import find_game, game_names, list_games, resolve_config
from companion.session.move_schemas import SCHEMAS
from companion.session.moves import BadJSON, MalformedAction, check_action, parse_json


def test_every_registered_game_has_a_schema_table():
    assert set(SCHEMAS) == set(game_names())


@pytest.mark.parametrize("name", game_names())
def test_every_action_a_game_lists_as_legal_passes_its_schema(name):
    game = find_game(name)
    for seed in range(6):
        rng = random.Random(seed)
        players = ["Ana", "Ben", "Cy", "Dee"][: min(max(game.MIN_PLAYERS, 2 + seed % 3), game.MAX_PLAYERS)]
        state = game.initial_state(resolve_config(game.RULES), players, seed)
        for _ in range(150):
            legal = game.legal_actions(state)
            for action in legal:
                assert check_action(game, action) == action
            playable = [a for a in legal if "from" not in a]
            if not playable:
                break
            state, _ = game.apply(state, rng.choice(playable))


@pytest.mark.parametrize("game", list_games(), ids=lambda g: g.NAME)
def test_every_example_in_a_games_help_passes_its_schema(game):
    decoder = json.JSONDecoder()
    examples = []
    for i, ch in enumerate(game.ACTIONS_HELP):
        if ch == "{":
            try:
                value, _ = decoder.raw_decode(game.ACTIONS_HELP[i:])
            except ValueError:
                continue
            if isinstance(value, dict) and "type" in value:
                examples.append(value)
    assert examples
    for action in examples:
        check_action(game, action)


@pytest.mark.parametrize(
    "action, words",
    [
        ([1, 2], "JSON object"),
        ({"card": 3}, 'no "type"'),
        ({"type": "dance"}, "no 'dance' action (its actions: penalty, play)"),
        ({"type": "play", "player": "Ana", "junk": "x" * 10}, 'no field "junk" in a "play" action'),
        ({"type": "play", "player": "Ana", "total": "5"}, '"total" must be a whole number, not "5"'),
        ({"type": "play", "player": "Ana", "total": 2**70}, '"total" must be at most 99'),
        ({"type": "play", "player": "Ana", "on": "moon"}, '"on" must be "hole" or "number"'),
        ({"type": "play", "player": "A" * 500}, '"player" is too long'),
        ({"type": "play", "player": ""}, '"player" must not be empty'),
        ({"type": "play", "player": "Ana", "total": float("nan")}, "not plain JSON"),
        ({"type": "play", "player": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {}}}}}}}}}}, "nests too deeply"),
    ],
)
def test_malformed_actions_are_refused_in_words(action, words):
    with pytest.raises(MalformedAction) as caught:
        check_action(find_game("seven"), action)
    assert words in str(caught.value)


def test_nested_fields_are_checked_too():
    guilded = find_game("guilded")
    with pytest.raises(MalformedAction, match='"tile" field "row" must be at most 99'):
        check_action(guilded, {"type": "pillar", "player": "Ana", "tile": {"side": "Ana", "row": 100, "col": 1}})
    with pytest.raises(MalformedAction, match='"dice" item 2 must be at most 6'):
        check_action(find_game("yahtzee"), {"type": "roll", "player": "Ana", "dice": [1, 7]})


def test_an_oversized_action_is_refused():
    reading = {"dice": [{"value": 1, "box": [10.5, 20.5, 30.5, 40.5], "confidence": 0.9}] * 2000}
    with pytest.raises(MalformedAction, match="too large"):
        check_action(find_game("yahtzee"), {"type": "roll", "player": "Ana", "detections": reading})


@pytest.mark.parametrize(
    "text, words",
    [
        (b"\xff", "not UTF-8"),
        ("[" * 100_000, "nested far too deeply"),
        ("1" * 5000, "5000 digits"),
        ("-Infinity", "not a number JSON allows"),
        ("1e400", "too large"),
        ("{", "not valid JSON"),
    ],
)
def test_untrusted_json_is_refused_in_words(text, words):
    with pytest.raises(BadJSON, match=words):
        parse_json(text)
