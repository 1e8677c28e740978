"""Titles across matches: derived from the stored finished games, kept on player profiles.

A game may provide two optional, pure hooks:

- ``titles_from_results(results) -> {player: {... "title": "Captain"}}``: each player's
  titles from the results (summaries as JSON) of that game's finished sessions, oldest
  first;
- ``rules_from_profiles({player: profile}) -> {rule: value}``: house-rule values the
  seated players' profiles imply (Swashbuckle: who holds the Captain moniker, who
  therefore starts).

Titles are worked out again from the whole history whenever a session finishes or stops
being finished (an undo), and written to ``profile["titles"][game]`` (the words shown
with the player) and ``profile[game]`` (the facts). Nothing is ever counted up
incrementally, so undo, redo or a replayed game can neither double-count nor lose a title.

A stored result names the players as they were called at that table; before the hook
sees it, those names are replaced by the names of the profiles the seats count for now
(:func:`as_profiles`), so a renamed or merged player keeps every title their games earned.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Game
from companion.store import Store

log = logging.getLogger(__name__)


def refresh_titles(store: Store, game: Game) -> dict[str, dict[str, Any]]:
    """Recompute ``game``'s titles for every player from the stored finished sessions and
    save them on the profiles; returns them (empty for a game without titles)."""
    hook = getattr(game, "titles_from_results", None)
    if hook is None:
        return {}
    finished = (r for r in store.sessions(game.NAME) if r.finished and r.result and not r.damaged)
    records = sorted(finished, key=lambda r: r.id)
    found: dict[str, dict[str, Any]] = hook([as_profiles(r.result, r.players, r.profiles) for r in records])
    changed: dict[str, dict[str, Any]] = {}
    for player in store.players():
        profile = dict(player.profile)
        titles = dict(profile.get("titles") or {})
        facts = found.get(player.name)
        if facts is None:
            titles.pop(game.NAME, None)
            profile.pop(game.NAME, None)
        else:
            if facts.get("title"):
                titles[game.NAME] = facts["title"]
            else:
                titles.pop(game.NAME, None)
            profile[game.NAME] = facts
        if titles:
            profile["titles"] = titles
        else:
            profile.pop("titles", None)
        if profile != player.profile:
            changed[player.name] = profile
    if changed:
        store.update_profiles(changed)
        log.info("%s titles updated for %s", game.NAME, ", ".join(sorted(changed)))
    return found


def as_profiles(data: Any, seats: Sequence[str], profiles: Sequence[str]) -> Any:
    """``data`` (a stored result, JSON) with each seat's name replaced by its profile's name
    now: as keys, and as whole text values. Returned unchanged when no name differs.

    A game never seats one profile twice (merging players who sat together is refused),
    so the replacement keeps the players of one game apart.
    """
    names = {seat: profile for seat, profile in zip(seats, profiles, strict=False) if seat != profile}
    if not names:
        return data

    def swap(value: Any) -> Any:
        if isinstance(value, str):
            return names.get(value, value)
        if isinstance(value, Mapping):
            return {names.get(k, k) if isinstance(k, str) else k: swap(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [swap(v) for v in value]
        return value

    return swap(data)


def seating_rules(store: Store, game: Game, players: Sequence[str]) -> dict[str, Any]:
    """House-rule values implied by the seated players' titles (``{}`` if the game has none)."""
    hook = getattr(game, "rules_from_profiles", None)
    if hook is None:
        return {}
    refresh_titles(store, game)
    profiles: dict[str, Mapping[str, Any]] = {}
    known = {p.name.casefold(): p for p in store.players()}
    for name in players:
        record = known.get(name.strip().casefold())
        if record is not None:
            profiles[name] = record.profile
    return dict(hook(profiles))


def rematch_rules(config: Mapping[str, Any], players: Sequence[str]) -> dict[str, Any]:
    """The house rules a rematch of a game with ``config`` starts with: the same, except
    values naming a seated player (a title holder's privilege, which :func:`seating_rules`
    works out again for the new seating)."""
    seated = {p.casefold() for p in players}
    return {k: v for k, v in config.items() if not (isinstance(v, str) and v.casefold() in seated)}
