"""Ability cards (instant, attack, event) and mercenaries' active abilities."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, shown
from companion.games.guilded import effects, phases
from companion.games.guilded.combat import blinded, flip
from companion.games.guilded.fields import int_field, seat_of, text_field
from companion.games.guilded.state import GuildedState
from companion.games.guilded.turn import need_phase, own_merc, turn_seat

ABILITY_KINDS = ("instant", "attack", "event", "active")


def ability(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Play an ability card (``instant``, ``attack``, ``event``) or use a mercenary's ``active`` ability.

    Effects the card has are then entered as their own actions (damage, add_status ...).

    Raises:
        IllegalAction: the wrong time for that kind, a silenced, exhausted or frozen
            mercenary, an empty hand, a cost above the warchest.
    """
    if state.stage != "play":
        raise IllegalAction("abilities are played once the game has started")
    kind = action.get("kind", "instant")
    if kind not in ABILITY_KINDS:
        raise IllegalAction(f'"kind" is one of {", ".join(ABILITY_KINDS)}, not {shown(kind)}')
    if kind in ("attack", "event"):
        seat = turn_seat(state, action)
    else:
        seat = seat_of(state, action)
        if state.seats[seat].out:
            raise IllegalAction(f"{state.players[seat]} is out of the game")
    if kind == "attack":
        need_phase(state, "Attack abilities", "attack")
    elif kind == "event":
        need_phase(state, "Events", "rally", *phases.MOVEMENT_PHASES)
    elif state.phase_name == "acquire":
        raise IllegalAction("no abilities may be played during the Acquire phase")
    card = text_field(action, "card", "" if kind == "active" else None)
    merc = own_merc(state, seat, action["merc"]) if action.get("merc") is not None else None
    if kind in ("attack", "active") and merc is None:
        raise IllegalAction(f'an {kind} ability needs the "merc" that uses it')
    if merc is not None:
        if kind != "active" and merc.status("silence"):
            raise IllegalAction(f"{state.label(merc)} is silenced and cannot be used to activate ability cards")
        if kind in ("attack", "active") and merc.exhausted:
            raise IllegalAction(f"{state.label(merc)} is exhausted and cannot activate abilities")
        if kind == "attack" and phases.frozen(state, merc):
            raise IllegalAction(f"{state.label(merc)} is frozen (3 Frost) and cannot attack this turn")
    cost = int_field(action, "cost", 0, 99, default=0)
    if cost > state.seats[seat].warchest:
        holds = state.seats[seat].warchest
        raise IllegalAction(f"that costs {cost} and {state.players[seat]}'s warchest holds {holds}")
    if kind != "active":
        if state.seats[seat].hand < 1:
            raise IllegalAction(f"Purser counts no cards in {state.players[seat]}'s hand")
        state = state.with_seat(seat, hand=state.seats[seat].hand - 1)
    what = card or "an active ability"
    user = f" with {state.label(merc)}" if merc else ""
    events.append(
        event(
            "ability",
            f"{state.players[seat]} plays {what} ({kind}){user}.",
            player=state.players[seat],
            card=card or None,
            ability_kind=kind,
            merc=merc.id if merc else None,
            cost=cost,
        )
    )
    if merc is not None and merc.status("stealth"):
        state = state.with_merc(replace(state.merc(merc.id), next_true=True))
        state = effects.set_status(state, merc.id, "stealth", 0, events, why="used an ability")
    if merc is not None and kind == "attack" and blinded(state, merc):
        ok, state = flip(state, merc, action, "attack ability", events)
        if not ok:
            events.append(event("ability_fails", f"{what} fails.", card=card or None))
    return state
