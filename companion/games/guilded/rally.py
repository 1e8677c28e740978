"""Rally phase plays: mercenaries (with upstaging), the turn's treasure, equipment, exits."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.games.guilded import board, mercs
from companion.games.guilded.fields import bool_field, int_field, text_field
from companion.games.guilded.state import GuildedState, Merc, Treasure
from companion.games.guilded.turn import need_phase, own_merc, turn_seat


def _treasure(raw: Any) -> Treasure:
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, Mapping):
        raise IllegalAction('a treasure is its name, or {"name": ..., "armour": N, "magic_armour": N}')
    return Treasure(
        text_field(raw, "name"),
        int_field(raw, "armour", 0, 99, default=0),
        int_field(raw, "magic_armour", 0, 99, default=0),
    )


def play_merc(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Play a mercenary from hand (or the Guild Master from the Guild Quarters) in the Rally phase.

    Raises:
        IllegalAction: wrong phase, too many in play, an empty hand, a bad tile or stat.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Playing a mercenary", "rally")
    player = state.seats[seat]
    guild_master = bool_field(action, "guild_master")
    if guild_master:
        if state.settings.extra_card != "guild_master":
            raise IllegalAction(f"{state.settings.format_title} has no Guild Master")
        if player.guild_master_played:
            raise IllegalAction(f"{state.players[seat]}'s Guild Master has already entered play")
        if action.get("stars") is not None and int_field(action, "stars", 0, 4) < 3:
            raise IllegalAction("a Guild Master is a Rare or Legendary (3 or 4 star) mercenary")
    in_play = len(state.mercs_of(seat))
    if in_play >= state.settings.max_mercenaries:
        raise IllegalAction(
            f"{state.players[seat]} already has {in_play} mercenaries in play "
            f"(at most {state.settings.max_mercenaries})"
        )
    treasure = _treasure(action["treasure"]) if action.get("treasure") is not None else None
    from_hand = (0 if guild_master else 1) + (1 if treasure else 0)
    if player.hand < from_hand:
        raise IllegalAction(
            f"Purser counts {player.hand} card{'s' * (player.hand != 1)} in {state.players[seat]}'s "
            'hand; if that is wrong, correct it with {"type": "counts", ...}'
        )
    merc_id, state = mercs.new_id(state)
    merc = mercs.read_stats(action, seat, merc_id, role="guild_master" if guild_master else "")
    if treasure:
        merc = replace(merc, treasures=(treasure,))
    state = mercs.place(state, merc, mercs.rally_tile(state, seat, action), events)
    state = state.with_seat(
        seat, hand=player.hand - from_hand, guild_master_played=player.guild_master_played or guild_master
    )
    if treasure:
        events.append(
            event(
                "equip",
                f"{state.label(merc)} enters equipped with {treasure.name}.",
                merc=merc_id,
                treasure=treasure.name,
            )
        )
    return state


def play_treasure(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Play the turn's one treasure (or a mercenary face down) to the warchest.

    Raises:
        IllegalAction: wrong phase, already played one this turn, an empty hand.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Playing a treasure", "rally")
    player = state.seats[seat]
    if player.treasure_played:
        raise IllegalAction(f"{state.players[seat]} has already played a treasure to the warchest this turn")
    if player.hand < 1:
        raise IllegalAction(f"Purser counts no cards in {state.players[seat]}'s hand")
    face_down = bool_field(action, "face_down")
    name = "a mercenary face down" if face_down else text_field(action, "name", "a treasure")
    state = state.with_seat(seat, hand=player.hand - 1, warchest=player.warchest + 1, treasure_played=True)
    events.append(
        event(
            "treasure",
            f"{state.players[seat]} plays {name} to the warchest ({player.warchest + 1}).",
            player=state.players[seat],
            name=name,
            warchest=player.warchest + 1,
        )
    )
    return state


def _guild_hall_check(state: GuildedState, merc: Merc, what: str) -> None:
    if merc.tile is not None and not board.in_own_guild_hall(merc.owner, merc.tile):
        raise IllegalAction(f"{what}: {state.label(merc)} must be in its own Guild Hall (row 1 of its side)")


def equip(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Move a treasure from the warchest onto a mercenary in its Guild Hall (one per mercenary per turn).

    Raises:
        IllegalAction: wrong phase, after unequipping, already equipped this turn, an empty warchest.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Equipping", "rally")
    merc = own_merc(state, seat, action.get("merc"))
    _guild_hall_check(state, merc, "to equip")
    if state.seats[seat].unequipped:
        raise IllegalAction("equipping comes before unequipping; this turn's unequipping has begun")
    if merc.equipped:
        raise IllegalAction(f"{state.label(merc)} has already equipped a treasure this turn")
    if state.seats[seat].warchest < 1:
        raise IllegalAction(f"{state.players[seat]}'s warchest is empty")
    treasure = _treasure(action.get("treasure"))
    state = state.with_merc(replace(merc, treasures=(*merc.treasures, treasure), equipped=True))
    state = state.with_seat(seat, warchest=state.seats[seat].warchest - 1)
    events.append(
        event(
            "equip",
            f"{state.label(merc)} equips {treasure.name}.",
            merc=merc.id,
            treasure=treasure.name,
            armour=treasure.armour,
            magic_armour=treasure.magic_armour,
        )
    )
    return state


def unequip(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Move an equipped treasure back to the warchest.

    Raises:
        IllegalAction: wrong phase, or the mercenary has no such treasure.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Unequipping", "rally")
    merc = own_merc(state, seat, action.get("merc"))
    name = text_field(action, "treasure")
    i = next((i for i, t in enumerate(merc.treasures) if t.name.casefold() == name.casefold()), None)
    if i is None:
        held = ", ".join(t.name for t in merc.treasures) or "nothing"
        raise IllegalAction(f"{state.label(merc)} has no treasure {shown(name)} equipped (it has {held})")
    state = state.with_merc(replace(merc, treasures=merc.treasures[:i] + merc.treasures[i + 1 :]))
    state = state.with_seat(seat, warchest=state.seats[seat].warchest + 1, unequipped=True)
    events.append(
        event(
            "unequip",
            f"{state.label(merc)} unequips {merc.treasures[i].name} to the warchest.",
            merc=merc.id,
            treasure=merc.treasures[i].name,
        )
    )
    return state


def exit_play(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """A mercenary in its Guild Hall leaves play (discarded with its treasures; no bounty).

    Raises:
        IllegalAction: wrong phase, a format without exiting, a Guild Master, not in the Guild Hall.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Exiting", "rally")
    if not state.settings.exit:
        raise IllegalAction(f"{state.settings.format_title} has no exiting")
    merc = own_merc(state, seat, action.get("merc"))
    if merc.role == "guild_master":
        raise IllegalAction("once a Guild Master is in play it may not exit")
    _guild_hall_check(state, merc, "to exit")
    state = state.without_merc(merc.id)
    treasures = f" with {', '.join(t.name for t in merc.treasures)}" if merc.treasures else ""
    events.append(event("exit", f"{state.label(merc)} exits play{treasures} (discarded).", merc=merc.id))
    return state
