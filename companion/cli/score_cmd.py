"""`purser score`: where a roll may be scored on a Swashbuckle, Yahtzee or Yacht sheet."""

from __future__ import annotations

import argparse

from companion.cli.common import print_json
from companion.cli.sheet_args import add_sheet_arguments, load_sheet, parse_dice, parse_used
from companion.games.base import ConfigError
from companion.games.scoresheet.dice import show
from companion.games.scoresheet.options import Option, options
from companion.games.scoresheet.presets import PRESETS


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` command."""
    p = sub.add_parser(
        "score",
        help="list where a roll may be scored (points, best first) on a score sheet",
        description="Every legal box for a roll of five dice on an empty sheet (or one with --used boxes "
        "filled), with its points, best first. Example: purser score swashbuckle 1 1 1 3 3",
    )
    p.add_argument("preset", metavar="PRESET", help=f"the sheet: {', '.join(PRESETS)}")
    p.add_argument("dice", metavar="DIE", nargs="+", help="the five dice (four with --cursed), 1 to 6")
    add_sheet_arguments(p)
    p.add_argument("--cursed", action="store_true", help="a Swashbuckle cursed turn: four dice")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _line(option: Option, zero_word: str) -> str:
    if option.how == "extra_roll":
        points = "roll again (17.5 on average)"
    else:
        points = f"{option.points:>3}"
    note = {"zero": f"  {zero_word}", "joker": "  joker", "max_potential": "  max potential"}.get(option.how, "")
    bonus = f"  +{option.bonus} bonus" if option.bonus else ""
    return f"  {option.label:<18}{points}{note}{bonus}"


def run(args: argparse.Namespace) -> int:
    """Print the options for the roll."""
    name, sheet = load_sheet(args.preset, args.rule)
    if args.cursed and name != "swashbuckle":
        raise ConfigError("only Swashbuckle has cursed turns")
    dice = parse_dice(args.dice, args.cursed)
    column = parse_used(sheet, args.used)
    found = options(sheet, [column], dice, cursed=args.cursed)
    if args.json:
        print_json(
            {
                "preset": name,
                "dice": list(dice),
                "cursed": args.cursed,
                "used": {k: v for k, v in zip(sheet.keys, column.scores, strict=True) if v is not None},
                "options": [o.to_json() for o in found],
            }
        )
        return 0
    scoring = sum(1 for o in found if not o.scuttle)
    where = "an empty sheet" if not args.used.strip() else "this sheet"
    if not found:
        print(f"{sheet.title}, {show(dice)}: the sheet is full.")
        return 0
    if scoring:
        head = f"{scoring} scoring option{'s' * (scoring != 1)}"
    else:
        head = f"nothing scores: {sheet.zero_word} one of {len(found)} boxes"
    print(f"{sheet.title}, {show(dice)} on {where}: {head}")
    for option in found:
        print(_line(option, sheet.zero_word))
    return 0
