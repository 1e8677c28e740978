"""`purser players`: player profiles with their statistics; add, rename, merge, delete.

Exit codes (see the README): 0 done; 1 refused because the stored games forbid it (the
new name is taken, the two players sat at the same table, the player has games); 2 a name
no player can have (empty, over 64 characters, control characters) or the same player
twice; 4 busy, or the profile changed in another window; 6 the database is read-only or
the disk is full; 8 no player by that name.
"""

from __future__ import annotations

import argparse

from companion.cli.common import add_db_option, open_store, print_json, say
from companion.session.profiles import PlayerStats, delete_player, merge_players, player_stats, rename_player
from companion.store import Store

_EPILOG = """\
A game keeps the names the players had at its table (its journal and exports use them);
its statistics and titles count for the profiles. So a rename or merge changes no game.

  purser players                      every profile: games played and won, titles
  purser players add NAME             a new profile
  purser players rename OLD NEW       give a profile another name (its games stay with it)
  purser players merge INTO FROM      FROM is the same person as INTO: FROM's games count
                                      for INTO and FROM leaves the list (refused if the two
                                      ever sat at the same table)
  purser players delete NAME          delete a profile that has no games

exit codes: 0 done, 1 refused (name taken, sat at the same table, has games), 2 a name no
player can have, 4 busy or changed elsewhere, 6 read-only or disk full, 8 no such player
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``players`` command and its sub-commands."""
    p = sub.add_parser(
        "players",
        help="list player profiles with games played and won; add, rename, merge or delete one",
        usage="%(prog)s [-h] [--json] [--db PATH] [ACTION ...]",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_db_option(p)
    p.set_defaults(func=run, action="list")
    actions = p.add_subparsers(dest="action", metavar="ACTION")

    def action(name: str, help: str) -> argparse.ArgumentParser:
        a: argparse.ArgumentParser = actions.add_parser(name, help=help, description=help)
        # also accepted after the action; SUPPRESS keeps a value given before it
        a.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
        a.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help="database file")
        return a

    action("list", "every profile with games played and won, and titles")
    action("add", "add a profile").add_argument("name", help="the new player's name")
    a = action("rename", "give a profile another name; its games, statistics and titles stay with it")
    a.add_argument("old", metavar="OLD", help="the player's name now")
    a.add_argument("new", metavar="NEW", help="the new name (at most 64 characters)")
    a = action("merge", "count FROM's games for INTO (the same person typed two ways); FROM leaves the list")
    a.add_argument("into", metavar="INTO", help="the profile that stays, with its name")
    a.add_argument("other", metavar="FROM", help="the profile merged into INTO")
    a = action("delete", "delete a profile that has no games")
    a.add_argument("name", metavar="NAME", help="the player to delete")


def _stats_of(store: Store, name: str) -> PlayerStats:
    found = [s for s in player_stats(store) if s.name == name]
    return found[0] if found else PlayerStats(name)


def _games(n: int) -> str:
    return f"{n} game{'' if n == 1 else 's'}"


def run(args: argparse.Namespace) -> int:
    """List profiles, or add, rename, merge or delete one."""
    with open_store(args) as store:
        if args.action == "add":
            record = store.add_player(args.name)
            if args.json:
                print_json(_stats_of(store, record.name).to_json())
            else:
                say(record.name)
            return 0
        if args.action == "rename":
            record = rename_player(store, args.old, args.new)
            stats = _stats_of(store, record.name)
            if args.json:
                print_json(stats.to_json())
            else:
                say(
                    f"{args.old.strip()} is now called {record.name}: {_games(stats.played)}, {stats.wins} won "
                    "(past games keep the name they were played under)"
                )
            return 0
        if args.action == "merge":
            record = merge_players(store, args.into, args.other)
            stats = _stats_of(store, record.name)
            if args.json:
                print_json(stats.to_json())
            else:
                aka = f"; also played as {', '.join(stats.aliases)}" if stats.aliases else ""
                say(f"Merged {args.other.strip()} into {record.name}: {_games(stats.played)}, {stats.wins} won{aka}")
            return 0
        if args.action == "delete":
            name = delete_player(store, args.name).name
            if args.json:
                print_json({"deleted": name})
            else:
                say(f"Deleted the player {name}")
            return 0
        stats_list = player_stats(store)
        if args.json:
            print_json([s.to_json() for s in stats_list])
            return 0
        if not stats_list:
            say("No players yet; they are added when a game starts, or with `purser players add NAME`.")
        for s in stats_list:
            titles = ", ".join(f"{v}" for v in s.profile.get("titles", {}).values())
            say(f"{s.name:<20} played {s.played:>3}  won {s.wins:>3}  {titles}")
    return 0
