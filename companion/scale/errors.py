"""The balance's exception tree: one root, one kind per way a weighing can fail."""

from companion.errors import ExitCode, PurserError


class ScaleError(PurserError):
    """Anything that stops the balance giving a trustworthy weight."""

    exit_code = ExitCode.HARDWARE


class ScaleUsageError(ScaleError, ValueError):
    """A request the balance cannot take as written: a malformed address, an unknown
    setting, a pan that does not exist, calibration masses that are not a list of grams.
    Nothing was changed; the message says what to write instead."""

    exit_code = ExitCode.USAGE


class ScaleTimeout(ScaleError, TimeoutError):
    """No (stable) reading arrived in the time allowed."""


class ScaleProtocolError(ScaleError, ValueError):
    """A line from the balance that does not decode (garbled, bad checksum, wrong version)."""


class ScaleNotFound(ScaleError):
    """No balance at that address (port missing, nothing answering the handshake)."""


class ScaleFault(ScaleError):
    """The balance reports a condition in which no weight may be given (chip fault, saturation)."""
