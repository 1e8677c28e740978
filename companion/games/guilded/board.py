"""The battlefield grid: tiles in actions and on screens, rows that matter, distances.

Each player's side is 3 rows by 4 columns. A tile is written
``{"side": "Ana", "row": 1, "col": 2}``: row 1 is that side's Guild Hall (the row nearest
its player), row 3 its front row; columns run 1-4 from that player's left. Mercenaries
are played in the back 8 tiles (rows 1-2) of their own side.

With two sides facing each other (1v1) Purser knows the whole layout and can count the
spaces of a move; on a 4-player mat the layout is the mat's, so moves across sides say
how many spaces they used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalAction, get_player
from companion.games.guilded.state import COLS, ROWS, GuildedState, Tile

GUILD_HALL_ROW = 1
RALLY_ROWS = (1, 2)


def parse_tile(state: GuildedState, raw: Any, field: str = "tile") -> Tile:
    """Read a tile ``{"side": player, "row": 1-3, "col": 1-4}``.

    Raises:
        IllegalAction: not such an object, an unknown side, a row or column off the grid.
    """
    if not isinstance(raw, Mapping):
        raise IllegalAction(f'"{field}" must be a tile like {{"side": "{state.players[0]}", "row": 1, "col": 2}}')
    if "side" not in raw:
        raise IllegalAction(f'"{field}" needs "side": the player whose side of the battlefield it is on')
    side = state.players.index(get_player(raw, state.players, "side"))
    row, col = raw.get("row"), raw.get("col")
    for name, value, top in (("row", row, ROWS), ("col", col, COLS)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalAction(f'"{field}" needs a whole-number "{name}" (1 to {top})')
        if not 1 <= value <= top:
            lines = "rows" if name == "row" else "columns"
            raise IllegalAction(f"a side has {top} {lines}; there is no {name} {value}")
    return (side, int(row), int(col))  # type: ignore[arg-type]


def tile_json(state: GuildedState, tile: Tile | None) -> dict[str, Any] | None:
    """A tile as it appears in actions and summaries."""
    if tile is None:
        return None
    return {"side": state.players[tile[0]], "row": tile[1], "col": tile[2]}


def tile_words(state: GuildedState, tile: Tile) -> str:
    """``Ben's row 1, column 3``."""
    return f"{state.players[tile[0]]}'s row {tile[1]}, column {tile[2]}"


def in_enemy_guild_hall(state: GuildedState, seat: int, tile: Tile | None) -> bool:
    """Whether ``tile`` is in the Guild Hall of a side opposing ``seat``."""
    return tile is not None and tile[1] == GUILD_HALL_ROW and state.sides[tile[0]] != state.sides[seat]


def in_own_guild_hall(seat: int, tile: Tile | None) -> bool:
    return tile is not None and tile[0] == seat and tile[1] == GUILD_HALL_ROW


def blocked(state: GuildedState, tile: Tile) -> str:
    """Why nothing may stand on ``tile`` now ("" when it is free)."""
    if tile in state.pillars:
        return "a pillar stands there"
    other = state.at(tile)
    if other is not None:
        return f"{state.label(other)} is there"
    return ""


def _global(tile: Tile) -> tuple[int, int]:
    """Coordinates on a two-sided battlefield: y 1-6 from the first side's back row."""
    side, row, col = tile
    if side == 0:
        return row, col
    return 2 * ROWS + 1 - row, COLS + 1 - col


def distance(state: GuildedState, a: Tile, b: Tile) -> int | None:
    """Orthogonal spaces from ``a`` to ``b`` when the layout is known (1v1), else None."""
    if len(state.players) == 2:
        (y1, x1), (y2, x2) = _global(a), _global(b)
        return abs(y1 - y2) + abs(x1 - x2)
    if a[0] == b[0]:
        return abs(a[1] - b[1]) + abs(a[2] - b[2])
    return None


def adjacent(state: GuildedState, a: Tile | None, b: Tile | None) -> bool | None:
    """Whether two tiles are next to each other (diagonals included); None when unknown."""
    if a is None or b is None:
        return None
    if len(state.players) == 2 or a[0] == b[0]:
        if len(state.players) == 2:
            (y1, x1), (y2, x2) = _global(a), _global(b)
        else:
            (y1, x1), (y2, x2) = (a[1], a[2]), (b[1], b[2])
        return max(abs(y1 - y2), abs(x1 - x2)) == 1
    return None


def tiles_away(state: GuildedState, a: Tile | None, b: Tile | None) -> int | None:
    """How many tiles away ``b`` is from ``a`` (diagonal steps count one, as for adjacency);
    None when a tile or the layout is unknown (a 2v2 mat across sides)."""
    if a is None or b is None:
        return None
    if len(state.players) == 2:
        (y1, x1), (y2, x2) = _global(a), _global(b)
    elif a[0] == b[0]:
        (y1, x1), (y2, x2) = (a[1], a[2]), (b[1], b[2])
    else:
        return None
    return max(abs(y1 - y2), abs(x1 - x2))


def tiles_between(state: GuildedState, a: Tile, b: Tile) -> list[Tile] | None:
    """The tiles strictly between ``a`` and ``b`` when they share a row, a column or a
    diagonal (of the whole 1v1 battlefield, or of one side); None when they do not, or the
    layout is unknown."""
    if len(state.players) == 2:
        (y1, x1), (y2, x2) = _global(a), _global(b)
        tiles = {_global((s, r, c)): (s, r, c) for s in (0, 1) for r in range(1, ROWS + 1) for c in range(1, COLS + 1)}
    elif a[0] == b[0]:
        (y1, x1), (y2, x2) = (a[1], a[2]), (b[1], b[2])
        tiles = {(r, c): (a[0], r, c) for r in range(1, ROWS + 1) for c in range(1, COLS + 1)}
    else:
        return None
    dy, dx = y2 - y1, x2 - x1
    if not (dy == 0 or dx == 0 or abs(dy) == abs(dx)):
        return None
    steps = max(abs(dy), abs(dx))
    sy, sx = (dy > 0) - (dy < 0), (dx > 0) - (dx < 0)
    return [tiles[(y1 + k * sy, x1 + k * sx)] for k in range(1, steps)]


def upstage_tile(state: GuildedState, seat: int, tile: Tile) -> Tile:
    """Where an enemy on ``tile`` is pushed when ``seat`` plays onto it: one space away from ``seat``'s fort.

    Raises:
        IllegalAction: the space behind is off the side or taken.
    """
    side, row, col = tile
    if side != seat or row >= ROWS:
        raise IllegalAction("an enemy can only be upstaged from your rally rows (rows 1-2 of your side)")
    behind = (side, row + 1, col)
    why = blocked(state, behind)
    if why:
        raise IllegalAction(f"cannot upstage: the space behind ({tile_words(state, behind)}) is taken: {why}")
    return behind
