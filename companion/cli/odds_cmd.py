"""`purser odds`: the chance a Scallywagger bid is true, and that a Parlay on it is exact."""

from __future__ import annotations

import argparse
import re

from companion.advisor.odds import bid_odds, parse_bid, parse_dice
from companion.cli.common import print_json
from companion.games.scallywagger.bids import bid_words


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``odds`` command."""
    p = sub.add_parser(
        "odds",
        help="chance a bid is true (at least N of a face) and that a Parlay on it is exact",
        description="Exact odds for a hidden-dice bid. Example: purser odds --dice 20 --bid 5x4 --own 4,4,2,6,1",
    )
    p.add_argument("--dice", type=int, required=True, metavar="N", help="dice on the table, yours included")
    p.add_argument("--bid", required=True, metavar="QxF", help="the bid, e.g. 5x4 for five 4s")
    p.add_argument("--own", default="", metavar="FACES", help="your own dice, e.g. 4,4,2,6,1 (default: none known)")
    p.add_argument("--wild-ones", action="store_true", help="1s count for every face except in a bid on 1s")
    p.add_argument("--json", action="store_true", help="print JSON")
    # "--bid -1x2" is a (bad) bid, not an unknown option: let values that start "-<digit>"
    # through to parse_bid, which says what is wrong with them.
    p._negative_number_matcher = re.compile(r"^-\.?\d")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print both probabilities for the bid."""
    quantity, face = parse_bid(args.bid)
    own = parse_dice(args.own)
    odds = bid_odds(args.dice, quantity, face, own, args.wild_ones)
    if args.json:
        print_json(odds.to_json())
        return 0
    said = bid_words(quantity, face)
    wild = ", 1s wild" if args.wild_ones and face != 1 else ""
    if own:
        known = f"your {len(own)} dice give {odds.own_count}; {max(odds.need, 0)} more needed from {odds.unseen} unseen"
    else:
        known = f"{odds.unseen} unseen dice"
    print(f"Bid: {said} among {odds.dice} dice ({known}{wild})")
    print(f"  bid true (at least {quantity}):   {_percent(float(odds.at_least))}")
    print(f"  Parlay right (exactly {quantity}): {_percent(float(odds.exact))}")
    return 0


def _percent(p: float) -> str:
    if 0 < p < 0.001:
        return f"{p * 100:.2g} %"
    if 0.999 < p < 1:
        return f"{p * 100:.4g} %"
    return f"{p * 100:.1f} %"
