"""A private peek on the shared tablet: one player's concealed cards, shown only while they hold
the screen (or, after a quick tap, until they tap again), and never left on screen.

The whole table sees the tablet, so a peek first covers the game and asks to pass the tablet
to that player. Nothing private is put into a widget until the player touches the hold area,
and everything private is taken out again (text cleared, buttons removed) the moment they let
go, tap again, the game changes, a few seconds pass after a tap, or the peek closes. What is
private comes only from :func:`companion.games.views.private_view`, asked afresh each time.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import OptionProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion.games import views
from companion.ui.widgets.base import PButton, PLabel
from companion.ui.words import action_label

#: A touch shorter than this (s) is a tap: the view then stays until the next tap.
HOLD_SECONDS = 0.35
#: A view shown by a tap hides itself after this long (s), in case nobody taps again.
TAP_SHOW_SECONDS = 15.0


def peek_players(controller: Any) -> list[str]:
    """The players holding cards concealed from the table, in seating order (that someone
    holds one is public; which card never is)."""
    game, state = controller.game, controller.state
    return [p for p in controller.session.players if views.private_view(game, state, p).concealed]


def cards_words(count: int) -> str:
    """ "your card" or "your cards"."""
    return "your card" if count == 1 else "your cards"


class PeekPad(BoxLayout):
    """The area the player touches to see their view; ``mode`` is "hidden", "held" (shown while
    the finger stays down) or "tapped" (shown until the next tap)."""

    mode = OptionProperty("hidden", options=("hidden", "held", "tapped"))
    key = StringProperty("peek:hold")

    def __init__(self, view: PeekView, colour: Any, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", padding=dp(24), spacing=dp(16), **kwargs)
        self._view = view
        self._down_at = 0.0
        with self.canvas.before:
            Color(rgba=colour)
            back = RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(14)])
        self.bind(pos=lambda _w, pos: setattr(back, "pos", pos), size=lambda _w, size: setattr(back, "size", size))

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos):
            return False
        if self.mode == "tapped":
            self._view.hide()  # a tap hides what a tap showed
        elif self.mode == "hidden":
            self._down_at = time.monotonic()
            touch.grab(self)
            self._view.show("held")
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(self.collide_point(*touch.pos))
        touch.ungrab(self)
        if self.mode == "held":
            if time.monotonic() - self._down_at < HOLD_SECONDS:
                self._view.show("tapped")
            else:
                self._view.hide()
        return True


class PeekView(ModalView):
    """Covers the game and shows ``player``'s private view only on request (see the module).

    Keys: ``peek:hold`` (the area to hold or tap), ``peek:action`` (a private move, only
    while shown), ``peek:close``. ``cards`` is the label of the private text (empty while hidden).
    """

    def __init__(self, controller: Any, player: str, **kwargs: Any) -> None:
        from kivy.app import App

        theme = App.get_running_app().theme
        super().__init__(auto_dismiss=False, background="", background_color=tuple(theme.bg), **kwargs)
        self.controller = controller
        self.player = player
        count = len(views.private_view(controller.game, controller.state, player).concealed)
        self._hint = f"{player}: tap and hold to see {cards_words(count)}. Let go to hide it."
        box = BoxLayout(orientation="vertical", padding=theme.pad, spacing=theme.gap)
        self.title = PLabel(text=f"Only {player} should look", role="title")
        box.add_widget(self.title)
        box.add_widget(PLabel(text=f"Pass the tablet to {player}; everyone else looks away.", role="muted"))
        self.pad = PeekPad(self, tuple(theme.surface))
        self.caption = PLabel(text=self._hint, role="heading", halign="center")
        self.cards = PLabel(text="", role="huge", halign="center")
        self.pad.add_widget(Widget())  # centres the text in the pad
        self.pad.add_widget(self.caption)
        self.pad.add_widget(self.cards)
        self.pad.add_widget(Widget())
        box.add_widget(self.pad)
        self.moves = PLabel(text="", role="muted")
        box.add_widget(self.moves)
        self.actions = GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        self.actions.bind(minimum_height=self.actions.setter("height"))
        box.add_widget(self.actions)
        done = PButton(text="Done: hide it and pass the tablet back", key="peek:close", role="quiet")
        done.bind(on_release=lambda *_: self.close())
        box.add_widget(done)
        self.add_widget(box)
        self._timer: Any = None
        controller.bind(revision=self._game_changed)

    # -- showing and hiding -----------------------------------------------------------------

    def show(self, mode: str) -> None:
        """Put the private view on screen: ``mode`` "held" (until let go) or "tapped" (until a tap)."""
        view = views.private_view(self.controller.game, self.controller.state, self.player)
        self.pad.mode = mode
        self.caption.text = f"{self.player}, {cards_words(len(view.concealed))} " + (
            "(let go to hide):" if mode == "held" else "(tap to hide):"
        )
        self.cards.text = "\n".join(view.concealed) or "No concealed card now."
        self.actions.clear_widgets()
        one = "it" if len(view.concealed) == 1 else "one"
        self.moves.text = f"Or reveal {one} now (the whole table will see it):" if view.actions else ""
        for action in view.actions:
            button = PButton(text=action_label(action, (self.player,)), action=dict(action), key="peek:action")
            button.bind(on_release=lambda b: self._send(b.action))
            self.actions.add_widget(button)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if mode == "tapped":
            self._timer = Clock.schedule_once(lambda _dt: self.hide(), TAP_SHOW_SECONDS)

    def hide(self) -> None:
        """Take everything private off the screen (and out of every widget)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.pad.mode = "hidden"
        self.cards.text = ""
        self.caption.text = self._hint
        self.moves.text = ""
        self.actions.clear_widgets()

    @property
    def showing(self) -> bool:
        """Whether the private view is on screen now."""
        return bool(self.pad.mode != "hidden")

    def close(self) -> None:
        """Hide the private view and close the peek."""
        self.hide()
        self.controller.unbind(revision=self._game_changed)
        self.dismiss(animation=False)

    def on_dismiss(self) -> None:
        self.hide()

    def _game_changed(self, *_: Any) -> None:
        self.hide()  # what it showed may no longer hold; it is asked afresh on the next touch

    def _send(self, action: dict[str, Any]) -> None:
        """A private move (it reveals the card it names to the table): close, then send it."""
        self.close()
        self.controller.act(action)


def open_peek(controller: Any, player: str) -> PeekView:
    """Open a peek for ``player`` (nothing private shows until they touch it)."""
    view = PeekView(controller, player)
    view.open(animation=False)
    return view
