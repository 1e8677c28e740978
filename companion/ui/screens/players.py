"""Player profiles: titles, games played and won; a player's page with win rate, best and
average score per game (and a plot of the win rates), and head-to-head records."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import PurserError
from companion.session.profiles import player_stats
from companion.ui.screens.common import game_title
from companion.ui.stats import number, percent, player_page
from companion.ui.widgets import plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.base import Card, PButton, PLabel


def titles_text(profile: dict[str, Any]) -> str:
    """The titles a player holds, one per game: "Captain (Swashbuckle)" ('' when none)."""
    titles = profile.get("titles") or {}
    if not isinstance(titles, dict):
        return ""
    return ", ".join(f"{title} ({game_title(game)})" for game, title in sorted(titles.items()) if title)


class PlayersScreen(Screen):
    """Every profile with its statistics; tap one for its page. New profiles can be added here."""

    error = StringProperty("")
    chosen = StringProperty("")
    page_title = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Re-read profiles and statistics (derived from stored games)."""
        app = App.get_running_app()
        box = self.ids.profiles
        box.clear_widgets()
        stats = player_stats(app.store)
        if not stats:
            box.add_widget(PLabel(text="No players yet. Add one above, or start a game.", role="muted"))
        for s in stats:
            card = Card(key=f"profile:{s.name}", highlight=s.name == self.chosen)
            card.add_widget(PLabel(text=s.name, role="heading"))
            titles = titles_text(s.profile)
            if titles:
                card.add_widget(PLabel(text=titles, role="good"))
            card.add_widget(PLabel(text=f"{s.played} played, {s.finished} finished, {s.wins} won"))
            more = PButton(text="Page", key=f"page:{s.name}", role="quiet")
            more.bind(on_release=lambda _b, name=s.name: self.show_page(name))
            card.add_widget(more)
            box.add_widget(card)
        if self.chosen not in {s.name for s in stats}:
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
            return
        page = player_page(self.chosen, app.store.sessions())
        total = page.total
        self.page_title = (
            f"{self.chosen}: {total.played} played, {total.wins} won of {total.finished} finished"
            f" ({percent(total.wins / total.finished if total.finished else None)})"
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
