"""The score-sheet arguments `purser score` and `purser advise` share: the preset, its
``--rule`` settings and ``--used`` boxes, and the dice."""

from __future__ import annotations

import argparse

from companion.cli.common import parse_rules
from companion.games.base import ConfigError
from companion.games.scoresheet.presets import PRESETS
from companion.games.scoresheet.presets import sheet as build_sheet
from companion.games.scoresheet.sheet import Column, Sheet

#: Other names a sheet is known by on the command line.
ALIASES = {"swash": "swashbuckle", "yacht-dice": "yacht"}


def parse_dice(words: list[str], cursed: bool) -> tuple[int, ...]:
    """The dice typed on the command line: five faces, or four on a ``cursed`` turn.

    Raises:
        ConfigError: a word that is not a face 1-6, or the wrong number of dice (a usage
            error: exit 2, not an illegal move).
    """
    want = 4 if cursed else 5
    values = []
    for w in words:
        try:
            v = int(w)
        except ValueError:
            raise ConfigError(f"a die shows 1 to 6, not {w[:20]!r}") from None
        if not 1 <= v <= 6:
            raise ConfigError(f"a die shows 1 to 6, not {v}")
        values.append(v)
    if len(values) != want:
        raise ConfigError(f"give {want} dice{' (cursed turn)' if cursed else ''}, not {len(values)}")
    return tuple(values)


def parse_used(sheet: Sheet, text: str) -> Column:
    """A column with the ``--used`` boxes filled (``BOX``: in full, ``BOX=POINTS``: those points).

    Raises:
        ConfigError: an unknown box, a box listed twice, or points that are not a whole number >= 0.
    """
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


def add_sheet_arguments(p: argparse.ArgumentParser) -> None:
    """The ``--used`` and ``--rule`` options every score-sheet command takes."""
    p.add_argument(
        "--used",
        default="",
        metavar="BOX[=POINTS],...",
        help="boxes already filled: BOX counts as scored in full, BOX=0 as a zero, BOX=POINTS with those points",
    )
    p.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a sheet setting, e.g. joker=free (see `purser games --rules`)",
    )


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
            raise ConfigError(
                f"{PRESETS[name].title} has no sheet setting {key!r} (settings: {', '.join(sorted(known)) or 'none'})"
            )
    return name, build_sheet(name, rules)
