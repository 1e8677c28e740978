"""Words for actions and details (no window needed)."""

from __future__ import annotations

import pytest

from companion.ui.words import action_label, detail_lines, value_text


@pytest.mark.parametrize(
    ("action", "to_act", "label"),
    [
        ({"type": "penalty"}, (), "Penalty"),
        ({"type": "play", "player": "Ana", "card": 3, "on": "hole"}, ("Ana",), "Play (card 3, on hole)"),
        ({"type": "play", "player": "Ana", "card": 3}, ("Ben",), "Ana: Play (card 3)"),
        ({"type": "curse", "player": "Ana", "target": "Ben"}, ("Ana", "Ben"), "Ana: Curse (target Ben)"),
        (
            {"type": "weigh", "player": "Cy", "from": "scale", "channel": 0},
            ("Cy",),
            "Weigh (measured by the scale, pan A)",
        ),
        (
            {"type": "weigh", "player": "Cy", "from": "scale", "channel": 1},
            (),
            "Cy: Weigh (measured by the scale, pan B)",
        ),
        ({"type": "first_captain", "label": "Ana won the roll-off"}, (), "Ana won the roll-off"),
        ({"type": "order", "order": ["Cy", "Ben"]}, (), "Order (order Cy, Ben)"),
    ],
)
def test_action_labels(action, to_act, label):
    assert action_label(action, to_act) == label


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (None, "-"),
        (True, "yes"),
        (False, "no"),
        (2.0, "2"),
        (0.25, "0.25"),
        ([], ""),
        ({}, ""),
        ({"red": 3, "black": 4}, "red 3, black 4"),
        ("next_seat", "next seat"),
        ([1, [2, 3]], "1, 2, 3"),
    ],
)
def test_values_in_words(value, text):
    assert value_text(value) == text


def test_detail_lines_skip_empty_values():
    assert detail_lines({}) == []
    assert detail_lines({"round": 2, "top": None, "finishing": [], "hands": {"Ana": 7}}) == ["Round: 2", "Hands: Ana 7"]
    assert detail_lines({"round": 2, "hands": {"Ana": 7}}, skip=("hands",)) == ["Round: 2"]
