"""Starting a game: which game, who sits where (profiles picked or created), house rules."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import PurserError
from companion.games import find_game, list_games
from companion.ui.widgets.base import PLabel, PToggle
from companion.ui.widgets.rules import RulesForm  # noqa: F401  (used in newgame.kv)


class NewGameScreen(Screen):
    """Pick the game, seat players in order, adjust house rules, start."""

    game_name = StringProperty("")
    game_title = StringProperty("")
    seats = ListProperty([])
    error = StringProperty("")
    limits = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.error = ""
        self._fill_games()
        self._fill_profiles()
        if not self.game_name:
            games = list_games()
            if games:
                self.choose_game(games[0].NAME)

    def _fill_games(self) -> None:
        box = self.ids.game_choice
        box.clear_widgets()
        for game in list_games():
            chip = PToggle(
                text=str(game.TITLE),
                group="newgame-game",
                value=game.NAME,
                key=f"game:{game.NAME}",
                allow_no_selection=False,
                state="down" if self.game_name == game.NAME else "normal",
            )
            chip.bind(on_release=lambda w: self.choose_game(w.value))
            box.add_widget(chip)

    def choose_game(self, name: str) -> None:
        """Show ``name``'s seating limits and house rules (the table's saved defaults first)."""
        game = find_game(name)
        self.game_name = game.NAME
        self.game_title = str(game.TITLE)
        self.limits = f"{game.MIN_PLAYERS} to {game.MAX_PLAYERS} players"
        app = App.get_running_app()
        self.ids.rules.show(game.RULES, app.settings.rules.get(game.NAME, {}))
        for chip in self.ids.game_choice.children:
            chip.state = "down" if getattr(chip, "value", None) == game.NAME else "normal"
        self.error = ""

    def _fill_profiles(self) -> None:
        app = App.get_running_app()
        box = self.ids.profiles
        box.clear_widgets()
        records = app.store.players()
        known = {record.name for record in records}
        if any(s not in known for s in self.seats):  # renamed, merged or deleted meanwhile
            self.seats = [s for s in self.seats if s in known]
        for record in records:
            chip = PToggle(
                text=record.name,
                value=record.name,
                key=f"player:{record.name}",
                state="down" if record.name in self.seats else "normal",
            )
            chip.bind(on_release=lambda w: self.toggle_seat(w.value, w.state == "down"))
            box.add_widget(chip)
        if not box.children:
            box.add_widget(PLabel(text="No players yet: type a name below and tap Add.", role="muted"))

    def toggle_seat(self, name: str, seated: bool) -> None:
        """Seat ``name`` at the next seat, or stand them up."""
        seats = [s for s in self.seats if s != name]
        if seated:
            seats.append(name)
        self.seats = seats
        for chip in self.ids.profiles.children:
            if getattr(chip, "value", None) is not None:
                chip.state = "down" if chip.value in seats else "normal"
        self._fill_seats()

    def add_player(self) -> None:
        """Create the profile typed in the name field and seat them."""
        field = self.ids.new_name
        name = field.text.strip()
        if not name:
            self.error = "Type the new player's name first."
            return
        if any(s.casefold() == name.casefold() for s in self.seats):
            self.error = f"{name} is already seated."
            return
        app = App.get_running_app()
        try:
            record = app.store.add_player(name)
        except PurserError as exc:
            self.error = str(exc)
            return
        field.text = ""
        self.error = ""
        self.seats = [*self.seats, record.name]
        self._fill_profiles()
        self._fill_seats()

    def clear_seats(self) -> None:
        """Stand everyone up."""
        self.seats = []
        self._fill_profiles()
        self._fill_seats()

    def _fill_seats(self) -> None:
        box = self.ids.seating
        box.clear_widgets()
        for i, name in enumerate(self.seats):
            box.add_widget(PLabel(text=f"{i + 1}. {name}"))
        if not self.seats:
            box.add_widget(PLabel(text="Tap players in seating order (the first listed starts).", role="muted"))

    def on_seats(self, *_: Any) -> None:
        if "seating" in self.ids:
            self._fill_seats()

    def start(self) -> None:
        """Create the session and open its screen; refusals are shown, nothing is stored."""
        app = App.get_running_app()
        try:
            app.start_game(self.game_name, list(self.seats), dict(self.ids.rules.values))
        except PurserError as exc:
            self.error = str(exc)
            return
        self.seats = []
        self.error = ""
