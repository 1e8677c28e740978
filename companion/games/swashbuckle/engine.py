"""Swashbuckle's turn engine: setting up a match, rolls, holds, confirmations and scoring.

The special rules (Piracy, the Curse, the roll-off, penalties) are in
:mod:`companion.games.swashbuckle.specials`; what the table sees is in
:mod:`companion.games.swashbuckle.view`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games.base import (
    Event,
    IllegalAction,
    action_type,
    check_players,
    event,
    get_field,
    get_player,
    shown,
)
from companion.games.scoresheet import turn as turn_mod
from companion.games.scoresheet.dice import show
from companion.games.scoresheet.options import Option
from companion.games.scoresheet.options import options as sheet_options
from companion.games.scoresheet.presets import swashbuckle as swashbuckle_sheet
from companion.games.scoresheet.sheet import Column
from companion.games.scoresheet.turn import MAX_ROLLS, Turn
from companion.games.swashbuckle import specials
from companion.games.swashbuckle.flow import begin_turn, end_turn
from companion.games.swashbuckle.settings import Settings, resolve
from companion.games.swashbuckle.state import OVER, PLAY, ROLL_OFF, Pirate, SwashState, SwashTurn

TITLE = "Swashbuckle"
MIN_PLAYERS = 1
MAX_PLAYERS = 10


def initial_state(config: Mapping[str, Any], players: Sequence[str], seed: int) -> SwashState:
    """A new match: empty sheets; a seated Captain starts, else the roll-off (or the first seat).

    Raises:
        ConfigError: a bad seating or house rule.
    """
    names = check_players(players, MIN_PLAYERS, MAX_PLAYERS, TITLE)
    values = resolve(config)
    sheet = swashbuckle_sheet(values)
    settings = Settings.from_config(values)
    k = settings.columns
    pirates = tuple(Pirate(n, (Column.empty(sheet),) * k, (0,) * k, (None,) * k) for n in names)
    wanted = settings.captain.strip().casefold()
    captain = next((i for i, n in enumerate(names) if wanted and n.casefold() == wanted), None)
    jones = settings.davy_jones.strip().casefold()
    davy_jones = next((i for i, n in enumerate(names) if jones and n.casefold() == jones), None)
    state = SwashState(
        sheet, settings, names, pirates, ROLL_OFF, 0, SwashTurn(), captain=captain, seed=seed, davy_jones=davy_jones
    )
    events: list[Event] = []
    if captain is not None:
        return begin_turn(state, captain, events)
    if len(names) == 1 or settings.solo_challenge or settings.who_starts == "seating":
        return begin_turn(state, 0, events)
    return replace(state, roll_off=(None,) * len(names))


def current_options(state: SwashState, dice: Sequence[int] | None = None) -> list[Option]:
    """Where ``dice`` (default: the dice in play) may be scored by the player to act, best first.

    The turn's curse applies (four dice, no Swashbuckle, 4 Alike doubled). Empty before
    a roll, during a Piracy roll, and when the match is not being played.
    """
    if state.phase != PLAY or state.turn.piracy:
        return []
    turn = state.turn
    rolled = tuple(dice) if dice is not None else (turn.dice.dice if turn.dice.settled else ())
    if not rolled:
        return []
    return sheet_options(state.sheet, state.pirates[state.current].columns, rolled, cursed=turn.cursed)


def apply(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    """Apply one action; returns the new state and what happened.

    Raises:
        IllegalAction: anything the rules do not allow now; the state is unchanged.
    """
    kind = action_type(action)
    if state.phase == OVER:
        raise IllegalAction("the match is over")
    if kind in ("etiquette", "calculator"):
        return specials.penalty(state, action, kind)
    if kind == "roll_off":
        return specials.roll_off(state, action)
    if kind == "curse":
        return specials.curse(state, action)
    if kind == "remind":
        return specials.remind(state, action)
    if kind not in ("roll", "confirm", "score", "pillage"):
        raise IllegalAction(
            f"{TITLE} has no {shown(kind)} action (it has roll, confirm, score, pillage, curse, remind, roll_off"
            ", etiquette, calculator)"
        )
    if state.phase == ROLL_OFF:
        waiting = ", ".join(p for p, r in zip(state.players, state.roll_off, strict=False) if r is None)
        raise IllegalAction(f"first find who starts: each player rolls one die (waiting for {waiting})")
    player = get_player(action, state.players)
    if player != state.players[state.current]:
        raise IllegalAction(f"it is {state.players[state.current]}'s turn, not {player}'s")
    if kind == "roll":
        return _roll(state, action)
    if kind == "confirm":
        return _confirm(state, action)
    if kind == "score":
        return _score(state, action)
    return _pillage(state, action)


# -- rolling ----------------------------------------------------------------------------------


def _roll(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    turn = state.turn
    dice = turn.dice
    seat = state.current
    player = state.players[seat]
    pirate = state.pirates[seat]
    if dice.pending is not None:
        raise IllegalAction(f"confirm the last roll first ({dice.pending.why})")
    hornswaggle = bool(get_field(action, "hornswaggle", bool, optional=True))
    events: list[Event] = []
    if hornswaggle and pirate.hornswaggle:
        raise IllegalAction(f"{player} has already used Hornswaggle this match")

    if turn.piracy:
        if dice.rolls == 0:
            if hornswaggle:
                raise IllegalAction("make the Piracy roll first; Hornswaggle may follow it")
            held = action.get("keep") if action.get("keep") is not None else action.get("hold")
            if held:
                raise IllegalAction('the Piracy roll is all five dice: nothing can be held (leave out "keep")')
            thrown: tuple[int, ...] = (5,)
            kept: tuple[int, ...] = ()
        else:
            if not hornswaggle:
                raise IllegalAction(
                    f'the Piracy roll is a single roll: {player} pillages now ("pillage"), or takes the once-per-match '
                    'extra roll with "hornswaggle": true'
                )
            if dice.rolls > 1:
                raise IllegalAction("Hornswaggle is already spent")
            kept = turn_mod.parse_keep(action, dice)
            thrown = (5 - len(kept),)
    else:
        if dice.rolls >= MAX_ROLLS:
            if not hornswaggle:
                raise IllegalAction(
                    f"{player} has had {MAX_ROLLS} rolls: score the dice, or take the once-per-match extra roll "
                    f'with "hornswaggle": true (-{state.settings.hornswaggle_points})'
                )
            if dice.rolls > MAX_ROLLS:
                raise IllegalAction(f"{player} has had every roll this turn: score the dice")
        elif hornswaggle:
            raise IllegalAction(f"Hornswaggle is the extra roll after the third; {player} has rolls left")
        if turn.curse == "forgotten" and dice.rolls == 2:
            state = specials.forfeit(state, "makes the third roll", events)
            turn = state.turn
        kept = turn_mod.parse_keep(action, dice)
        if dice.rolls == 0:
            thrown = (4, 5) if turn.curse == "waiting" else (5,)
        else:
            thrown = (len(dice.dice) - len(kept),)

    new = turn_mod.throw(dice, action, kept, thrown)
    turn = replace(turn, dice=new)
    if hornswaggle:
        turn = replace(turn, hornswaggled=True, piracy_hornswaggled=turn.piracy)
        state = state.with_pirate(seat, replace(state.pirates[seat], hornswaggle=True))
        cost = state.settings.hornswaggle_points
        events.append(
            event("hornswaggle", f"{player} Hornswaggles an extra roll (-{cost}).", player=player, points=-cost)
        )
    state = replace(state, turn=turn, curse_window=None)
    events.append(_roll_event(state, kept))
    return _settled(state, events), events


def _roll_event(state: SwashState, kept: tuple[int, ...]) -> Event:
    turn = state.turn
    player = state.players[state.current]
    what = "the Piracy roll" if turn.piracy else f"roll {turn.dice.rolls}"
    held = f", holding {show(kept)}" if kept else ""
    data: dict[str, Any] = {"player": player, "roll": turn.dice.rolls, "kept": list(kept), "piracy": turn.piracy}
    if turn.dice.pending is not None:
        return event(
            "rolled",
            f"{player} makes {what}{held}; {turn.dice.pending.why}: confirm the dice.",
            seen=list(turn.dice.pending.seen),
            **data,
        )
    return event("rolled", f"{player} makes {what}{held}: {show(turn.dice.dice)}.", dice=list(turn.dice.dice), **data)


def _settled(state: SwashState, events: list[Event]) -> SwashState:
    """Follow-ups once a roll's dice are known: how a curse took hold, the Piracy outcome."""
    turn = state.turn
    if not turn.dice.settled:
        return state
    player = state.players[state.current]
    if turn.curse == "waiting":
        if len(turn.dice.dice) == 4:
            state = replace(state, turn=replace(turn, curse="active"))
        else:
            state = replace(state, turn=replace(turn, curse="forgotten"))
            events.append(
                event(
                    "curse_forgotten",
                    f"{player} is cursed but rolled five dice: remind them before the third roll "
                    "and the curser takes one die out of play.",
                    player=player,
                )
            )
    return specials.maybe_finish_piracy(state, events)


def _confirm(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    turn = state.turn
    new = turn_mod.confirm(turn.dice, action)
    player = state.players[state.current]
    state = replace(state, turn=replace(turn, dice=new))
    events = [event("confirmed", f"{player}'s dice: {show(new.dice)}.", player=player, dice=list(new.dice))]
    return _settled(state, events), events


# -- scoring ----------------------------------------------------------------------------------


def _column_field(state: SwashState, action: Mapping[str, Any]) -> int | None:
    col: int | None = get_field(action, "column", int, optional=True)
    if col is None:
        return None
    if not 1 <= col <= state.settings.columns:
        raise IllegalAction(
            f"there {'is' if state.settings.columns == 1 else 'are'} {state.settings.columns} "
            f"column{'s' * (state.settings.columns != 1)}, numbered from 1; not {col}"
        )
    return col - 1


def _choose(state: SwashState, action: Mapping[str, Any]) -> Option:
    """The option an action picks.

    Raises:
        IllegalAction: no such box, or the dice cannot go there now (with what can).
    """
    name = get_field(action, "box", str)
    box = state.sheet.find(name)
    if box is None:
        raise IllegalAction(f"{TITLE} has no box called {shown(name)} (boxes: {', '.join(state.sheet.keys)})")
    col = _column_field(state, action)
    choices = current_options(state)
    matches = [o for o in choices if o.box == box.key and (col is None or o.column == col)]
    if len(matches) > 1:
        raise IllegalAction(
            f'{box.label} is open in several columns: say which ("column": 1 to {state.settings.columns})'
        )
    if matches:
        return matches[0]
    pirate = state.pirates[state.current]
    index = state.sheet.index(box.key)
    columns = [col] if col is not None else range(len(pirate.columns))
    dice = show(state.turn.dice.dice)
    allowed = "; ".join(o.words(state.sheet.zero_word) for o in choices)
    if all(pirate.columns[c].scores[index] is not None for c in columns):
        why = f"{box.label} is already filled in"
    elif state.turn.cursed and not box.cursed_allowed:
        why = f"a cursed roll cannot be applied to {box.label}"
    elif any(o.how != "zero" for o in choices):
        why = f"{dice} does not score in {box.label}, and a box is scuttled only when nothing scores"
    else:
        why = f"{box.label} is below the waterline and cannot be scuttled"
    raise IllegalAction(f"{why}. Options: {allowed}")


def _score(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    turn = state.turn
    seat = state.current
    player = state.players[seat]
    if turn.piracy:
        if turn.dice.settled and turn.dice.pending is None and action.get("box", "piracy") == "piracy":
            return _pillage(state, action)  # the Piracy roll scores in Piracy; a target is still a pillage
        if turn.dice.settled:
            raise IllegalAction(f"{player}'s Piracy roll goes in Piracy, not another box")
        raise IllegalAction(f"{player} is on a Piracy roll: roll all five dice, then pillage")
    if turn.dice.pending is not None:
        raise IllegalAction(f"confirm the last roll first ({turn.dice.pending.why})")
    if not turn.dice.settled:
        raise IllegalAction(f"{player} must roll before scoring")
    chosen = _choose(state, action)
    events: list[Event] = []
    if turn.curse == "forgotten":
        state = specials.forfeit(state, "finishes the turn", events)
    dice = turn.dice.dice
    where = f" (column {chosen.column + 1})" if state.settings.columns > 1 else ""
    if chosen.how == "extra_roll":
        state = replace(state, turn=replace(state.turn, piracy=True, piracy_column=chosen.column, dice=Turn()))
        events.append(
            event(
                "piracy_called",
                f"{player} calls Piracy with {show(dice)}{where}: roll all five dice once more and steal their total.",
                player=player,
                column=chosen.column + 1,
            )
        )
        return state, events
    mark = chosen.bonus > 0
    target = action.get("target")
    if chosen.box == specials.PIRACY and chosen.how == "max_potential":  # on a bonus Swashbuckle
        events.append(
            event(
                "max_potential", f"{player} fills Piracy{where} with its max potential, {chosen.points}.", player=player
            )
        )
        state = specials.plunder(
            state, seat, chosen.column, chosen.points or 0, mark=mark, target=target, events=events
        )
    else:
        if target is not None:
            raise IllegalAction('"target" is only for Piracy')
        pirate = state.pirates[seat]
        column = pirate.columns[chosen.column].fill(state.sheet.index(chosen.box), chosen.points or 0, mark)
        state = state.with_pirate(seat, pirate.with_column(chosen.column, column))
        if chosen.scuttle:
            words = f"{player} scuttles {chosen.label}{where} (0) with {show(dice)}."
        else:
            how = " (max potential)" if chosen.how == "max_potential" else ""
            words = f"{player} scores {chosen.points} in {chosen.label}{where}{how} with {show(dice)}."
        events.append(
            event(
                "scored",
                words,
                player=player,
                box=chosen.box,
                points=chosen.points,
                column=chosen.column + 1,
                scuttle=chosen.scuttle,
                dice=list(dice),
            )
        )
    if mark:
        events.append(specials.bonus_event(state, player))
    return end_turn(state, seat, events), events


def _pillage(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    turn = state.turn
    player = state.players[state.current]
    if not turn.piracy:
        raise IllegalAction(f"{player} is not on a Piracy roll")
    if turn.dice.pending is not None:
        raise IllegalAction(f"confirm the Piracy dice first ({turn.dice.pending.why})")
    if not turn.dice.settled:
        raise IllegalAction(f"{player} must make the Piracy roll first: all five dice")
    events: list[Event] = []
    state = specials.finish_piracy(state, action.get("target"), events)
    return state, events
