"""Past games: finished sessions with their winners, most recent first."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.ui.screens.common import game_title, moves_text, players_text, when
from companion.ui.widgets.base import Card, PButton, PLabel


class PastGamesScreen(Screen):
    """Finished games; each can be opened to read its history."""

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Re-read finished sessions from the store."""
        app = App.get_running_app()
        box = self.ids.games
        box.clear_widgets()
        finished = [r for r in app.store.sessions() if r.finished]
        if not finished:
            box.add_widget(PLabel(text="No finished games yet.", role="muted"))
        for record in finished:
            winners = list((record.result or {}).get("winners", []))
            card = Card()
            card.add_widget(PLabel(text=f"[b]{game_title(record.game)}[/b]  {when(record.updated)}", markup=True))
            card.add_widget(PLabel(text=f"Won by {players_text(winners)}" if winners else "No winner", role="good"))
            card.add_widget(PLabel(text=f"{players_text(record.players)}; {moves_text(record.cursor)}", role="muted"))
            b = PButton(text="Open", key=f"open:{record.id}")
            b.bind(on_release=lambda _b, sid=record.id: app.open_session(sid))
            card.add_widget(b)
            box.add_widget(card)
