"""The second Yahtzee table the advisor tests need (the free-joker one is in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def yahtzee_plain(advisor_cache):
    from companion.advisor.table import load_table
    from companion.games.scoresheet import sheet

    return load_table(sheet("yahtzee", {"joker": "none", "yahtzee_bonus": 0}), directory=advisor_cache)
