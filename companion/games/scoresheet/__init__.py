"""Data-driven dice score sheets: boxes, presets, scoring options, turns.

- :mod:`.rules`: scoring rules, pure functions of dice counts and an explicit context;
- :mod:`.sheet`: :class:`Box`, :class:`Sheet` (a preset), :class:`Column`, :func:`tally`;
- :mod:`.presets`: Swashbuckle, Yahtzee and Yacht as data (``sheet("yahtzee")``);
- :mod:`.options`: every legal box for a roll, best first;
- :mod:`.dice`, :mod:`.turn`: reading dice from actions, rolls and holds;
- :mod:`.classic`: the Yahtzee and Yacht games.
"""

from companion.games.scoresheet.options import Option, options
from companion.games.scoresheet.presets import PRESETS, Preset, sheet
from companion.games.scoresheet.rules import Context, counts
from companion.games.scoresheet.sheet import LOWER, UPPER, Box, Column, Sheet, Tally, tally

__all__ = [
    "LOWER",
    "PRESETS",
    "UPPER",
    "Box",
    "Column",
    "Context",
    "Option",
    "Preset",
    "Sheet",
    "Tally",
    "counts",
    "options",
    "sheet",
    "tally",
]
