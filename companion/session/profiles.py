"""Player profiles and the statistics derived from their games; renaming, merging, deleting.

A seat in a stored game keeps the name the player had at that table (the journal, the
result and exports use it) and counts for a profile. Statistics and titles go by the
profile, so a profile can be renamed, or a duplicate merged into it, without touching any
game: the journals, their hash chains and exports stay exactly as they were.

Each change here is one database transaction together with the titles it implies.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.store import PlayerRecord, Store, aliases_of


@dataclass
class PlayerStats:
    """Games a player sat in, finished and won, overall and per game; titles from their profile.

    ``key`` is the profile's :attr:`~companion.store.PlayerRecord.key` (None for a name
    seated in a game but without a profile, which a sound database never has).
    """

    name: str
    played: int = 0
    finished: int = 0
    wins: int = 0
    by_game: Counter[str] = field(default_factory=Counter)
    wins_by_game: Counter[str] = field(default_factory=Counter)
    profile: dict[str, Any] = field(default_factory=dict)
    key: tuple[int, str] | None = None

    @property
    def aliases(self) -> list[str]:
        """Other names this player had (renamed from, merged in), oldest first."""
        return aliases_of(self.profile)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "id": self.key[0] if self.key else None,
            "played": self.played,
            "finished": self.finished,
            "wins": self.wins,
            "by_game": dict(self.by_game),
            "wins_by_game": dict(self.wins_by_game),
            "profile": self.profile,
        }


def player_stats(store: Store) -> list[PlayerStats]:
    """Statistics for every profile, derived from the stored sessions (never kept as counters).

    A game counts for the profiles its seats count for now, whatever the players were
    called at that table.
    """
    stats = {p.name: PlayerStats(p.name, profile=p.profile, key=p.key) for p in store.players()}
    for record in store.sessions():
        if record.damaged:
            continue  # reported when that game is opened; the others still count
        winners = set((record.result or {}).get("winners", [])) if record.finished else set()
        for seat, name in zip(record.players, record.profiles, strict=True):
            s = stats.setdefault(name, PlayerStats(name))
            s.played += 1
            s.by_game[record.game] += 1
            if record.finished:
                s.finished += 1
            if seat in winners:
                s.wins += 1
                s.wins_by_game[record.game] += 1
    return sorted(stats.values(), key=lambda s: s.name.casefold())


def merge_candidates(store: Store, name: str) -> list[str]:
    """The profiles ``name`` could be merged into: every other one that never sat at a
    table with ``name`` (damaged games included), by name.

    Raises:
        NotFound: no player is called ``name``.
    """
    me = store.player(name)
    together: set[str] = set()
    for record in store.sessions():
        profiles = record.profiles
        if me.name in profiles:
            together.update(profiles)
    return [p.name for p in store.players() if p.id != me.id and p.name not in together]


def _refresh_all_titles(store: Store) -> None:
    from companion.games import list_games
    from companion.session.titles import refresh_titles

    for game in list_games():
        if getattr(game, "titles_from_results", None) is not None:
            refresh_titles(store, game)


def rename_player(store: Store, name: str, new_name: str, *, seen: tuple[int, str] | None = None) -> PlayerRecord:
    """Rename a profile (see :meth:`Store.rename_player`); its games, statistics and titles
    stay with it. One transaction.

    Raises:
        BadName, NotFound, NameTaken, ProfileChanged, StorageError: as the store says;
            nothing was changed.
    """
    with store.transaction():
        record = store.rename_player(name, new_name, seen=seen)
        _refresh_all_titles(store)
    return store.player(record.name)


def merge_players(
    store: Store, into: str, other: str, *, seen: tuple[tuple[int, str], tuple[int, str]] | None = None
) -> PlayerRecord:
    """Merge the profile ``other`` into ``into`` (see :meth:`Store.merge_players`) and work
    out the titles of the merged history, in one transaction.

    Raises:
        BadName, NotFound, PlayedTogether, ProfileChanged, StorageError: as the store
            says; nothing was changed.
    """
    with store.transaction():
        record = store.merge_players(into, other, seen=seen)
        _refresh_all_titles(store)
    return store.player(record.name)


def delete_player(store: Store, name: str, *, seen: tuple[int, str] | None = None) -> PlayerRecord:
    """Delete a profile without games (see :meth:`Store.delete_player`); returns it as it was.

    Raises:
        BadName, NotFound, PlayerHasGames, ProfileChanged, StorageError: nothing was changed.
    """
    return store.delete_player(name, seen=seen)
