"""The end of a game: who won, the standings with monikers, how the game went (a plot),
and what next: Rematch (same seats, same house rules), New game, Done, or back to the
finished game to read it (it stays locked unless reopened)."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.errors import PurserError
from companion.session.titles import rematch_rules
from companion.ui.screens.common import players_text
from companion.ui.widgets import leaderboard, plot, table  # noqa: F401  (kv classes)
from companion.ui.widgets.leaderboard import SCORE_WORDS, score_text

log = logging.getLogger(__name__)

#: What the plot of a game shows, by game: (title, y axis).
PLOT_WORDS: dict[str, tuple[str, str]] = {
    "seven-seize": ("Pieces per round", "pieces"),
    "scallywagger": ("Crew left", "crewmates"),
    "seven": ("Chips after each round", "chips"),
}


def winner_text(winners: Sequence[str]) -> str:
    """ "Ana wins!", "Ana and Ben share the win", or "No winner"."""
    if not winners:
        return "No winner"
    if len(winners) == 1:
        return f"{winners[0]} wins!"
    return f"{players_text(winners)} share the win"


def standing_rows(
    scores: Mapping[str, float], winners: Sequence[str], monikers: Mapping[str, Any] | None = None
) -> list[list[str]]:
    """Place, player, score (and moniker when there are any), best first; winners first."""
    order = sorted(scores, key=lambda p: (p not in winners, -float(scores[p])))
    rows = []
    place = 0
    previous: tuple[bool, float] | None = None
    for i, p in enumerate(order):
        key = (p in winners, float(scores[p]))
        if key != previous:
            place = i + 1
            previous = key
        row = [f"{place}.", p, score_text(float(scores[p]))]
        if monikers:
            row.append(str(monikers.get(p) or ""))
        rows.append(row)
    return rows


class GameOverScreen(Screen):
    """Shown when a game ends, and when a finished game is opened."""

    controller = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    winner = StringProperty("")
    detail = StringProperty("")
    error = StringProperty("")

    def on_pre_enter(self, *_: Any) -> None:
        self.error = ""
        self.refresh()

    def refresh(self) -> None:
        """Redraw from the controller's summary."""
        c = self.controller
        if c is None or c.summary is None:
            return
        s = c.summary
        name = c.session.game_name
        self.title = f"{c.game.TITLE}: result"
        self.winner = winner_text(list(s.winners))
        monikers = s.detail.get("monikers") or {}
        header = ["", "Player", SCORE_WORDS.get(name, "points").capitalize()] + (["Moniker"] if monikers else [])
        rows = standing_rows(s.scores, s.winners, monikers)
        self.ids.standings.show(header, rows, marked_rows=[i for i, r in enumerate(rows) if r[1] in s.winners])
        self.detail = s.prompt
        self._plot(c)

    def _plot(self, c: Any) -> None:
        from companion.ui.progress import session_progress
        from companion.ui.widgets.plot import line_chart

        name = c.session.game_name
        try:
            progress = session_progress(c.session)
        except Exception:  # the result still shows without its plot
            log.exception("the progress of game %s could not be worked out", c.session.id)
            self.ids.chart.plot(None)
            return
        title, ylabel = PLOT_WORDS.get(name, ("Running score", "points"))
        self.ids.chart.title = title
        self.ids.chart.plot(
            line_chart(
                progress.series,
                list(c.session.players),
                xlabel=progress.xlabel,
                ylabel=ylabel,
                title=title,
                step=progress.xlabel == "move",
            )
        )

    def done(self) -> None:
        """Back home."""
        App.get_running_app().go_home()

    def see_game(self) -> None:
        """The finished game's own screen (read-only until reopened)."""
        c = self.controller
        if c is not None:
            App.get_running_app().show_game(c)

    def rematch(self) -> None:
        """The same seats and house rules, a new game."""
        c = self.controller
        if c is None:
            return
        app = App.get_running_app()
        # seated by their profiles' names now (a player renamed meanwhile keeps their profile)
        players = list(c.session.profiles)
        try:
            app.start_game(c.session.game_name, players, rematch_rules(c.session.config, c.session.players))
        except PurserError as exc:
            self.error = str(exc)

    def new_game(self) -> None:
        """The new-game form with this game and these players chosen."""
        c = self.controller
        if c is None:
            return
        app = App.get_running_app()
        game, players = c.session.game_name, list(c.session.profiles)
        app.close_game()
        screen = app.go("newgame")
        screen.choose_game(game)
        screen.clear_seats()
        for p in players:
            screen.toggle_seat(p, True)
