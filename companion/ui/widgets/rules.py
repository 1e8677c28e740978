"""A form for a game's house rules, built from its ``RULES`` (defaults shown beside each)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.metrics import dp
from kivy.properties import DictProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.base import Rule
from companion.ui.widgets.base import PButton, PInput, PLabel, PToggle


def rule_text(value: Any) -> str:
    """A rule value as players read it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ",".join(str(v) for v in value)
    return str(value).replace("_", " ")


class RulesForm(BoxLayout):
    """One row per rule; :attr:`values` holds what the table chose (raw, parsed on start).

    Only values that differ from the rule's default are kept in :attr:`values`; parsing
    and range checks are the engine's (``resolve_config``), so errors read the same as
    on the command line.
    """

    values = DictProperty({})

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("orientation", "vertical")
        kwargs.setdefault("size_hint_y", None)
        kwargs.setdefault("spacing", dp(10))
        super().__init__(**kwargs)
        self.bind(minimum_height=self.setter("height"))
        self._rules: tuple[Rule, ...] = ()
        self._inputs: dict[str, Any] = {}

    def show(self, rules: Sequence[Rule], start: Mapping[str, Any] | None = None) -> None:
        """Lay out ``rules``, each starting at ``start[key]`` or its default."""
        self.clear_widgets()
        self._rules = tuple(rules)
        self._inputs = {}
        self.values = {}
        start = dict(start or {})
        if not rules:
            self.add_widget(PLabel(text="This game has no house rules to choose.", role="muted"))
            return
        for rule in rules:
            value = start.get(rule.key, rule.default)
            self.add_widget(self._row(rule, value))
            if value != rule.default:
                self.values[rule.key] = value

    def _row(self, rule: Rule, value: Any) -> BoxLayout:
        row = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(4))
        row.bind(minimum_height=row.setter("height"))
        title = rule.key.replace("_", " ").capitalize()
        row.add_widget(PLabel(text=f"[b]{title}[/b]  (default {rule_text(rule.default)})", markup=True))
        row.add_widget(PLabel(text=rule.help, role="muted"))
        row.add_widget(self._control(rule, value))
        return row

    def _control(self, rule: Rule, value: Any) -> Any:
        kind = type(rule.default)
        if kind is bool or rule.choices:
            options = (True, False) if kind is bool else tuple(rule.choices or ())
            grid = GridLayout(cols=min(len(options), 3), size_hint_y=None, spacing=dp(6))
            grid.bind(minimum_height=grid.setter("height"))
            group = f"rule-{id(self)}-{rule.key}"
            for option in options:
                chip = PToggle(
                    text=rule_text(option),
                    group=group,
                    value=option,
                    key=f"rule:{rule.key}:{option}",
                    allow_no_selection=False,
                    state="down" if option == value else "normal",
                )
                chip.bind(on_release=lambda w, r=rule: self._set(r, w.value))
                grid.add_widget(chip)
            self._inputs[rule.key] = grid
            return grid
        box = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(6))
        field = PInput(
            text=",".join(str(v) for v in value) if isinstance(value, tuple | list) else str(value),
            key=f"rule:{rule.key}",
        )
        if kind in (int, float):
            field.input_filter = "int" if kind is int else "float"
        field.bind(text=lambda w, text, r=rule: self._set(r, text))
        self._inputs[rule.key] = field
        if kind is int:
            minus = PButton(text="-", size_hint_x=None, width=dp(64), key=f"rule:{rule.key}:-")
            plus = PButton(text="+", size_hint_x=None, width=dp(64), key=f"rule:{rule.key}:+")
            minus.bind(on_release=lambda *_: self._step(field, -1))
            plus.bind(on_release=lambda *_: self._step(field, 1))
            box.add_widget(minus)
            box.add_widget(field)
            box.add_widget(plus)
        else:
            box.add_widget(field)
        return box

    @staticmethod
    def _step(field: PInput, delta: int) -> None:
        with contextlib.suppress(ValueError):
            field.text = str(int(field.text or 0) + delta)

    def _set(self, rule: Rule, value: Any) -> None:
        values = dict(self.values)
        default_texts = (
            str(rule.default),
            ",".join(str(v) for v in rule.default) if isinstance(rule.default, tuple) else "",
        )
        if value == rule.default or (isinstance(value, str) and value in default_texts):
            values.pop(rule.key, None)
        else:
            values[rule.key] = value
        self.values = values
