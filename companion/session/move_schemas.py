"""Per game, the shape of every action it takes, as JSON Schema fragments.

``SCHEMAS[game][type]`` maps each field an action of that type may carry to the JSON
Schema of its value (types, ranges, lengths). A field not listed is refused, so nothing
the rules do not read is ever stored. Whether a field is *needed*, and whether its value
is legal now, stays the engine's call: it answers in table language.

An engine may declare its own table as ``ACTION_SCHEMAS`` (the same shape); it is then
used instead of the entry here. Fields every action of a game may carry are under the
type ``"*"``.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]


def _int(low: int, high: int) -> Schema:
    return {"type": ["integer", "null"], "minimum": low, "maximum": high}


def _enum(*values: Any) -> Schema:
    return {"enum": [*values, None]}


NAME: Schema = {"type": ["string", "null"], "minLength": 1, "maxLength": 64}
TEXT: Schema = {"type": ["string", "null"], "maxLength": 200}
BOOL: Schema = {"type": ["boolean", "null"]}
FACE = _int(1, 6)
DICE: Schema = {"type": ["array", "null"], "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": 100}
SECONDS: Schema = {"type": ["number", "null"], "minimum": 0, "maximum": 1e12}
GRAMS: Schema = {"type": ["number", "null"], "minimum": -1e6, "maximum": 1e6}
#: Data a scale or camera produced (a Weighing or DiceDetections as JSON); its size and
#: depth are bounded by the checks every action gets, its meaning by the engine.
MEASUREMENT: Schema = {"type": ["object", "null"], "maxProperties": 64}
FROM = _enum("scale", "camera")
CHANNEL = _int(0, 7)
NAMES: Schema = {
    "type": ["array", "null"],
    "items": {"type": "string", "minLength": 1, "maxLength": 64},
    "maxItems": 16,
}

# -- Seize: Guilded Treasures -------------------------------------------------------------

_STAT = _int(0, 999)
_STATS: Schema = dict.fromkeys(("bounty", "armour", "magic_armour", "defence", "melee", "ranged", "move"), _STAT)
_TILE: Schema = {
    "type": ["object", "null"],
    "properties": {"side": NAME, "row": _int(1, 99), "col": _int(1, 99)},
    "additionalProperties": False,
}
_FLAT: Schema = {"type": ["string", "integer", "number", "boolean", "null"], "maxLength": 200}
#: A card written out as an object (a treasure, a deck entry, a Champion): flat fields.
_CARD: Schema = {"type": ["object", "null"], "additionalProperties": _FLAT, "maxProperties": 32}
_TREASURE: Schema = {
    "type": ["object", "string", "null"],
    "additionalProperties": _FLAT,
    "maxProperties": 32,
    "maxLength": 200,
}
_MERC_CARD: Schema = {
    "name": TEXT,
    "health": _int(0, 999),
    "base_health": _int(0, 999),
    **_STATS,
    "ranged_type": TEXT,
    "stars": _int(0, 4),
    "class": TEXT,
    "kind": TEXT,
    "tile": _TILE,
}
_COIN = _enum("won", "lost")

GUILDED: dict[str, Schema] = {
    "*": {"player": NAME, "at": SECONDS},
    "decks_ready": {},
    "deck": {
        "cards": {"type": ["array", "null"], "items": _CARD, "maxItems": 200},
        "champion": {"type": ["object", "boolean", "null"], "additionalProperties": _FLAT, "maxProperties": 32},
        "guild_master": {"type": ["object", "boolean", "null"], "additionalProperties": _FLAT, "maxProperties": 32},
    },
    "roll": {"value": FACE, "dice": DICE, "detections": MEASUREMENT, "from": FROM},
    "go_first": {"first": NAME},
    "pillar": {"tile": _TILE},
    "champion": dict(_MERC_CARD),
    "mulligan": {},
    "keep": {},
    "next_phase": {},
    "end_turn": {},
    "acquire": {"cards": _int(0, 99)},
    "play_merc": {**_MERC_CARD, "treasure": _TREASURE, "guild_master": BOOL, "face_down": BOOL},
    "play_treasure": {"name": TEXT, "face_down": BOOL, "merc": NAME},
    "equip": {"merc": NAME, "treasure": _TREASURE},
    "unequip": {"merc": NAME, "treasure": _TREASURE},
    "exit": {"merc": NAME},
    "move": {"merc": NAME, "spaces": _int(0, 99), "to": _TILE},
    "reveal": {"merc": NAME, "target": NAME},
    "attack": {
        "merc": NAME,
        "target": NAME,
        "with": _enum("melee", "ranged"),
        "amount": _int(0, 999),
        "damage_type": TEXT,
        "card": TEXT,
        "coin": _COIN,
    },
    "plunder": {"merc": NAME, "opponent": NAME, "coin": _COIN},
    "ability": {"kind": TEXT, "card": TEXT, "merc": NAME, "cost": _int(0, 99), "target": NAME},
    "damage": {
        "target": NAME,
        "amount": _int(0, 999),
        "damage_type": TEXT,
        "source": NAME,
        "untargeted": BOOL,
        "cause": TEXT,
    },
    "heal": {"target": NAME, "amount": _int(0, 999)},
    "add_status": {"target": NAME, "status": TEXT, "count": _int(0, 99)},
    "remove_status": {"target": NAME, "status": TEXT, "count": _int(0, 99)},
    "mend": {"target": NAME, "status": TEXT},
    "cleanse": {"target": NAME, "status": TEXT},
    "fog": {"tile": _TILE},
    "restore_defence": {"target": NAME},
    "set_merc": {"target": NAME, "name": TEXT, "health": _int(0, 999), "base_health": _int(0, 999), **_STATS},
    "destroy": {"target": NAME, "bounty": BOOL},
    "loot": {"amount": _int(-999, 999), "reason": TEXT},
    "draw": {"cards": _int(0, 99)},
    "discard": {"cards": _int(0, 99)},
    "counts": {"hand": _int(0, 999), "deck": _int(0, 999), "warchest": _int(0, 999)},
    "concede": {},
    "clock": {},
}

# -- the others ----------------------------------------------------------------------------

SEVEN: dict[str, Schema] = {
    "*": {"player": NAME},
    "play": {"card": _int(0, 99), "on": _enum("hole", "number"), "total": _int(0, 99)},
    "penalty": {},
}

SCALLYWAGGER: dict[str, Schema] = {
    "*": {"player": NAME},
    "first_captain": {},
    "use": {"card": TEXT, "target": NAME},
    "pass": {},
    "bid": {"quantity": _int(0, 1000), "face": FACE},
    "call": {},
    "parlay": {"quantity": _int(0, 1000), "face": FACE},
    "adventure": {"card": TEXT, "target": NAME},
    "reveal": {"dice": DICE, "count": _int(0, 1000), "detections": MEASUREMENT, "from": FROM},
    "confirm": {"die": _int(0, 1000), "value": FACE},
    "drop": {"die": _int(0, 1000)},
    "add": {"value": FACE},
    "draw": {"deck": TEXT, "card": TEXT},
}

SEVEN_SEIZE: dict[str, Schema] = {
    "*": {"player": NAME, "for": NAME},
    "reveal": {"card": TEXT},
    "captain": {"captain": NAME},
    "divvy": {"red": _int(0, 1000), "black": _int(0, 1000), "stash": TEXT},
    "order": {"order": NAMES},
    "quartermaster": {"returned": _int(0, 1000)},
    "strumpet": {"choice": TEXT, "victim": NAME},
    "pick": {"for": NAME, "pieces": _int(0, 1000), "stash": TEXT},
    "weigh": {
        "grams": GRAMS,
        "uncertainty_g": {"type": ["number", "null"], "minimum": 0, "maximum": 1e6},
        "pips": _int(0, 100000),
        "weighing": MEASUREMENT,
        "from": FROM,
        "channel": CHANNEL,
        "confirm": BOOL,
    },
}

_KEEP: Schema = {"type": ["array", "null"], "items": {"type": "integer", "minimum": 1, "maximum": 6}, "maxItems": 10}

SWASHBUCKLE: dict[str, Schema] = {
    "*": {"player": NAME},
    "roll_off": {"dice": DICE, "detections": MEASUREMENT, "from": FROM},
    "roll": {"dice": DICE, "keep": _KEEP, "hold": _KEEP, "hornswaggle": BOOL, "detections": MEASUREMENT, "from": FROM},
    "confirm": {"dice": DICE},
    "score": {"box": TEXT, "column": _int(0, 99), "target": NAME},
    "pillage": {"target": NAME},
    "curse": {"target": NAME},
    "remind": {"remove": FACE},
    "etiquette": {},
}

SCORESHEET: dict[str, Schema] = {
    "*": {"player": NAME},
    "roll": {"dice": DICE, "keep": _KEEP, "hold": _KEEP, "detections": MEASUREMENT, "from": FROM},
    "confirm": {"dice": DICE},
    "score": {"box": TEXT},
}

#: Game name (as registered) -> its table.
SCHEMAS: dict[str, dict[str, Schema]] = {
    "guilded": GUILDED,
    "seven": SEVEN,
    "scallywagger": SCALLYWAGGER,
    "seven-seize": SEVEN_SEIZE,
    "swashbuckle": SWASHBUCKLE,
    "yahtzee": SCORESHEET,
    "yacht": SCORESHEET,
}
