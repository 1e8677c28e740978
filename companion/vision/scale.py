"""Choosing how far to shrink a frame for the dice finder.

The finder sees a frame shrunk to fit FINDER_SIDE pixels, whatever its size. It finds dice
best when they come out 16-48 finder pixels wide (it was trained on 9-60). A camera far
above a big table can make dice smaller than that; a close-up photo of two dice makes
them so large that the finder takes single pips for dice. After a first look, these
functions say whether to look again at another scale, and which of two looks to keep.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Finder heat of a spot counted as strong when judging a look.
STRONG_SPOT = 0.4
#: Looks at one frame at most (the first at the default scale).
MAX_LOOKS = 3
#: Each further look scales by at least this much, or it is not worth it.
MIN_STEP = 1.25
#: With nothing read and strong spots turned down, dice are likely too big: shrink this much.
SHRINK_UNKNOWN = 3.0
#: The frame is never shrunk below this many pixels along its longer side.
SMALLEST_SIDE = 64
#: With nothing read in a large frame, dice may be too small: enlarge this much.
ENLARGE_UNKNOWN = 2.5


@dataclass(frozen=True)
class Look:
    """One look of the finder: its scale (finder px per frame px), what the face reader made
    of the spots, and the sizes of the spots read as dice, in finder pixels."""

    scale: float
    die_px: np.ndarray
    confidence: np.ndarray
    strong_not_dice: int

    @property
    def typical_px(self) -> float | None:
        """The median die size in finder pixels, or None when no die was read."""
        return float(np.median(self.die_px)) if len(self.die_px) else None


def next_scale(look: Look, frame_side: int, band: tuple[float, float], max_side: int) -> float | None:
    """The scale for a second look, or None when the first one is good enough.

    ``frame_side`` is the frame's longer side in pixels; ``band`` the die sizes in finder
    pixels the finder reads best; ``max_side`` caps the finder's input (its cost grows
    with the square). The frame is never enlarged beyond its own pixels, nor shrunk below
    SMALLEST_SIDE.
    """
    lo, hi = band
    target = float(np.sqrt(lo * hi))
    largest = min(1.0, max_side / frame_side)
    typical = look.typical_px
    if typical is None:
        if look.strong_not_dice >= 2:
            wanted = look.scale / SHRINK_UNKNOWN
        else:
            wanted = min(largest, look.scale * ENLARGE_UNKNOWN)
    elif typical < lo:
        wanted = min(largest, look.scale * target / typical)
    elif typical > hi:
        wanted = look.scale * target / typical
    elif look.strong_not_dice > 2 * len(look.die_px):
        # most spots are not dice: perhaps the pips of dice too big to be seen whole
        wanted = look.scale / SHRINK_UNKNOWN
    else:
        return None
    wanted = max(wanted, SMALLEST_SIDE / frame_side)
    step = max(wanted, look.scale) / min(wanted, look.scale)
    return wanted if step >= MIN_STEP else None


def better(first: Look, second: Look, band: tuple[float, float]) -> bool:
    """True when ``second`` should be kept instead of ``first``.

    A look whose dice are in the finder's best band wins over one whose dice are not;
    then the one that read more dice; then the more confident one; else the first.
    """

    def in_band(look: Look) -> bool:
        t = look.typical_px
        return t is not None and band[0] <= t <= band[1]

    if in_band(first) != in_band(second):
        return in_band(second)
    if len(first.die_px) != len(second.die_px):
        return len(second.die_px) > len(first.die_px)
    mean = [float(np.mean(x.confidence)) if len(x.confidence) else 0.0 for x in (first, second)]
    return mean[1] > mean[0]
