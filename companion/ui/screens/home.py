"""Home: start a game, resume one (offered as soon as the app opens), past games, players."""

from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.games import list_games
from companion.store import StoreError
from companion.ui.screens.common import game_title, moves_text, players_text, when
from companion.ui.widgets.base import Card, PButton, PLabel

log = logging.getLogger(__name__)


class HomeScreen(Screen):
    """What the table sees first."""

    #: The unfinished session offered for resuming (a SessionRecord), if any.
    offer = ObjectProperty(None, allownone=True)
    offer_text = StringProperty("")
    error = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Re-read games and sessions from the store."""
        app = App.get_running_app()
        try:
            records = app.store.sessions()
        except StoreError as exc:
            self.error = str(exc)
            records = []
        unfinished = [r for r in records if not r.finished]
        self._fill_games()
        self._fill_in_play(unfinished)
        self._show_offer(unfinished[0] if unfinished and not app.resume_offered else None)

    def _fill_games(self) -> None:
        box = self.ids.games
        box.clear_widgets()
        for game in list_games():
            b = PButton(
                text=f"{game.TITLE}\n[size=15sp]{game.MIN_PLAYERS}-{game.MAX_PLAYERS} players[/size]",
                markup=True,
                height=dp(84),
                key=f"new:{game.NAME}",
            )
            b.bind(on_release=lambda _b, name=game.NAME: self.new_game(name))
            box.add_widget(b)

    def _fill_in_play(self, unfinished: list[Any]) -> None:
        box = self.ids.in_play
        box.clear_widgets()
        if not unfinished:
            box.add_widget(PLabel(text="No game in play. Pick a game to start one.", role="muted"))
            return
        for record in unfinished:
            card = Card(key=f"in_play:{record.id}")
            card.add_widget(
                PLabel(text=f"[b]{game_title(record.game)}[/b]  {players_text(record.players)}", markup=True)
            )
            card.add_widget(
                PLabel(text=f"{moves_text(record.cursor)}, last played {when(record.updated)}", role="muted")
            )
            row = BoxLayout(size_hint_y=None, height=App.get_running_app().theme.touch, spacing=dp(8))
            b = PButton(text="Resume", key=f"resume:{record.id}")
            b.bind(on_release=lambda _b, sid=record.id: self.resume(sid))
            drop = PButton(text="Abandon...", key=f"abandon:{record.id}", role="quiet", size_hint_x=0.6)
            drop.bind(on_release=lambda _b, r=record: self.abandon(r))
            row.add_widget(b)
            row.add_widget(drop)
            card.add_widget(row)
            box.add_widget(card)

    def _show_offer(self, record: Any) -> None:
        self.offer = record
        holder = self.ids.offer_holder
        holder.clear_widgets()
        if record is None:
            return
        app = App.get_running_app()
        where = ""
        try:
            from companion.session import TableSession

            where = TableSession(app.store, record.id).summary().prompt
        except Exception as exc:  # a damaged journal is reported, never fatal on the home screen
            where = f"(This game cannot be replayed: {exc})"
        self.offer_text = (
            f"Continue your game of {game_title(record.game)} with {players_text(record.players)}? "
            f"{moves_text(record.cursor)} so far. {where}"
        )
        card = Card(highlight=True)
        card.add_widget(PLabel(text="Continue where you left off?", role="heading"))
        card.add_widget(PLabel(text=self.offer_text))
        row = BoxLayout(size_hint_y=None, height=app.theme.touch, spacing=dp(12))
        yes = PButton(text="Resume", role="primary", key="offer:resume")
        yes.bind(on_release=lambda *_: self.resume(record.id))
        no = PButton(text="Not now", key="offer:dismiss")
        no.bind(on_release=lambda *_: self.dismiss_offer())
        row.add_widget(yes)
        row.add_widget(no)
        card.add_widget(row)
        holder.add_widget(card)

    def dismiss_offer(self) -> None:
        """Hide the resume offer for the rest of this run."""
        App.get_running_app().resume_offered = True
        self._show_offer(None)

    def resume(self, session_id: int) -> None:
        """Open an unfinished session where it stands."""
        app = App.get_running_app()
        app.resume_offered = True
        try:
            app.open_session(session_id)
        except StoreError as exc:
            self.error = str(exc)

    def abandon(self, record: Any) -> None:
        """Ask, then delete an unfinished game with its moves (it never counts in statistics)."""
        from companion.ui.widgets.confirm import confirm

        def drop() -> None:
            app = App.get_running_app()
            if app.controller is not None and app.controller.session.id == record.id:
                app.close_game()
            try:
                app.store.delete_session(record.id)
            except StoreError as exc:
                self.error = f"Not abandoned: {exc}"
                return
            self.refresh()

        confirm(
            f"Abandon this game of {game_title(record.game)} with {players_text(record.players)}? "
            f"It is deleted with its {moves_text(record.cursor)}.",
            "Abandon",
            drop,
        )

    def new_game(self, name: str) -> None:
        """Go to the new-game form with ``name`` chosen."""
        App.get_running_app().go("newgame").choose_game(name)
