"""Swashbuckle (yachtsea.org, rules 1.4): the pirate dice game of 16 score boxes.

How Purser reads the rulebook (every open value is a setting; ``docs/rules/swashbuckle.md``
has the full table):

- **Sheet.** Crow's Nest: Ones-Sixes (the matching dice), Subtotal, Blimey Bonus (+45 when
  the subtotal is higher than 67), Tally. Bilge: 3 Alike and 4 Alike (sum of all dice),
  Aces High (4+ ones), Full Boat (25; three of one number and two of *another*), Succession
  of 4 and of 5 (a 5-run also counts as a 4-run), Pieces of 8 (dice total exactly 8),
  Flotsam (sum), Piracy, Swashbuckle (five alike, 50). Points the text leaves open are
  settings: Succession 30/40, Aces High 40, Pieces of 8 30.
- **Turn.** Up to three rolls, holding any dice; then one box. A zero (scuttle) is allowed
  only when nothing scores, and only above the waterline (``waterline_after``; by default
  the line is drawn under Swashbuckle, so every box can be scuttled).
- **Hornswaggle**: once per match, a fourth roll (or a second Piracy roll), -15.
- **Piracy**: on a 5-run the pirate rolls all five dice once more; the sum (40 for five
  alike) goes in Piracy and comes off one chosen player's Pillaged box. "A player may
  only pillage or be pillaged one time" is ``pillage_once``: once each way (default), or
  once in all (per column in Perfect Storm). With nobody left to pillage the plunder
  still scores. Five alike on a Hornswaggled Piracy roll makes the pirate Davy Jones: the
  name sticks (standings, profile, the next match through ``davy_jones``), and an earlier
  Davy Jones must pick a new name.
- **Swashbuckle Bonus**: five alike while the Swashbuckle box holds points earns an X
  (+50), wherever it is scored (Piracy roll included). If no open box takes it, the player
  fills any open box with its max potential (Piracy: 36, pillaging another player 36).
- **Curse**: once per match, at the end of one's own turn (until the next roll), on another
  player's next turn: four dice, no Swashbuckle, 4 Alike doubled. A cursed player who
  rolls five and is reminded before the third roll loses a die of the curser's choice; one
  who reaches the third roll or finishes the turn unreminded makes the curse forfeit.
- **Smooth sailing**: +10 for a finished column without a scuttle.
- **Who starts**: a seated Captain; otherwise each player rolls one die, tied dice count 0,
  everyone re-rolls if all tie. Play goes round the seats in order.
- **Non-standard rules** (settings): a Captain loses double when pillaged; plunder added
  instead of stolen; Perfect Storm columns; the solo challenge; the etiquette and
  calculator penalties.
- **Monikers** come from a group's finished matches: :mod:`.monikers`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.scoresheet.options import Option
from companion.games.swashbuckle.engine import MAX_PLAYERS, MIN_PLAYERS, TITLE, apply, current_options, initial_state
from companion.games.swashbuckle.monikers import CAPTAIN, MatchResult, titles
from companion.games.swashbuckle.settings import RULES
from companion.games.swashbuckle.state import SwashState
from companion.games.swashbuckle.view import legal_actions, summary

NAME = "swashbuckle"
DAVY_JONES = "Davy Jones"

ACTIONS_HELP = """\
Swashbuckle actions (dice as read from the table; "from": "camera" instead of "dice" reads them):
  {"type": "roll_off", "player": "Ana", "dice": [5]}                       who starts: one die each
  {"type": "roll", "player": "Ana", "dice": [1, 1, 3, 3, 5]}               first roll (four dice when cursed)
  {"type": "roll", "player": "Ana", "keep": [1, 1, 3, 3], "dice": [1]}     hold dice, roll the rest
  {"type": "roll", "player": "Ana", "keep": [1, 1], "dice": [2, 4, 6], "hornswaggle": true}   extra roll (-15)
  {"type": "confirm", "player": "Ana", "dice": [1, 1, 3, 3, 1]}            settle dice the camera was unsure of
  {"type": "score", "player": "Ana", "box": "full_boat"}                   fill a box (a scuttle when nothing scores)
  {"type": "score", "player": "Ana", "box": "piracy"}                      Piracy: then roll all five dice again
  {"type": "pillage", "player": "Ana", "target": "Ben"}                    steal the Piracy roll from Ben
  {"type": "score", "player": "Ana", "box": "piracy"}                      ... or score it when nobody is pillaged
  {"type": "curse", "player": "Ana", "target": "Ben"}                      after your turn: Ben's next turn is cursed
  {"type": "remind", "player": "Cy", "remove": 6}                          a cursed player rolled five: take a 6 away
  {"type": "etiquette", "player": "Ben"}                                   Ben forgot a moniker: -1 (if in play)
With Perfect Storm columns, add "column": 1, 2, ... to "score"."""


def options(state: SwashState, dice: Sequence[int] | None = None) -> list[Option]:
    """Every legal box for ``dice`` (default: the dice in play) with its points, best first;
    scuttles are marked (``Option.scuttle``)."""
    return current_options(state, dice)


def rules_from_profiles(profiles: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """House-rule values the seated players' profiles imply: who holds the Captain moniker,
    and whose pirate name is Davy Jones."""
    rules: dict[str, Any] = {}
    for name, profile in profiles.items():
        data = profile.get(NAME) or {}
        if not isinstance(data, Mapping):
            continue
        if data.get("moniker") == CAPTAIN.key and "captain" not in rules:
            rules["captain"] = name
        if data.get("pirate_name") == DAVY_JONES and "davy_jones" not in rules:
            rules["davy_jones"] = name
    return rules


def titles_from_results(results: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every player's titles from finished matches' stored results (summaries as JSON,
    oldest first), as JSON for their profiles.

    The pirate name Davy Jones belongs to whoever became Davy Jones last ("if another
    Davy Jones be in play, Original Davy Jones/Joneses must change their pirate name/s");
    an earlier Davy Jones is marked ``must_rename``.
    """
    history = []
    joneses: list[str] = []
    for result in results:
        detail = result.get("detail") or {}
        plunder = detail.get("moniker_plunder") or result.get("scores") or {}
        history.append(MatchResult.of({str(k): int(v) for k, v in plunder.items()}))
        jones = detail.get("davy_jones")
        if isinstance(jones, str) and jones and (not joneses or joneses[-1] != jones):
            joneses.append(jones)
    found = {name: t.to_json() for name, t in titles(history).items()}
    for name, t in titles(history).items():
        facts = found[name]
        if joneses and joneses[-1] == name:
            facts["pirate_name"] = DAVY_JONES
            facts["title"] = t.styled(DAVY_JONES)
        elif name in joneses:
            facts["pirate_name"] = None
            facts["must_rename"] = True
    return found


__all__ = [
    "ACTIONS_HELP",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NAME",
    "RULES",
    "TITLE",
    "apply",
    "initial_state",
    "legal_actions",
    "options",
    "rules_from_profiles",
    "summary",
    "titles_from_results",
]
