"""A mercenary card's printed stats, read from an action, and putting it on the battlefield.

Stat fields (whole numbers, 0 when absent unless said): ``name`` (required),
``health`` (required, at least 1), ``bounty``, ``armour``, ``magic_armour``,
``defence`` (a shield), ``melee``, ``ranged`` with ``ranged_type`` (``physical`` for a
crossbow, ``magic`` for a staff), ``move``, ``stars`` (rarity 1-4), and ``tile``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.games.guilded import board
from companion.games.guilded.fields import int_field, text_field
from companion.games.guilded.state import GuildedState, Merc, Tile

RANGED_TYPES = {"physical": "physical", "crossbow": "physical", "magic": "magic", "staff": "magic"}
STAT_FIELDS = ("bounty", "armour", "magic_armour", "defence", "melee", "ranged", "move")


def read_stats(action: Mapping[str, Any], owner: int, merc_id: str, role: str = "") -> Merc:
    """A new, unplaced :class:`Merc` from the stat fields of ``action``.

    Raises:
        IllegalAction: a missing name or health, a negative stat, an unknown ranged type.
    """
    name = text_field(action, "name")
    health = int_field(action, "health", 1, 999)
    stats: dict[str, Any] = {key: int_field(action, key, 0, 999, default=0) for key in STAT_FIELDS}
    raw_type = action.get("ranged_type", "physical")
    if not isinstance(raw_type, str) or raw_type.strip().lower() not in RANGED_TYPES:
        raise IllegalAction(f'"ranged_type" is physical (crossbow) or magic (staff), not {shown(raw_type)}')
    stars = int_field(action, "stars", 0, 4, default=0)
    return Merc(
        id=merc_id,
        name=name,
        owner=owner,
        base_health=health,
        health=health,
        ranged_type=RANGED_TYPES[raw_type.strip().lower()],
        stars=stars,
        role=role,
        **stats,
    )


def new_id(state: GuildedState) -> tuple[str, GuildedState]:
    """The next mercenary id (``m1``, ``m2`` ...) and the state that has used it."""
    return f"m{state.next_id}", replace(state, next_id=state.next_id + 1)


def rally_tile(state: GuildedState, seat: int, action: Mapping[str, Any]) -> Tile | None:
    """The tile a new mercenary is played to, if the table gives one: rows 1-2 of its own side.

    Raises:
        IllegalAction: another side, the front row, or a pillar.
    """
    if action.get("tile") is None:
        return None
    tile = board.parse_tile(state, action["tile"])
    if tile[0] != seat or tile[1] not in board.RALLY_ROWS:
        raise IllegalAction("mercenaries are played in the back 8 tiles (rows 1-2) of your own side")
    if tile in state.pillars:
        raise IllegalAction(f"a pillar stands on {board.tile_words(state, tile)}")
    return tile


def place(state: GuildedState, merc: Merc, tile: Tile | None, events: list[Event]) -> GuildedState:
    """Put ``merc`` on the battlefield at ``tile``, upstaging an enemy standing there.

    Raises:
        IllegalAction: one of your own mercenaries is there, or the upstage is blocked.
    """
    if tile is not None:
        other = state.at(tile)
        if other is not None:
            if state.sides[other.owner] == state.sides[merc.owner]:
                raise IllegalAction(f"{state.label(other)} already stands on {board.tile_words(state, tile)}")
            behind = board.upstage_tile(state, merc.owner, tile)
            state = state.with_merc(replace(other, tile=behind))
            events.append(
                event(
                    "upstage",
                    f"{state.label(other)} is upstaged to {board.tile_words(state, behind)}.",
                    merc=other.id,
                    tile=board.tile_json(state, behind),
                )
            )
    merc = replace(merc, tile=tile)
    state = replace(state, mercs=(*state.mercs, merc))
    where = f" on {board.tile_words(state, tile)}" if tile else ""
    events.append(
        event(
            "mercenary",
            f"{state.label(merc)} enters play{where}: health {merc.health}, bounty {merc.bounty}.",
            merc=merc.id,
            name=merc.name,
            owner=state.players[merc.owner],
            tile=board.tile_json(state, tile),
        )
    )
    return state
