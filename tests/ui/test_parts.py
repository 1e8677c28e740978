"""The UI's pure parts: words, standings, zoom, stats, the sheet's rows (no window needed)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion.ui.screens.hardware import grams_text
from companion.ui.screens.over import standing_rows, winner_text
from companion.ui.widgets.dice import unreadable_count, unreadable_text
from companion.ui.widgets.leaderboard import gap_text, standings
from companion.ui.widgets.plot import zoom_range
from companion.ui.widgets.sheet import sheet_view


def test_a_live_reading_never_shows_minus_zero():
    assert grams_text(-0.04) == "0.0 g"
    assert grams_text(-0.0) == "0.0 g"
    assert grams_text(None) == "waiting..."
    assert grams_text(151.26) == "151.3 g"


def test_the_leaderboard_names_the_leader_and_the_gaps():
    rows = standings({"Ana": 40, "Ben": 52, "Cy": 52, "Dee": 10}, ["Ana", "Ben", "Cy", "Dee"])
    assert [r["name"] for r in rows] == ["Ana", "Ben", "Cy", "Dee"]  # seating order, not re-sorted
    assert [gap_text(r, rows) for r in rows] == ["-12", "leads by 12", "leads by 12", "-42"]
    level = standings({"Ana": 0, "Ben": 0})
    assert [gap_text(r, level) for r in level] == ["level", "level"]


def test_standings_put_winners_first_and_share_places():
    rows = standing_rows({"Ana": 200, "Ben": 250, "Cy": 200}, ["Ben"], {"Ben": "Captain"})
    assert rows == [["1.", "Ben", "250", "Captain"], ["2.", "Ana", "200", ""], ["2.", "Cy", "200", ""]]
    assert winner_text(["Ana", "Ben"]) == "Ana and Ben share the win"
    assert winner_text([]) == "No winner"


def test_the_weigh_off_chart_zooms_to_where_weights_differ():
    lo, hi = zoom_range(
        [{"value": 151.20, "spread": 0.04}, {"value": 151.25, "spread": 0.04}, {"value": None, "spread": 0}]
    )
    assert lo < 151.16 and hi > 151.29 and hi - lo < 1.0  # whiskers of +-0.04 g stay visible
    assert zoom_range([{"value": None}]) is None


@pytest.mark.parametrize(
    ("detections", "n"),
    [
        ({"dice": [], "unsure": 0}, 0),
        ({"dice": [], "unsure": 0, "unreadable": 3}, 3),
        (SimpleNamespace(unreadable_count=2), 2),
        (None, 0),
    ],
)
def test_dice_the_reader_could_not_read_are_counted_when_it_says(detections, n):
    assert unreadable_count(detections) == n
    assert unreadable_text(1) == "1 die could not be read: add it below."


def test_the_sheet_has_short_names_and_only_the_rows_in_use():
    detail = {
        "sheet": {
            "boxes": [
                {"key": "ones", "label": "Ones", "section": "upper"},
                {"key": "succession_4", "label": "Succession of 4", "section": "lower"},
            ],
            "upper_bonus": {"label": "Blimey Bonus"},
        },
        "pirates": {
            p: {
                "columns": [
                    {
                        "boxes": {"ones": None, "succession_4": 30},
                        "crows_nest_subtotal": 0,
                        "blimey_bonus": 0,
                        "pillaged": -5 if p == "Ben" else 0,
                        "hornswaggle": 0,
                        "total_plunder": 30,
                    }
                ],
                "total": 30,
            }
            for p in ("Ana", "Ben")
        },
    }
    view = sheet_view(detail, ["Ana", "Ben"])
    assert [b[1] for b in view.boxes] == ["Ones", "Succession 4"]
    assert [e[1] for e in view.extras] == ["Upper", "Blimey Bonus", "Pillaged"]  # Hornswaggle: 0 for all
    assert view.footers[0] == ("Total", ["30", "30"])


def test_the_chart_leaves_collections_already_out_to_the_ranking():
    from companion.ui.widgets.plot import contested

    rows = [
        {"name": "Ana", "value": 151.2, "state": "in"},
        {"name": "Ben", "value": 151.25, "state": "in"},
        {"name": "Cy", "value": 120.4, "state": "out"},
        {"name": "Dee", "value": None},
    ]
    assert [r["name"] for r in contested(rows)] == ["Ana", "Ben"]
    lo, hi = zoom_range(contested(rows))
    assert lo > 151.0 and hi < 151.5
