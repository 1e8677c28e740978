"""The battlefield grid: tiles, distances across the two sides, adjacency, upstaging."""

from __future__ import annotations

import pytest

from companion.games import IllegalAction
from companion.games.guilded import board
from tests.games.guilded.support import Table, tile


@pytest.mark.parametrize(
    "a, b, spaces",
    [
        ((0, 1, 1), (0, 1, 1), 0),
        ((0, 1, 1), (0, 3, 4), 5),
        ((0, 3, 1), (1, 3, 4), 1),  # front rows meet; Ben's column 4 faces Ana's column 1
        ((0, 3, 2), (1, 3, 2), 2),  # Ben's column 2 faces Ana's column 3
        ((0, 1, 1), (1, 1, 4), 5),  # Guild Hall to Guild Hall, straight across
        ((1, 2, 2), (0, 2, 3), 3),
    ],
)
def test_distance_on_a_two_sided_battlefield(a, b, spaces):
    t = Table()
    assert board.distance(t.state, a, b) == spaces == board.distance(t.state, b, a)


def test_distance_across_a_four_player_mat_is_unknown():
    t = Table(("Ana", "Ben", "Cy", "Dee"))
    assert board.distance(t.state, (0, 1, 1), (2, 1, 1)) is None
    assert board.distance(t.state, (2, 1, 1), (2, 2, 2)) == 2
    assert board.adjacent(t.state, (0, 1, 1), (1, 1, 1)) is None


@pytest.mark.parametrize(
    "a, b, near",
    [
        ((0, 1, 1), (0, 2, 2), True),
        ((0, 1, 1), (0, 1, 3), False),
        ((0, 3, 1), (1, 3, 3), True),
        ((0, 3, 1), (1, 3, 2), False),
        ((0, 2, 2), (0, 2, 2), False),
    ],
)
def test_adjacency_includes_diagonals(a, b, near):
    assert board.adjacent(Table().state, a, b) is near


def test_unknown_positions_are_not_judged():
    assert board.adjacent(Table().state, None, (0, 1, 1)) is None


@pytest.mark.parametrize(
    "raw, message",
    [
        (None, "must be a tile"),
        ({"row": 1, "col": 1}, '"side"'),
        ({"side": "Ana", "row": 0, "col": 1}, "no row 0"),
        ({"side": "Ana", "row": 1, "col": "2"}, '"col"'),
        ({"side": "Ana", "row": True, "col": 2}, '"row"'),
    ],
)
def test_bad_tiles(raw, message):
    with pytest.raises(IllegalAction, match=message):
        board.parse_tile(Table().state, raw)


def test_tiles_round_trip():
    t = Table()
    assert board.tile_json(t.state, board.parse_tile(t.state, tile("ben", 2, 3))) == tile("Ben", 2, 3)


def test_upstage_target():
    t = Table()
    assert board.upstage_tile(t.state, 0, (0, 1, 2)) == (0, 2, 2)
    with pytest.raises(IllegalAction, match="rally rows"):
        board.upstage_tile(t.state, 0, (0, 3, 2))
