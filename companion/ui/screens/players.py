"""Player profiles: titles, games played and won; a player's page with win rate, best and
average score per game (and a plot of the win rates), and head-to-head records.

A profile can be renamed, merged into another (the same person typed two ways) or, without
games, deleted; each asks first. Games keep the names they were played under: their
statistics and titles follow the profile (see :mod:`companion.session.profiles`).
"""

from __future__ import annotations

import logging
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView

from companion.errors import PurserError
from companion.session.player_page import player_page
from companion.session.profiles import (
    PlayerStats,
    delete_player,
    merge_candidates,
    merge_players,
    player_stats,
    rename_player,
)
from companion.store import NotFound, ProfileChanged, has_games_message
from companion.ui.screens.common import game_title
from companion.ui.stats import number, percent
from companion.ui.widgets import plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import Card, PButton, PInput, PLabel

log = logging.getLogger(__name__)


def titles_text(profile: dict[str, Any]) -> str:
    """The titles a player holds, one per game: "Captain (Swashbuckle)" ('' when none)."""
    titles = profile.get("titles") or {}
    if not isinstance(titles, dict):
        return ""
    return ", ".join(f"{title} ({game_title(game)})" for game, title in sorted(titles.items()) if title)


def games_text(n: int) -> str:
    """ "1 game", "3 games"."""
    return f"{n} game{'' if n == 1 else 's'}"


def _dialog() -> tuple[ModalView, Card]:
    """An empty dialog over the screen, as wide as the window allows, growing with its card."""
    from kivy.core.window import Window

    view = ModalView(
        size_hint=(None, None),
        width=min(dp(600), Window.width - dp(32)),
        auto_dismiss=True,
        background_color=(0, 0, 0, 0.6),
        background="",
    )
    card = Card(size_hint_y=None)
    card.bind(height=lambda _c, h: setattr(view, "height", h))
    view.add_widget(card)
    return view, card


def _buttons(card: Card, *buttons: PButton) -> None:
    theme = App.get_running_app().theme
    row = BoxLayout(size_hint_y=None, height=theme.touch, spacing=dp(12))
    for b in buttons:
        row.add_widget(b)
    card.add_widget(row)


class PlayersScreen(Screen):
    """Every profile with its statistics; tap one for its page. New profiles can be added
    here; the chosen one can be renamed, merged into another or deleted."""

    error = StringProperty("")
    notice = StringProperty("")
    chosen = StringProperty("")
    page_title = StringProperty("")
    #: whether the chosen player has a win-rate chart (no empty box otherwise)
    has_chart = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self._stats: dict[str, PlayerStats] = {}
        self.dialog: ModalView | None = None
        super().__init__(**kwargs)

    def on_pre_enter(self, *_: Any) -> None:
        self.error = self.notice = ""
        self.refresh()

    def refresh(self) -> None:
        """Re-read profiles and statistics (derived from stored games)."""
        app = App.get_running_app()
        box = self.ids.profiles
        box.clear_widgets()
        try:
            stats = player_stats(app.store)
        except PurserError as exc:
            self.error, stats = str(exc), []
        self._stats = {s.name: s for s in stats}
        if not stats:
            box.add_widget(PLabel(text="No players yet. Add one above, or start a game.", role="muted"))
        for s in stats:
            card = Card(key=f"profile:{s.name}", highlight=s.name == self.chosen)
            card.add_widget(PLabel(text=s.name, role="heading"))
            titles = titles_text(s.profile)
            if titles:
                card.add_widget(PLabel(text=titles, role="good"))
            card.add_widget(PLabel(text=f"{s.played} played, {s.finished} finished, {s.wins} won"))
            if s.aliases:
                card.add_widget(PLabel(text=f"Also played as {', '.join(s.aliases)}", role="muted"))
            more = PButton(text="Page", key=f"page:{s.name}", role="quiet")
            more.bind(on_release=lambda _b, name=s.name: self.show_page(name))
            card.add_widget(more)
            box.add_widget(card)
        if self.chosen not in self._stats:
            self.chosen = stats[0].name if stats else ""
        self._fill_page()

    def show_page(self, name: str) -> None:
        """Show ``name``'s page."""
        self.chosen = name
        for card in self.ids.profiles.children:
            if isinstance(card, Card):
                card.highlight = card.key == f"profile:{name}"
        self._fill_page()

    def _fill_page(self) -> None:
        app = App.get_running_app()
        if not self.chosen:
            self.page_title = ""
            self.ids.games.show([], [])
            self.ids.rivals.show([], [])
            self.ids.chart.plot(None)
            self.has_chart = False
            return
        page = player_page(self.chosen, app.store.sessions())
        total = page.total
        self.page_title = (
            f"{self.chosen}: {total.played} played, {total.wins} won of {total.finished} finished"
            f" ({percent(total.win_rate)})"
        )
        rows = [
            [game_title(g), str(r.played), str(r.wins), percent(r.win_rate), number(r.best), number(r.average)]
            for g, r in sorted(page.games.items())
        ]
        self.ids.games.show(["Game", "Played", "Won", "Win rate", "Best", "Average"], rows)
        rivals = sorted(page.rivals.items(), key=lambda kv: -kv[1].together)
        self.ids.rivals.show(
            ["Against", "Finished together", f"{self.chosen} won", "They won"],
            [[name, str(h.together), str(h.wins), str(h.losses)] for name, h in rivals],
        )
        rates = {game_title(g): r.win_rate for g, r in sorted(page.games.items()) if r.win_rate is not None}
        self.has_chart = bool(rates)
        if rates:
            from companion.ui.widgets.plot import bar_chart

            self.ids.chart.title = "Win rate"
            self.ids.chart.plot(
                bar_chart(rates, ylabel="win rate", title=f"{self.chosen}: win rate per game", percent=True)
            )
        else:
            self.ids.chart.plot(None)

    def add_player(self) -> None:
        """Create the profile typed in the field."""
        field = self.ids.new_name
        name = field.text.strip()
        self.notice = ""
        if not name:
            self.error = "Type a name first."
            return
        try:
            App.get_running_app().store.add_player(name)
        except PurserError as exc:
            self.error = str(exc)
            return
        field.text = ""
        self.error = ""
        self.refresh()

    # -- rename, merge, delete ------------------------------------------------------------

    def _done(self, notice: str, chosen: str) -> None:
        self.error, self.notice = "", notice
        self.chosen = chosen
        self.refresh()

    def _refused(self, exc: PurserError) -> None:
        """Show why a change was refused; re-read when the profiles changed meanwhile."""
        self.notice, self.error = "", str(exc)
        if isinstance(exc, ProfileChanged | NotFound):
            self.refresh()

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.dismiss(animation=False)
            self.dialog = None

    def ask_rename(self) -> None:
        """Ask for the chosen player's new name (Rename keeps their games, wins and titles)."""
        s = self._stats.get(self.chosen)
        if s is None:
            return
        self.error = self.notice = ""
        view, card = _dialog()
        card.add_widget(PLabel(text=f"Rename {s.name}", role="heading"))
        field = PInput(text=s.name, key="rename:name", hint_text="New name")
        problem = PLabel(text="", role="bad")
        card.add_widget(field)
        card.add_widget(problem)
        card.add_widget(
            PLabel(
                text=f"{s.name}'s {games_text(s.played)}, wins and titles stay with the new name. "
                "Past games keep the name they were played under."
                if s.played
                else f"{s.name} has no games yet.",
                role="muted",
            )
        )

        def rename(*_: Any) -> None:
            try:
                record = rename_player(App.get_running_app().store, s.name, field.text, seen=s.key)
            except PurserError as exc:
                if isinstance(exc, ProfileChanged | NotFound):
                    self._close_dialog()
                    self._refused(exc)
                else:  # let them fix the name
                    problem.text = str(exc)
                return
            self._close_dialog()
            self._done(f"{s.name} is now called {record.name}." if record.name != s.name else "", record.name)

        no = PButton(text="Cancel", key="rename:no", role="quiet")
        yes = PButton(text="Rename", key="rename:yes", role="primary")
        no.bind(on_release=lambda *_: self._close_dialog())
        yes.bind(on_release=rename)
        field.bind(on_text_validate=rename)
        _buttons(card, no, yes)
        self._open(view)

    def ask_merge(self) -> None:
        """Offer the players the chosen one could be merged into, then ask to be sure."""
        s = self._stats.get(self.chosen)
        if s is None:
            return
        self.error = self.notice = ""
        app = App.get_running_app()
        try:
            candidates = [self._stats[n] for n in merge_candidates(app.store, s.name) if n in self._stats]
        except PurserError as exc:
            self._refused(exc)
            return
        view, card = _dialog()
        card.add_widget(PLabel(text=f"Merge {s.name} into...", role="heading"))
        card.add_widget(
            PLabel(
                text=f"Pick the player who is the same person as {s.name}. {s.name}'s games, wins and titles "
                f"then count for that player, and {s.name} leaves the list. "
                f"Anyone who sat at a table with {s.name} is someone else, so is not offered.",
                role="muted",
            )
        )
        if candidates:
            grid = GridLayout(cols=2, spacing=dp(8), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for other in candidates:
                b = PButton(text=other.name, key=f"merge:into:{other.name}")
                b.bind(on_release=lambda _b, target=other: self._confirm_merge(s, target))
                grid.add_widget(b)
            scroll = ScrollView(do_scroll_x=False, size_hint_y=None)
            scroll.add_widget(grid)
            limit = self.height * 0.45

            def fit(*_: Any) -> None:
                scroll.height = min(grid.height, limit)

            grid.bind(height=fit)
            fit()
            card.add_widget(scroll)
        else:
            card.add_widget(
                PLabel(
                    text=f"No one can be merged with {s.name}: everyone else sat at a table with {s.name}.", role="bad"
                )
            )
        no = PButton(text="Cancel", key="merge:no", role="quiet")
        no.bind(on_release=lambda *_: self._close_dialog())
        _buttons(card, no)
        self._open(view)

    def _confirm_merge(self, s: PlayerStats, into: PlayerStats) -> None:
        from companion.ui.widgets.confirm import confirm

        self._close_dialog()

        def merge() -> None:
            seen = (into.key, s.key) if into.key and s.key else None
            try:
                record = merge_players(App.get_running_app().store, into.name, s.name, seen=seen)
            except PurserError as exc:
                self._refused(exc)
                return
            self._done(f"{s.name} merged into {record.name}.", record.name)

        confirm(
            f"Merge {s.name} into {into.name}? {into.name} keeps that name and gets {s.name}'s "
            f"{games_text(s.played)} ({s.wins} won) and titles; {s.name} leaves the list. This cannot be undone.",
            "Merge",
            merge,
        )

    def ask_delete(self) -> None:
        """Ask, then delete the chosen player; one with games is refused (merge them instead)."""
        from companion.ui.widgets.confirm import confirm

        s = self._stats.get(self.chosen)
        if s is None:
            return
        self.error = self.notice = ""
        app = App.get_running_app()
        try:
            games = app.store.player_sessions(s.name)
        except PurserError as exc:
            self._refused(exc)
            return
        if games:
            self.error = has_games_message(s.name, games) + "."
            return

        def delete() -> None:
            try:
                delete_player(App.get_running_app().store, s.name, seen=s.key)
            except PurserError as exc:
                self._refused(exc)
                return
            self._done(f"{s.name} was deleted.", "")

        confirm(f"Delete the player {s.name}? They have no games; the profile goes for good.", "Delete", delete)

    def _open(self, view: ModalView) -> None:
        self._close_dialog()
        self.dialog = view
        view.bind(on_dismiss=lambda *_: self._forget(view))
        view.open(animation=False)

    def _forget(self, view: ModalView) -> None:
        if self.dialog is view:
            self.dialog = None
