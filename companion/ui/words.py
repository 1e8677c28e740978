"""Turning actions and engine details into words for buttons and panels.

Nothing here decides anything: it only renders what the engine listed or reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def value_text(value: Any) -> str:
    """A value from an action or a summary, as players read it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{key_text(k)} {value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_text(v) for v in value)
    return str(value).replace("_", " ")


def key_text(key: Any) -> str:
    """A field name as words: ``chips_left`` -> ``chips left``."""
    return str(key).replace("_", " ")


def action_label(action: Mapping[str, Any], to_act: Iterable[str] = ()) -> str:
    """A button label for ``action``.

    An engine may give its own words (``"label"``); otherwise the type and the
    parameters are spelled out. The player's name is left out when only they may act.
    """
    for own in ("label", "text"):
        if isinstance(action.get(own), str) and action[own]:
            return action[own]
    acting = list(to_act)
    kind = key_text(action.get("type", "?")).capitalize()
    who = ""
    parts = []
    for key, value in action.items():
        if key in ("type", "label", "text"):
            continue
        if key == "player":
            if not (len(acting) == 1 and value == acting[0]):
                who = f"{value}: "
            continue
        if key == "from":
            parts.append(f"measured by the {value}")
            continue
        if key == "channel" and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 26:
            parts.append(f"pan {chr(ord('A') + value)}")  # the balance's name for its channel
            continue
        parts.append(f"{key_text(key)} {value_text(value)}")
    return who + kind + (f" ({', '.join(parts)})" if parts else "")


def detail_lines(detail: Mapping[str, Any], skip: Iterable[str] = ()) -> list[str]:
    """One line per fact in a summary's ``detail`` (empty values left out)."""
    skipped = set(skip)
    lines = []
    for key, value in detail.items():
        if key in skipped or value is None or value in ([], {}):
            continue
        lines.append(f"{key_text(key).capitalize()}: {value_text(value)}")
    return lines
