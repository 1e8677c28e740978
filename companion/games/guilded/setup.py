"""Before the first turn: deck building (Draft), deck checks, the roll for who goes
first, Arena's pillars and Champions, and opening hands with mulligans.

Stages in order (each game of a match repeats them from ``roll``):
``building`` (Draft only) -> ``roll`` -> ``first`` -> ``pillars`` and ``champions``
(Arena only) -> ``hands`` -> ``play``. A deck list may be entered (``deck``) at any stage
before play; with ``deck_check=required`` a hand cannot be kept without one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event
from companion.games.guilded import board, mercs, phases
from companion.games.guilded.fields import die_value, seat_of
from companion.games.guilded.formats import FORMATS, deck_problems, parse_card, parse_deck
from companion.games.guilded.state import GuildedState

PILLARS = 4


def stage_after_first(state: GuildedState) -> str:
    return "pillars" if state.settings.format == "arena" else "hands"


def decks_ready(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Draft: deck building is over; roll for who goes first."""
    if state.stage != "building":
        raise IllegalAction("deck building is already over")
    events.append(event("decks_ready", "Decks are built: roll a d6 each for who goes first."))
    return replace(state, stage="roll")


def deck(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Check a player's deck list against the format and count its cards.

    Raises:
        IllegalAction: play has begun, or the deck breaks the format's rules (all problems listed).
    """
    seat = seat_of(state, action)
    if state.stage in ("play", "over"):
        raise IllegalAction("deck lists are checked before the game starts")
    fmt = FORMATS[state.settings.format]
    cards = parse_deck(action.get("cards"))
    extra = None
    if fmt.extra_card:
        raw = action.get(fmt.extra_card)
        extra = parse_card(raw, "the Champion" if fmt.extra_card == "champion" else "the Guild Master") if raw else None
    problems = deck_problems(fmt, state.settings.deck_size, state.settings.deck_size_exact, cards, extra)
    if problems:
        raise IllegalAction(f"{state.players[seat]}'s deck is not legal for {fmt.title}: " + "; ".join(problems))
    total = sum(c.count for c in cards)
    player = state.seats[seat]
    state = state.with_seat(seat, deck_size=total, deck=total - player.hand, deck_list=True)
    events.append(
        event(
            "deck",
            f"{state.players[seat]}'s {total}-card deck is legal for {fmt.title}.",
            player=state.players[seat],
            cards=total,
        )
    )
    return state


def roll(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """One player's d6 for who goes first; the highest chooses, ties roll again.

    Raises:
        IllegalAction: not rolling now, or already rolled.
    """
    if state.stage != "roll":
        raise IllegalAction("this is not the time to roll for who goes first")
    seat = seat_of(state, action)
    if seat not in state.contenders:
        raise IllegalAction(f"{state.players[seat]} is not in this roll-off")
    if state.seats[seat].roll is not None:
        raise IllegalAction(f"{state.players[seat]} has already rolled a {state.seats[seat].roll}")
    value = die_value(action)
    how = "rolls"
    if value is None:
        value, state = state.roll(1, 6)
        how = "rolls (Purser's die)"
    state = state.with_seat(seat, roll=value)
    events.append(event("roll", f"{state.players[seat]} {how} {value}.", player=state.players[seat], value=value))
    return _settle_roll(state, events)


def _settle_roll(state: GuildedState, events: list[Event]) -> GuildedState:
    rolls = {s: state.seats[s].roll for s in state.contenders if not state.seats[s].out}
    if not rolls or any(v is None for v in rolls.values()):
        return state
    best = max(v for v in rolls.values() if v is not None)
    top = tuple(s for s, v in rolls.items() if v == best)
    if len(top) > 1:
        for s in top:
            state = state.with_seat(s, roll=None)
        names = " and ".join(state.players[s] for s in top)
        events.append(event("reroll", f"{names} tie on {best}: roll again.", players=[state.players[s] for s in top]))
        return replace(state, contenders=top)
    winner = top[0]
    events.append(
        event(
            "roll_winner",
            f"{state.players[winner]} rolled highest and chooses who goes first.",
            player=state.players[winner],
        )
    )
    return replace(state, stage="first", roll_winner=winner, contenders=())


def go_first(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """The roll-off winner names who goes first.

    Raises:
        IllegalAction: not the roll-off winner, or not choosing now.
    """
    if state.stage != "first":
        raise IllegalAction("who goes first is not being chosen now")
    seat = seat_of(state, action)
    if seat != state.roll_winner:
        raise IllegalAction(f"{state.players[state.roll_winner or 0]} rolled highest and chooses who goes first")
    first = seat_of(state, action, "first")
    events.append(event("first", f"{state.players[first]} goes first.", player=state.players[first]))
    state = replace(state, first=first, stage=stage_after_first(state))
    return _after_stage(state, events)


def pillar_side(state: GuildedState) -> int:
    """The side placing the next pillar: sides alternate, the roll-off winner's first."""
    order = sorted(set(state.sides), key=lambda side: (side - state.sides[state.roll_winner or 0]) % state.side_count)
    return order[len(state.pillars) % len(order)]


def pillar(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Arena: place one of the 4 pillars (a tile no one may enter).

    Raises:
        IllegalAction: not placing pillars now, the other side's turn to place, a taken tile.
    """
    if state.stage != "pillars":
        raise IllegalAction("pillars are placed only before an Arena game, after choosing who goes first")
    seat = seat_of(state, action)
    side = pillar_side(state)
    if state.sides[seat] != side:
        raise IllegalAction(
            f"{state.side_names(side)} place{'s' * (' and ' not in state.side_names(side))} "
            f"pillar {len(state.pillars) + 1}"
        )
    tile = board.parse_tile(state, action.get("tile"))
    if tile in state.pillars:
        raise IllegalAction(f"a pillar already stands on {board.tile_words(state, tile)}")
    state = replace(state, pillars=(*state.pillars, tile))
    events.append(
        event(
            "pillar",
            f"{state.players[seat]} places pillar {len(state.pillars)} on {board.tile_words(state, tile)}.",
            player=state.players[seat],
            tile=board.tile_json(state, tile),
        )
    )
    if len(state.pillars) == PILLARS:
        state = replace(state, stage="champions")
        events.append(event("champions", "Place your Champions."))
    return state


def champion(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Arena: put a player's Champion into play with its stats.

    Raises:
        IllegalAction: not placing Champions now, already placed, or a bad tile or stat.
    """
    if state.stage != "champions":
        raise IllegalAction("Champions are placed before an Arena game, after the pillars")
    seat = seat_of(state, action)
    if any(m.role == "champion" for m in state.mercs_of(seat)):
        raise IllegalAction(f"{state.players[seat]}'s Champion is already in play")
    merc_id, state = mercs.new_id(state)
    merc = mercs.read_stats(action, seat, merc_id, role="champion")
    state = mercs.place(state, merc, mercs.rally_tile(state, seat, action), events)
    if _champions_placed(state):
        state = replace(state, stage="hands")
        events.append(event("hands", "Draw 7 cards each; mulligan or keep."))
    return state


def mulligan(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Shuffle the hand into the deck and draw 7 again (the deck's count is unchanged).

    Raises:
        IllegalAction: not at opening hands, already kept, or no mulligans left.
    """
    seat = _hands_seat(state, action)
    player = state.seats[seat]
    if player.mulligans >= state.settings.mulligans:
        raise IllegalAction(
            f"{state.players[seat]} has taken the {state.settings.mulligans} mulligan"
            f"{'s' * (state.settings.mulligans != 1)} allowed: keep this hand"
        )
    state = state.with_seat(seat, mulligans=player.mulligans + 1)
    events.append(
        event(
            "mulligan",
            f"{state.players[seat]} shuffles their hand into the deck and draws 7.",
            player=state.players[seat],
            mulligans=player.mulligans + 1,
        )
    )
    return state


def keep(state: GuildedState, action: Mapping[str, Any], events: list[Event]) -> GuildedState:
    """Keep the opening hand; when everyone has, the first turn begins.

    Raises:
        IllegalAction: not at opening hands, already kept, or a required deck list is missing.
    """
    seat = _hands_seat(state, action)
    if state.settings.deck_check == "required" and not state.seats[seat].deck_list:
        raise IllegalAction(f'{state.players[seat]} must enter a legal deck list first (deck_check is "required")')
    state = state.with_seat(seat, kept=True)
    events.append(event("keep", f"{state.players[seat]} keeps.", player=state.players[seat]))
    return _after_stage(state, events)


def _champions_placed(state: GuildedState) -> bool:
    return all(any(m.role == "champion" for m in state.mercs_of(s)) for s in _playing(state))


def _playing(state: GuildedState) -> list[int]:
    return [s for s, seat in enumerate(state.seats) if not seat.out]


def after_concede(state: GuildedState, events: list[Event]) -> GuildedState:
    """Carry setup on without players who conceded before the game began."""
    if state.stage == "roll":
        return _settle_roll(state, events)
    if state.stage == "first" and state.seats[state.roll_winner or 0].out:
        for s in range(len(state.players)):
            state = state.with_seat(s, roll=None)
        events.append(event("reroll", "The roll-off winner is out: roll again for who goes first."))
        return replace(state, stage="roll", roll_winner=None, contenders=tuple(_playing(state)))
    if state.stage == "champions" and _champions_placed(state):
        return replace(state, stage="hands")
    if state.stage == "hands":
        return _after_stage(state, events)
    return state


def _hands_seat(state: GuildedState, action: Mapping[str, Any]) -> int:
    if state.stage != "hands":
        raise IllegalAction("opening hands come after choosing who goes first")
    seat = seat_of(state, action)
    if state.seats[seat].kept:
        raise IllegalAction(f"{state.players[seat]} has already kept their hand")
    return seat


def _after_stage(state: GuildedState, events: list[Event]) -> GuildedState:
    if state.stage == "pillars":
        events.append(
            event("pillars", f"Place {PILLARS} pillars in turn, {state.players[state.roll_winner or 0]}'s side first.")
        )
        return state
    if state.stage == "hands" and all(state.seats[s].kept for s in _playing(state)):
        unit = next(i for i, u in enumerate(state.units) if state.first in u)
        state = replace(state, stage="play", turn=0)
        return phases.start_turn(state, unit, events)
    return state
