"""Yahtzee and Yacht: the plain score-sheet games, for any number of players.

Players take turns in seating order (the first listed starts). A turn is up to three rolls
of five dice, holding any between rolls, then one box filled in (see
:func:`~companion.games.scoresheet.options.options`): a zero ("scratch") may go in any open
box at any time. The game ends when every sheet is full; the highest total wins.

Yahtzee follows the official rules: upper bonus 35 at 63 or more; Full House 25, Small
Straight 30, Large Straight 40, Yahtzee 50; 3/4 of a kind and Chance score all the dice;
each later Yahtzee earns 100 while the Yahtzee box holds 50; and the joker rule, a setting:
``forced`` (official: the matching upper box if open, else any lower box where Full House
and straights score in full, else a zero in an upper box), ``free`` (any box; the full
values once the matching upper box is filled) or ``none``.

Yacht is the classic game: Full House scores the sum of the dice, Four of a Kind the four
matching dice, Little (1-5) and Big (2-6) Straight 30 each, Choice the sum, Yacht 50; no
bonus. Five of a kind is not a Full House in either game (except as a Yahtzee joker).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    Event,
    IllegalAction,
    Rule,
    Summary,
    action_type,
    check_players,
    event,
    get_field,
    get_player,
    resolve_config,
    shown,
)
from companion.games.scoresheet import turn as turn_mod
from companion.games.scoresheet.dice import keeps, show
from companion.games.scoresheet.options import Option, options
from companion.games.scoresheet.presets import PRESETS
from companion.games.scoresheet.presets import sheet as build_sheet
from companion.games.scoresheet.sheet import Column, Sheet, tally
from companion.games.scoresheet.turn import MAX_ROLLS, Turn


@dataclass(frozen=True)
class SheetState:
    """A game of a plain score-sheet preset: one column per player, whose turn, the dice."""

    sheet: Sheet
    players: tuple[str, ...]
    columns: tuple[Column, ...]
    current: int
    turn: Turn
    turns: tuple[int, ...]
    over: bool


def _actions_help(name: str, example_box: str) -> str:
    return f"""\
{name} actions (seating order; the first listed starts):
  {{"type": "roll", "player": "Ana", "dice": [3, 3, 5, 1, 6]}}              first roll: all five dice as read
  {{"type": "roll", "player": "Ana", "keep": [3, 3], "dice": [3, 2, 4]}}    hold the 3s, roll three dice again
  {{"type": "roll", "player": "Ana", "keep": [3, 3], "from": "camera"}}     let the camera read the dice
  {{"type": "confirm", "player": "Ana", "dice": [3, 2, 4]}}                 confirm dice the camera was unsure of
  {{"type": "score", "player": "Ana", "box": "{example_box}"}}           fill in a box (0 if the dice do not fit)"""


class SheetGame:
    """A plain score-sheet game on one preset (the engine protocol of :mod:`companion.games.base`)."""

    MIN_PLAYERS = 1
    MAX_PLAYERS = 10

    def __init__(self, preset: str, example_box: str, doc: str) -> None:
        self.preset = PRESETS[preset]
        self.NAME = self.preset.name
        self.TITLE = self.preset.title
        self.RULES: tuple[Rule, ...] = self.preset.rules
        self.ACTIONS_HELP = _actions_help(self.TITLE, example_box)
        self.__doc__ = doc

    def __repr__(self) -> str:
        return f"<game {self.NAME}>"

    # -- protocol ---------------------------------------------------------------------------

    def initial_state(self, config: Mapping[str, Any], players: Sequence[str], seed: int) -> SheetState:
        """A new game: empty sheets, the first seat to roll.

        Raises:
            ConfigError: a bad seating or house rule.
        """
        names = check_players(players, self.MIN_PLAYERS, self.MAX_PLAYERS, self.TITLE)
        sheet = build_sheet(self.NAME, resolve_config(self.RULES, config))
        return SheetState(sheet, names, (Column.empty(sheet),) * len(names), 0, Turn(), (0,) * len(names), False)

    def options(self, state: SheetState, dice: Sequence[int] | None = None) -> list[Option]:
        """Where ``dice`` (default: the dice in play) may be scored by the player to act, best first."""
        if state.over:
            return []
        rolled = state.turn.dice if dice is None else tuple(dice)
        if not rolled:
            return []
        return options(state.sheet, (state.columns[state.current],), rolled)

    def legal_actions(self, state: SheetState) -> list[dict[str, Any]]:
        """Rolls (one per distinct hold, dice from the camera), confirmation, and every legal box."""
        if state.over:
            return []
        player = state.players[state.current]
        turn = state.turn
        if turn.pending is not None:
            return [{"type": "confirm", "player": player, "dice": list(turn.pending.seen)}]
        found: list[dict[str, Any]] = []
        if turn.rolls == 0:
            return [{"type": "roll", "player": player, "from": "camera"}]
        if turn.rolls < MAX_ROLLS:
            found += [{"type": "roll", "player": player, "keep": list(k), "from": "camera"} for k in keeps(turn.dice)]
        found += [{"type": "score", "player": player, "box": o.box} for o in self.options(state)]
        return found

    def apply(self, state: SheetState, action: Mapping[str, Any]) -> tuple[SheetState, list[Event]]:
        """Apply a roll, confirm or score.

        Raises:
            IllegalAction: out of turn, a fourth roll, a box that is filled or not allowed, bad dice.
        """
        kind = action_type(action)
        if state.over:
            raise IllegalAction("the game is over")
        player = get_player(action, state.players)
        if player != state.players[state.current]:
            raise IllegalAction(f"it is {state.players[state.current]}'s turn, not {player}'s")
        turn = state.turn
        if kind == "roll":
            if turn.pending is not None:
                raise IllegalAction(f"confirm the last roll first ({turn.pending.why})")
            if turn.rolls >= MAX_ROLLS:
                raise IllegalAction(f"{player} has had {MAX_ROLLS} rolls: choose a box to score")
            kept = turn_mod.parse_keep(action, turn)
            new = turn_mod.throw(turn, action, kept, (5 - len(kept),))
            return replace(state, turn=new), [_roll_event(player, new, kept)]
        if kind == "confirm":
            new = turn_mod.confirm(turn, action)
            return replace(state, turn=new), [
                event("confirmed", f"{player}'s dice: {show(new.dice)}.", player=player, dice=list(new.dice))
            ]
        if kind == "score":
            return self._score(state, player, action)
        raise IllegalAction(f"{self.TITLE} has no {shown(kind)} action (it has roll, confirm and score)")

    def _score(self, state: SheetState, player: str, action: Mapping[str, Any]) -> tuple[SheetState, list[Event]]:
        turn = state.turn
        if turn.pending is not None:
            raise IllegalAction(f"confirm the last roll first ({turn.pending.why})")
        if not turn.settled:
            raise IllegalAction(f"{player} must roll before scoring")
        name = get_field(action, "box", str)
        box = state.sheet.find(name)
        if box is None:
            raise IllegalAction(f"{self.TITLE} has no box called {shown(name)} (boxes: {', '.join(state.sheet.keys)})")
        choices = self.options(state)
        chosen = next((o for o in choices if o.box == box.key), None)
        if chosen is None:
            if state.columns[state.current].scores[state.sheet.index(box.key)] is not None:
                raise IllegalAction(f"{box.label} is already filled in")
            allowed = ", ".join(o.words(state.sheet.zero_word) for o in choices)
            raise IllegalAction(f"{show(turn.dice)} cannot go in {box.label} now; allowed: {allowed}")
        seat = state.current
        column = state.columns[seat].fill(state.sheet.index(box.key), chosen.points or 0, mark=chosen.bonus > 0)
        columns = (*state.columns[:seat], column, *state.columns[seat + 1 :])
        turns = (*state.turns[:seat], state.turns[seat] + 1, *state.turns[seat + 1 :])
        words = f"{player} scores {chosen.words(state.sheet.zero_word)} with {show(turn.dice)}."
        events = [
            event(
                "scored",
                words,
                player=player,
                box=box.key,
                points=chosen.points,
                bonus=chosen.bonus,
                dice=list(turn.dice),
            )
        ]
        over = all(c.full for c in columns)
        nxt = (seat + 1) % len(state.players)
        state = replace(state, columns=columns, turns=turns, turn=Turn(), current=0 if over else nxt, over=over)
        if over:
            s = self.summary(state)
            events.append(event("game_over", s.prompt, winners=list(s.winners)))
        return state, events

    def summary(self, state: SheetState) -> Summary:
        """Totals, whose turn, the dice and the options for them."""
        totals = {p: tally(state.sheet, c) for p, c in zip(state.players, state.columns, strict=False)}
        scores = {p: float(t.total) for p, t in totals.items()}
        detail: dict[str, Any] = {
            "sheet": state.sheet.to_json(),
            "sheets": {
                p: {
                    "boxes": dict(zip(state.sheet.keys, c.scores, strict=False)),
                    "marks": c.marks,
                    **totals[p].to_json(),
                }
                for p, c in zip(state.players, state.columns, strict=False)
            },
            "turn": {
                "player": None if state.over else state.players[state.current],
                "max_rolls": MAX_ROLLS,
                **state.turn.to_json(),
            },
            "options": [o.to_json() for o in self.options(state)] if state.turn.settled else [],
        }
        if state.over:
            best = max(scores.values())
            winners = tuple(p for p, s in scores.items() if s == best)
            prompt = f"Game over: {' and '.join(winners)} win{'s' * (len(winners) == 1)} with {best:g}."
            return Summary(scores, (), prompt, True, winners, detail)
        player = state.players[state.current]
        return Summary(scores, (player,), _prompt(self, state, player), False, (), detail)


def _roll_event(player: str, turn: Turn, kept: tuple[int, ...]) -> Event:
    held = f", holding {show(kept)}" if kept else ""
    if turn.pending is not None:
        return event(
            "rolled",
            f"{player} rolls{held}; {turn.pending.why}: confirm the dice.",
            player=player,
            roll=turn.rolls,
            kept=list(kept),
            seen=list(turn.pending.seen),
        )
    return event(
        "rolled",
        f"{player} rolls{held}: {show(turn.dice)}.",
        player=player,
        roll=turn.rolls,
        kept=list(kept),
        dice=list(turn.dice),
    )


def _prompt(game: SheetGame, state: SheetState, player: str) -> str:
    turn = state.turn
    if turn.pending is not None:
        return f"{player}: {turn.pending.why}; confirm the dice (seen {show(turn.pending.seen)})."
    if turn.rolls == 0:
        return f"{player}: roll all five dice."
    found = game.options(state)
    listed = "; ".join(o.words(state.sheet.zero_word) for o in found[:3]) + ("; ..." if len(found) > 3 else "")
    left = MAX_ROLLS - turn.rolls
    again = f"hold and roll again ({left} left) or " if left else ""
    return f"{player} has {show(turn.dice)}: {again}score it ({listed})."


YAHTZEE = SheetGame("yahtzee", "full_house", __doc__ or "")
YACHT = SheetGame("yacht", "full_house", __doc__ or "")
