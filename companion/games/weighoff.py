"""The 7 Seize weigh-off under its earlier import path; it lives in
:mod:`companion.games.seven_seize.weighoff`."""

from companion.games.seven_seize.weighoff import (
    GRAMS,
    PIPS,
    Bout,
    Comparison,
    Contest,
    Reading,
    WeighOff,
    compare,
    coverage_factor,
)

__all__ = ["GRAMS", "PIPS", "Bout", "Comparison", "Contest", "Reading", "WeighOff", "compare", "coverage_factor"]
