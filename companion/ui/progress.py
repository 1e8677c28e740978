"""How a game went, for plots: each player's score after every move that changed it.

Derived by replaying the journal (as everything in Purser is), in words a chart needs:
the x axis is the game's round or turn when its summary reports one as a number, else
the move number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.session import replay


@dataclass(frozen=True)
class Progress:
    """``series[player]``: (x, score) points; ``xlabel`` names the x axis."""

    xlabel: str
    series: dict[str, list[tuple[float, float]]]


def _clock(detail: Mapping[str, Any], move: int) -> tuple[str, float]:
    for key in ("round", "turn"):
        value = detail.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return key, float(value)
    return "move", float(move)


def score_progress(
    game: Any, config: Mapping[str, Any], players: Sequence[str], seed: int, actions: Sequence[Mapping[str, Any]]
) -> Progress:
    """Scores along the journal ``actions`` (those in effect), one point per change.

    Raises:
        IllegalAction: the journal no longer replays.
    """
    states, _events = replay(game, config, players, seed, actions)
    series: dict[str, list[tuple[float, float]]] = {p: [] for p in players}
    last: dict[str, float] | None = None
    label = "move"
    for move, state in enumerate(states):
        summary = game.summary(state)
        scores = {p: float(v) for p, v in summary.scores.items()}
        if scores == last:
            continue
        label, x = _clock(summary.detail, move)
        for p, v in scores.items():
            series.setdefault(p, []).append((x, v))
        last = scores
    if label in ("round", "turn"):  # one point per round: the score at its end
        for p, points in series.items():
            by_x: dict[float, float] = {}
            for x, v in points:
                by_x[x] = v
            series[p] = sorted(by_x.items())
    return Progress(label, series)


def session_progress(session: Any) -> Progress:
    """:func:`score_progress` of an open :class:`~companion.session.TableSession`."""
    actions = [e.action for e in session.history()]
    return score_progress(session.game, session.config, session.players, session.seed, actions)
