"""What the whole table may see of a game, and what only one player may see.

Every screen and command that shows a game to the table uses the public view; a
player's own concealed cards come only from :func:`private_view`, asked for by name.

- :func:`public_view`: the summary and the legal actions, as JSON. Engines keep these
  public (counts, never a concealed card), so this is what a shared screen, ``purser
  show`` or a play reply may print.
- :func:`public_action`: a journal action as the table may see it in the history (an
  action that names a concealed card, such as the card a player drew, without the name).
- :func:`private_view`: one player's concealed cards and the actions naming them.
- :func:`public_history`: the journal's actions in their public form, with their events.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.games.base import Event, Game, IllegalAction, PrivateView, shown


def public_view(game: Game, state: Any) -> dict[str, Any]:
    """The summary and the legal actions, JSON-ready, safe to show the whole table."""
    return {"summary": game.summary(state).to_json(), "legal_actions": game.legal_actions(state)}


def public_action(game: Game, action: Mapping[str, Any]) -> dict[str, Any]:
    """``action`` as the table may see it: without any concealed card it names."""
    hook = getattr(game, "public_action", None)
    if hook is None:
        return dict(action)
    cleaned: dict[str, Any] = hook(action)
    return cleaned


def private_view(game: Game, state: Any, player: str) -> PrivateView:
    """What only ``player`` may see (empty for a game without hidden information).

    Raises:
        IllegalAction: nobody of that name is playing.
    """
    players: tuple[str, ...] = tuple(getattr(state, "players", ()))
    match = next((p for p in players if p.casefold() == player.strip().casefold()), None)
    if match is None:
        raise IllegalAction(f"nobody called {shown(player)} is playing (players: {', '.join(players)})")
    hook = getattr(game, "private_view", None)
    if hook is None:
        return PrivateView(match)
    view: PrivateView = hook(state, match)
    return view


def public_history(game: Game, entries: Iterable[tuple[Mapping[str, Any], list[Event]]]) -> list[dict[str, Any]]:
    """``(action, events)`` pairs as the table may see them: public actions and their events' text."""
    return [
        {
            "action": public_action(game, action),
            "text": " ".join(e.get("text", "") for e in events if e.get("text")),
        }
        for action, events in entries
    ]
