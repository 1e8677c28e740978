"""A question the table must answer before something hard to take back happens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.ui.widgets.base import Card, PButton, PLabel


def confirm(question: str, yes_text: str, on_yes: Callable[[], Any], no_text: str = "Cancel") -> ModalView:
    """Ask ``question``; ``on_yes()`` runs only when ``yes_text`` is tapped.

    The buttons are keyed ``confirm:yes`` and ``confirm:no``; returns the open dialog.
    """
    from kivy.app import App

    theme = App.get_running_app().theme
    view = ModalView(
        size_hint=(None, None),
        width=min(dp(560), _window_width() - dp(32)),
        auto_dismiss=True,
        background_color=(0, 0, 0, 0.6),
        background="",
    )
    card = Card(size_hint_y=None)
    card.add_widget(PLabel(text=question, role="heading"))
    row = BoxLayout(size_hint_y=None, height=theme.touch, spacing=dp(12))
    no = PButton(text=no_text, key="confirm:no", role="quiet")
    yes = PButton(text=yes_text, key="confirm:yes", role="primary")

    def answer(accepted: bool) -> None:
        view.dismiss(animation=False)
        if accepted:
            on_yes()

    no.bind(on_release=lambda *_: answer(False))
    yes.bind(on_release=lambda *_: answer(True))
    row.add_widget(no)
    row.add_widget(yes)
    card.add_widget(row)
    card.bind(height=lambda _c, h: setattr(view, "height", h))
    view.add_widget(card)
    view.open(animation=False)
    return view


def _window_width() -> float:
    from kivy.core.window import Window

    return float(Window.width)
