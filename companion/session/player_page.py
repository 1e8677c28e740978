"""A player's page: their record in each game (played, finished, wins, best and average
score) and head to head against each rival, derived from the stored games (never kept as
counters)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from companion.store import SessionRecord


@dataclass
class GameRecord:
    """One player's record in one game: games played and finished, wins, final scores."""

    played: int = 0
    finished: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        """Wins per finished game (None before any finished)."""
        return self.wins / self.finished if self.finished else None

    @property
    def best(self) -> float | None:
        return max(self.scores) if self.scores else None

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None


@dataclass
class HeadToHead:
    """Finished games two players sat in together and how many each won."""

    together: int = 0
    wins: int = 0
    losses: int = 0


@dataclass
class PlayerPage:
    """Everything a player's page shows."""

    name: str
    games: dict[str, GameRecord] = field(default_factory=dict)
    rivals: dict[str, HeadToHead] = field(default_factory=dict)

    @property
    def total(self) -> GameRecord:
        """All games together (scores are not mixed across games: left empty)."""
        out = GameRecord()
        for g in self.games.values():
            out.played += g.played
            out.finished += g.finished
            out.wins += g.wins
        return out


def player_page(name: str, sessions: Iterable[SessionRecord]) -> PlayerPage:
    """The page of the profile ``name`` from stored session records: a game counts for the
    profiles its seats count for now (``profiles``), its result names the players as they
    were called at that table (``players``). A damaged record is left out (only its seats
    can be trusted), as in :func:`~companion.session.profiles.player_stats`."""
    page = PlayerPage(name)
    key = name.casefold()  # profile names are unique whatever their case
    for record in sessions:
        if record.damaged:
            continue
        profiles = record.profiles
        seat_of = dict(zip(profiles, record.players, strict=False))
        found = [p for p in profiles if p.casefold() == key]
        if not found:
            continue
        me = seat_of[found[0]]
        game = page.games.setdefault(record.game, GameRecord())
        game.played += 1
        if not record.finished:
            continue
        game.finished += 1
        result = record.result or {}
        winners = set(result.get("winners", []))
        if me in winners:
            game.wins += 1
        score = (result.get("scores") or {}).get(me)
        if isinstance(score, int | float) and not isinstance(score, bool):
            game.scores.append(float(score))
        for rival, other in seat_of.items():
            if other == me:
                continue
            h2h = page.rivals.setdefault(rival, HeadToHead())
            h2h.together += 1
            h2h.wins += me in winners
            h2h.losses += other in winners
    return page
