"""`purser players`: player profiles with their statistics."""

from __future__ import annotations

import argparse

from companion.cli.common import add_db_option, open_store, print_json, say, warn
from companion.errors import ExitCode
from companion.session.profiles import player_stats


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``players`` command."""
    p = sub.add_parser("players", help="list player profiles with games played and won; `players add NAME` adds one")
    p.add_argument("add", nargs="?", choices=["add"], help=argparse.SUPPRESS)
    p.add_argument("name", nargs="?", help="the name to add")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """List profiles, or add one."""
    with open_store(args) as store:
        if args.add:
            if not args.name or not args.name.strip():
                warn("players add: give the new player's name")
                return int(ExitCode.USAGE)
            record = store.add_player(args.name)
            say(record.name)
            return 0
        stats = player_stats(store)
        if args.json:
            print_json([s.to_json() for s in stats])
            return 0
        if not stats:
            say("No players yet; they are added when a game starts, or with `purser players add NAME`.")
        for s in stats:
            titles = ", ".join(f"{v}" for v in s.profile.get("titles", {}).values())
            say(f"{s.name:<20} played {s.played:>3}  won {s.wins:>3}  {titles}")
    return 0
