"""Adding up a Swashbuckle sheet: the tallies printed under each section, and Total Plunder.

Per column: Crow's Nest Subtotal, Blimey Bonus, Crow's Nest Tally; the Bilge boxes,
Swashbuckle Bonus Tally (50 per X), Smooth sailing (once the column is full without a
scuttle), Pillaged, Hornswaggle; Bilge Tally; Total Plunder. The once-per-match
Hornswaggle is written in the first column. Etiquette and calculator penalties come off
the player's match total, after the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.scoresheet.sheet import tally
from companion.games.swashbuckle.state import Pirate, SwashState


@dataclass(frozen=True)
class ColumnTally:
    """One column's rows, as printed on the score sheet."""

    crows_nest_subtotal: int
    blimey_bonus: int
    crows_nest_tally: int
    bilge_boxes: int
    swashbuckle_bonus_marks: int
    swashbuckle_bonus_tally: int
    smooth_sailing: int
    pillaged: int
    hornswaggle: int
    bilge_tally: int
    total_plunder: int
    scuttles: int

    def to_json(self) -> dict[str, int]:
        return dict(self.__dict__)


def column_tally(state: SwashState, pirate: Pirate, index: int) -> ColumnTally:
    """The tallies of ``pirate``'s column ``index``."""
    column = pirate.columns[index]
    t = tally(state.sheet, column)
    hornswaggle = -state.settings.hornswaggle_points if pirate.hornswaggle and index == 0 else 0
    pillaged = pirate.pillaged[index]
    bilge = t.lower_total + pillaged + hornswaggle
    return ColumnTally(
        crows_nest_subtotal=t.upper,
        blimey_bonus=t.upper_bonus,
        crows_nest_tally=t.upper_total,
        bilge_boxes=t.lower,
        swashbuckle_bonus_marks=column.marks,
        swashbuckle_bonus_tally=t.extra_five_bonus,
        smooth_sailing=t.clean_bonus,
        pillaged=pillaged,
        hornswaggle=hornswaggle,
        bilge_tally=bilge,
        total_plunder=bilge + t.upper_total,
        scuttles=column.zeros,
    )


def player_total(state: SwashState, seat: int) -> int:
    """A player's match score: every column's Total Plunder, less penalties."""
    pirate = state.pirates[seat]
    return sum(column_tally(state, pirate, i).total_plunder for i in range(len(pirate.columns))) - pirate.penalties


def moniker_plunder(state: SwashState, seat: int) -> int:
    """The plunder monikers are judged on: the match score per column (Perfect Storm
    plays several), rounded down."""
    return player_total(state, seat) // len(state.pirates[seat].columns)


def display_name(state: SwashState, seat: int) -> str:
    """The player as the table calls them: ``Ana (Davy Jones)`` once their pirate name is Davy Jones."""
    name = state.players[seat]
    return f"{name} (Davy Jones)" if state.davy_jones == seat else name


def sheet_json(state: SwashState, seat: int) -> dict[str, Any]:
    """One player's whole sheet for screens: every box, the tallies, the match boxes."""
    pirate = state.pirates[seat]
    columns = []
    for i, column in enumerate(pirate.columns):
        columns.append(
            {
                "column": i + 1,
                "boxes": dict(zip(state.sheet.keys, column.scores, strict=False)),
                "pillaged_by": pirate.pillaged_by[i],
                **column_tally(state, pirate, i).to_json(),
            }
        )
    return {
        "name": pirate.name,
        "pirate_name": "Davy Jones" if state.davy_jones == seat else None,
        "columns": columns,
        "hornswaggle": -state.settings.hornswaggle_points if pirate.hornswaggle else None,
        "curse": pirate.curse,
        "curse_forfeit": pirate.curse_forfeit,
        "penalties": -pirate.penalties,
        "turns": pirate.turns,
        "total": player_total(state, seat),
    }
