"""Swashbuckle's immutable match state."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.games.scoresheet.sheet import Column, Sheet
from companion.games.scoresheet.turn import Turn
from companion.games.swashbuckle.settings import Settings

ROLL_OFF = "roll_off"
PLAY = "play"
OVER = "over"

#: A cursed turn: not cursed; cursed and not rolled yet; playing with four dice; rolled
#: five dice and not reminded yet; the curse was forfeited.
CURSE_STATES = ("none", "waiting", "active", "forgotten", "forfeit")


@dataclass(frozen=True)
class Pirate:
    """One player's sheet(s) and once-per-match boxes.

    ``pillaged[c]`` is what Piracy took from column ``c`` (0 or less) and
    ``pillaged_by[c]`` who took it. ``curse`` is the name in their Curse box.
    ``penalties`` counts points lost to the etiquette and calculator rules.
    """

    name: str
    columns: tuple[Column, ...]
    pillaged: tuple[int, ...]
    pillaged_by: tuple[str | None, ...]
    hornswaggle: bool = False
    curse: str | None = None
    curse_forfeit: bool = False
    penalties: int = 0
    turns: int = 0

    @property
    def done(self) -> bool:
        """Every box of every column is filled."""
        return all(c.full for c in self.columns)

    def with_column(self, index: int, column: Column) -> Pirate:
        return replace(self, columns=(*self.columns[:index], column, *self.columns[index + 1 :]))


@dataclass(frozen=True)
class SwashTurn:
    """The turn in progress: its dice, the curse on it, and a Piracy roll under way."""

    dice: Turn = field(default_factory=Turn)
    curse: str = "none"
    cursed_by: int | None = None
    piracy: bool = False
    piracy_column: int = 0
    hornswaggled: bool = False
    piracy_hornswaggled: bool = False

    @property
    def cursed(self) -> bool:
        """The turn is played with four dice under the curse's scoring."""
        return self.curse == "active"


@dataclass(frozen=True)
class Curse:
    """A curse waiting for its target's next turn."""

    target: int
    cursor: int


@dataclass(frozen=True)
class SwashState:
    """A Swashbuckle match.

    ``roll_off`` holds this round's die per seat (None: not rolled yet) while finding who
    starts. ``curse_window`` is the seat that has just finished a turn and may still
    curse until the next roll. ``captain`` is the seat of the Captain, if seated.
    """

    sheet: Sheet
    settings: Settings
    players: tuple[str, ...]
    pirates: tuple[Pirate, ...]
    phase: str
    current: int
    turn: SwashTurn
    roll_off: tuple[int | None, ...] = ()
    roll_off_round: int = 0
    curses: tuple[Curse, ...] = ()
    curse_window: int | None = None
    davy_jones: int | None = None
    captain: int | None = None
    seed: int = 0

    def with_pirate(self, seat: int, pirate: Pirate) -> SwashState:
        return replace(self, pirates=(*self.pirates[:seat], pirate, *self.pirates[seat + 1 :]))
