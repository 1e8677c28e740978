"""Pure rule engines, one module per game, found by name.

``find_game("swashbuckle")`` returns the game object (see :mod:`companion.games.base`
for the protocol). Engines are imported only when asked for, so listing one game does
not load the others.
"""

from __future__ import annotations

import importlib

from companion.games.base import (
    Action,
    ConfigError,
    Event,
    Game,
    IllegalAction,
    Rule,
    Summary,
    event,
    resolve_config,
    shown,
)

#: Command-line name -> (module, attribute or "" for the module itself, aliases).
_REGISTRY: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "seven": ("companion.games.seven", "", ("7",)),
    "guilded": ("companion.games.guilded", "", ("guilded-treasures", "seize-guilded-treasures", "sgt")),
    "scallywagger": ("companion.games.scallywagger", "", ("scally", "liars-dice")),
    "seven-seize": ("companion.games.seven_seize", "", ("7seize", "7-seize", "seize")),
    "swashbuckle": ("companion.games.swashbuckle", "", ("swash",)),
    "yahtzee": ("companion.games.scoresheet.classic", "YAHTZEE", ()),
    "yacht": ("companion.games.scoresheet.classic", "YACHT", ("yacht-dice",)),
}


class UnknownGame(ConfigError):
    """No game is registered under that name."""


def _canonical(name: str) -> str:
    key = name.strip().lower()
    if key in _REGISTRY:
        return key
    for canonical, (_, _, aliases) in _REGISTRY.items():
        if key in aliases:
            return canonical
    known = ", ".join(sorted(_REGISTRY))
    raise UnknownGame(f"Purser does not know a game called {shown(name)} (games: {known})")


def find_game(name: str) -> Game:
    """The game registered under ``name`` or one of its aliases.

    Raises:
        UnknownGame: no such game.
    """
    module_name, attribute, _ = _REGISTRY[_canonical(name)]
    module = importlib.import_module(module_name)
    found: Game = getattr(module, attribute) if attribute else module
    return found


def list_games() -> list[Game]:
    """Every registered game, in name order."""
    return [find_game(name) for name in sorted(_REGISTRY)]


def game_names() -> list[str]:
    """Every registered command-line name, without importing the engines."""
    return sorted(_REGISTRY)


__all__ = [
    "Action",
    "ConfigError",
    "Event",
    "Game",
    "IllegalAction",
    "Rule",
    "Summary",
    "UnknownGame",
    "event",
    "find_game",
    "game_names",
    "list_games",
    "resolve_config",
]
