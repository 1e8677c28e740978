"""Dice recognition: frames in, :class:`DiceDetections` out."""

from companion.vision.detections import DiceDetections, Die
from companion.vision.errors import CameraNotFound, VisionError

__all__ = ["CameraNotFound", "DiceDetections", "Die", "VisionError"]
