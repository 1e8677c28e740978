"""Movement phases: moving mercenaries within their movement, and revealing stealth."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event
from companion.games.guilded import board, effects, phases
from companion.games.guilded.fields import int_field
from companion.games.guilded.state import GuildedState, Merc, find_merc
from companion.games.guilded.turn import need_phase, own_merc, turn_seat


def why_cannot_move(state: GuildedState, merc: Merc) -> str:
    """Why ``merc`` cannot move now ("" when it can)."""
    if merc.exhausted:
        return f"{state.label(merc)} is exhausted"
    if phases.frozen(state, merc):
        return f"{state.label(merc)} is frozen (3 Frost) and cannot move this turn"
    if phases.movement_left(state, merc) <= 0:
        return f"{state.label(merc)} has no movement left this turn"
    return ""


def move(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Move a mercenary ``spaces`` (and/or ``to`` a tile) within its movement left.

    Raises:
        IllegalAction: wrong phase, exhausted or frozen, too far, a blocked or forbidden tile.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Movement", *phases.MOVEMENT_PHASES)
    merc = own_merc(state, seat, action.get("merc"))
    why = why_cannot_move(state, merc)
    if why:
        raise IllegalAction(why)
    to = board.parse_tile(state, action["to"], "to") if action.get("to") is not None else None
    spaces = int_field(action, "spaces", 1, 99) if action.get("spaces") is not None else None
    if to is not None:
        blocked = board.blocked(state, to)
        if blocked and to != merc.tile:
            raise IllegalAction(f"{state.label(merc)} cannot move to {board.tile_words(state, to)}: {blocked}")
        if not state.settings.enter_guild_hall and board.in_enemy_guild_hall(state, seat, to):
            raise IllegalAction(
                f"{state.settings.format_title} has no entering: mercenaries stay out of enemy Guild Halls"
            )
        known = board.distance(state, merc.tile, to) if merc.tile is not None else None
        if known is not None:
            if known == 0:
                raise IllegalAction(f"{state.label(merc)} is already there")
            if spaces is not None and spaces < known:
                raise IllegalAction(f"that tile is {known} spaces away, not {spaces}")
            spaces = spaces or known
    if spaces is None:
        raise IllegalAction(
            'say how many "spaces" the mercenary moves (or the tile it moves "to", when Purser knows where it stands)'
        )
    left = phases.movement_left(state, merc)
    if spaces > left:
        raise IllegalAction(f"{state.label(merc)} has {left} movement left this turn, not {spaces}")
    state = state.with_merc(replace(merc, moved=merc.moved + spaces, tile=to if to is not None else merc.tile))
    where = f" to {board.tile_words(state, to)}" if to is not None else ""
    events.append(
        event(
            "move",
            f"{state.label(merc)} moves {spaces} space{'s' * (spaces != 1)}{where}; {left - spaces} left.",
            merc=merc.id,
            spaces=spaces,
            tile=board.tile_json(state, to),
            left=left - spaces,
        )
    )
    return state


def reveal(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Spend 1 movement of ``merc`` to remove the stealth of an adjacent enemy ``target``.

    Raises:
        IllegalAction: wrong phase, no movement, the target is not a stealthed, adjacent enemy.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Revealing", *phases.MOVEMENT_PHASES)
    merc = own_merc(state, seat, action.get("merc"))
    why = why_cannot_move(state, merc)
    if why:
        raise IllegalAction(why)
    target = find_merc(state, action.get("target"), "target")
    if state.sides[target.owner] == state.sides[seat]:
        raise IllegalAction("only an opposing mercenary's stealth can be revealed")
    if not target.status("stealth"):
        raise IllegalAction(f"{state.label(target)} is not stealthed")
    if board.adjacent(state, merc.tile, target.tile) is False:
        raise IllegalAction(f"{state.label(target)} is not adjacent to {state.label(merc)}")
    state = state.with_merc(replace(merc, moved=merc.moved + 1))
    events.append(
        event(
            "reveal",
            f"{state.label(merc)} spends 1 movement to reveal {state.label(target)}.",
            merc=merc.id,
            target=target.id,
        )
    )
    return effects.set_status(state, target.id, "stealth", 0, events, why="revealed")
