"""The score-sheet presets as data: Swashbuckle, Yahtzee and Yacht.

Each preset is a set of house-rule settings (:class:`~companion.games.base.Rule`) and a
builder that turns their values into a :class:`~companion.games.scoresheet.sheet.Sheet`.
``sheet("yahtzee", {"joker": "free"})`` is the usual way in; ``PRESETS`` lists them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import Rule, resolve_config
from companion.games.scoresheet.rules import (
    AllAlike,
    AtLeastFace,
    Chance,
    ExtraRoll,
    Faces,
    FullHouse,
    OfAKind,
    Straight,
    TotalOf,
)
from companion.games.scoresheet.sheet import LOWER, UPPER, Box, Sheet

_FACE_KEYS = ("ones", "twos", "threes", "fours", "fives", "sixes")
_FACE_LABELS = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")

SWASHBUCKLE_KEYS = (
    *_FACE_KEYS,
    "three_alike",
    "four_alike",
    "aces_high",
    "full_boat",
    "succession_4",
    "succession_5",
    "pieces_of_8",
    "flotsam",
    "piracy",
    "swashbuckle",
)

SWASHBUCKLE_SHEET_RULES: tuple[Rule, ...] = (
    Rule("full_boat_points", 25, "Full Boat (three of one number and two of another): points, as printed", minimum=0),
    Rule(
        "full_boat_five_alike",
        False,
        "whether five of a kind also counts as a Full Boat (the rulebook's 'full house for card players' says no)",
    ),
    Rule("succession_4_points", 30, "Succession of 4 (four in a row): points; the rulebook gives none", minimum=0),
    Rule("succession_5_points", 40, "Succession of 5 (five in a row): points; the rulebook gives none", minimum=0),
    Rule("aces_high_points", 40, "Aces High (four or more ones): points; the rulebook gives none", minimum=0),
    Rule(
        "pieces_of_8_points",
        30,
        "Pieces of 8 (the dice add up to exactly 8): points; the rulebook gives none",
        minimum=0,
    ),
    Rule("swashbuckle_points", 50, "Swashbuckle (five of a kind): points, as printed", minimum=0),
    Rule("blimey_threshold", 67, "Blimey Bonus when the Crow's Nest subtotal is higher than this", minimum=0),
    Rule("blimey_bonus", 45, "Blimey Bonus points", minimum=0),
    Rule(
        "swashbuckle_bonus_points",
        50,
        "points for each X in Swashbuckle Bonus (a later five of a kind while the Swashbuckle box holds points)",
        minimum=0,
    ),
    Rule("smooth_sailing_points", 10, "Smooth sailing: points for a finished column without a scuttle", minimum=0),
    Rule(
        "piracy_swashbuckle_points",
        40,
        "what five of a kind on the Piracy roll counts for, instead of its sum",
        minimum=0,
    ),
    Rule(
        "piracy_max_potential",
        36,
        "Piracy's 'max potential' under the Swashbuckle Bonus rule (the rulebook's 36)",
        minimum=0,
    ),
    Rule(
        "waterline_after",
        "swashbuckle",
        "the last box above the waterline: boxes printed after it cannot be "
        "scuttled (the rulebook draws the line under Swashbuckle, so every box can)",
        choices=SWASHBUCKLE_KEYS,
    ),
)

YAHTZEE_SHEET_RULES: tuple[Rule, ...] = (
    Rule(
        "joker",
        "forced",
        "a later Yahtzee (Yahtzee box filled): 'forced' official rule (its upper box if "
        "open, else any lower box at full value, else a zero above); 'free' any box, lower boxes at full value "
        "once its own upper box is filled (Verhoeff); 'none' no joker",
        choices=("forced", "free", "none"),
    ),
    Rule("yahtzee_bonus", 100, "points for each later Yahtzee while the Yahtzee box holds 50 (0: no bonus)", minimum=0),
    Rule("upper_bonus", 35, "upper section bonus points", minimum=0),
    Rule("upper_bonus_at", 63, "upper section subtotal that earns the bonus", minimum=0),
)

YACHT_SHEET_RULES: tuple[Rule, ...] = ()


def _faces() -> tuple[Box, ...]:
    return tuple(
        Box(k, label, UPPER, Faces(face)) for face, k, label in zip(range(1, 7), _FACE_KEYS, _FACE_LABELS, strict=False)
    )


def swashbuckle(config: Mapping[str, Any]) -> Sheet:
    """The Swashbuckle sheet: Crow's Nest (Ones-Sixes) and Bilge, 16 boxes."""
    c = config
    boxes = (
        *_faces(),
        Box("three_alike", "3 Alike", LOWER, OfAKind(3)),
        Box("four_alike", "4 Alike", LOWER, OfAKind(4), cursed_factor=2),
        Box("aces_high", "Aces High", LOWER, AtLeastFace(1, 4, c["aces_high_points"])),
        Box("full_boat", "Full Boat", LOWER, FullHouse(c["full_boat_points"], five_alike=c["full_boat_five_alike"])),
        Box("succession_4", "Succession of 4", LOWER, Straight(4, c["succession_4_points"])),
        Box("succession_5", "Succession of 5", LOWER, Straight(5, c["succession_5_points"])),
        Box("pieces_of_8", "Pieces of 8", LOWER, TotalOf(8, c["pieces_of_8_points"])),
        Box("flotsam", "Flotsam", LOWER, Chance()),
        Box("piracy", "Piracy", LOWER, ExtraRoll(5, c["piracy_max_potential"], c["piracy_swashbuckle_points"])),
        Box("swashbuckle", "Swashbuckle", LOWER, AllAlike(c["swashbuckle_points"]), cursed_allowed=False),
    )
    last_above = SWASHBUCKLE_KEYS.index(c["waterline_after"])
    boxes = tuple(
        Box(b.key, b.label, b.section, b.rule, i <= last_above, b.cursed_factor, b.cursed_allowed)
        for i, b in enumerate(boxes)
    )
    return Sheet(
        name="swashbuckle",
        title="Swashbuckle",
        boxes=boxes,
        upper_name="Crow's Nest",
        lower_name="Bilge",
        upper_bonus=c["blimey_bonus"],
        upper_bonus_at=c["blimey_threshold"] + 1,
        upper_bonus_label="Blimey Bonus",
        five_box="swashbuckle",
        extra_five="max_potential",
        extra_five_bonus=c["swashbuckle_bonus_points"],
        extra_five_label="Swashbuckle Bonus",
        zeros="stuck",
        clean_bonus=c["smooth_sailing_points"],
        clean_bonus_label="Smooth sailing",
        zero_word="scuttle",
    )


def yahtzee(config: Mapping[str, Any]) -> Sheet:
    """The official Yahtzee sheet, 13 boxes, with the joker rule chosen by ``joker``."""
    c = config
    boxes = _faces()
    boxes = (
        Box("ones", "Aces", UPPER, Faces(1)),
        *boxes[1:],
        Box("three_kind", "3 of a kind", LOWER, OfAKind(3)),
        Box("four_kind", "4 of a kind", LOWER, OfAKind(4)),
        Box("full_house", "Full House", LOWER, FullHouse(25)),
        Box("small_straight", "Small Straight", LOWER, Straight(4, 30)),
        Box("large_straight", "Large Straight", LOWER, Straight(5, 40)),
        Box("yahtzee", "Yahtzee", LOWER, AllAlike(50)),
        Box("chance", "Chance", LOWER, Chance()),
    )
    mode = {"forced": "joker_forced", "free": "joker_free", "none": "none"}[c["joker"]]
    return Sheet(
        name="yahtzee",
        title="Yahtzee",
        boxes=boxes,
        upper_name="Upper section",
        lower_name="Lower section",
        upper_bonus=c["upper_bonus"],
        upper_bonus_at=c["upper_bonus_at"],
        upper_bonus_label="Bonus",
        five_box="yahtzee",
        extra_five=mode,
        extra_five_bonus=c["yahtzee_bonus"],
        extra_five_label="Yahtzee bonus",
        zeros="any",
        zero_word="scratch",
    )


def yacht(config: Mapping[str, Any]) -> Sheet:
    """The classic Yacht sheet, 12 boxes, no bonus."""
    boxes = (
        *_faces(),
        Box("full_house", "Full House", LOWER, FullHouse(None)),
        Box("four_kind", "Four of a Kind", LOWER, OfAKind(4, "matching")),
        Box("little_straight", "Little Straight", LOWER, Straight(5, 30, (1, 2, 3, 4, 5))),
        Box("big_straight", "Big Straight", LOWER, Straight(5, 30, (2, 3, 4, 5, 6))),
        Box("choice", "Choice", LOWER, Chance()),
        Box("yacht", "Yacht", LOWER, AllAlike(50)),
    )
    return Sheet(
        name="yacht",
        title="Yacht",
        boxes=boxes,
        upper_name="Numbers",
        lower_name="Combinations",
        five_box="yacht",
        zeros="any",
        zero_word="scratch",
    )


@dataclass(frozen=True)
class Preset:
    """A named sheet: its settings and the builder that applies them."""

    name: str
    title: str
    rules: tuple[Rule, ...]
    build: Callable[[Mapping[str, Any]], Sheet]


PRESETS: dict[str, Preset] = {
    "swashbuckle": Preset("swashbuckle", "Swashbuckle", SWASHBUCKLE_SHEET_RULES, swashbuckle),
    "yahtzee": Preset("yahtzee", "Yahtzee", YAHTZEE_SHEET_RULES, yahtzee),
    "yacht": Preset("yacht", "Yacht", YACHT_SHEET_RULES, yacht),
}


def sheet(name: str, config: Mapping[str, Any] | None = None) -> Sheet:
    """The sheet of preset ``name`` with ``config`` applied over its defaults.

    Extra keys in ``config`` (a game's other house rules) are ignored.

    Raises:
        KeyError: no such preset.
        ConfigError: a bad setting value.
    """
    preset = PRESETS[name]
    keys = {r.key for r in preset.rules}
    values = resolve_config(preset.rules, {k: v for k, v in (config or {}).items() if k in keys})
    return preset.build(values)
