"""`purser advise`: the optimal hold or box for a roll, and the expected score of a fresh game."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from companion.cli.common import parse_rules, print_json
from companion.cli.sheet_args import add_sheet_arguments, load_sheet, parse_dice, parse_used
from companion.games.base import ConfigError

PRESET_NAMES = ("yahtzee", "swashbuckle", "yacht")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``advise`` command."""
    p = sub.add_parser(
        "advise",
        help="the best dice to hold or box to score, with the expected final score of each choice",
        description="Optimal solitaire play for a score sheet. The first use of a sheet and its settings "
        "computes its table of expected scores (seconds for Yahtzee, a minute or two for Swashbuckle) "
        "and keeps it in the data directory. Example: purser advise yahtzee --dice 4 4 4 2 6 --rolls-left 2",
    )
    p.add_argument("preset", metavar="PRESET", help=f"the sheet: {', '.join(PRESET_NAMES)}")
    p.add_argument("--dice", nargs=5, metavar="DIE", help="the five dice showing")
    p.add_argument(
        "--rolls-left", type=int, default=0, choices=(0, 1, 2), help="rerolls still allowed this turn (0: choose a box)"
    )
    add_sheet_arguments(p)
    p.add_argument("--expected", action="store_true", help="print the expected score of a fresh game")
    p.add_argument("--all", action="store_true", help="list every choice, not just the best five")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _progress(title: str) -> Callable[[float], None]:
    def show(fraction: float) -> None:
        sys.stderr.write(f"\rWorking out {title} optimal play: {fraction:5.1%}")
        if fraction >= 1:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run(args: argparse.Namespace) -> int:
    """Print the advice."""
    from companion.advisor.hint import Advisor

    name, sheet = load_sheet(args.preset, args.rule)
    rules = parse_rules(args.rule)
    if not args.expected and not args.dice:
        raise ConfigError("give --dice D D D D D (and --rolls-left), or --expected")
    advisor = Advisor(sheet, progress=_progress(sheet.title) if sys.stderr.isatty() else None)
    if args.expected:
        if args.json:
            print_json({"preset": name, "rules": rules, "expected": advisor.expected()})
        else:
            print(f"{sheet.title}: expected score of a fresh game under optimal play: {advisor.expected():.4f}")
        if not args.dice:
            return 0
    dice = parse_dice(args.dice, False)
    column = parse_used(sheet, args.used)
    if column.full:
        raise ConfigError("every box is in --used: the sheet is full")
    hint = advisor.hint(column, dice, args.rolls_left)
    if args.json:
        print_json({"preset": name, "dice": list(dice), **hint.to_json()})
        return 0
    shown = hint.choices if args.all else hint.choices[:5]
    action = "hold" if args.rolls_left else "score"
    print(f"{sheet.title}, {' '.join(map(str, dice))}, {args.rolls_left} roll(s) left: best to {action}")
    for choice in shown:
        print(f"  {choice.words()}")
    if len(shown) < len(hint.choices):
        print(f"  ... {len(hint.choices) - len(shown)} more (--all)")
    return 0
