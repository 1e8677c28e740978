"""Colours and sizes shared by every screen, switchable at run time (dark by default).

Every kv rule reads its colours from ``app.theme`` so a theme change repaints the whole
app at once. Sizes are in density-independent units: touch targets are at least 56 dp
(players tap from across a table, often with a die in the other hand).
"""

from __future__ import annotations

from kivy.event import EventDispatcher
from kivy.metrics import dp, sp
from kivy.properties import ColorProperty, NumericProperty, StringProperty

#: Theme name -> colour name -> RGBA. "dark" is the default: easy on the eyes in a dim
#: room and legible from across a table. "light" is for bright daylight.
PALETTES: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "dark": {
        "bg": (0.075, 0.086, 0.11, 1),
        "surface": (0.13, 0.15, 0.19, 1),
        "raised": (0.2, 0.23, 0.29, 1),
        "text": (0.95, 0.95, 0.93, 1),
        "muted": (0.66, 0.69, 0.74, 1),
        "accent": (0.96, 0.71, 0.2, 1),
        "accent_text": (0.08, 0.06, 0.02, 1),
        "good": (0.3, 0.78, 0.47, 1),
        "bad": (0.93, 0.36, 0.33, 1),
        "warn": (0.98, 0.6, 0.15, 1),
        "disabled": (0.14, 0.155, 0.19, 1),
        "line": (0.3, 0.33, 0.4, 1),
    },
    "light": {
        "bg": (0.96, 0.95, 0.92, 1),
        "surface": (1, 1, 1, 1),
        "raised": (0.88, 0.87, 0.83, 1),
        "text": (0.08, 0.09, 0.12, 1),
        "muted": (0.36, 0.38, 0.42, 1),
        "accent": (0.75, 0.42, 0.0, 1),
        "accent_text": (1, 1, 1, 1),
        "good": (0.1, 0.55, 0.25, 1),
        "bad": (0.78, 0.15, 0.12, 1),
        "warn": (0.8, 0.45, 0.0, 1),
        "disabled": (0.91, 0.9, 0.87, 1),
        "line": (0.7, 0.7, 0.68, 1),
    },
}

THEME_NAMES: tuple[str, ...] = tuple(PALETTES)

#: One colour per seat, told apart on either theme (and by most colour-blind players:
#: blue, orange, green, pink, light blue, yellow, after Okabe and Ito).
PLAYER_COLOURS: tuple[tuple[float, float, float, float], ...] = (
    (0.35, 0.62, 1.0, 1),
    (1.0, 0.55, 0.2, 1),
    (0.25, 0.8, 0.55, 1),
    (0.95, 0.45, 0.7, 1),
    (0.45, 0.85, 0.95, 1),
    (0.95, 0.85, 0.3, 1),
)


def player_colour(seat: int) -> tuple[float, float, float, float]:
    """The colour of the player in ``seat`` (0-based; colours repeat after six)."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


DEFAULT_THEME = "dark"


class Theme(EventDispatcher):
    """The live theme: colour and size properties kv rules bind to."""

    name = StringProperty(DEFAULT_THEME)
    bg = ColorProperty(PALETTES["dark"]["bg"])
    surface = ColorProperty(PALETTES["dark"]["surface"])
    raised = ColorProperty(PALETTES["dark"]["raised"])
    text = ColorProperty(PALETTES["dark"]["text"])
    muted = ColorProperty(PALETTES["dark"]["muted"])
    accent = ColorProperty(PALETTES["dark"]["accent"])
    accent_text = ColorProperty(PALETTES["dark"]["accent_text"])
    good = ColorProperty(PALETTES["dark"]["good"])
    bad = ColorProperty(PALETTES["dark"]["bad"])
    warn = ColorProperty(PALETTES["dark"]["warn"])
    disabled = ColorProperty(PALETTES["dark"]["disabled"])  # quieter than anything tappable
    line = ColorProperty(PALETTES["dark"]["line"])

    #: Minimum height of anything a player taps.
    touch = NumericProperty(dp(60))
    #: Gaps between blocks, and inside them.
    gap = NumericProperty(dp(12))
    pad = NumericProperty(dp(16))
    #: Text sizes: small print, body, big numbers and headings.
    font_small = NumericProperty(sp(17))
    font = NumericProperty(sp(21))
    font_big = NumericProperty(sp(28))
    font_huge = NumericProperty(sp(56))

    def use(self, name: str) -> None:
        """Switch to the palette called ``name``.

        Raises:
            ValueError: there is no such theme.
        """
        palette = PALETTES.get(name)
        if palette is None:
            raise ValueError(f"there is no theme called {name!r} (themes: {', '.join(THEME_NAMES)})")
        for key, colour in palette.items():
            setattr(self, key, colour)
        self.name = name
