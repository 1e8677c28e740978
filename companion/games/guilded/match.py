"""Starting a match and each game in it: seats, sides, turn-takers and the first setup stage."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.games.base import Event, event
from companion.games.guilded.settings import Settings
from companion.games.guilded.state import GuildedState, Seat

HAND_SIZE = 7


def sides_for(settings: Settings, n_players: int) -> tuple[int, ...]:
    """Side of each seat: 4 players in Standard/Arena are two teams, seated alternately
    (seats 1 and 3 against 2 and 4); otherwise (1v1, 3-player Standard, Guild Master)
    each player is their own side."""
    if n_players == 4 and settings.format in ("standard", "arena"):
        return (0, 1, 0, 1)
    return tuple(range(n_players))


def units_for(settings: Settings, sides: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The turn-takers in seating order: one seat each, or each team when teammates share a turn."""
    if settings.shared_turns and len(set(sides)) < len(sides):
        order: list[int] = []
        for side in sides:
            if side not in order:
                order.append(side)
        return tuple(tuple(i for i, s in enumerate(sides) if s == side) for side in order)
    return tuple((i,) for i in range(len(sides)))


def fresh_seat(settings: Settings, previous: Seat | None = None) -> Seat:
    """A seat at the start of a game: a full Vault and 7 cards drawn from the deck."""
    deck_size = previous.deck_size if previous else settings.deck_size
    return Seat(
        vault=settings.vault,
        deck=deck_size - HAND_SIZE,
        hand=HAND_SIZE,
        deck_size=deck_size,
        deck_list=previous.deck_list if previous else False,
    )


def first_stage(settings: Settings, game: int) -> str:
    """Draft builds decks before its (only) game; every game then rolls for who goes first."""
    return "building" if settings.draft_building and game == 1 else "roll"


def fresh_game(state: GuildedState, events: list[Event]) -> GuildedState:
    """The next game of a best-of-N match: Vaults, decks and hands reset, the battlefield cleared."""
    game = state.game + 1
    state = replace(
        state,
        stage=first_stage(state.settings, game),
        game=game,
        seats=tuple(fresh_seat(state.settings, s) for s in state.seats),
        mercs=(),
        pillars=(),
        fog=(),
        unit=0,
        turn=0,
        phase=0,
        contenders=tuple(range(len(state.players))),
        roll_winner=None,
        first=None,
    )
    events.append(
        event(
            "game",
            f"Game {game} of the best of {state.settings.best_of}: shuffle, present decks and roll for who goes first.",
            game=game,
        )
    )
    return state
