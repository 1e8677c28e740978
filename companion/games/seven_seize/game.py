"""The engine protocol for 7 Seize: initial_state, apply, legal_actions, summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import Any

from companion.games.base import ConfigError, Event, IllegalAction, Summary, action_type, check_players, shown
from companion.games.seven_seize.cards import Deck
from companion.games.seven_seize.phases import (
    cards_still_out,
    choose_captain,
    divvy,
    pick,
    quartermaster,
    reveal,
    revealing,
    set_order,
    strumpet,
    strumpet_options,
)
from companion.games.seven_seize.plausible import check, pip_range
from companion.games.seven_seize.state import (
    BOOTY,
    DIVVY,
    HAND,
    INTERLOPER,
    PIECES_PER_ROUND,
    RULES,
    SEIZE,
    SQUABBLE,
    WEIGHOFF,
    SeizeState,
    Settings,
)
from companion.games.seven_seize.summary import summary as _summary
from companion.games.seven_seize.weighing import booty, weigh
from companion.games.seven_seize.weighoff import PIPS, Reading

NAME = "seven-seize"
TITLE = "7 Seize"
MIN_PLAYERS = 2
MAX_PLAYERS = 7

__all__ = [
    "ACTIONS_HELP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "RULES",
    "TITLE",
    "SeizeState",
    "apply",
    "initial_state",
    "legal_actions",
    "summary",
]

ACTIONS_HELP = """\
7 Seize actions (cards are rank then suit: AS, KH, QD, JC, 10S ... 2C):
  {"type": "reveal", "player": "Ana", "card": "9H"}          a revealed card (squabble or seize)
  {"type": "reveal", "player": "Interloper", "card": "5D"}   the Interloper's card (2 players)
  {"type": "captain", "player": "Ana", "captain": "Ben"}     previous Captain settles a tie
  {"type": "divvy", "player": "Ana", "red": 3, "black": 4}   the Captain's divvy
  {"type": "order", "player": "Ana", "order": ["Cy", "Ben"]} the Captain orders a same-rank tie
  {"type": "quartermaster", "player": "Ben", "returned": 3}  the K's pieces are back on the stash
  {"type": "strumpet", "player": "Cy", "choice": "seize"}    the Q seizes 1 ...
  {"type": "strumpet", "player": "Cy", "choice": "steal", "victim": "Ana"}   ... or steals 1
  {"type": "pick", "player": "Ben", "for": "Interloper", "pieces": 2}  pieces picked for the Interloper
  {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0}    weigh a collection on the balance
                                                             (channel 0: pan A, 1: pan B)
  {"type": "weigh", "player": "Ana", "grams": 151.5}         ... or typed from a kitchen scale
  {"type": "weigh", "player": "Ana", "pips": 96}             ... or dominoes (booty=dominoes)
  {"type": "weigh", "player": "Ana", "grams": 3.5, "confirm": true}   keep a reading only the piece-weight
                                                             house rules call impossible (purser play's
                                                             refusal gives the line to send in "keep")
Purser does the seizing, the Number cards' round and round and the swab itself."""


def initial_state(config: Mapping[str, Any], players: Sequence[str], seed: int) -> SeizeState:
    """A new game: round 1, everyone holding 3 cards, all 49 pieces in the bag.

    Raises:
        ConfigError: a bad seating, a 2-player game with a player called Interloper, or a
            lightest piece heavier than the heaviest.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    settings = Settings.from_config(config)
    if settings.lightest_piece_g > settings.heaviest_piece_g:
        raise ConfigError(
            f"the lightest piece ({settings.lightest_piece_g:g} g) cannot weigh more than the heaviest "
            f"({settings.heaviest_piece_g:g} g): check lightest_piece_g and heaviest_piece_g"
        )
    seats = names
    if len(names) == 2:
        if any(n.casefold() == INTERLOPER.casefold() for n in names):
            raise ConfigError(f"in a 2-player game the ghost player is called {INTERLOPER}; pick another name")
        seats = (*names, INTERLOPER)
    return SeizeState(
        players=names,
        seats=seats,
        settings=settings,
        seed=seed,
        round=1,
        phase=SQUABBLE,
        captain=None,
        previous_captain=None,
        bag=BOOTY,
        red=0,
        black=0,
        collections=(0,) * len(seats),
        start=(0,) * len(seats),
        squabble_cards=(None,) * len(names),
        seize_cards=(None,) * len(seats),
        divvied=(0, 0),
        orders=(),
        pos=0,
        pending=None,
        deck=Deck.dealt(len(names), HAND),
        history=(),
        weighoff=None,
    )


_HANDLERS = {
    "reveal": reveal,
    "captain": choose_captain,
    "divvy": divvy,
    "order": set_order,
    "quartermaster": quartermaster,
    "strumpet": strumpet,
    "pick": pick,
    "weigh": weigh,
}


def apply(state: SeizeState, action: Mapping[str, Any]) -> tuple[SeizeState, list[Event]]:
    """Apply one action; returns the new state and what happened.

    Raises:
        IllegalAction: not the action the game waits for, or against the rules.
    """
    kind = action_type(action)
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction(f"{TITLE} has no {shown(kind)} action (it has {', '.join(_HANDLERS)})")
    if state.phase not in (SQUABBLE, DIVVY, SEIZE, WEIGHOFF):
        raise IllegalAction("the game is over")
    if state.pending is not None and kind != state.pending.kind:
        raise IllegalAction(f"first: {_summary(state).prompt}")
    return handler(state, action)


def legal_actions(state: SeizeState) -> list[dict[str, Any]]:
    """Every action the table may take now, with every finite parameter enumerated.

    Reveals list each card still out; a weighing lists the scale form (``"from":
    "scale"``; typed ``"grams"`` are accepted too) or, with dominoes, every pip count the
    dominoes on the pan can show (see :mod:`.plausible`).
    """
    pending = state.pending
    if pending is not None:
        return _pending_actions(state)
    if state.phase in (SQUABBLE, SEIZE):
        cards = cards_still_out(state)
        return [{"type": "reveal", "player": state.seats[s], "card": c} for s in revealing(state) for c in cards]
    if state.phase == DIVVY:
        assert state.captain is not None
        captain = state.players[state.captain]
        return [
            {"type": "divvy", "player": captain, "red": r, "black": PIECES_PER_ROUND - r}
            for r in range(1, PIECES_PER_ROUND)
        ]
    if state.phase == WEIGHOFF and state.weighoff is not None:
        wo = state.weighoff
        if state.settings.booty == "dominoes":
            most = state.settings.domino_max_pips
            table = booty(state)
            actions = []
            for n in wo.waiting():
                low, high = pip_range(wo.on_pan(n), most)
                actions += [
                    {"type": "weigh", "player": n, "pips": p}
                    for p in range(low, high + 1)
                    if check(n, Reading(float(p), 0.0, PIPS), wo, table) is None
                ]
            return actions
        return [{"type": "weigh", "player": n, "from": "scale", "channel": wo.pan_for(n)} for n in wo.waiting()]
    return []


def _pending_actions(state: SeizeState) -> list[dict[str, Any]]:
    pending = state.pending
    assert pending is not None
    if pending.kind == "captain":
        assert state.captain is not None
        chooser = state.players[state.captain]
        return [{"type": "captain", "player": chooser, "captain": state.players[s]} for s in pending.seats]
    if pending.kind == "order":
        assert state.captain is not None
        captain = state.players[state.captain]
        return [
            {"type": "order", "player": captain, "order": [state.seats[s] for s in p]}
            for p in permutations(pending.seats)
        ]
    decider = state.players[state.decider(pending.seat)]
    behalf = {"for": state.seats[pending.seat]} if pending.seat == state.interloper else {}
    if pending.kind == "quartermaster":
        return [{"type": "quartermaster", "player": decider, **behalf, "returned": pending.amount}]
    if pending.kind == "pick":
        return [{"type": "pick", "player": decider, **behalf, "stash": pending.stash, "pieces": pending.amount}]
    actions = []
    for option in strumpet_options(state, pending.seat):
        if option is None:
            actions.append({"type": "strumpet", "player": decider, **behalf, "choice": "seize"})
        else:
            actions.append(
                {"type": "strumpet", "player": decider, **behalf, "choice": "steal", "victim": state.seats[option]}
            )
    return actions


def summary(state: SeizeState) -> Summary:
    """Pieces held, who must act and the prompt; ``detail`` is documented in
    :func:`companion.games.seven_seize.summary.summary`."""
    return _summary(state)
