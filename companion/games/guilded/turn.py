"""The turn and who may act in it: moving through the phases, and the Acquire phase.

Who may act: the turn's players (both teammates when they share a turn), except instant
abilities, which any player still in the game may play outside the Acquire phase. The
other phase-bound actions live in :mod:`.rally`, :mod:`.movement`, :mod:`.combat` and
:mod:`.abilities`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Event, IllegalAction, event
from companion.games.guilded import effects, phases
from companion.games.guilded.fields import int_field, seat_of
from companion.games.guilded.state import GuildedState, Merc, find_merc

# -- who and when --------------------------------------------------------------------------


def turn_seat(state: GuildedState, action: Mapping[str, Any]) -> int:
    """The acting player's seat, who must be a turn player.

    Raises:
        IllegalAction: the game is not in play, or it is someone else's turn.
    """
    if state.stage != "play":
        raise IllegalAction("the game has not started yet" if state.stage != "over" else "the match is over")
    seat = seat_of(state, action)
    if seat not in state.active:
        if state.seats[seat].out:
            raise IllegalAction(f"{state.players[seat]} is out of the game")
        who = " and ".join(state.players[s] for s in state.active)
        raise IllegalAction(f"it is {who}'s turn, not {state.players[seat]}'s")
    return seat


def need_phase(state: GuildedState, what: str, *names: str) -> None:
    """Refuse unless the current phase is one of ``names``.

    Raises:
        IllegalAction: another phase.
    """
    if state.phase_name not in names:
        where = " or ".join(phases.TITLES[n] for n in names)
        raise IllegalAction(f"{what} happens in the {where} phase; this is the {phases.TITLES[state.phase_name]} phase")


def own_merc(state: GuildedState, seat: int, ref: Any, what: str = "mercenary") -> Merc:
    """The mercenary ``ref`` names, which must be ``seat``'s.

    Raises:
        IllegalAction: not in play, or someone else's.
    """
    merc = find_merc(state, ref, what)
    if merc.owner != seat:
        raise IllegalAction(f"{state.label(merc)} is not {state.players[seat]}'s to command")
    return merc


# -- moving through the turn -----------------------------------------------------------------


def next_phase(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Move on to the next phase (after End: the next turn)."""
    turn_seat(state, action)
    return phases.advance(state, events)


def end_turn(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Go through the remaining phases to the End phase (from End: pass the turn)."""
    turn_seat(state, action)
    if state.phase_name == "end":
        return phases.advance(state, events)
    turn = state.turn
    while state.stage == "play" and state.turn == turn and state.phase_name != "end":
        state = phases.advance(state, events)
    return state


# -- Acquire -------------------------------------------------------------------------------


def acquire(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Draw up to ``acquire_limit`` extra cards, 1 loot each (once per turn).

    Raises:
        IllegalAction: not the Acquire phase, already acquired, too many, more than the deck
            holds, or as many as would empty the Vault.
    """
    seat = turn_seat(state, action)
    need_phase(state, "Acquiring", "acquire")
    player = state.seats[seat]
    if player.acquired:
        raise IllegalAction(f"{state.players[seat]} has already acquired this turn")
    cards = int_field(action, "cards", 0, state.settings.acquire_limit)
    if cards > player.deck and state.settings.deck_out == "draw_from_empty":
        raise IllegalAction(f"{state.players[seat]}'s deck has only {player.deck} card{'s' * (player.deck != 1)} left")
    if cards and cards >= player.vault and state.settings.acquire_last_loot == "refuse":
        raise IllegalAction(
            f"acquiring {cards} would empty {state.players[seat]}'s Vault ({player.vault} loot) and lose the game "
            "(house rule acquire_last_loot=refuse)"
        )
    state = state.with_seat(seat, acquired=True)
    if cards == 0:
        events.append(event("acquire", f"{state.players[seat]} acquires nothing.", player=state.players[seat], cards=0))
        return state
    state = effects.change_loot(state, seat, -cards, f"Acquire {cards} card{'s' * (cards != 1)}", events)
    return effects.draw_cards(state, seat, cards, events, "Acquire")
