"""House rules: every one documented, and the defaults the rulebook reading depends on."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import ConfigError, guilded, resolve_config
from companion.games.guilded.settings import RULES, resolve_settings

DOC = Path(__file__).resolve().parents[3] / "docs" / "rules" / "guilded.md"


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.key)
def test_every_house_rule_is_documented_with_its_default(rule):
    rows = [line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith(f"| `{rule.key}` |")]
    assert len(rows) == 1, f"{rule.key} has one row in the house-rule table"
    documented = rows[0].strip("|").split("|")[1].strip().strip("`")
    expected = {True: "yes", False: "no"}[rule.default] if isinstance(rule.default, bool) else str(rule.default)
    assert documented == expected


@pytest.mark.parametrize(
    "rules, message",
    [
        ({"format": "sealed"}, "must be one of"),
        ({"mulligans": -1}, "at least"),
        ({"casual": "maybe"}, "yes or no"),
        ({"stack_overflow": "keep"}, "must be one of"),
        ({"colour": "red"}, "no house rule"),
    ],
)
def test_bad_house_rules_are_refused(rules, message):
    with pytest.raises(ConfigError, match=message):
        resolve_config(guilded.RULES, rules)


def test_defaults_resolve_for_two_players():
    s = resolve_settings(resolve_config(RULES, {}), 2)
    assert (s.format, s.vault, s.deck_size, s.timer_s, s.best_of, s.hand_limit) == ("standard", 30, 40, 3000, 1, 9)
    assert s.wins_needed == 1
