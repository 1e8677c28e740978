"""Who is out, who won the game, who won the match.

:func:`settle` runs after every action: it puts out players whose Vault is at 0 (or,
under ``deck_out=empty_deck``, whose deck is empty), Arena sides with no mercenaries left
(or no Champion), takes the mercenaries of players who are out off the battlefield, and
ends the game when one side is left. A game's end either starts the next game of the
match or ends the match.
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import Event, event
from companion.games.guilded import match
from companion.games.guilded.state import GuildedState


def eliminate(state: GuildedState, seat: int, reason: str, events: list[Event]) -> GuildedState:
    """Put a player out of the game (no effect if already out)."""
    if state.seats[seat].out:
        return state
    events.append(event("out", f"{state.players[seat]} is out: {reason}.", player=state.players[seat], reason=reason))
    return state.with_seat(seat, out=reason)


def settle(state: GuildedState, events: list[Event]) -> GuildedState:
    """Apply every loss condition now true, and end the game if one side is left."""
    if state.stage == "over":
        return state
    for seat, player in enumerate(state.seats):
        if player.out:
            continue
        if state.stage == "play" and player.vault <= 0:
            state = eliminate(state, seat, "the Vault is empty", events)
        elif state.stage == "play" and state.settings.deck_out == "empty_deck" and player.deck <= 0:
            state = eliminate(state, seat, "ran out of cards", events)
    if state.settings.format == "arena" and state.stage == "play":
        for side in state.living_sides():
            mine = [m for m in state.mercs if state.sides[m.owner] == side]
            if state.settings.arena_defeat == "champion":
                lost = not any(m.role == "champion" for m in mine)
                why = "the Champion has fallen"
            else:
                lost = not mine
                why = "no mercenaries left in play"
            if lost:
                for seat in range(len(state.players)):
                    if state.sides[seat] == side:
                        state = eliminate(state, seat, why, events)
    gone = [m for m in state.mercs if state.seats[m.owner].out]
    for merc in gone:
        events.append(
            event(
                "leaves_play",
                f"{state.label(merc)} leaves the battlefield with its player.",
                merc=merc.id,
            )
        )
    if gone:
        state = replace(state, mercs=tuple(m for m in state.mercs if not state.seats[m.owner].out))
    living = state.living_sides()
    if len(living) <= 1:
        reasons = sorted({s.out for s in state.seats if s.out})
        state = finish_game(state, living[0] if living else None, "; ".join(reasons), events)
    return state


def loot_by_side(state: GuildedState) -> dict[int, int]:
    """Total loot of each side still in the game."""
    totals: dict[int, int] = {}
    for seat, player in enumerate(state.seats):
        if not player.out:
            totals[state.sides[seat]] = totals.get(state.sides[seat], 0) + player.vault
    return totals


def end_on_time(state: GuildedState, events: list[Event]) -> GuildedState:
    """Time is up and the turn is over: the side with the most loot wins the game (a tie is a draw)."""
    totals = loot_by_side(state)
    best = max(totals.values())
    leaders = [side for side, loot in totals.items() if loot == best]
    winner = leaders[0] if len(leaders) == 1 else None
    return finish_game(state, winner, "time: most loot", events)


def finish_game(state: GuildedState, winner: int | None, reason: str, events: list[Event]) -> GuildedState:
    """Record a game's result, then start the next game or end the match."""
    wins = list(state.wins)
    if winner is not None:
        wins[winner] += 1
        events.append(
            event(
                "game_over",
                f"{state.side_wins(winner)} game {state.game} ({reason}).",
                game=state.game,
                winners=_names(state, winner),
                reason=reason,
            )
        )
    else:
        events.append(
            event("game_over", f"Game {state.game} is a draw ({reason}).", game=state.game, winners=[], reason=reason)
        )
    state = replace(state, wins=tuple(wins), results=(*state.results, (-1 if winner is None else winner, reason)))
    settings = state.settings
    decided = max(wins) >= settings.wins_needed
    if decided or state.time_up or len(state.results) >= settings.best_of:
        return end_match(state, events)
    return match.fresh_game(state, events)


def end_match(state: GuildedState, events: list[Event]) -> GuildedState:
    """End the match: the side with the most game wins takes it; equal wins are a draw."""
    best = max(state.wins)
    leaders = [side for side, w in enumerate(state.wins) if w == best]
    winners: tuple[int, ...] = ()
    if best > 0 and len(leaders) == 1:
        winners = tuple(i for i, s in enumerate(state.sides) if s == leaders[0])
        text = f"{state.side_wins(leaders[0])} the match"
    else:
        text = "The match is a draw"
    if state.settings.best_of > 1:
        text += f" ({'-'.join(str(w) for w in state.wins)} in games)"
    events.append(event("match_over", text + ".", winners=[state.players[i] for i in winners]))
    return replace(state, stage="over", winners=winners)


def _names(state: GuildedState, side: int) -> list[str]:
    return [p for i, p in enumerate(state.players) if state.sides[i] == side]
