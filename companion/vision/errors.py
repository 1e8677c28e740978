"""The dice camera's exception tree."""

from companion.errors import ExitCode, PurserError


class VisionError(PurserError):
    """Anything that stops Purser reading dice (no camera, unreadable file, ...)."""

    exit_code = ExitCode.HARDWARE


class CameraNotFound(VisionError):
    """No camera or file at that address."""
