"""Pieces every command module shares: the --db option, game help, JSON output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.store import Store, default_db_path


def add_db_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--db PATH`` (default: the user's data directory, or ``PURSER_DB``)."""
    parser.add_argument("--db", metavar="PATH", help=f"database file (default: {default_db_path()})")


def open_store(args: argparse.Namespace) -> Store:
    """Open the database named by ``--db`` or the default one.

    Only the default data folder is created when missing; a ``--db`` in a folder that does
    not exist is refused (a typo must not scatter databases around), as is an empty one.

    Raises:
        StoreError: the file is refused or cannot be opened.
    """
    db = getattr(args, "db", None)
    return Store.open(default_db_path() if db is None else db)


def games_help() -> str:
    """Every game's house rules and example actions, for --help epilogs."""
    from companion.games import list_games

    parts = []
    for game in list_games():
        rules = "\n".join(f"    {r.describe()}" for r in game.RULES) or "    (none)"
        parts.append(
            f"{game.NAME}: {game.TITLE}, {game.MIN_PLAYERS}-{game.MAX_PLAYERS} players\n"
            f"  house rules (--rule key=value):\n{rules}\n"
            + "\n".join("  " + line for line in game.ACTIONS_HELP.splitlines())
        )
    return "games and their actions:\n\n" + "\n\n".join(parts)


class _GamesHelpAction(argparse.Action):
    """-h/--help that adds every game's actions to the help text, importing engines only then."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        parser.epilog = games_help()
        parser.print_help()
        parser.exit()


def add_parser_with_game_help(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """A sub-command whose --help also shows each game's actions and house rules."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, add_help=False, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs
    )
    parser.add_argument("-h", "--help", action=_GamesHelpAction, help="show this help, with every game's actions")
    return parser


def parse_rules(items: list[str]) -> dict[str, str]:
    """``--rule KEY=VALUE`` options as a dict (values stay text; the game parses them).

    Raises:
        ConfigError: an item without ``=`` or without a key.
    """
    from companion.games.base import ConfigError

    rules = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--rule needs KEY=VALUE, not {item!r}")
        rules[key.strip()] = value.strip()
    return rules


def say(text: Any = "") -> None:
    """One line of text on stdout (the command line's answer, not a log message)."""
    sys.stdout.write(f"{text}\n")


def warn(text: str) -> None:
    """One line on stderr, prefixed ``purser:``."""
    sys.stderr.write(f"purser: {text}\n")


def print_json(data: Any) -> None:
    """One compact JSON line on stdout, flushed at once."""
    sys.stdout.write(json.dumps(data, separators=(",", ":"), default=str) + "\n")
    sys.stdout.flush()
