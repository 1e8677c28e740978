"""DiceDetections: every die found in one frame, as parallel arrays."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Die:
    """One die: face ``value`` 1-6, ``box`` (x, y, w, h) pixels, ``confidence`` 0-1."""

    value: int
    box: tuple[float, float, float, float]
    confidence: float
    unsure: bool
    #: False for a die whose top face cannot be read at all (hidden, leaning, cut off by the
    #: frame): its value is only a guess, and it is always flagged unsure.
    readable: bool = True

    @property
    def centre(self) -> tuple[float, float]:
        """The box centre in pixels."""
        x, y, w, h = self.box
        return (x + w / 2.0, y + h / 2.0)


@dataclass(frozen=True, eq=False)
class DiceDetections:
    """The dice read from one frame.

    ``values`` (N,) ints 1-6, ``boxes`` (N, 4) float x, y, w, h in pixels,
    ``confidence`` (N,) floats 0-1, ``unsure`` (N,) bools: a die flagged unsure must be
    confirmed by a player before anything is decided on it. ``readable`` (N,) bools
    (default all True): False for a die that was found but whose top face could not be
    read at all; such a die is always unsure.
    """

    values: np.ndarray
    boxes: np.ndarray
    confidence: np.ndarray
    unsure: np.ndarray
    readable: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = len(self.values)
        if self.readable is None:
            object.__setattr__(self, "readable", np.ones(n, bool))
        if self.boxes.shape != (n, 4) or len(self.confidence) != n or len(self.unsure) != n or len(self.readable) != n:  # type: ignore[arg-type]
            raise ValueError("DiceDetections arrays must all describe the same number of dice")
        if (~np.asarray(self.readable, bool) & ~np.asarray(self.unsure, bool)).any():
            raise ValueError("a die whose face could not be read must be flagged unsure")

    @classmethod
    def empty(cls) -> DiceDetections:
        """No dice."""
        return cls(
            values=np.zeros(0, dtype=np.int8),
            boxes=np.zeros((0, 4), dtype=np.float32),
            confidence=np.zeros(0, dtype=np.float32),
            unsure=np.zeros(0, dtype=bool),
            readable=np.zeros(0, dtype=bool),
        )

    @classmethod
    def from_dice(cls, dice: list[Die]) -> DiceDetections:
        """Build from a list of :class:`Die`."""
        if not dice:
            return cls.empty()
        return cls(
            values=np.array([d.value for d in dice], dtype=np.int8),
            boxes=np.array([d.box for d in dice], dtype=np.float32).reshape(-1, 4),
            confidence=np.array([d.confidence for d in dice], dtype=np.float32),
            unsure=np.array([d.unsure for d in dice], dtype=bool),
            readable=np.array([d.readable for d in dice], dtype=bool),
        )

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Iterator[Die]:
        for i in range(len(self)):
            yield Die(
                value=int(self.values[i]),
                box=tuple(float(v) for v in self.boxes[i]),  # type: ignore[arg-type]
                confidence=float(self.confidence[i]),
                unsure=bool(self.unsure[i]),
                readable=bool(self.readable[i]),  # type: ignore[index]
            )

    @property
    def centres(self) -> np.ndarray:
        """(N, 2) box centres in pixels."""
        return self.boxes[:, :2] + self.boxes[:, 2:] / 2.0

    @property
    def unsure_count(self) -> int:
        """How many dice need a player's confirmation."""
        return int(self.unsure.sum())

    @property
    def unreadable_count(self) -> int:
        """How many dice were found whose top face could not be read at all."""
        return int((~np.asarray(self.readable, bool)).sum())

    def faces(self) -> list[int]:
        """The face values of the dice read with confidence (unsure ones left out)."""
        return [int(v) for v in self.values[~self.unsure]]

    def to_json(self) -> dict[str, Any]:
        """``{"dice": [{"value", "box", "confidence", "unsure", "readable"}...], "count": N,
        "unsure": U, "unreadable": R}``: ``count`` dice found, ``unsure`` of them to be
        confirmed, ``unreadable`` of those found but not readable at all ("R dice could not
        be read"; their ``value`` is a guess)."""
        return {
            "dice": [
                {
                    "value": d.value,
                    "box": [round(v, 1) for v in d.box],
                    "confidence": round(d.confidence, 4),
                    "unsure": d.unsure,
                    "readable": d.readable,
                }
                for d in self
            ],
            "count": len(self),
            "unsure": self.unsure_count,
            "unreadable": self.unreadable_count,
        }
