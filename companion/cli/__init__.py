"""The `purser` command line: one sub-command module per area.

Each module listed in ``COMMAND_MODULES`` provides ``register(subparsers)``, which adds
its sub-commands and sets ``func`` on each parser to a callable taking the parsed
arguments and returning an exit code. Modules are imported lazily by name so the
command line starts fast and a heavy dependency (Kivy, OpenCV) loads only when used.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from companion import __version__
from companion.errors import ExitCode, PurserError

log = logging.getLogger(__name__)

COMMAND_MODULES: tuple[str, ...] = (
    "companion.cli.games_cmd",
    "companion.cli.session_cmd",
    "companion.cli.players_cmd",
    "companion.cli.app_cmd",
    "companion.cli.odds_cmd",
    "companion.cli.dice_cmd",
    "companion.cli.scale_cmd",
    "companion.cli.score_cmd",
    "companion.cli.advise_cmd",
)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line: what is wrong and where to look."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(int(ExitCode.USAGE), f"{self.prog}: {text[:300]} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser with every registered sub-command."""
    parser = _Parser(
        prog="purser",
        description="Purser referees pirate tabletop games: score sheets, rules, a booty balance and a dice camera.",
    )
    parser.add_argument("--version", action="version", version=f"purser {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log more detail to stderr (-v info, -vv debug)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    level = {0: logging.WARNING, 1: logging.INFO}.get(args.verbose, logging.DEBUG)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 0
    try:
        return int(func(args) or 0)
    except PurserError as exc:
        _one_line(str(exc))
        return int(exc.exit_code)
    except KeyboardInterrupt:
        return int(ExitCode.INTERRUPTED)
    except BrokenPipeError:  # the reader went away (`purser games | head`): nothing left to say
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 0
    except OSError as exc:  # the terminal or a pipe failed under us
        _one_line(f"could not finish: {exc.strerror or exc}")
        return int(ExitCode.ERROR)
    except Exception as exc:  # a defect: still one line, the details in the log with -vv
        log.debug("unexpected failure", exc_info=True)
        _one_line(f"unexpected failure ({type(exc).__name__}: {str(exc)[:200]}); run with -vv for details")
        return int(ExitCode.ERROR)


def _one_line(message: str) -> None:
    """``purser: MESSAGE`` on stderr as a single line, whatever the message holds."""
    text = " ".join(message.split())
    try:
        sys.stderr.write(f"purser: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
