"""The link between a game screen and its table session.

A :class:`GameController` holds the open :class:`~companion.session.TableSession` and
publishes what screens draw (summary, legal actions, history) as Kivy properties. Screens
send actions through :meth:`GameController.act`: an action that asks for a measurement
(``"from": "scale" | "camera"``) is measured on the hardware thread first; then it is
applied and committed by the session on the UI thread (the store's connection lives
there), and only after the commit do the properties change, so nothing shown is unsaved.
Refusals (an illegal move, no stable weight) become :attr:`message`, never exceptions. When
another window or device changed the game first, nothing is saved: the screens are
refreshed to the game as it now stands (offering its legal actions) and the message says
what changed. An idle screen does not wait for a write to learn of it: every
:data:`FOLLOW_EVERY_S` the controller asks the store whether the game moved on and, if so,
shows it as it now stands and says what changed.

A finished game is locked: nothing changes it (no action, no undo) until the table
reopens it on purpose (:meth:`GameController.reopen`, which screens ask to confirm).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from kivy.clock import Clock
from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty

from companion.errors import PurserError
from companion.games.base import IllegalAction, Summary
from companion.session import NothingToUndo, TableSession
from companion.session.hardware import needs_hardware
from companion.store import StaleWrite, StoreError
from companion.ui.hardware import HardwareService

log = logging.getLogger(__name__)

#: How often an open game is compared with the database for changes made elsewhere (s).
FOLLOW_EVERY_S = 1.0


class GameController(EventDispatcher):
    """One open session as the screens see it.

    ``summary`` (a :class:`~companion.games.base.Summary`), ``legal`` (list of action dicts),
    ``history`` (list of :class:`~companion.session.HistoryEntry`) and ``revision`` (bumped
    after every change) are refreshed after each committed change; ``message`` holds the
    latest refusal or event text, ``message_kind`` is "error", "info" or "".
    """

    summary = ObjectProperty(None, allownone=True)
    legal = ListProperty([])
    history = ListProperty([])
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    busy = BooleanProperty(False)
    busy_text = StringProperty("")
    message = StringProperty("")
    message_kind = StringProperty("")
    revision = NumericProperty(0)
    last_events = ListProperty([])
    #: The game is over and not reopened: actions, undo and redo are refused.
    locked = BooleanProperty(False)
    #: The last refusal the table may overrule, until anything else is sent or changes: an
    #: engine refusal that says whether it is ``confirmable`` (a 7 Seize reading only the
    #: house rules rule out), as ``{"action": the action refused, measured, "reason": its
    #: words, "confirmable": bool}``; None otherwise.
    refusal = ObjectProperty(None, allownone=True)

    #: Said when a locked game is asked to change.
    LOCKED_TEXT = "This game is finished: reopen it first to change anything."

    def __init__(
        self,
        session: TableSession,
        hardware: HardwareService | None = None,
        follow_s: float = FOLLOW_EVERY_S,
        **kwargs: Any,
    ) -> None:
        """``follow_s``: how often to look for changes made elsewhere (s); 0 never looks."""
        super().__init__(**kwargs)
        self.session = session
        self.hardware = hardware
        self._reopened = False
        self._unreadable = ""
        self.refresh()
        self._follow_event = Clock.schedule_interval(self._follow_tick, follow_s) if follow_s > 0 else None

    # -- reading ------------------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The engine module of this session."""
        return self.session.game

    @property
    def state(self) -> Any:
        """The current engine state (read-only use)."""
        return self.session.state

    def refresh(self) -> None:
        """Re-read everything from the session (after a commit, undo or redo)."""
        s = self.session
        summary = s.summary()
        if not summary.over:
            self._reopened = False  # the lock comes back when the game ends again
        self.locked = summary.over and not self._reopened
        self.refusal = None
        self.summary = summary
        self.legal = s.legal_actions()
        self.history = s.history(include_undone=True)
        self.can_undo = s.can_undo and not self.locked
        self.can_redo = s.can_redo and not self.locked
        self.revision += 1

    def _follow_tick(self, _dt: float) -> None:
        self.follow()  # returns None: a Kivy interval whose callback returns False stops

    def follow(self) -> bool:
        """Show the game as it now stands if another window or device changed it; True if it had.

        A database that cannot be read is said once in the message line (and logged); the
        screen keeps what it last showed.
        """
        if self.busy:
            return False  # a measurement is on its way; its commit will find out
        try:
            change = self.session.catch_up()
        except StoreError as exc:
            if str(exc) != self._unreadable:
                self._unreadable = str(exc)
                log.warning("cannot follow game %s: %s", self.session.id, exc)
                self.say(f"Cannot read the game: {exc}", "error")
            return False
        self._unreadable = ""
        if change is None:
            return False
        self.last_events = []
        self.refresh()
        self.say(f"Changed on another device or window: {change}.", "info")
        return True

    def reopen(self) -> None:
        """Unlock a finished game so it can be changed (undo the last move, play on)."""
        if self.locked:
            self._reopened = True
            self.say("Reopened: undo the last move to change the result.", "info")
            self.refresh()

    def preview(self, action: Mapping[str, Any]) -> tuple[Summary, list[dict[str, Any]]] | None:
        """The summary and events ``action`` would give, asked of the engine; nothing is saved.

        Returns None when the engine refuses it.
        """
        try:
            new_state, events = self.game.apply(self.session.state, dict(action))
        except IllegalAction:
            return None
        return self.game.summary(new_state), events

    # -- changing -------------------------------------------------------------------------------

    def act(self, action: Mapping[str, Any]) -> bool:
        """Send ``action`` to the game; True when it was accepted at once.

        An action needing a measurement returns False at once and completes later (the
        ``busy`` flag is up meanwhile); refusals land in :attr:`message`.
        """
        if self.busy:
            self.say("Wait for the measurement in progress to finish.", "error")
            return False
        if self.locked:
            self.say(self.LOCKED_TEXT, "error")
            return False
        self.refusal = None
        if needs_hardware(action):
            if self.hardware is None:
                self.say("No hardware is set up; enter the value by hand.", "error")
                return False
            source = action.get("from")
            self.busy = True
            self.busy_text = "Reading the dice..." if source == "camera" else "Weighing: keep the pan still..."
            self.hardware.resolve(action, self._measured, self._measure_failed)
            return False
        return self._commit(action)

    def _measured(self, concrete: dict[str, Any]) -> None:
        self.busy = False
        self.busy_text = ""
        self._commit(concrete)

    def _measure_failed(self, exc: BaseException) -> None:
        self.busy = False
        self.busy_text = ""
        if isinstance(exc, PurserError):
            self.say(f"{exc} Nothing was recorded; try again or enter the value by hand.", "error")
        else:
            log.error("measurement failed", exc_info=exc)
            self.say(f"The measurement failed ({exc}). Nothing was recorded; enter the value by hand.", "error")

    def _commit(self, action: Mapping[str, Any]) -> bool:
        try:
            events = self.session.apply(action)
        except StaleWrite as exc:
            self._changed_elsewhere(exc)
            return False
        except IllegalAction as exc:
            self.say(str(exc), "error")
            confirmable = getattr(exc, "confirmable", None)
            if confirmable is not None:  # after the message: a screen may word it its own way
                self.refusal = {"action": dict(action), "reason": str(exc), "confirmable": bool(confirmable)}
            return False
        except StoreError as exc:
            self.say(f"Not saved: {exc}", "error")
            return False
        self.last_events = events
        self.say(" ".join(e.get("text", "") for e in events if e.get("text")), "info")
        self.refresh()
        return True

    def undo(self) -> bool:
        """Take back the last action; True if something was undone."""
        return self._move(self.session.undo, "Undone")

    def redo(self) -> bool:
        """Put back the last undone action; True if something was redone."""
        return self._move(self.session.redo, "Redone")

    def _move(self, step: Any, verb: str) -> bool:
        if self.busy:
            self.say("Wait for the measurement in progress to finish.", "error")
            return False
        if self.locked:
            self.say(self.LOCKED_TEXT, "error")
            return False
        try:
            entry = step()
        except NothingToUndo as exc:
            self.say(str(exc).capitalize() + ".", "error")
            return False
        except StaleWrite as exc:
            self._changed_elsewhere(exc)
            return False
        except StoreError as exc:
            self.say(f"Not saved: {exc}", "error")
            return False
        self.last_events = []
        self.say(f"{verb}: {entry.text}" if entry.text else f"{verb}.", "info")
        self.refresh()
        return True

    def _changed_elsewhere(self, exc: StaleWrite) -> None:
        """Another device wrote first: the session has re-read the game; show it and say why."""
        self.last_events = []
        self.refresh()
        self.say(f"Not saved: {exc}", "error")

    def say(self, text: str, kind: str) -> None:
        """Show ``text`` in the message line; ``kind`` is "error", "info" or ""."""
        self.message = text
        self.message_kind = kind if text else ""

    def close(self) -> None:
        """Stop following the game and release the session's own devices (the store stays open)."""
        if self._follow_event is not None:
            self._follow_event.cancel()
            self._follow_event = None
        self.session.close()
