"""Themed building blocks: buttons, labels, inputs and cards with big touch targets.

Their look lives in ``base.kv``; colours come from ``app.theme``.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, OptionProperty, StringProperty
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
    return float(
        {"muted": theme.font_small, "heading": theme.font_big, "title": theme.font_big, "huge": theme.font_huge}.get(
            role, theme.font
        )
    )


class _Sized:
    """A height or font size given when a button is made is kept.

    The kv rule sizes buttons from the theme; a value bound in kv would overwrite one passed
    to the constructor, so those are kept as ``wanted_height`` / ``wanted_font`` (0: the
    theme's), which the rule reads first.
    """

    def _take_sizes(self, kwargs: dict[str, Any]) -> None:
        if "height" in kwargs:
            kwargs["wanted_height"] = kwargs.pop("height")
        if "font_size" in kwargs:
            kwargs["wanted_font"] = kwargs.pop("font_size")


class PButton(_Sized, Button):
    """A button at least one touch target tall.

    ``role``: "normal", "primary" (the main thing to do), "danger" or "quiet".
    ``action`` is the game action it sends, when it sends one; ``value`` any other
    choice it stands for; ``key`` names it for screens and tests that look buttons up.
    ``height`` and ``font_size`` given here override the theme's (px).
    """

    role = OptionProperty("normal", options=("normal", "primary", "danger", "quiet"))
    action = ObjectProperty(None, allownone=True)
    value = ObjectProperty(None, allownone=True)
    key = StringProperty("")
    wanted_height = NumericProperty(0)
    wanted_font = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._take_sizes(kwargs)
        super().__init__(**kwargs)


class PToggle(_Sized, ToggleButton):
    """A toggle (chips for players, games, dice holds) with the button's look."""

    value = ObjectProperty(None, allownone=True)
    key = StringProperty("")
    wanted_height = NumericProperty(0)
    wanted_font = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._take_sizes(kwargs)
        super().__init__(**kwargs)


class PLabel(Label):
    """Body text that wraps to its width and grows to fit."""

    role = OptionProperty("normal", options=("normal", "muted", "heading", "title", "huge", "good", "bad", "warn"))


class PInput(TextInput):
    """A one-line text field sized for fingers."""

    key = StringProperty("")


class Fold(BoxLayout):
    """A box that folds away: with ``shown`` false it has no height, is not drawn, and no touch
    reaches what it holds (a hidden button would otherwise still take the taps on its spot)."""

    shown = BooleanProperty(True)

    def on_touch_down(self, touch: Any) -> bool:
        return bool(super().on_touch_down(touch)) if self.shown else False

    def on_touch_move(self, touch: Any) -> bool:
        return bool(super().on_touch_move(touch)) if self.shown else False

    def on_touch_up(self, touch: Any) -> bool:
        return bool(super().on_touch_up(touch)) if self.shown else False


class Card(BoxLayout):
    """A raised panel that groups related things; ``key`` names it for screens and tests."""

    highlight = BooleanProperty(False)
    key = StringProperty("")


def fill_buttons(container: Any, specs: list[dict[str, Any]], factory: Any) -> list[Any]:
    """Make ``container`` hold one button per spec (a dict of properties), reusing the
    buttons it has: only what changed is drawn again. ``factory()`` makes a new one.

    Returns the buttons in order.
    """
    buttons = list(reversed(container.children))
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
