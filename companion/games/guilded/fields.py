"""Reading the fields of actions: numbers in range, coin results, die rolls, who acts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalAction, get_field, get_player, shown
from companion.games.guilded.state import GuildedState

COIN_WON = ("won", "win", "heads")
COIN_LOST = ("lost", "lose", "tails")


def int_field(
    action: Mapping[str, Any],
    name: str,
    low: int | None = 0,
    high: int | None = None,
    default: int | None = None,
) -> int:
    """A whole-number field between ``low`` and ``high``; ``default`` when absent (else required).

    Raises:
        IllegalAction: missing, not a whole number, or out of range.
    """
    value = get_field(action, name, int, optional=default is not None)
    if value is None:
        assert default is not None
        return default
    if low is not None and value < low:
        raise IllegalAction(f'"{name}" must be at least {low}, not {value}')
    if high is not None and value > high:
        raise IllegalAction(f'"{name}" must be at most {high}, not {value}')
    return int(value)


#: The longest text a table may enter for a name or a reason (a card's name, a cause).
TEXT_LIMIT = 80


def text_field(action: Mapping[str, Any], name: str, default: str | None = None) -> str:
    """A non-blank text field of at most :data:`TEXT_LIMIT` characters (``default`` when
    absent, else required).

    Raises:
        IllegalAction: missing, not text, blank, or too long.
    """
    value: str | None = get_field(action, name, str, optional=default is not None)
    if value is None:
        assert default is not None
        return default
    if not value.strip():
        raise IllegalAction(f'"{name}" cannot be blank')
    if len(value.strip()) > TEXT_LIMIT:
        raise IllegalAction(
            f'"{name}" is a name or a short reason of at most {TEXT_LIMIT} characters, not {len(value.strip())}'
        )
    return value.strip()


def bool_field(action: Mapping[str, Any], name: str, default: bool = False) -> bool:
    """A yes/no field (JSON true/false).

    Raises:
        IllegalAction: not true or false.
    """
    value = get_field(action, name, bool, optional=True)
    return default if value is None else bool(value)


def seat_of(state: GuildedState, action: Mapping[str, Any], name: str = "player") -> int:
    """The seat of the player the action names in ``name``.

    Raises:
        IllegalAction: missing, or nobody of that name is playing.
    """
    return state.players.index(get_player(action, state.players, name))


def optional_seat(state: GuildedState, action: Mapping[str, Any]) -> int | None:
    """The acting player's seat when the action names one."""
    if action.get("player") is None:
        return None
    return seat_of(state, action)


def coin_result(action: Mapping[str, Any]) -> bool | None:
    """The table's coin: True when the flip was won, None when not given.

    Raises:
        IllegalAction: a value other than won/lost.
    """
    value = action.get("coin")
    if value is None:
        return None
    if isinstance(value, str) and value.strip().lower() in COIN_WON:
        return True
    if isinstance(value, str) and value.strip().lower() in COIN_LOST:
        return False
    raise IllegalAction(f'"coin" is "won" or "lost" (the flip\'s result for the blinded mercenary), not {shown(value)}')


def die_value(action: Mapping[str, Any]) -> int | None:
    """A d6 result from ``"value"``, ``"dice": [v]`` or camera ``"detections"``; None: Purser rolls.

    Raises:
        IllegalAction: not one die from 1 to 6, or a die the camera was unsure of.
    """
    if action.get("value") is not None:
        return int_field(action, "value", 1, 6)
    if action.get("dice") is not None:
        dice = action["dice"]
        if not isinstance(dice, list) or len(dice) != 1:
            raise IllegalAction('"dice" must hold exactly one die, like [4]')
        return int_field({"type": action.get("type"), "die": dice[0]}, "die", 1, 6)
    if action.get("detections") is not None:
        found = action["detections"]
        dice = found.get("dice") if isinstance(found, Mapping) else None
        if not isinstance(dice, list):
            raise IllegalAction("the camera's reading has no dice list")
        if len(dice) != 1:
            raise IllegalAction(f'the camera sees {len(dice)} dice; roll one die, or type its "value"')
        die = dice[0]
        if not isinstance(die, Mapping):
            raise IllegalAction("the camera's reading is malformed")
        if die.get("unsure"):
            raise IllegalAction(
                f'the camera is not sure it reads a {die.get("value")}: check the die and type its "value"'
            )
        return int_field({"type": action.get("type"), "value": die.get("value")}, "value", 1, 6)
    return None
