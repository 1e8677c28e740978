"""Themed building blocks: buttons, labels, inputs and cards with big touch targets.

Their look lives in ``base.kv``; colours come from ``app.theme``.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput
from kivy.uix.togglebutton import ToggleButton


def _theme() -> Any:
    from kivy.app import App

    return App.get_running_app().theme


def button_fill(role: str, disabled: bool, state: str, _theme_name: str = "") -> tuple[float, ...]:
    """A button's background for its role and state (``_theme_name`` only makes kv redraw
    when the theme changes)."""
    theme = _theme()
    if state != "normal":
        return tuple(theme.line)
    if disabled:
        return tuple(theme.disabled)
    return tuple({"primary": theme.accent, "danger": theme.bad, "quiet": theme.surface}.get(role, theme.raised))


def label_colour(role: str, _theme_name: str = "") -> tuple[float, ...]:
    """A label's text colour for its role."""
    theme = _theme()
    return tuple({"muted": theme.muted, "good": theme.good, "bad": theme.bad, "warn": theme.warn}.get(role, theme.text))


def label_size(role: str, _theme_name: str = "") -> float:
    """A label's font size for its role."""
    theme = _theme()
    return float({"muted": theme.font_small, "heading": theme.font_big, "title": theme.font_big,
                  "huge": theme.font_huge}.get(role, theme.font))


class PButton(Button):
    """A button at least one touch target tall.

    ``role``: "normal", "primary" (the main thing to do), "danger" or "quiet".
    ``action`` is the game action it sends, when it sends one; ``value`` any other
    choice it stands for; ``key`` names it for screens and tests that look buttons up.
    """

    role = OptionProperty("normal", options=("normal", "primary", "danger", "quiet"))
    action = ObjectProperty(None, allownone=True)
    value = ObjectProperty(None, allownone=True)
    key = StringProperty("")


class PToggle(ToggleButton):
    """A toggle (chips for players, games, dice holds) with the button's look."""

    value = ObjectProperty(None, allownone=True)
    key = StringProperty("")


class PLabel(Label):
    """Body text that wraps to its width and grows to fit."""

    role = OptionProperty("normal", options=("normal", "muted", "heading", "title", "huge", "good", "bad", "warn"))


class PInput(TextInput):
    """A one-line text field sized for fingers."""

    key = StringProperty("")


class Card(BoxLayout):
    """A raised panel that groups related things."""

    highlight = BooleanProperty(False)


def fill_buttons(container: Any, specs: list[dict[str, Any]], factory: Any) -> list[Any]:
    """Make ``container`` hold one button per spec (a dict of properties), reusing the
    buttons it has: only what changed is drawn again. ``factory()`` makes a new one.

    Returns the buttons in order.
    """
    buttons = [w for w in reversed(container.children)]
    if any(not isinstance(b, (PButton, PToggle)) for b in buttons):
        container.clear_widgets()
        buttons = []
    while len(buttons) > len(specs):
        container.remove_widget(buttons.pop())
    while len(buttons) < len(specs):
        b = factory()
        container.add_widget(b)
        buttons.append(b)
    for b, spec in zip(buttons, specs):
        for name, value in spec.items():
            if getattr(b, name) != value:
                setattr(b, name, value)
    return buttons


def clear_and_fill(container: Any, widgets: list[Any]) -> None:
    """Replace ``container``'s children with ``widgets`` (in order)."""
    container.clear_widgets()
    for w in widgets:
        container.add_widget(w)
