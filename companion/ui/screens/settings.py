"""Settings: which scale and camera, the house rules each game starts with, the theme."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.games import find_game, list_games
from companion.ui.theme import THEME_NAMES
from companion.ui.widgets.base import PButton, PToggle
from companion.ui.widgets.rules import RulesForm  # noqa: F401  (used in settings.kv)

#: URLs offered with one tap; anything else can be typed.
SCALE_PRESETS = ("auto://", "sim://", "serial:///dev/ttyUSB0", "openscale:///dev/ttyUSB0")
CAMERA_PRESETS = ("auto://", "sim://", "cv://0", "cv://1")


class SettingsScreen(Screen):
    """Edits a copy of the settings; Save writes them and reopens the hardware that changed."""

    rules_game = StringProperty("")
    status = StringProperty("")
    status_kind = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        app = App.get_running_app()
        s = app.settings
        self.ids.scale_url.text = app.scale_url
        self.ids.camera_url.text = app.camera_url
        self._rule_edits: dict[str, dict[str, Any]] = {g: dict(r) for g, r in s.rules.items()}
        self._theme = s.theme
        self._fill_presets()
        self._fill_themes()
        self._fill_rule_games()
        games = list_games()
        shown, self.rules_game = self.rules_game, ""  # the form's old values are not edits
        if games:
            self.show_rules(shown or games[0].NAME)
        self.status = ""

    def _fill_presets(self) -> None:
        for box_id, presets, field_id in (
            ("scale_presets", SCALE_PRESETS, "scale_url"),
            ("camera_presets", CAMERA_PRESETS, "camera_url"),
        ):
            box = self.ids[box_id]
            box.clear_widgets()
            for url in presets:
                b = PButton(text=url, role="quiet", key=f"{field_id}:{url}")
                b.bind(on_release=lambda _b, u=url, f=field_id: setattr(self.ids[f], "text", u))
                box.add_widget(b)

    def _fill_themes(self) -> None:
        box = self.ids.themes
        box.clear_widgets()
        for name in THEME_NAMES:
            chip = PToggle(
                text=name.capitalize(),
                group="settings-theme",
                value=name,
                key=f"theme:{name}",
                allow_no_selection=False,
                state="down" if name == self._theme else "normal",
            )
            chip.bind(on_release=lambda w: setattr(self, "_theme", w.value))
            box.add_widget(chip)

    def _fill_rule_games(self) -> None:
        box = self.ids.rule_games
        box.clear_widgets()
        for game in list_games():
            chip = PToggle(
                text=str(game.TITLE),
                group="settings-rules-game",
                value=game.NAME,
                key=f"rules-game:{game.NAME}",
                allow_no_selection=False,
            )
            chip.bind(on_release=lambda w: self.show_rules(w.value))
            box.add_widget(chip)

    def _keep_rule_edits(self) -> None:
        if self.rules_game:
            self._rule_edits[self.rules_game] = dict(self.ids.rules.values)

    def show_rules(self, name: str) -> None:
        """Edit the house-rule defaults of game ``name``."""
        self._keep_rule_edits()
        game = find_game(name)
        self.rules_game = game.NAME
        self.ids.rules.show(game.RULES, self._rule_edits.get(game.NAME, {}))
        for chip in self.ids.rule_games.children:
            chip.state = "down" if chip.value == game.NAME else "normal"

    def save(self) -> None:
        """Check and write the settings; say what happened."""
        from companion.games import ConfigError, resolve_config

        app = App.get_running_app()
        self._keep_rule_edits()
        scale_url = self.ids.scale_url.text.strip()
        camera_url = self.ids.camera_url.text.strip()
        for label, url in (("scale", scale_url), ("camera", camera_url)):
            if "://" not in url:
                self._say(f"The {label} address needs a scheme, such as sim:// or cv://0.", "error")
                return
        rules: dict[str, dict[str, Any]] = {}
        for game_name, values in self._rule_edits.items():
            if not values:
                continue
            try:
                resolve_config(find_game(game_name).RULES, values)
            except ConfigError as exc:
                self._say(f"{find_game(game_name).TITLE}: {exc}", "error")
                return
            rules[game_name] = values
        app.settings.scale_url = scale_url
        app.settings.camera_url = camera_url
        app.settings.theme = self._theme
        app.settings.rules = rules
        problem = app.save_settings()
        if problem:
            self._say(problem, "error")
        else:
            self._say("Saved.", "good")

    def _say(self, text: str, kind: str) -> None:
        self.status = text
        self.status_kind = kind
