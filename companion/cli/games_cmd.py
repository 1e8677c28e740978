"""`purser games`: the games Purser referees and their house rules."""

from __future__ import annotations

import argparse
import json

from companion.games import list_games


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``games`` command."""
    p = sub.add_parser("games", help="list the games with their player counts and house rules")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    p.add_argument("--rules", action="store_true", help="also list each game's house rules")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print every registered game."""
    games = list_games()
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "name": g.NAME,
                        "title": g.TITLE,
                        "players": [g.MIN_PLAYERS, g.MAX_PLAYERS],
                        "rules": {r.key: {"default": r.default, "help": r.help} for r in g.RULES},
                    }
                    for g in games
                ],
                default=list,
            )
        )
        return 0
    for g in games:
        print(f"{g.NAME:<14} {g.TITLE} ({g.MIN_PLAYERS}-{g.MAX_PLAYERS} players)")
        if args.rules:
            for r in g.RULES:
                print(f"    {r.describe()}")
    return 0
