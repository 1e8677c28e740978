"""The Attack phase: attacks, plunder, blinded coin flips, and damage a mercenary deals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.games.guilded import board, effects, phases
from companion.games.guilded.damage import check_type
from companion.games.guilded.fields import coin_result, int_field, seat_of, text_field
from companion.games.guilded.state import GuildedState, Merc, find_merc
from companion.games.guilded.turn import need_phase, own_merc, turn_seat

ATTACK_WITH = ("melee", "ranged")


def blinded(state: GuildedState, merc: Merc) -> bool:
    """Blind, in fog, or standing on a fogged tile."""
    return bool(merc.status("blind") or merc.status("fog") or (merc.tile is not None and merc.tile in state.fog))


def why_cannot_attack(state: GuildedState, merc: Merc) -> str:
    """Why ``merc`` cannot attack or plunder now ("" when it can)."""
    if merc.exhausted:
        return f"{state.label(merc)} is exhausted"
    if merc.attacked:
        return f"{state.label(merc)} has already attacked or plundered this turn"
    if phases.frozen(state, merc):
        return f"{state.label(merc)} is frozen (3 Frost) and cannot attack this turn"
    return ""


#: Ranged attacks reach "Distance 1" (2 tiles away) to "Distance 3" (4 tiles away).
RANGED_REACH = (2, 4)


def why_out_of_reach(state: GuildedState, attacker: Merc, target: Merc, with_: str, card: str = "") -> str:
    """Why ``attacker`` cannot reach ``target`` from where they stand ("" when it can, or
    when the positions or the layout are not known, or the table judges range itself).

    Melee reaches an adjacent tile (diagonals too); a ranged attack 2 to 4 tiles away along
    a row, a column or a diagonal. Line of sight: a mercenary standing on the line between
    them blocks the attack (an attack ability card too, whatever its range).
    """
    if state.settings.attack_range != "checked":
        return ""
    away = board.tiles_away(state, attacker.tile, target.tile)
    if away is None or attacker.tile is None or target.tile is None:
        return ""
    who, whom = state.label(attacker), state.label(target)
    if not card:
        if with_ == "melee" and away != 1:
            return f"{whom} is {away} tiles away from {who}: a melee attack reaches an adjacent tile"
        low, high = RANGED_REACH
        if with_ == "ranged" and not low <= away <= high:
            return (
                f"{whom} is {away} tile{'s' * (away != 1)} away from {who}: a ranged attack reaches "
                f"{low} to {high} tiles away (Distance 1 to 3)"
            )
    between = board.tiles_between(state, attacker.tile, target.tile)
    if between is None:
        if card or with_ == "melee":
            return ""
        return f"{whom} is not in a straight or diagonal line from {who}: a ranged attack cannot reach it"
    blockers = [m for t in between if (m := state.at(t)) is not None]
    if blockers:
        return f"{state.label(blockers[0])} stands between {who} and {whom}, blocking the line of sight"
    return ""


def flip(
    state: GuildedState, merc: Merc, action: Mapping[str, Any], doing: str, events: list[Event]
) -> tuple[bool, GuildedState]:
    """The coin flip a blinded mercenary needs: the table's coin, or Purser's."""
    result = coin_result(action)
    source = "the table's coin"
    if result is None:
        if state.settings.coin_flips == "table":
            raise IllegalAction(f'{state.label(merc)} is blinded: flip a coin and add "coin": "won" or "lost"')
        value, state = state.roll(0, 1)
        result, source = value == 1, "Purser's coin"
    outcome = "won" if result else "lost"
    events.append(
        event(
            "coin",
            f"{state.label(merc)} is blinded: {source} is {outcome}, so the {doing} "
            f"{'goes ahead' if result else 'fails'}.",
            merc=merc.id,
            won=result,
            by=source,
        )
    )
    return result, state


def attack(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """One mercenary's attack on an enemy (it is exhausted after declaring it).

    ``with`` melee (physical, the melee stat) or ranged (the ranged stat and type), or an
    ``amount`` and ``damage_type`` (an attack ability ``card`` or effect). A blinded attacker
    needs a won coin flip.

    Raises:
        IllegalAction: wrong phase, an attacker that cannot attack, a target that is not an
            enemy or is stealthed, no such attack stat.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Attacking", "attack")
    attacker = own_merc(state, seat, action.get("merc"), "attacker")
    why = why_cannot_attack(state, attacker)
    if why:
        raise IllegalAction(why)
    target = find_merc(state, action.get("target"), "target")
    if state.sides[target.owner] == state.sides[seat]:
        raise IllegalAction(f"{state.label(target)} is on {state.players[seat]}'s side")
    if target.status("stealth"):
        raise IllegalAction(f"{state.label(target)} is stealthed and cannot be targeted")
    with_ = action.get("with", "melee")
    if with_ not in ATTACK_WITH:
        raise IllegalAction(f'"with" is melee or ranged, not {shown(with_)}')
    card = text_field(action, "card", "") if action.get("card") is not None else ""
    reach = why_out_of_reach(state, attacker, target, with_, card)
    if reach:
        raise IllegalAction(reach)
    if action.get("amount") is not None:
        amount = int_field(action, "amount", 0, 999)
        usual = "physical" if with_ == "melee" else attacker.ranged_type
        damage_type = check_type(text_field(action, "damage_type", usual))
    elif card:
        raise IllegalAction('an attack with an ability card needs its "amount" and "damage_type"')
    elif with_ == "melee":
        amount, damage_type = attacker.melee, "physical"
    else:
        amount, damage_type = attacker.ranged, attacker.ranged_type
    if amount <= 0 and action.get("amount") is None:
        raise IllegalAction(f"{state.label(attacker)} has no {with_} attack")
    if card:
        if state.seats[seat].hand < 1:
            raise IllegalAction(f"Purser counts no cards in {state.players[seat]}'s hand")
        state = state.with_seat(seat, hand=state.seats[seat].hand - 1)
    stealthy = bool(attacker.status("stealth"))
    attacker = replace(attacker, attacked=True, next_true=attacker.next_true or stealthy)
    attacker = attacker.with_status("exhaust", attacker.stored("exhaust") + 1)
    state = state.with_merc(attacker)
    how = f"with {card}" if card else with_
    events.append(
        event(
            "attack",
            f"{state.label(attacker)} attacks {state.label(target)} ({how}) and is exhausted.",
            merc=attacker.id,
            target=target.id,
            amount=amount,
            damage_type=damage_type,
            card=card or None,
        )
    )
    if stealthy:
        state = effects.set_status(state, attacker.id, "stealth", 0, events, why="attacked")
    if blinded(state, attacker):
        ok, state = flip(state, attacker, action, "attack", events)
        if not ok:
            return state
    return strike(
        state, attacker.id, target.id, amount, damage_type, events=events, cause=f"{state.label(attacker)}'s attack"
    )


def strike(
    state: GuildedState, source: str, target: str, amount: int, damage_type: str, *, events: list[Event], cause: str
) -> GuildedState:
    """Damage dealt by mercenary ``source``: stealth makes it true damage; Leech heals the source."""
    merc = state.merc(source)
    if merc.next_true and amount > 0 and damage_type != "lethal":
        damage_type = "true"
        state = state.with_merc(replace(merc, next_true=False))
        events.append(event("true_strike", f"{state.label(merc)} strikes from stealth: true damage.", merc=source))
    state, _ = effects.hurt(state, target, amount, damage_type, events, cause=cause, source=source)
    return state


def plunder(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """A mercenary in an enemy Guild Hall takes its bounty in loot from that player (once per turn).

    Raises:
        IllegalAction: wrong phase or format, already plundered, a mercenary that cannot act
            or is not in an enemy Guild Hall, no opponent named when it is ambiguous.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Plundering", "attack")
    if not state.settings.plunder:
        raise IllegalAction(f"{state.settings.format_title} has no plundering")
    if state.seats[seat].plundered:
        raise IllegalAction(f"{state.players[seat]} has already plundered this turn")
    merc = own_merc(state, seat, action.get("merc"))
    why = why_cannot_attack(state, merc)
    if why:
        raise IllegalAction(why)
    if merc.tile is not None:
        if not board.in_enemy_guild_hall(state, seat, merc.tile):
            raise IllegalAction(f"{state.label(merc)} must stand in an enemy Guild Hall (their row 1) to plunder")
        victim = merc.tile[0]
    elif action.get("opponent") is not None:
        victim = seat_of(state, action, "opponent")
        if victim not in state.opponents(seat):
            raise IllegalAction(f"{state.players[victim]} is not an opponent still in the game")
    else:
        rivals = state.opponents(seat)
        if len(rivals) != 1:
            raise IllegalAction('say whose Guild Hall is plundered: "opponent": "<name>"')
        victim = rivals[0]
    changed = replace(merc, attacked=True)
    if state.settings.plunder_exhausts:
        changed = changed.with_status("exhaust", merc.stored("exhaust") + 1)
    state = state.with_merc(changed).with_seat(seat, plundered=True)
    events.append(
        event(
            "plunder",
            f"{state.label(merc)} plunders {state.players[victim]}'s Guild Hall.",
            merc=merc.id,
            opponent=state.players[victim],
        )
    )
    if blinded(state, merc):
        ok, state = flip(state, merc, action, "plunder", events)
        if not ok:
            return state
    taken = min(merc.bounty, state.seats[victim].vault)
    if taken <= 0:
        events.append(event("plunder_empty", "There is nothing to take.", merc=merc.id))
        return state
    state = effects.change_loot(state, victim, -taken, f"plundered by {state.label(merc)}", events)
    if state.settings.plunder_loot == "to_plunderer":
        state = effects.change_loot(state, seat, taken, f"plunder by {merc.name}", events)
    return state
