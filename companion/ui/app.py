"""The Kivy application: the window, the screens (loaded when first shown), settings.

One screen is one module in :mod:`companion.ui.screens` plus its ``.kv`` file beside it;
:data:`SCREENS` lists them. Game screens are chosen by the game's name
(:data:`GAME_SCREENS`); a game without its own screen gets the generic one, which is
driven only by the engine's ``summary()`` and ``legal_actions()``.
"""

from __future__ import annotations

import importlib
import logging
import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.store import Store, StoreError, default_db_path
from companion.ui.hardware import HardwareService
from companion.ui.settings import Settings, settings_path
from companion.ui.theme import Theme

log = logging.getLogger(__name__)

#: Screen name -> (module, class). Modules are imported, and their .kv loaded, on first use.
SCREENS: dict[str, tuple[str, str]] = {
    "home": ("companion.ui.screens.home", "HomeScreen"),
    "newgame": ("companion.ui.screens.newgame", "NewGameScreen"),
    "players": ("companion.ui.screens.players", "PlayersScreen"),
    "past": ("companion.ui.screens.past", "PastGamesScreen"),
    "settings": ("companion.ui.screens.settings", "SettingsScreen"),
    "hardware": ("companion.ui.screens.hardware", "HardwareScreen"),
    "calibrate": ("companion.ui.screens.calibrate", "CalibrateScreen"),
    "generic": ("companion.ui.screens.generic", "GenericGameScreen"),
    "seven": ("companion.ui.screens.seven", "SevenScreen"),
    "swashbuckle": ("companion.ui.screens.swashbuckle", "SwashbuckleScreen"),
    "seize": ("companion.ui.screens.seize", "SeizeScreen"),
    "scallywagger": ("companion.ui.screens.scallywagger", "ScallywaggerScreen"),
    "guilded": ("companion.ui.screens.guilded", "GuildedScreen"),
    "weighoff": ("companion.ui.screens.weighoff", "WeighOffScreen"),
    "problem": ("companion.ui.screens.problem", "ProblemScreen"),
    "over": ("companion.ui.screens.over", "GameOverScreen"),
}

#: Game name (as registered in companion.games) -> the screen that plays it.
GAME_SCREENS: dict[str, str] = {
    "seven": "seven",
    "swashbuckle": "swashbuckle",
    "yahtzee": "swashbuckle",
    "yacht": "swashbuckle",
    "seven-seize": "seize",
    "scallywagger": "scallywagger",
    "guilded": "guilded",
}

_WIDGET_KV = ("base", "banner", "gamebar", "table", "leaderboard", "sheet")


def _load_kv(module_name: str) -> None:
    """Load the .kv file that sits beside ``module_name`` (once), and those of the parts it
    lists in ``KV_PARTS`` (a screen split into modules, each with its own kv)."""
    from kivy.lang import Builder

    module = importlib.import_module(module_name)
    for part in getattr(module, "KV_PARTS", ()):
        _load_kv(part)
    path = Path(module.__file__).with_suffix(".kv")  # type: ignore[arg-type]
    if path.exists() and str(path) not in Builder.files:
        Builder.load_file(str(path))


def game_screen_name(game_name: str) -> str:
    """The screen that plays ``game_name`` (the generic one if it has none)."""
    screen = GAME_SCREENS.get(game_name)
    if screen is None:
        return "generic"
    module_name = SCREENS[screen][0]
    try:
        importlib.import_module(module_name)
    except ImportError:  # an engine-specific screen not available in this build
        log.exception("screen %s failed to import; using the generic screen", screen)
        return "generic"
    return screen


class Root(BoxLayout):
    """The banner above the screens."""


class Screens(ScreenManager):
    """The screen manager without Kivy's clipping stencil.

    Screens change without a transition and always fill the manager, so nothing needs
    clipping; the stencil cost two full-window fills per frame in software OpenGL.
    """


class PurserApp(App):
    """The tablet app.

    ``db``: the database file (default: the user's); ``scale_url``/``camera_url`` override
    the saved settings for this run; ``start_hardware`` False leaves the devices closed.
    """

    title = "Purser"
    theme = ObjectProperty(None)
    hardware = ObjectProperty(None, allownone=True)
    controller = ObjectProperty(None, allownone=True)
    advice = ObjectProperty(None, allownone=True)
    portrait = BooleanProperty(False)
    notice = StringProperty("")

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        scale_url: str | None = None,
        camera_url: str | None = None,
        start_hardware: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.theme = Theme()
        self.db_path = Path(db).expanduser() if db else default_db_path()
        self.settings_file = settings_path(self.db_path)
        self.settings, warning = Settings.load(self.settings_file)
        self.notice = warning
        self._scale_override = scale_url
        self._camera_override = camera_url
        self._start_hardware = start_hardware
        self.store: Store | None = None
        self.manager: ScreenManager | None = None
        self.resume_offered = False
        self.theme.use(self.settings.theme)

    # -- building ---------------------------------------------------------------------

    def build(self) -> Any:
        from kivy.core.window import Window
        from kivy.lang import Builder

        for name in _WIDGET_KV:
            _load_kv(f"companion.ui.widgets.{name}")
        if _ROOT_KV_NAME not in Builder.files:
            Builder.load_string(_ROOT_KV, filename=_ROOT_KV_NAME)
        Window.clearcolor = self.theme.bg
        self.theme.bind(bg=lambda _t, colour: setattr(Window, "clearcolor", colour))
        Window.bind(size=self._on_window_size)
        self._on_window_size(Window, Window.size)
        self.hardware = HardwareService(self.scale_url, self.camera_url, trays=self.settings.trays)
        from companion.ui.advice import AdviceService

        self.advice = AdviceService()
        root = Root()
        self.manager = root.ids.manager
        self.manager.transition = NoTransition()
        try:
            self.store = Store.open(self.db_path)
        except StoreError as exc:
            log.error("database refused: %s", exc)
            self.go("problem")
            self.manager.current_screen.show("Purser cannot open its database", str(exc))
            self._start_hardware = False
        return root

    def on_start(self) -> None:
        if self.store is None:
            return
        if self._start_hardware:
            self.hardware.start()
        self.go("home")

    def on_stop(self) -> None:
        from kivy.core.window import Window

        Window.unbind(size=self._on_window_size)
        self.close_game()
        if self.hardware is not None:
            self.hardware.close()
        if self.store is not None:
            self.store.close()
            self.store = None

    def _on_window_size(self, _window: Any, size: tuple[int, int]) -> None:
        self.portrait = size[1] > size[0]

    # -- settings ---------------------------------------------------------------------

    @property
    def scale_url(self) -> str:
        """The scale in use: the command line's, else the settings'."""
        return self._scale_override or self.settings.scale_url

    @property
    def camera_url(self) -> str:
        """The camera in use: the command line's, else the settings'."""
        return self._camera_override or self.settings.camera_url

    def save_settings(self) -> str:
        """Write the settings and use them (devices, theme); returns '' or what went wrong, in words."""
        problem = self._write_settings()
        if problem:
            return problem
        self.theme.use(self.settings.theme)
        if self.hardware is not None:
            self._scale_override = self._camera_override = None
            self.hardware.reconfigure(self.scale_url, self.camera_url)
        return ""

    def use_camera(self, url: str) -> str:
        """Keep ``url`` as the camera's address and reopen the camera with it (the scale stays).

        Returns '' or what went wrong, in words.
        """
        self.settings.camera_url = url
        problem = self._write_settings()
        if problem:
            return problem
        self._camera_override = None
        if self.hardware is not None:
            self.hardware.reconfigure(self.scale_url, self.camera_url)
        return ""

    def use_tray(self, text: str) -> str:
        """Keep ``text`` (tray text, "" for the whole picture) as the tray of the camera in use,
        with the settings, and read dice only inside it from now on.

        Returns '' or what went wrong, in words.
        """
        from companion.ui.hardware import camera_key

        self.settings.trays[camera_key(self.camera_url)] = text
        problem = self._write_settings()
        if self.hardware is not None:
            self.hardware.use_tray(text)
        return problem

    def _write_settings(self) -> str:
        try:
            self.settings.save(self.settings_file)
        except OSError as exc:
            return f"Settings not saved: {exc.strerror or exc}"
        return ""

    def export_png(self, path: str | os.PathLike[str]) -> None:
        """Save the whole app, as drawn now, as a PNG at ``path``."""
        from kivy.graphics import Color, InstructionGroup, Rectangle

        root = self.root
        # The window clears to the theme's background; an exported picture starts transparent.
        backdrop = InstructionGroup()
        backdrop.add(Color(*self.theme.bg))
        backdrop.add(Rectangle(pos=root.pos, size=root.size))
        root.canvas.before.insert(0, backdrop)
        try:
            root.export_to_png(str(path))
        finally:
            root.canvas.before.remove(backdrop)

    # -- navigation -------------------------------------------------------------------

    def screen(self, name: str) -> Any:
        """The screen called ``name``, built (and its module and kv loaded) on first use."""
        assert self.manager is not None
        if self.manager.has_screen(name):
            return self.manager.get_screen(name)
        module_name, class_name = SCREENS[name]
        _load_kv(module_name)
        cls = getattr(importlib.import_module(module_name), class_name)
        screen = cls(name=name)
        self.manager.add_widget(screen)
        return screen

    def go(self, name: str, **kwargs: Any) -> Any:
        """Show the screen called ``name``; ``kwargs`` are set on it first."""
        screen = self.screen(name)
        for key, value in kwargs.items():
            setattr(screen, key, value)
        assert self.manager is not None
        if self.manager.current == name:
            screen.dispatch("on_pre_enter")  # shown again: show the latest
        else:
            self.manager.current = name
        return screen

    def go_home(self) -> None:
        """Back to the home screen (the game stays saved and can be resumed)."""
        self.close_game()
        self.go("home")

    # -- games ------------------------------------------------------------------------

    def start_game(self, game: str, players: list[str], rules: dict[str, Any], seed: int | None = None) -> Any:
        """Create a session and open its screen.

        Raises:
            ConfigError, UnknownGame, StoreError: it cannot be started (nothing is stored).
        """
        from companion.session import Hardware, TableSession

        assert self.store is not None
        wiring = Hardware(self.scale_url, self.camera_url).to_config()
        session = TableSession.create(self.store, game, players, rules, seed=seed, hardware=wiring)
        return self.open_session(session.id, session)

    def open_session(self, session_id: int, session: Any = None) -> Any:
        """Open stored session ``session_id`` on its game's screen.

        Raises:
            StoreError: it cannot be loaded (missing, or its journal no longer replays).
        """
        from companion.session import TableSession
        from companion.ui.controller import GameController

        assert self.store is not None
        self.close_game()
        if session is None:
            session = TableSession(self.store, session_id)
        self.controller = GameController(session, self.hardware)
        name = game_screen_name(session.game_name)
        screen = self.screen(name)
        screen.controller = self.controller
        if self.controller.locked:  # a finished game opens on its result, read-only
            return self.go("over", controller=self.controller)
        return self.go(name)

    def show_game(self, controller: Any) -> Any:
        """The screen of ``controller``'s game (the open one)."""
        name = game_screen_name(controller.session.game_name)
        if name == "seize" and controller.summary is not None and controller.summary.detail.get("weighoff"):
            name = "weighoff"
        return self.go(name, controller=controller)

    def close_game(self) -> None:
        """Let go of the open game (everything is already saved)."""
        if self.controller is not None:
            self.controller.close()
            self.controller = None


_ROOT_KV_NAME = "<purser root>"
_ROOT_KV = """
<-Screens>:

<Root>:
    # the window is cleared to the theme's background: no full-window rectangle under it
    orientation: "vertical"
    SimulatorBanner:
        id: banner
    Screens:
        id: manager
"""


def run_app(db: str | None = None, scale_url: str | None = None, camera_url: str | None = None) -> int:
    """Start the tablet app; returns 0 when its window is closed."""
    PurserApp(db=db, scale_url=scale_url, camera_url=camera_url).run()
    return 0
