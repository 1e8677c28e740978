"""What every game screen shares: the controller link, keep-awake, action buttons."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.awake import keep_awake
from companion.ui.widgets import leaderboard  # noqa: F401  (kv classes)
from companion.ui.widgets.base import PButton
from companion.ui.words import action_label


class GameScreen(Screen):
    """A screen that plays one session through a :class:`~companion.ui.controller.GameController`.

    Subclasses implement :meth:`refresh`, called after every committed change.
    """

    controller = ObjectProperty(None, allownone=True)
    #: The game's title and what it asks of the table now; set by :meth:`refresh`.
    title = StringProperty("")
    prompt = StringProperty("")
    show_history = BooleanProperty(False)
    #: Whether this screen wants the live scale / camera while it shows.
    uses_scale = BooleanProperty(False)
    uses_camera = BooleanProperty(False)
    #: An action typed by hand, as refusals show it: short, and whole.
    TYPED_HINT = '{"type": "..."}'
    TYPED_EXAMPLE = '{"type": "..."}'

    def __init__(self, **kwargs: Any) -> None:
        self._bound: Any = None
        self._was_over = False
        super().__init__(**kwargs)

    def on_controller(self, _inst: Any, controller: Any) -> None:
        if self._bound is not None:
            self._bound.unbind(revision=self._changed)
        self._bound = controller
        if controller is not None:
            self._was_over = bool(controller.summary is not None and controller.summary.over)
            controller.bind(revision=self._changed)
            self.refresh()

    def _changed(self, *_: Any) -> None:
        # A screen out of sight redraws when it is shown again, not on every change.
        if self.manager is None or self.manager.current == self.name:
            self.refresh()
            c = self.controller
            over = bool(c is not None and c.summary is not None and c.summary.over)
            if over and not self._was_over and self.manager is not None:
                from kivy.app import App

                self._was_over = True
                App.get_running_app().go("over", controller=c)  # the game just ended here
                return
            self._was_over = over

    def on_pre_enter(self, *_: Any) -> None:
        keep_awake(True)
        if self.controller is not None:
            self.refresh()
        hardware = getattr(self.controller, "hardware", None)
        if hardware is not None:
            if self.uses_scale:
                hardware.watch_scale(True)
            if self.uses_camera:
                hardware.watch_camera(True)

    def on_leave(self, *_: Any) -> None:
        keep_awake(False)
        from kivy.app import App

        hardware = App.get_running_app().hardware
        # Kivy leaves a screen after the next one has started: what that one watches goes on
        # (the hardware screen, opened from a game by the banner).
        following = self.manager.current_screen if self.manager is not None else None
        if hardware is not None:
            if self.uses_scale and not getattr(following, "uses_scale", False):
                hardware.watch_scale(False)
            if self.uses_camera and not getattr(following, "uses_camera", False):
                hardware.watch_camera(False)

    def refresh(self) -> None:
        """Redraw from ``self.controller`` (summary, legal actions, history)."""

    def send_typed(self) -> None:
        """Send the JSON action typed in the ``typed`` field (as ``purser play`` takes it)."""
        field = self.ids.typed
        try:
            action = json.loads(field.text)
        except json.JSONDecodeError as exc:
            self.controller.say(f"That is not a JSON action ({exc.msg}); for example {self.TYPED_HINT}", "error")
            return
        if not isinstance(action, dict):
            self.controller.say(f"An action is a JSON object such as {self.TYPED_EXAMPLE}", "error")
            return
        if self.act(action):
            field.text = ""

    def act(self, action: Mapping[str, Any]) -> bool:
        """Send ``action``; True when it was accepted at once."""
        if self.controller is None:
            return False
        return self.controller.act(action)

    def new_action_button(self, **kwargs: Any) -> PButton:
        """An empty button that sends whatever ``action`` it is later given (for reuse)."""
        button = PButton(**kwargs)
        button.bind(on_release=lambda b: b.action is not None and self.act(b.action))
        return button

    def action_specs(self, actions: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """Button properties for ``actions``, labelled in words (see :func:`fill_buttons`)."""
        to_act = self.controller.summary.to_act if self.controller and self.controller.summary else ()
        return [{"text": action_label(a, to_act), "action": dict(a), "disabled": False, "key": ""} for a in actions]

    def action_button(self, action: Mapping[str, Any], text: str | None = None, **kwargs: Any) -> PButton:
        """A button that sends ``action`` when tapped."""
        to_act = self.controller.summary.to_act if self.controller and self.controller.summary else ()
        button = PButton(text=text if text is not None else action_label(action, to_act), action=dict(action), **kwargs)
        button.bind(on_release=lambda b: self.act(b.action))
        return button
