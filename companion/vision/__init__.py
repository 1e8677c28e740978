"""Dice recognition: frames in, :class:`DiceDetections` out.

``open_source(url)`` gives frames (``sim://``, ``cv://0``, ``file://PATH``);
``read_dice(frame)`` reads the dice in one frame; :class:`RollWatcher` reads once per
roll from a stream; :class:`Tray` limits reading to part of the table.

The names that need OpenCV are imported on first use, so importing the error classes
(as the command line does) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.vision.detections import DiceDetections, Die
from companion.vision.errors import CameraNotFound, VisionError

_LAZY = {
    "BadTray": "companion.vision.tray",
    "Tray": "companion.vision.tray",
    "detect_tray": "companion.vision.tray",
    "DiceReader": "companion.vision.reader",
    "ReaderSettings": "companion.vision.reader",
    "read_dice": "companion.vision.reader",
    "RollReading": "companion.vision.roll",
    "RollSettings": "companion.vision.roll",
    "RollWatcher": "companion.vision.roll",
    "EndOfFrames": "companion.vision.sources",
    "FrameSource": "companion.vision.sources",
    "open_source": "companion.vision.sources",
}

__all__ = [  # noqa: PLE0604 (the lazy names are strings; ruff cannot see through sorted())
    "CameraNotFound",
    "DiceDetections",
    "Die",
    "VisionError",
    *sorted(_LAZY),
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
