"""The actions panel of the Seize: Guilded Treasures screen: the engine's listed actions
grouped by kind, chosen in one or two steps, and the forms that ask for the values an action
only carries as examples (the summary's ``forms``). Presentation only: the engine decides."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.widgets.base import PButton, PInput, PToggle

#: Kinds of action, in the order their chips are shown: (key, words, action types).
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("setup", "Setup", ("decks_ready", "roll", "go_first", "pillar", "champion", "mulligan", "keep", "deck")),
    ("acquire", "Acquire", ("acquire",)),
    ("play", "Play", ("play_merc", "play_treasure", "equip", "unequip", "exit")),
    ("move", "Move", ("move", "reveal")),
    ("attack", "Attack", ("attack", "plunder")),
    ("ability", "Ability", ("ability",)),
    (
        "effects",
        "Effects",
        (
            "damage",
            "heal",
            "add_status",
            "remove_status",
            "mend",
            "cleanse",
            "restore_defence",
            "destroy",
            "set_merc",
            "fog",
        ),
    ),
    ("cards", "Cards", ("loot", "draw", "discard", "counts", "concede")),
)
_GROUP_OF = {kind: key for key, _words, kinds in GROUPS for kind in kinds}
GROUP_WORDS = {key: words for key, words, _kinds in GROUPS} | {"other": "Other", "typed": "Typed"}
#: Moving the turn on: always shown, above the kinds.
FLOW = ("next_phase", "end_turn")
#: Fields whose value reads well on its own after the action's name.
NAMED_BY_VALUE = ("damage_type", "status", "kind")
#: Action types listed tile by tile: once chosen, their tiles are picked on the battlefield.
TILE_KINDS = ("fog", "pillar")
#: With more actions than this in a kind, they are chosen in two steps.
STEP_OVER = 8


def group_of(action: Mapping[str, Any]) -> str:
    """The kind an action is grouped under ("other" for a type this screen does not know)."""
    return _GROUP_OF.get(str(action.get("type")), "other")


def subject_of(action: Mapping[str, Any]) -> tuple[str, str] | None:
    """Who acts or is acted on, when a kind is chosen in two steps (None: chosen directly)."""
    if action.get("merc") is not None:
        return ("merc", str(action["merc"]))
    if action.get("target") is not None:
        return ("target", str(action["target"]))
    if action.get("type") in ("fog", "pillar"):
        return ("type", str(action["type"]))
    if action.get("type") == "roll":
        return ("player", str(action.get("player")))
    return None


def action_key(action: Mapping[str, Any]) -> str:
    """A stable name for an action's button: its type, then its fields in order."""
    parts = [str(action.get("type"))]
    for k in sorted(action):
        if k != "type":
            v = action[k]
            parts.append(f"{k}={json.dumps(v, sort_keys=True) if isinstance(v, dict | list) else v}")
    return ":".join(parts)


class FormField(BoxLayout):
    """One open value of an action: a number (with - and +), a text, or a choice.

    ``reader()`` gives what is entered now, as text.
    """

    spec = ObjectProperty(None)
    words = StringProperty("")
    reader = ObjectProperty(None, allownone=True)

    def entered(self) -> str:
        """The value entered, as text."""
        return str(self.reader()) if self.reader is not None else ""


def has_field(action: Mapping[str, Any], field: str) -> bool:
    """Whether ``action`` holds ``field`` (dotted: ``treasure.name`` inside ``treasure``)."""
    holder: Any = action
    for part in field.split("."):
        if not isinstance(holder, Mapping) or part not in holder:
            return False
        holder = holder[part]
    return True


def field_value(action: Mapping[str, Any], field: str, default: Any) -> Any:
    """The value of (dotted) ``field`` in ``action``, or ``default``."""
    holder: Any = action
    for part in field.split("."):
        if not isinstance(holder, Mapping) or part not in holder:
            return default
        holder = holder[part]
    return holder


def put_field(action: dict[str, Any], field: str, value: Any) -> None:
    """Set (dotted) ``field`` of ``action`` to ``value``; a treasure given by name becomes an object."""
    *outer, last = field.split(".")
    holder = action
    for part in outer:
        inner = holder.get(part)
        if not isinstance(inner, dict):
            inner = {} if not isinstance(inner, str) else {"name": inner}
            holder[part] = inner
        holder = inner
    holder[last] = value


def build_field(field: FormField, spec: Mapping[str, Any], value: Any) -> None:
    """Fill ``field`` with the controls for ``spec`` showing ``value``."""
    name = spec["field"]
    if spec["kind"] == "number":
        box = PInput(
            text=str(value if value is not None else spec.get("low", 0)),
            input_filter="int",
            key=f"form:{name}",
            halign="center",
            size_hint_x=None,
            width=dp(96),
        )
        low, high = spec.get("low"), spec.get("high")

        def step(by: int) -> None:
            try:
                n = int(box.text) + by
            except ValueError:
                n = low if low is not None else 0
            if low is not None:
                n = max(low, n)
            if high is not None:
                n = min(high, n)
            box.text = str(n)

        minus = PButton(text="-", key=f"form:{name}:minus", size_hint_x=None, width=dp(60))
        plus = PButton(text="+", key=f"form:{name}:plus", size_hint_x=None, width=dp(60))
        minus.bind(on_release=lambda _b: step(-1))
        plus.bind(on_release=lambda _b: step(1))
        for w in (minus, box, plus):
            field.add_widget(w)
        field.reader = lambda: box.text
    elif spec["kind"] == "choice":
        chosen = {"value": str(value)}
        group = f"guilded-form-{name}-{id(field)}"
        for choice in spec.get("choices", []):
            chip = PToggle(
                text=str(choice),
                group=group,
                allow_no_selection=False,
                key=f"form:{name}={choice}",
                state="down" if str(choice) == chosen["value"] else "normal",
            )
            chip.bind(on_release=lambda w: chosen.__setitem__("value", w.text))
            field.add_widget(chip)
        field.reader = lambda: chosen["value"]
    else:
        text = PInput(text="" if value is None else str(value), key=f"form:{name}")
        text.bind(focus=lambda w, focused: focused and Clock.schedule_once(lambda _dt: w.select_all()))
        field.add_widget(text)
        field.reader = lambda: text.text


def _spaces(n: Any) -> str:
    return f"{n} space{'' if n == 1 else 's'}"


def phrase(action: Mapping[str, Any], name: Any, tile: Any, leave_out: tuple[str, ...] = ()) -> str | None:
    """Button words for the actions a mercenary takes, as players say them ("Raider (m3) exits
    play", "Move Deckhand (m1) 2 spaces"); None for other actions. ``name(id)`` names a
    mercenary, ``tile(t)`` a tile; fields in ``leave_out`` are already said by the step above."""
    kind = action.get("type")
    merc = name(action["merc"]) if "merc" in action and "merc" not in leave_out else ""
    target = name(action["target"]) if "target" in action and "target" not in leave_out else ""
    coin = {"won": " (coin won)", "lost": " (coin lost)"}.get(str(action.get("coin")), "")
    text: str | None = None
    if kind == "exit":
        text = f"{merc} exits play" if merc else "Exit play"
    elif kind == "move":
        where = f" to {tile(action['to'])}" if isinstance(action.get("to"), Mapping) else ""
        far = f" {_spaces(action['spaces'])}" if action.get("spaces") is not None else ""
        text = f"Move{' ' + merc if merc else ''}{far}{where}"
    elif kind == "attack":
        how = f" ({action['with']})" if action.get("with") else ""
        text = (f"{merc} attacks {target}" if merc else f"Attack {target}") + how
    elif kind == "reveal":
        text = f"{merc} reveals {target}" if merc else f"Reveal {target}"
    elif kind == "plunder":
        whom = f" {action['opponent']}" if action.get("opponent") else ""
        text = (f"{merc} plunders" if merc else "Plunder") + (whom or " the Guild Hall")
    elif kind == "unequip":
        text = f"Unequip {action.get('treasure')}" + (f" from {merc}" if merc else "")
    elif kind == "equip":
        text = f"Equip {merc} with a treasure" if merc else "Equip a treasure"
    elif kind == "ability" and action.get("kind") in ("active", "attack"):
        text = (f"{merc}: " if merc else "") + f"{action['kind']} ability"
        text = text[0].upper() + text[1:]
    elif kind == "roll":  # who goes first: the d6 rolled at the table, or one Purser rolls
        text = f"Rolled a {action['value']}" if "value" in action else "Let Purser roll the d6"
    elif kind == "play_merc":
        text = "Play the Guild Master" if action.get("guild_master") else "Play a mercenary"
    elif kind == "play_treasure":
        text = "Play a mercenary face down as a treasure" if action.get("face_down") else "Play a treasure"
    if text is None:
        return None
    return text + coin
