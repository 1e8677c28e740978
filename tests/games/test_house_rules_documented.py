"""Every house rule of every game is listed by `purser games --rules` and documented, with
its default, in the game's page under docs/rules/."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main
from companion.games import find_game, game_names

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.fixture(scope="module")
def listed() -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["games", "--rules"]) == 0
    return out.getvalue()


@pytest.mark.parametrize("name", game_names())
def test_each_house_rule_is_listed_and_documented(name, listed):
    game = find_game(name)
    page = (DOCS / f"{name}.md").read_text(encoding="utf-8")
    missing_doc = [r.key for r in game.RULES if f"`{r.key}`" not in page]
    missing_list = [r.key for r in game.RULES if f"{r.key} (default " not in listed]
    assert not missing_doc, f"docs/rules/{name}.md does not document {missing_doc}"
    assert not missing_list, f"`purser games --rules` does not list {missing_list}"


@pytest.mark.parametrize(
    "name, key",
    [
        ("seven", "finish_on"),
        ("seven-seize", "lightest_piece_g"),
        ("seven-seize", "heaviest_piece_g"),
        ("seven-seize", "piece_spread"),
        ("swashbuckle", "pillage_once"),
        ("swashbuckle", "davy_jones"),
        ("guilded", "attack_range"),
        ("guilded", "acquire_last_loot"),
    ],
)
def test_the_new_house_rules_exist(name, key):
    assert key in {r.key for r in find_game(name).RULES}
