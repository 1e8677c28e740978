"""The leaderboard pinned under the game bar: every player's total in their own colour,
who leads and by how much, all players in sight in either orientation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kivy.properties import BooleanProperty, ColorProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout

from companion.ui.theme import player_colour

#: What a game's scores count, for the caption (points when not listed).
SCORE_WORDS: dict[str, str] = {
    "seven": "chips",
    "scallywagger": "crew",
    "seven-seize": "pieces",
    "guilded": "Vault",
}


def score_text(value: float) -> str:
    """A score as players read it: "12", "12.5"."""
    return f"{value:g}"


def standings(scores: Mapping[str, float], seating: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Each player's total, the gap to the leader and whether they lead, in seating order.

    ``seating`` defaults to the order of ``scores``.
    """
    order = list(seating or scores)
    if not order:
        return []
    best = max(float(scores.get(p, 0)) for p in order)
    leaders = [p for p in order if float(scores.get(p, 0)) == best]
    rows = []
    for p in order:
        value = float(scores.get(p, 0))
        rows.append(
            {"name": p, "value": value, "gap": best - value, "leads": p in leaders and len(leaders) < len(order)}
        )
    return rows


def gap_text(row: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> str:
    """ "leads by 12", "level", or "-12"."""
    if row["leads"]:
        others = [r["value"] for r in rows if not r["leads"]]
        return f"leads by {score_text(row['value'] - max(others))}" if others else "leads"
    if row["gap"] == 0:
        return "level"
    return f"-{score_text(row['gap'])}"


class LeaderChip(BoxLayout):
    """One player's total."""

    name = StringProperty("")
    total = StringProperty("")
    note = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    leads = BooleanProperty(False)
    acting = BooleanProperty(False)


class Leaderboard(BoxLayout):
    """A row of :class:`LeaderChip`; follows ``controller`` (its summary) by itself."""

    controller = ObjectProperty(None, allownone=True)
    caption = StringProperty("")
    rows = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        self._bound: Any = None
        super().__init__(**kwargs)

    def on_controller(self, _inst: Any, controller: Any) -> None:
        if self._bound is not None:
            self._bound.unbind(revision=self._changed)
        self._bound = controller
        if controller is not None:
            controller.bind(revision=self._changed)
            self._changed()

    def _changed(self, *_: Any) -> None:
        c = self._bound
        if c is None or c.summary is None:
            return
        s = c.summary
        players = list(getattr(c.session, "players", ())) or list(s.scores)
        self.caption = SCORE_WORDS.get(getattr(c.session, "game_name", ""), "points")
        self.show(standings(s.scores, [p for p in players if p in s.scores]), s.to_act, players)

    def show(self, rows: Sequence[Mapping[str, Any]], to_act: Sequence[str] = (), seating: Sequence[str] = ()) -> None:
        """Draw ``rows`` (see :func:`standings`)."""
        self.rows = list(rows)
        chips = list(reversed(self.children))
        if len(chips) != len(rows):
            self.clear_widgets()
            chips = []
            for _ in rows:
                chip = LeaderChip()
                self.add_widget(chip)
                chips.append(chip)
        seats = list(seating) or [r["name"] for r in rows]
        for chip, row in zip(chips, rows, strict=True):
            chip.name = row["name"]
            chip.total = score_text(row["value"])
            chip.note = gap_text(row, rows)
            chip.leads = row["leads"]
            chip.acting = row["name"] in to_act
            chip.colour = player_colour(seats.index(row["name"]) if row["name"] in seats else 0)
