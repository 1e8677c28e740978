"""Effects the table enters as cards resolve, and corrections to Purser's counts.

Card effects (damage, healing, statuses, fog, loot, draws, discards, destruction) come
from cards Purser cannot read, so the table enters them as they resolve. Any player
still in the game may enter them during play; ``player`` is optional and only says who.
Corrections (``counts``, ``set_merc``) fix a count that drifted from the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event
from companion.games.guilded import board, effects, outcome, statuses
from companion.games.guilded.combat import strike
from companion.games.guilded.damage import check_type
from companion.games.guilded.fields import bool_field, int_field, optional_seat, seat_of, text_field
from companion.games.guilded.mercs import STAT_FIELDS
from companion.games.guilded.state import GuildedState, Merc, find_merc


def _in_play(state: GuildedState, action: Mapping[str, Any]) -> int | None:
    if state.stage != "play":
        raise IllegalAction("the game has not started yet" if state.stage != "over" else "the match is over")
    seat = optional_seat(state, action)
    if seat is not None and state.seats[seat].out:
        raise IllegalAction(f"{state.players[seat]} is out of the game")
    return seat


def _target(state: GuildedState, action: Mapping[str, Any]) -> Merc:
    return find_merc(state, action.get("target"), "target")


def damage(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Damage from a card or effect: ``target``, ``amount``, ``damage_type``, optional ``source`` merc.

    Raises:
        IllegalAction: a bad amount or type, or a stealthed target (unless ``untargeted``).
    """
    _in_play(state, action)
    target = _target(state, action)
    amount = int_field(action, "amount", 0, 999)
    damage_type = check_type(text_field(action, "damage_type"))
    if target.status("stealth") and not bool_field(action, "untargeted"):
        raise IllegalAction(
            f"{state.label(target)} is stealthed and cannot be targeted; if this damage does not "
            'target (an area effect), add "untargeted": true'
        )
    cause = text_field(action, "cause", "an effect")
    if action.get("source") is not None:
        source = find_merc(state, action["source"], "source")
        if source.status("stealth"):
            state = state.with_merc(replace(source, next_true=True))
            state = effects.set_status(state, source.id, "stealth", 0, events, why="dealt damage")
        return strike(
            state, source.id, target.id, amount, damage_type, events=events, cause=f"{state.label(source)}: {cause}"
        )
    state, _ = effects.hurt(state, target.id, amount, damage_type, events, cause=cause)
    return state


def heal(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Heal ``target`` by ``amount`` (never above its maximum health)."""
    _in_play(state, action)
    target = _target(state, action)
    return effects.heal(
        state, target.id, int_field(action, "amount", 0, 999), events, text_field(action, "cause", "an effect")
    )


def add_status(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Place ``count`` counters (or X levels) of ``status`` on ``target``; flags ignore ``count``.

    Raises:
        IllegalAction: an unknown status, a count below 1.
    """
    _in_play(state, action)
    target = _target(state, action)
    status = statuses.find_status(text_field(action, "status"))
    count = int_field(action, "count", 1, 99, default=1)
    stored = statuses.stack(status.name, target.stored(status.name), count, state.settings.stack_overflow)
    if target.status("stealth") and status.group != "beneficial" and not bool_field(action, "untargeted"):
        raise IllegalAction(
            f'{state.label(target)} is stealthed and cannot be targeted (add "untargeted": true '
            "for an effect that does not target)"
        )
    before = target.status(status.name)
    if statuses.at_most(status, target.stored(status.name)):
        if status.shape == "flag":
            raise IllegalAction(f"{state.label(target)} is already {statuses.flag_words(status.name)}: nothing changes")
        if status.shape == "level":
            raise IllegalAction(
                f"{state.label(target)} already has {status.name} {before}, the highest level: nothing changes"
            )
        raise IllegalAction(
            f"{state.label(target)} already has {before} {status.name} counter{'s' * (before != 1)}, "
            f"the most there can be: nothing changes"
        )
    state = effects.set_status(
        state, target.id, status.name, stored, events, why=text_field(action, "cause", "an effect")
    )
    if status.step is not None and any(m.id == target.id for m in state.mercs):
        after = state.merc(target.id).status(status.name)
        if after - before < count:
            events.append(
                event(
                    "stack_limit",
                    f"{status.name.title()} stacks to {status.cap}, then only in {status.step}s: "
                    f"{before} + {count} counts as {after}.",
                    merc=target.id,
                    status=status.name,
                    count=after,
                )
            )
    return state


def remove_status(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Take ``count`` counters (default: all) of ``status`` off ``target``.

    Raises:
        IllegalAction: an unknown status, or the target does not have it.
    """
    _in_play(state, action)
    target = _target(state, action)
    status = statuses.find_status(text_field(action, "status"))
    if not target.stored(status.name):
        raise IllegalAction(f"{state.label(target)} has no {status.name}")
    count = int_field(action, "count", 1, 99) if action.get("count") is not None else None
    stored = statuses.reduce(status.name, target.stored(status.name), count, state.settings.stack_overflow)
    return effects.set_status(
        state, target.id, status.name, stored, events, why=text_field(action, "cause", "an effect")
    )


def _remove_group(
    state: GuildedState, action: Mapping[str, Any], events: list[Event], group: str, verb: str
) -> GuildedState:
    _in_play(state, action)
    target = _target(state, action)
    if action.get("status") is not None:
        status = statuses.find_status(text_field(action, "status"))
        if status.group != group:
            raise IllegalAction(f"{verb} removes {group} statuses; {status.name} is {status.group}")
        names = [status.name]
    else:
        names = [n for n, s in statuses.STATUSES.items() if s.group == group]
    present = [n for n in names if target.stored(n)]
    if not present:
        raise IllegalAction(f"{state.label(target)} has no {group} status to remove")
    done = {"Mend": "mended", "Cleanse": "cleansed"}[verb]
    events.append(
        event(
            verb.lower(),
            f"{state.label(target)} is {done} ({', '.join(present)} removed).",
            merc=target.id,
            statuses=present,
        )
    )
    for name in present:
        state = effects.set_status(state, target.id, name, 0, events, why=verb)
    return state


def mend(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Remove one physical status (``status``) or all of them from ``target``."""
    return _remove_group(state, action, events, "physical", "Mend")


def cleanse(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Remove one magical status (``status``) or all of them from ``target``."""
    return _remove_group(state, action, events, "magical", "Cleanse")


def fog(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Fog a tile: a mercenary standing there is blinded until the fog lifts at the next End phase."""
    _in_play(state, action)
    tile = board.parse_tile(state, action.get("tile"))
    if tile in state.fog:
        raise IllegalAction(f"{board.tile_words(state, tile)} is already fogged")
    state = replace(state, fog=(*state.fog, tile))
    events.append(event("fog", f"Fog covers {board.tile_words(state, tile)}.", tile=board.tile_json(state, tile)))
    return state


def restore_defence(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """An effect gives ``target`` its one-use defence back."""
    _in_play(state, action)
    target = _target(state, action)
    if target.defence_ready:
        raise IllegalAction(f"{state.label(target)}'s defence is not spent")
    state = state.with_merc(replace(target, defence_ready=True))
    events.append(
        event("defence", f"{state.label(target)}'s defence ({target.defence}) is ready again.", merc=target.id)
    )
    return state


def set_merc(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Correct a mercenary's numbers (``health``, ``base_health`` and any stat field).

    Raises:
        IllegalAction: nothing to change, or a value out of range.
    """
    _in_play(state, action)
    target = _target(state, action)
    changes: dict[str, Any] = {}
    for key in ("base_health", *STAT_FIELDS):
        if action.get(key) is not None:
            changes[key] = int_field(action, key, 1 if key == "base_health" else 0, 999)
    if action.get("health") is not None:
        changes["health"] = int_field(action, "health", 0, 999)
    if not changes:
        raise IllegalAction("say what to change: health, base_health, " + ", ".join(STAT_FIELDS))
    changed = replace(target, **changes)
    if changed.health > changed.max_health:
        raise IllegalAction(f"health {changed.health} is above {state.label(target)}'s maximum of {changed.max_health}")
    state = state.with_merc(changed)
    words = ", ".join(f"{k} {v}" for k, v in changes.items())
    events.append(event("set_merc", f"{state.label(target)} corrected: {words}.", merc=target.id, **changes))
    if changed.health <= 0:
        state = effects.destroy(state, target.id, events, "health set to 0")
    return state


def destroy(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """An effect destroys ``target`` outright (its bounty is lost unless ``bounty`` is false)."""
    _in_play(state, action)
    target = _target(state, action)
    return effects.destroy(
        state, target.id, events, text_field(action, "cause", "an effect"), bounty=bool_field(action, "bounty", True)
    )


def loot(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """A card gains (positive ``amount``) or loses (negative) loot for ``player``, with a ``reason``."""
    _in_play(state, action)
    seat = seat_of(state, action)
    amount = int_field(action, "amount", -999, 999)
    if amount == 0:
        raise IllegalAction('"amount" is the loot gained (positive) or lost (negative), not 0')
    return effects.change_loot(state, seat, amount, text_field(action, "reason", "a card effect"), events)


def draw(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """A card effect draws ``cards`` for ``player`` (drawing from an empty deck loses)."""
    _in_play(state, action)
    seat = seat_of(state, action)
    return effects.draw_cards(state, seat, int_field(action, "cards", 1, 99), events, "a card effect")


def discard(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """``player`` discards ``cards`` from hand (the End phase hand limit, or an effect).

    Raises:
        IllegalAction: more cards than Purser counts in the hand.
    """
    _in_play(state, action)
    seat = seat_of(state, action)
    cards = int_field(action, "cards", 1, 99)
    hand = state.seats[seat].hand
    if cards > hand:
        raise IllegalAction(f"Purser counts {hand} card{'s' * (hand != 1)} in {state.players[seat]}'s hand")
    state = state.with_seat(seat, hand=hand - cards)
    events.append(
        event(
            "discard",
            f"{state.players[seat]} discards {cards}; {hand - cards} in hand.",
            player=state.players[seat],
            cards=cards,
            hand=hand - cards,
        )
    )
    return state


def counts(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Correct ``player``'s ``hand``, ``deck`` or ``warchest`` count to what is on the table."""
    _in_play(state, action)
    seat = seat_of(state, action)
    changes = {k: int_field(action, k, 0, 999) for k in ("hand", "deck", "warchest") if action.get(k) is not None}
    if not changes:
        raise IllegalAction("say which count to correct: hand, deck or warchest")
    state = state.with_seat(seat, **changes)
    words = ", ".join(f"{k} {v}" for k, v in changes.items())
    events.append(
        event("counts", f"{state.players[seat]}'s counts corrected: {words}.", player=state.players[seat], **changes)
    )
    return state


def concede(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """``player`` concedes the game."""
    if state.stage == "over":
        raise IllegalAction("the match is over")
    seat = seat_of(state, action)
    if state.seats[seat].out:
        raise IllegalAction(f"{state.players[seat]} is already out of the game")
    return outcome.eliminate(state, seat, "conceded", events)
