"""`purser score`: where a roll may be scored on a Swashbuckle, Yahtzee or Yacht sheet."""

from __future__ import annotations

import argparse

from companion.cli.common import parse_rules, print_json
from companion.games.base import ConfigError, IllegalAction
from companion.games.scoresheet.dice import show
from companion.games.scoresheet.options import Option, options
from companion.games.scoresheet.presets import PRESETS, sheet as build_sheet
from companion.games.scoresheet.sheet import Column, Sheet

ALIASES = {"swash": "swashbuckle", "yacht-dice": "yacht"}


def register(sub: argparse._SubParsersAction) -> None:
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


def parse_dice(words: list[str], cursed: bool) -> tuple[int, ...]:
    want = 4 if cursed else 5
    values = []
    for w in words:
        try:
            v = int(w)
        except ValueError:
            raise IllegalAction(f"a die shows 1 to 6, not {w!r}") from None
        if not 1 <= v <= 6:
            raise IllegalAction(f"a die shows 1 to 6, not {v}")
        values.append(v)
    if len(values) != want:
        raise IllegalAction(f"give {want} dice{' (cursed turn)' if cursed else ''}, not {len(values)}")
    return tuple(values)


def parse_used(sheet: Sheet, text: str) -> Column:
    column = Column.empty(sheet)
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, points = item.partition("=")
        box = sheet.find(name)
        if box is None:
            raise ConfigError(f"{sheet.title} has no box called {name!r} (boxes: {', '.join(sheet.keys)})")
        index = sheet.index(box.key)
        if column.scores[index] is not None:
            raise ConfigError(f"{box.label} is listed twice in --used")
        if sep:
            try:
                value = int(points)
            except ValueError:
                raise ConfigError(f"--used {item}: points must be a whole number") from None
            if value < 0:
                raise ConfigError(f"--used {item}: points cannot be negative")
        else:
            value = box.max_points()
        column = column.fill(index, value)
    return column



def _line(option: Option, zero_word: str) -> str:
    if option.how == "extra_roll":
        points = "roll again (17.5 on average)"
    else:
        points = f"{option.points:>3}"
    note = {"zero": f"  {zero_word}", "joker": "  joker", "max_potential": "  max potential"}.get(option.how, "")
    bonus = f"  +{option.bonus} bonus" if option.bonus else ""
    return f"  {option.label:<18}{points}{note}{bonus}"


def add_sheet_arguments(p: argparse.ArgumentParser) -> None:
    """The ``--used`` and ``--rule`` options every score-sheet command takes."""
    p.add_argument("--used", default="", metavar="BOX[=POINTS],...",
                   help="boxes already filled: BOX counts as scored in full, BOX=0 as a zero, BOX=POINTS with those points")
    p.add_argument("--rule", action="append", default=[], metavar="KEY=VALUE",
                   help="a sheet setting, e.g. joker=free (see `purser games --rules`)")


def load_sheet(preset: str, rule_items: list[str]) -> tuple[str, Sheet]:
    """The preset's canonical name and its sheet with ``--rule`` settings applied.

    Raises:
        ConfigError: no such sheet, or a setting it does not have.
    """
    name = ALIASES.get(preset.strip().lower(), preset.strip().lower())
    if name not in PRESETS:
        raise ConfigError(f"there is no score sheet called {preset!r} (sheets: {', '.join(PRESETS)})")
    rules = parse_rules(rule_items)
    known = {r.key for r in PRESETS[name].rules}
    for key in rules:
        if key not in known:
            raise ConfigError(f"{PRESETS[name].title} has no sheet setting {key!r} "
                              f"(settings: {', '.join(sorted(known)) or 'none'})")
    return name, build_sheet(name, rules)


def run(args: argparse.Namespace) -> int:
    """Print the options for the roll."""
    name, sheet = load_sheet(args.preset, args.rule)
    if args.cursed and name != "swashbuckle":
        raise ConfigError("only Swashbuckle has cursed turns")
    dice = parse_dice(args.dice, args.cursed)
    column = parse_used(sheet, args.used)
    found = options(sheet, [column], dice, cursed=args.cursed)
    if args.json:
        print_json({
            "preset": name,
            "dice": list(dice),
            "cursed": args.cursed,
            "used": {k: v for k, v in zip(sheet.keys, column.scores) if v is not None},
            "options": [o.to_json() for o in found],
        })
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
