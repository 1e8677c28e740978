"""Player profiles: titles, games played and won, per game."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import PurserError
from companion.session.profiles import player_stats
from companion.ui.screens.common import game_title
from companion.ui.widgets.base import Card, PLabel


def titles_text(profile: dict[str, Any]) -> str:
    """The titles a player holds, one per game: "Captain (Swashbuckle)" ('' when none)."""
    titles = profile.get("titles") or {}
    if not isinstance(titles, dict):
        return ""
    return ", ".join(f"{title} ({game_title(game)})" for game, title in sorted(titles.items()) if title)


class PlayersScreen(Screen):
    """Every profile with its statistics; new profiles can be added here too."""

    error = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Re-read profiles and statistics (derived from stored games)."""
        app = App.get_running_app()
        box = self.ids.profiles
        box.clear_widgets()
        stats = player_stats(app.store)
        if not stats:
            box.add_widget(PLabel(text="No players yet. Add one below, or start a game.", role="muted"))
        for s in stats:
            card = Card()
            card.add_widget(PLabel(text=s.name, role="heading"))
            titles = titles_text(s.profile)
            if titles:
                card.add_widget(PLabel(text=titles, role="good"))
            card.add_widget(PLabel(text=f"{s.played} played, {s.finished} finished, {s.wins} won"))
            per_game = ", ".join(
                f"{game_title(g)}: {n} played, {s.wins_by_game.get(g, 0)} won" for g, n in sorted(s.by_game.items())
            )
            if per_game:
                card.add_widget(PLabel(text=per_game, role="muted"))
            box.add_widget(card)

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
