"""Hints on the tablet: the optimal hold or box from :mod:`companion.advisor`, worked out
without ever making the screen wait.

The first hint for a sheet needs its table of expected scores: loaded from the cache
when it is there (about a second for Swashbuckle), otherwise computed once (about a
minute for Swashbuckle, seconds for Yahtzee) and cached for good. Both happen on a
thread of their own, with :attr:`AdviceService.progress` for the screen's progress bar;
meanwhile the screen says what is happening and play goes on.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.event import EventDispatcher
from kivy.properties import NumericProperty, StringProperty

from companion.ui.background import on_ui

log = logging.getLogger(__name__)

#: The games whose sheets the advisor plays (score-sheet presets).
ADVISED = ("swashbuckle", "yahtzee", "yacht")


def sheet_for(game_name: str, config: Mapping[str, Any]) -> Any:
    """The advisor's sheet of a session (None for a game it does not advise on)."""
    if game_name not in ADVISED:
        return None
    from companion.games.scoresheet import sheet

    return sheet(game_name, config)


def column_for(sheet: Any, boxes: Mapping[str, Any]) -> Any:
    """A :class:`~companion.games.scoresheet.Column` from a summary's ``boxes`` mapping."""
    from companion.games.scoresheet import Column

    return Column(tuple(boxes.get(b.key) for b in sheet.boxes))


class AdviceService(EventDispatcher):
    """Advisors by sheet, built in the background. ``state``: "idle", "building", "ready",
    "failed"; ``progress`` 0-1 while building; ``message`` says what is going on."""

    state = StringProperty("idle")
    progress = NumericProperty(0.0)
    message = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._advisors: dict[str, Any] = {}
        self._building: str | None = None
        self._key: str | None = None

    @staticmethod
    def key(sheet: Any) -> str:
        """The table's name for ``sheet`` (its settings included)."""
        from companion.advisor.table import table_name

        return table_name(sheet)

    def advisor(self, sheet: Any) -> Any:
        """The ready advisor of ``sheet``, or None (then :meth:`prepare` it)."""
        return self._advisors.get(self.key(sheet))

    def prepare(self, sheet: Any) -> None:
        """Make ``sheet``'s advisor ready in the background (at once if it is)."""
        key = self.key(sheet)
        self._key = key
        if key in self._advisors:
            self.state, self.progress, self.message = "ready", 1.0, ""
            return
        if self._building is not None:
            return
        self._building = key
        self.state, self.progress = "building", 0.0
        from companion.advisor.table import table_path

        cached = table_path(sheet).exists()
        self.message = (
            "Loading the best-play table..."
            if cached
            else f"Working out the best play for {sheet.title} (once, then kept)..."
        )
        threading.Thread(target=self._build, args=(sheet, key), name="purser-advisor", daemon=True).start()

    def _build(self, sheet: Any, key: str) -> None:
        try:
            try:
                import numba

                # leave a core to the screen: the table is built while the game goes on
                most = int(getattr(numba.config, "NUMBA_NUM_THREADS", 1))
                numba.set_num_threads(max(1, min(most, (os.cpu_count() or 2) - 1)))
            except (ImportError, ValueError):
                pass
            from companion.advisor.dice import dice_space
            from companion.advisor.hint import Advisor

            advisor = Advisor(sheet, progress=lambda f: on_ui(self._progress, key, f))
            advisor.hint(column_for(sheet, {}), [1, 2, 3, 4, 5], 2)  # compiles the hint's loops here
            dice_space()
        except Exception as exc:  # the game goes on without hints
            log.exception("the advisor table for %s could not be made", sheet.name)
            on_ui(self._failed, key, exc)
            return
        on_ui(self._ready, key, advisor)

    def _progress(self, key: str, fraction: float) -> None:
        if key == self._building:
            self.progress = fraction

    def _ready(self, key: str, advisor: Any) -> None:
        self._advisors[key] = advisor
        self._building = None
        if key == self._key:
            self.state, self.progress, self.message = "ready", 1.0, ""

    def _failed(self, key: str, exc: BaseException) -> None:
        self._building = None
        if key == self._key:
            self.state = "failed"
            self.message = f"No hints: the best-play table could not be made ({exc})."

    def hint_text(self, sheet: Any, boxes: Mapping[str, Any], dice: Sequence[int], rolls_left: int) -> tuple[str, Any]:
        """The advice in words and the :class:`~companion.advisor.hint.Hint` (None while not ready)."""
        advisor = self.advisor(sheet)
        if advisor is None:
            return self.message, None
        column = column_for(sheet, boxes)
        if column.full:
            return "", None
        if not dice:
            return f"Roll all five. From here the best play scores {advisor.state_value(column):.0f} on average.", None
        hint = advisor.hint(column, list(dice), rolls_left)
        return f"Best: {hint.best.words()}", hint
