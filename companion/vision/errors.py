"""The dice camera's exception tree."""

from companion.errors import PurserError


class VisionError(PurserError):
    """Anything that stops Purser reading dice (no camera, unreadable file, ...)."""


class CameraNotFound(VisionError):
    """No camera or file at that address."""
