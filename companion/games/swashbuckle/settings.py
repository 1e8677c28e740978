"""Swashbuckle's house-rule settings: the sheet's open values and the table options.

The sheet values (box points the rulebook leaves open, the Blimey Bonus, the waterline,
Piracy's figures) live with the preset in
:data:`companion.games.scoresheet.presets.SWASHBUCKLE_SHEET_RULES`; the table options
(who starts, the non-standard rules) are here. ``docs/rules/swashbuckle.md`` explains each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import Rule, resolve_config
from companion.games.scoresheet.presets import SWASHBUCKLE_SHEET_RULES

TABLE_RULES: tuple[Rule, ...] = (
    Rule(
        "who_starts",
        "roll_off",
        "how the first player is found when no Captain is seated: a roll-off of one "
        "die each (ties count 0), or the first seat",
        choices=("roll_off", "seating"),
    ),
    Rule(
        "captain",
        "",
        "the player holding the Captain moniker (set from the profiles when a game starts); if seated, they start",
    ),
    Rule(
        "davy_jones",
        "",
        "the player whose pirate name is Davy Jones (set from the profiles when a game "
        "starts): shown with that name, and told to choose another if a new Davy Jones rises",
    ),
    Rule(
        "pillage_once",
        "each_way",
        "'a player may only pillage or be pillaged one time': once each way (a "
        "pirate pillages once and is pillaged once), or once in all (a pirate who has pillaged cannot be "
        "pillaged, and one who has been pillaged pillages nobody)",
        choices=("each_way", "either"),
    ),
    Rule("hornswaggle_points", 15, "points the once-per-match extra roll (Hornswaggle) costs", minimum=0),
    Rule("captain_double_pillage", False, "non-standard rule 4: a Captain loses double on a pillage"),
    Rule(
        "pillage_mode",
        "steal",
        "non-standard rule 5: 'steal' (the plunder is taken from the target) or 'add' "
        "(it is only added to the pirate's Piracy box)",
        choices=("steal", "add"),
    ),
    Rule(
        "columns",
        1,
        "non-standard rule 6, Perfect Storm: score columns per player (each turn fills a box in any of them)",
        minimum=1,
        maximum=6,
    ),
    Rule(
        "solo_challenge",
        False,
        "non-standard rule 1: each player plays their whole sheet in turn, in seating "
        "order (the challenger first); a curse hits the target's first turn and one of the curser's own",
    ),
    Rule(
        "etiquette_penalty",
        False,
        "non-standard rule 3: a player who addresses another without moniker or pirate name loses a point (one tap)",
    ),
    Rule(
        "calculator_penalty",
        0,
        "non-standard rule 2: points lost each time a player uses a calculator (0: off)",
        minimum=0,
    ),
)

RULES: tuple[Rule, ...] = SWASHBUCKLE_SHEET_RULES + TABLE_RULES


@dataclass(frozen=True)
class Settings:
    """The table options in effect for one match (the sheet's own values are in its Sheet)."""

    who_starts: str = "roll_off"
    captain: str = ""
    davy_jones: str = ""
    pillage_once: str = "each_way"
    hornswaggle_points: int = 15
    captain_double_pillage: bool = False
    pillage_mode: str = "steal"
    columns: int = 1
    solo_challenge: bool = False
    etiquette_penalty: bool = False
    calculator_penalty: int = 0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Settings:
        """Settings from a resolved config (unknown keys are the sheet's and are ignored)."""
        return cls(**{r.key: config[r.key] for r in TABLE_RULES})


def resolve(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """Every setting's value: defaults with ``config`` applied.

    Raises:
        ConfigError: an unknown setting or a bad value.
    """
    return resolve_config(RULES, config)
