"""Whose turn it is: starting and ending turns, the order of play, the end of the match."""

from __future__ import annotations

from dataclasses import replace

from companion.games.base import Event, event
from companion.games.swashbuckle.state import OVER, PLAY, SwashState, SwashTurn
from companion.games.swashbuckle.tally import display_name, player_total


def next_seat(state: SwashState, seat: int) -> int | None:
    """Who plays after ``seat``: the next seat to the left with boxes open (in a solo
    challenge, the same player until their sheet is full); None when everyone is done."""
    n = len(state.players)
    start = 0 if state.settings.solo_challenge else 1
    for step in range(start, n + 1):
        candidate = (seat + step) % n
        if not state.pirates[candidate].done:
            return candidate
    return None


def begin_turn(state: SwashState, seat: int, events: list[Event]) -> SwashState:
    """``seat`` starts a turn; a curse waiting for them takes hold."""
    turn = SwashTurn()
    curses = state.curses
    for curse in curses:
        if curse.target == seat:
            turn = SwashTurn(curse="waiting", cursed_by=curse.cursor)
            curses = tuple(c for c in curses if c is not curse)
            events.append(_cursed_event(state, curse.target, curse.cursor))
            break
    return replace(state, phase=PLAY, current=seat, turn=turn, curses=curses)


def _cursed_event(state: SwashState, target: int, cursor: int) -> Event:
    name = state.players[target]
    by = "their own curse" if target == cursor else f"{state.players[cursor]}'s curse"
    return event(
        "cursed_turn",
        f"{name} is under {by}: roll only four dice this turn.",
        player=name,
        cursor=state.players[cursor],
    )


def end_turn(state: SwashState, seat: int, events: list[Event]) -> SwashState:
    """``seat`` has filled a box: count the turn, open their curse window, pass the dice."""
    pirate = state.pirates[seat]
    state = state.with_pirate(seat, replace(pirate, turns=pirate.turns + 1))
    nxt = next_seat(state, seat)
    if nxt is None:
        state = replace(state, phase=OVER, turn=SwashTurn(), curse_window=None, curses=())
        totals = [player_total(state, i) for i in range(len(state.players))]
        best = max(totals)
        winners = [p for p, t in zip(state.players, totals, strict=False) if t == best]
        verb = "wins" if len(winners) == 1 else "win"
        named = " and ".join(display_name(state, state.players.index(w)) for w in winners)
        events.append(
            event(
                "game_over",
                f"Match over: {named} {verb} with {best} plunder.",
                winners=winners,
                totals=dict(zip(state.players, totals, strict=False)),
            )
        )
        return state
    state = replace(state, curse_window=seat)
    return begin_turn(state, nxt, events)
