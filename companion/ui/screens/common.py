"""Small helpers the screens share: words for sessions and times."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from companion.games import UnknownGame, find_game


def game_title(name: str) -> str:
    """A game's title for players (its registry name when the engine is unknown)."""
    try:
        return str(find_game(name).TITLE)
    except UnknownGame:
        return name


def when(iso: str) -> str:
    """A stored UTC time as a short local time: "Sat 22 Nov, 16:40"."""
    try:
        moment = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    return moment.strftime("%a %d %b, %H:%M")


def players_text(players: Any) -> str:
    """ "Ana, Ben and Cy"."""
    names = list(players)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def moves_text(n: int) -> str:
    """ "1 move", "12 moves"."""
    return f"{n} move{'s' * (n != 1)}"
