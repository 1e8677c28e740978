"""Names of a balance's pans, shared by the balance drivers, the weigh-off and the screens."""

from __future__ import annotations


def pan_name(channel: int) -> str:
    """The name players see for the pan of ``channel``: "A" for 0, "B" for 1 (actions,
    journals and the balance's lines keep the channel number)."""
    return chr(ord("A") + channel) if 0 <= channel < 26 else str(channel)
