"""Player profiles and the statistics derived from their games."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.store import Store


@dataclass
class PlayerStats:
    """Games a player sat in, finished and won, overall and per game; titles from their profile."""

    name: str
    played: int = 0
    finished: int = 0
    wins: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    wins_by_game: Counter[str] = field(default_factory=Counter)
    profile: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "played": self.played,
            "finished": self.finished,
            "wins": self.wins,
            "by_game": dict(self.by_game),
            "wins_by_game": dict(self.wins_by_game),
            "profile": self.profile,
        }


def player_stats(store: Store) -> list[PlayerStats]:
    """Statistics for every profile, derived from the stored sessions (never kept as counters)."""
    stats = {p.name: PlayerStats(p.name, profile=p.profile) for p in store.players()}
    for record in store.sessions():
        if record.damaged:
            continue  # reported when that game is opened; the others still count
        winners = set((record.result or {}).get("winners", [])) if record.finished else set()
        for name in record.players:
            s = stats.setdefault(name, PlayerStats(name))
            s.played += 1
            s.by_game[record.game] += 1
            if record.finished:
                s.finished += 1
            if name in winners:
                s.wins += 1
                s.wins_by_game[record.game] += 1
    return sorted(stats.values(), key=lambda s: s.name.casefold())
