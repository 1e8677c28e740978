"""The solver against the published optimal Yahtzee figures, and its on-disk cache."""

from __future__ import annotations

import numpy as np

from companion.advisor.table import load_table
from companion.games.scoresheet import sheet


def test_yahtzee_with_bonus_and_free_joker_matches_verhoeff(yahtzee_free):
    # Verhoeff (1999): 254.5896 for optimal solitaire Yahtzee.
    assert abs(yahtzee_free.expected - 254.5896) < 1e-4


def test_yahtzee_without_bonus_or_joker_matches_glenn(yahtzee_plain):
    # Glenn (2006) gives 245.87 for the game with no Yahtzee bonus and no joker rule.
    assert abs(yahtzee_plain.expected - 245.87) < 1e-3


def test_a_cached_table_is_loaded_not_computed_again(yahtzee_free, advisor_cache):
    again = load_table(sheet("yahtzee", {"joker": "free"}), directory=advisor_cache)
    assert again.seconds == 0.0, "the table was computed again instead of loaded"
    assert np.array_equal(again.values, yahtzee_free.values)
    assert again.expected == yahtzee_free.expected


def test_a_damaged_cache_file_is_computed_again(tmp_path):
    tiny = sheet("yacht")
    first = load_table(tiny, directory=tmp_path)
    data = next(tmp_path.glob("*.npz"))
    data.write_bytes(b"not a table")
    again = load_table(tiny, directory=tmp_path)
    assert again.seconds > 0 and again.expected == first.expected


def test_different_settings_never_share_a_table(advisor_cache, yahtzee_free, yahtzee_plain):
    files = sorted(p.name for p in advisor_cache.glob("yahtzee-*.npz"))
    assert len(files) == 2
