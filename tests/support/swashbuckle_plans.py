"""Scripted Swashbuckle turns shared by tests of the engine, the session and the titles."""

from __future__ import annotations

#: 15 solo turns, (dice, box): every five-dice box but Piracy, each scoring.
SOLO_WITHOUT_PIRACY: list[tuple[list[int], str]] = [
    ([1, 1, 1, 1, 2], "ones"),
    ([2, 2, 2, 2, 1], "twos"),
    ([3, 3, 3, 3, 1], "threes"),
    ([4, 4, 4, 4, 1], "fours"),
    ([5, 5, 5, 5, 1], "fives"),
    ([6, 6, 6, 6, 1], "sixes"),
    ([6, 6, 6, 1, 2], "three_alike"),
    ([5, 5, 5, 5, 6], "four_alike"),
    ([1, 1, 1, 1, 6], "aces_high"),
    ([2, 2, 3, 3, 3], "full_boat"),
    ([1, 2, 3, 4, 6], "succession_4"),
    ([2, 3, 4, 5, 6], "succession_5"),
    ([1, 1, 2, 2, 2], "pieces_of_8"),
    ([6, 6, 5, 5, 4], "flotsam"),
    ([4, 4, 4, 4, 4], "swashbuckle"),
]

#: A whole solo match (16 turns), the last a scuttled Piracy: 84 + 45 + 21+26+40+25+30+40+30+26+50
#: + 0 = 417 points, no Smooth sailing. Its last score finishes the match and earns a title.
SOLO_417: list[tuple[list[int], str]] = [*SOLO_WITHOUT_PIRACY, ([1, 2, 3, 5, 6], "piracy")]
