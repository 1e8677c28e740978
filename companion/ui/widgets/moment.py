"""How a game stood after one move of its history: replayed from the journal, shown in a
panel over the screen (the game itself does not change)."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.modalview import ModalView

from companion.ui.widgets.base import Card, PButton, PLabel
from companion.ui.widgets.leaderboard import score_text
from companion.ui.widgets.table import ScoreTable


def moment_of(controller: Any, seq: int) -> tuple[str, Any]:
    """The words of move ``seq`` (1-based, undone moves included) and the summary after it.

    Raises:
        IllegalAction: the journal no longer replays.
        IndexError: there is no such move.
    """
    from companion.session import replay

    history = controller.history
    entry = next((e for e in history if e.seq == seq), None)
    if entry is None:
        raise IndexError(f"there is no move {seq}")
    session = controller.session
    actions = [e.action for e in history if e.seq <= seq]
    states, _events = replay(session.game, session.config, session.players, session.seed, actions)
    return entry.text or str(entry.action.get("type", "")), session.game.summary(states[-1])


def show_moment(controller: Any, seq: int) -> ModalView:
    """Open the panel for move ``seq``; returns it (keyed ``moment``; Close is ``moment:close``)."""
    from kivy.app import App
    from kivy.core.window import Window

    theme = App.get_running_app().theme
    view = ModalView(
        size_hint=(None, None),
        width=min(dp(640), Window.width - dp(32)),
        auto_dismiss=True,
        background_color=(0, 0, 0, 0.6),
        background="",
    )
    card = Card(key="moment")
    try:
        words, summary = moment_of(controller, seq)
    except Exception as exc:  # a move that no longer replays is reported, never fatal
        card.add_widget(PLabel(text=f"Move {seq} cannot be shown: {exc}", role="bad"))
    else:
        undone = any(e.seq == seq and e.undone for e in controller.history)
        card.add_widget(PLabel(text=f"After move {seq}" + (" (undone)" if undone else ""), role="heading"))
        card.add_widget(PLabel(text=words))
        table = ScoreTable()
        table.show(
            ["Player", "Score"],
            [[p, score_text(float(v))] for p, v in summary.scores.items()],
            marked_rows=[i for i, p in enumerate(summary.scores) if p in summary.to_act],
        )
        card.add_widget(table)
        card.add_widget(PLabel(text=f"Then: {summary.prompt}", role="muted"))
    close = PButton(text="Close", key="moment:close", role="quiet", height=theme.touch)
    close.bind(on_release=lambda *_: view.dismiss(animation=False))
    card.add_widget(close)
    card.bind(height=lambda _c, h: setattr(view, "height", min(h, Window.height - dp(32))))
    view.add_widget(card)
    view.open(animation=False)
    return view
