"""How the players' pages say their figures: percentages and scores in words."""

from __future__ import annotations


def percent(value: float | None) -> str:
    """ "67 %" ("-" when there is nothing to count)."""
    return "-" if value is None else f"{value * 100:.0f} %"


def number(value: float | None) -> str:
    """A score: "123", "123.5"; "-" when none."""
    return "-" if value is None else f"{value:.1f}".rstrip("0").rstrip(".")
