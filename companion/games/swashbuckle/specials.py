"""Swashbuckle's special rules: Piracy and Pillaged, the Curse and its reminder, the
roll-off for who starts, and the etiquette and calculator penalties."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion.games.base import Event, IllegalAction, event, get_field, get_player
from companion.games.scoresheet import dice as dice_mod
from companion.games.scoresheet.dice import show
from companion.games.scoresheet.rules import ExtraRoll, counts, five_alike
from companion.games.swashbuckle.flow import begin_turn, end_turn
from companion.games.swashbuckle.state import PLAY, ROLL_OFF, Curse, SwashState

PIRACY = "piracy"
FIVE_BOX = "swashbuckle"


# -- Piracy and Pillaged --------------------------------------------------------------------


def has_pillaged(state: SwashState, seat: int, column: int) -> bool:
    """Whether ``seat`` has already pillaged someone from ``column``."""
    name = state.players[seat]
    return any(column < len(p.pillaged_by) and p.pillaged_by[column] == name for p in state.pirates)


def pillage_targets(state: SwashState, seat: int, column: int) -> list[int]:
    """Seats that ``seat`` may pillage from ``column``: anyone else not yet pillaged there.

    "A player may only pillage or be pillaged one time" (``pillage_once``): with
    ``each_way`` a pirate is pillaged at most once and pillages at most once (their Piracy
    box takes care of that); with ``either`` a pirate takes part in one pillage only, so
    one who has pillaged cannot be pillaged and one who has been pillaged pillages nobody.
    Empty when plunder is only added (non-standard rule 5).
    """
    if state.settings.pillage_mode == "add":
        return []
    either = state.settings.pillage_once == "either"
    if either and state.pirates[seat].pillaged_by[column] is not None:
        return []
    return [
        i
        for i, p in enumerate(state.pirates)
        if i != seat
        and column < len(p.pillaged_by)
        and p.pillaged_by[column] is None
        and not (either and has_pillaged(state, i, column))
    ]


def no_target_reason(state: SwashState, seat: int, column: int) -> str:
    """Why ``seat``'s plunder from ``column`` is pillaged from nobody (when it is)."""
    if state.settings.pillage_mode == "add":
        return "plunder is added, not stolen"
    if len(state.players) == 1:
        return "nobody else is playing"
    if state.settings.pillage_once == "either" and state.pirates[seat].pillaged_by[column] is not None:
        return f"{state.players[seat]} has been pillaged, so pillages nobody (house rule pillage_once=either)"
    return "nobody is left to pillage"


def _target_seat(state: SwashState, seat: int, column: int, target: Any) -> int | None:
    """The seat to pillage: the one named, the only one possible, or None when nobody can be.

    Raises:
        IllegalAction: a target that may not be pillaged, or a choice left unmade.
    """
    eligible = pillage_targets(state, seat, column)
    player = state.players[seat]
    if target is None:
        if len(eligible) > 1:
            names = ", ".join(state.players[i] for i in eligible)
            raise IllegalAction(f'{player} must choose whom to pillage: "target" one of {names}')
        return eligible[0] if eligible else None
    if state.settings.pillage_mode == "add":
        raise IllegalAction("with plunder added rather than stolen, nobody is pillaged: leave out the target")
    name = get_player({"target": target}, state.players, "target")
    t = state.players.index(name)
    if t == seat:
        raise IllegalAction(f"{player} cannot pillage themselves")
    if t not in eligible:
        if not eligible and state.settings.pillage_once == "either" and state.pirates[seat].pillaged_by[column]:
            raise IllegalAction(f"{player} has been pillaged, so pillages nobody (house rule pillage_once=either)")
        if state.settings.pillage_once == "either" and has_pillaged(state, t, column):
            raise IllegalAction(f"{name} has pillaged already, so cannot be pillaged (house rule pillage_once=either)")
        raise IllegalAction(f"{name} has already been pillaged; a pirate is pillaged only once")
    return t


def plunder(
    state: SwashState, seat: int, column: int, value: int, *, mark: bool, target: Any, events: list[Event]
) -> SwashState:
    """Write ``value`` in ``seat``'s Piracy box and take it from the target's Pillaged box."""
    victim = _target_seat(state, seat, column, target)
    player = state.players[seat]
    pirate = state.pirates[seat]
    index = state.sheet.index(PIRACY)
    state = state.with_pirate(seat, pirate.with_column(column, pirate.columns[column].fill(index, value, mark)))
    if victim is None:
        why = no_target_reason(state, seat, column)
        events.append(
            event(
                "piracy", f"{player} scores {value} in Piracy ({why}).", player=player, points=value, column=column + 1
            )
        )
        return state
    loss = value
    if state.settings.captain_double_pillage and victim == state.captain:
        loss = 2 * value
    target = state.pirates[victim]
    pillaged = (*target.pillaged[:column], target.pillaged[column] - loss, *target.pillaged[column + 1 :])
    by = (*target.pillaged_by[:column], player, *target.pillaged_by[column + 1 :])
    state = state.with_pirate(victim, replace(target, pillaged=pillaged, pillaged_by=by))
    double = " (double: the Captain pays twice)" if loss != value else ""
    events.append(
        event(
            "piracy",
            f"{player} scores {value} in Piracy and pillages {state.players[victim]} for {loss}{double}.",
            player=player,
            points=value,
            target=state.players[victim],
            loss=loss,
            column=column + 1,
        )
    )
    return state


def finish_piracy(state: SwashState, target: Any, events: list[Event]) -> SwashState:
    """Score the Piracy roll on the table: its sum (or the five-alike figure), the bonus X,
    Davy Jones, the pillage; then the turn ends."""
    seat = state.current
    turn = state.turn
    c = counts(turn.dice.dice)
    rule = state.sheet.box(PIRACY).rule
    assert isinstance(rule, ExtraRoll)
    value = rule.plunder(c)
    five = five_alike(c)
    column = state.pirates[seat].columns[turn.piracy_column]
    mark = five and (column.scores[state.sheet.index(FIVE_BOX)] or 0) > 0
    player = state.players[seat]
    state = plunder(state, seat, turn.piracy_column, value, mark=mark, target=target, events=events)
    if five:
        events.append(event("piracy_swashbuckle", f"A Swashbuckle on the Piracy roll counts {value}.", player=player))
    if mark:
        events.append(bonus_event(state, player))
    if five and turn.piracy_hornswaggled:
        state = _davy_jones(state, seat, events)
    return end_turn(state, seat, events)


def bonus_event(state: SwashState, player: str) -> Event:
    """The event for an X in Swashbuckle Bonus."""
    pts = state.sheet.extra_five_bonus
    return event("swashbuckle_bonus", f"{player} marks an X in Swashbuckle Bonus (+{pts}).", player=player, points=pts)


def _davy_jones(state: SwashState, seat: int, events: list[Event]) -> SwashState:
    player = state.players[seat]
    events.append(
        event(
            "davy_jones",
            f"{player} rolled a Swashbuckle on a Hornswaggled Piracy roll and bears the dark heart of "
            "Davy Jones: their pirate name is now Davy Jones.",
            player=player,
        )
    )
    old = state.davy_jones
    if old is not None and old != seat:
        events.append(
            event(
                "davy_jones_renamed",
                f"{state.players[old]}, the original Davy Jones, must choose a new pirate name.",
                player=state.players[old],
            )
        )
    return replace(state, davy_jones=seat)


def maybe_finish_piracy(state: SwashState, events: list[Event]) -> SwashState:
    """After the Piracy dice settle: finish at once when nothing is left to decide (no
    Hornswaggle to take, at most one pirate to pillage)."""
    turn = state.turn
    if not (turn.piracy and turn.dice.settled):
        return state
    seat = state.current
    can_hornswaggle = not state.pirates[seat].hornswaggle and turn.dice.rolls == 1
    if can_hornswaggle or len(pillage_targets(state, seat, turn.piracy_column)) > 1:
        return state
    return finish_piracy(state, None, events)


# -- the Curse -------------------------------------------------------------------------------


def curse(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    """Lay a curse: at the end of one's own turn, once per match, on another player's next turn.

    Raises:
        IllegalAction: not the end of the curser's turn, curse used, a bad target.
    """
    if state.phase != PLAY:
        raise IllegalAction("curses are laid during the match, at the end of your own turn")
    player = get_player(action, state.players)
    seat = state.players.index(player)
    name = get_player(action, state.players, "target")
    target = state.players.index(name)
    pirate = state.pirates[seat]
    if pirate.curse is not None:
        raise IllegalAction(f"{player} has already used their curse this match")
    if state.curse_window != seat:
        raise IllegalAction(f"{player} can curse only at the end of their own turn, before the next roll")
    if target == seat:
        raise IllegalAction("a curse is laid on another player")
    if state.pirates[target].done:
        raise IllegalAction(f"{name} has no turns left to curse")
    already = any(c.target == target for c in state.curses) or (target == state.current and state.turn.curse != "none")
    if already:
        raise IllegalAction(f"{name} is already cursed for their next turn")
    curses = (*state.curses, Curse(target, seat))
    words = f"{player} curses {name}: their next turn is rolled with four dice."
    if state.settings.solo_challenge:
        if state.pirates[target].turns > 0:
            raise IllegalAction(f"{name} has already started their sheet; a challenge curse hits the first turn")
        if pirate.done:
            raise IllegalAction(f"{player} must roll one of their own turns cursed and has none left")
        curses += (Curse(seat, seat),)
        words = f"{player} curses {name}'s first turn, and must roll one of their own turns cursed too."
    state = state.with_pirate(seat, replace(pirate, curse=name))
    state = replace(state, curses=curses)
    events = [event("curse", words, player=player, target=name)]
    if state.turn.dice.rolls == 0 and not state.turn.piracy and state.turn.curse == "none":
        # the turn that the curse hits may already be the one waiting to start
        state = begin_turn(state, state.current, events)
    return state, events


def forfeit(state: SwashState, why: str, events: list[Event]) -> SwashState:
    """The cursed player was not reminded in time: the curse is lost to the curser."""
    turn = state.turn
    cursor = turn.cursed_by
    assert cursor is not None
    state = state.with_pirate(cursor, replace(state.pirates[cursor], curse_forfeit=True))
    events.append(
        event(
            "curse_forfeit",
            f"{state.players[state.current]} {why} without being reminded: {state.players[cursor]}'s curse is forfeit.",
            player=state.players[state.current],
            cursor=state.players[cursor],
        )
    )
    return replace(state, turn=replace(turn, curse="forfeit"))


def remind(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    """A cursed player who rolled five dice is reminded before their third roll: the die
    the curser picks (``"remove"``) leaves play.

    Raises:
        IllegalAction: nobody to remind, too late, or a die that is not in play.
    """
    if state.phase != PLAY:
        raise IllegalAction("nobody is cursed before the match starts")
    reminder = get_player(action, state.players)
    turn = state.turn
    cursed = state.players[state.current]
    if turn.curse != "forgotten":
        reason = {
            "none": f"{cursed} is not cursed this turn",
            "waiting": f"{cursed} has not rolled yet: just roll four dice",
            "active": f"{cursed} is already rolling four dice",
            "forfeit": "too late: the curse was forfeited",
        }[turn.curse]
        raise IllegalAction(reason)
    if reminder == cursed and turn.cursed_by != state.current:
        raise IllegalAction("another player does the reminding")
    if turn.dice.pending is not None:
        raise IllegalAction(f"confirm the dice first ({turn.dice.pending.why})")
    value = get_field(action, "remove", int)
    if value not in turn.dice.dice:
        raise IllegalAction(f"there is no {value} among {show(turn.dice.dice)} to remove")
    dice = dice_mod.remove(turn.dice.dice, (value,))
    cursor = state.players[turn.cursed_by] if turn.cursed_by is not None else "the curser"
    new_turn = replace(turn, dice=replace(turn.dice, dice=dice), curse="active")
    events = [
        event(
            "reminded",
            f"{reminder} reminds {cursed} of the curse; {cursor} takes a {value} out of play: {show(dice)}.",
            player=reminder,
            cursed=cursed,
            removed=value,
            dice=list(dice),
        )
    ]
    return replace(state, turn=new_turn), events


# -- who starts -------------------------------------------------------------------------------


def roll_off(state: SwashState, action: Mapping[str, Any]) -> tuple[SwashState, list[Event]]:
    """One player's die in the roll-off; once everyone has rolled, the highest unmatched die starts.

    Raises:
        IllegalAction: not rolling off now, rolled already, or not exactly one die.
    """
    if state.phase != ROLL_OFF:
        raise IllegalAction("the starting player has already been found")
    player = get_player(action, state.players)
    seat = state.players.index(player)
    if state.roll_off[seat] is not None:
        raise IllegalAction(f"{player} has already rolled ({state.roll_off[seat]}) in this roll-off")
    reading = dice_mod.read(action, (), (1,))
    if reading.dice is None:
        raise IllegalAction(f"{reading.why}: type the die")
    value = reading.dice[0]
    rolls = (*state.roll_off[:seat], value, *state.roll_off[seat + 1 :])
    events = [event("roll_off", f"{player} rolls {value} for the start.", player=player, die=value)]
    if any(r is None for r in rolls):
        return replace(state, roll_off=rolls), events
    values = [r or 0 for r in rolls]
    scored = [v if values.count(v) == 1 else 0 for v in values]
    best = max(scored)
    if best == 0:
        events.append(event("roll_off_again", "Everyone tied: all roll again.", round=state.roll_off_round + 1))
        return replace(state, roll_off=(None,) * len(rolls), roll_off_round=state.roll_off_round + 1), events
    starter = scored.index(best)
    tied = sorted({v for v in values if values.count(v) > 1})
    note = f" (tied {', '.join(map(str, tied))} count 0)" if tied else ""
    events.append(
        event(
            "starts",
            f"{state.players[starter]} starts with {best}{note}; play goes to the left.",
            player=state.players[starter],
        )
    )
    return begin_turn(replace(state, roll_off=rolls), starter, events), events


# -- penalties --------------------------------------------------------------------------------


def penalty(state: SwashState, action: Mapping[str, Any], kind: str) -> tuple[SwashState, list[Event]]:
    """A point penalty: ``etiquette`` (-1) or ``calculator`` (the table's figure).

    Raises:
        IllegalAction: the rule is not in play at this table.
    """
    player = get_player(action, state.players)
    seat = state.players.index(player)
    if kind == "etiquette":
        if not state.settings.etiquette_penalty:
            raise IllegalAction("the moniker-etiquette penalty is not in play at this table")
        points = 1
        why = "addressed a shipmate without moniker or pirate name"
    else:
        points = state.settings.calculator_penalty
        if points <= 0:
            raise IllegalAction("the calculator penalty is not in play at this table")
        why = "used a calculator"
    pirate = state.pirates[seat]
    state = state.with_pirate(seat, replace(pirate, penalties=pirate.penalties + points))
    return state, [event("penalty", f"{player} {why}: -{points}.", player=player, points=-points, reason=kind)]
