"""Dice recognition: frames in, :class:`DiceDetections` out.

``open_source(url)`` gives frames (``sim://``, ``cv://0``, ``file://PATH``);
``read_dice(frame)`` reads the dice in one frame; :class:`RollWatcher` reads once per
roll from a stream; :class:`Tray` limits reading to part of the table.
"""

from companion.vision.detections import DiceDetections, Die
from companion.vision.errors import CameraNotFound, VisionError
from companion.vision.reader import DiceReader, ReaderSettings, read_dice
from companion.vision.roll import RollReading, RollSettings, RollWatcher
from companion.vision.sources import EndOfFrames, FrameSource, open_source
from companion.vision.tray import BadTray, Tray

__all__ = [
    "BadTray", "CameraNotFound", "DiceDetections", "DiceReader", "Die", "EndOfFrames", "FrameSource",
    "ReaderSettings", "RollReading", "RollSettings", "RollWatcher", "Tray", "VisionError", "open_source",
    "read_dice",
]
