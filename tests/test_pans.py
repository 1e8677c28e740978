from __future__ import annotations

import pytest

from companion.pans import pan_name


@pytest.mark.parametrize(("channel", "name"), [(0, "A"), (1, "B"), (25, "Z"), (26, "26"), (-1, "-1")])
def test_pans_are_named_by_letter_while_letters_last(channel: int, name: str) -> None:
    assert pan_name(channel) == name
