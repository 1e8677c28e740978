"""Parts every game screen has: the top bar with undo/redo, the history list, the message line."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.recycleview import RecycleView


class Mirror:
    """Copies properties of a replaceable source (a controller) onto a widget.

    kv rules do not follow a chain like ``root.controller.can_undo`` once ``controller``
    is replaced, so widgets keep their own copies, rebound here whenever it changes.
    """

    def __init__(self, target: Any, names: tuple[str, ...]) -> None:
        self._target = target
        self._names = names
        self._source: Any = None

    def follow(self, source: Any) -> None:
        """Copy from ``source`` from now on (None: stop)."""
        if self._source is not None:
            self._source.unbind(**dict.fromkeys(self._names, self._copy))
        self._source = source
        if source is not None:
            source.bind(**dict.fromkeys(self._names, self._copy))
            for name in self._names:
                setattr(self._target, name, getattr(source, name))

    def _copy(self, source: Any, _value: Any) -> None:
        for name in self._names:
            setattr(self._target, name, getattr(source, name))


def fitting_font(text: str, width: float, largest: float, smallest: float, bold: bool = True) -> float:
    """The largest font size from ``largest`` down to ``smallest`` (px) at which ``text`` fits
    in ``width`` px on one line (``smallest`` when none does)."""
    from kivy.core.text import Label as CoreLabel

    size = largest
    while size > smallest:
        label = CoreLabel(text=text, font_size=size, bold=bold)
        label.refresh()
        if label.content_width <= width:
            return size
        size = max(smallest, size * 0.9)
    return smallest


class GameBar(BoxLayout):
    """Home, the game's title, undo, redo and the history switch; Reopen on a finished game."""

    controller = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    show_history = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    busy = BooleanProperty(False)
    locked = BooleanProperty(False)
    #: The title's font size: the theme's big size, smaller when the title would not fit.
    title_font = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._mirror = Mirror(self, ("can_undo", "can_redo", "busy", "locked"))
        super().__init__(**kwargs)

    def on_controller(self, _inst: Any, controller: Any) -> None:
        self._mirror.follow(controller)

    def fit_title(self, width: float) -> None:
        """Size the title to fit ``width`` px (called when the title or its room changes)."""
        from kivy.app import App

        theme = App.get_running_app().theme
        if width <= 0 or not self.title:
            self.title_font = theme.font_big
            return
        self.title_font = fitting_font(self.title, width - 4, theme.font_big, theme.font_small)

    def reopen(self) -> None:
        """Ask before reopening a finished game; reopen it when the table says yes."""
        from companion.ui.widgets.confirm import confirm

        controller = self.controller
        if controller is None:
            return
        confirm(
            "Reopen this finished game? Its result stays in the statistics until a move is undone.",
            "Reopen",
            controller.reopen,
        )

    def show_result(self) -> None:
        """The end-of-game screen of this game."""
        from kivy.app import App

        App.get_running_app().go("over", controller=self.controller)


class HistoryPanel(RecycleView):
    """What happened, in words, newest first; undone actions shown struck out in grey."""

    controller = ObjectProperty(None, allownone=True)
    shown = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        self._bound: Any = None
        super().__init__(**kwargs)

    def on_controller(self, _inst: Any, controller: Any) -> None:
        if self._bound is not None:
            self._bound.unbind(history=self._fill)
        self._bound = controller
        if controller is not None:
            controller.bind(history=self._fill)
            self._fill(controller, controller.history)

    def on_shown(self, _inst: Any, shown: bool) -> None:
        if shown:
            # after this frame's layout, so the lines are measured at the panel's real width
            Clock.schedule_once(lambda _dt: self._refill())

    def _refill(self) -> None:
        if self._bound is not None:
            self._fill(self._bound, self._bound.history)

    def _fill(self, _inst: Any, history: list[Any]) -> None:
        # A hidden panel has no width: laying its lines out would wrap every word, for nothing.
        if not self.shown:
            return
        self.data = [
            {
                "text": f"{e.seq}. {e.text or e.action.get('type', '')}" + ("  (undone)" if e.undone else ""),
                "undone": e.undone,
                "seq": e.seq,
                "panel": self,
            }
            for e in reversed(history)
        ]

    def open_entry(self, seq: int) -> Any:
        """Show how the game stood after move ``seq`` (replayed; nothing changes)."""
        from companion.ui.widgets.moment import show_moment

        if self._bound is None:
            return None
        return show_moment(self._bound, seq)


class HistoryLine(ButtonBehavior, BoxLayout):
    """One line of the history list; tapping it shows the game as it stood after that move."""

    text = StringProperty("")
    undone = BooleanProperty(False)
    seq = NumericProperty(0)
    panel = ObjectProperty(None, allownone=True)

    def on_release(self) -> None:
        if self.panel is not None and self.seq:
            self.panel.open_entry(int(self.seq))


class MessageBar(BoxLayout):
    """The latest event or refusal, and a note while a measurement runs."""

    controller = ObjectProperty(None, allownone=True)
    message = StringProperty("")
    message_kind = StringProperty("")
    busy = BooleanProperty(False)
    busy_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        self._mirror = Mirror(self, ("message", "message_kind", "busy", "busy_text"))
        super().__init__(**kwargs)

    def on_controller(self, _inst: Any, controller: Any) -> None:
        self._mirror.follow(controller)


class TitleBar(BoxLayout):
    """The top bar of the other screens: Back (to ``back_to``) and a title; extra buttons go after."""

    title = StringProperty("")
    back_to = StringProperty("home")
