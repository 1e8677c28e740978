"""The balance's exception tree: one root, one kind per way a weighing can fail."""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.errors import ExitCode, PurserError

if TYPE_CHECKING:
    from companion.scale.noise import Diagnosis


class ScaleError(PurserError):
    """Anything that stops the balance giving a trustworthy weight."""

    exit_code = ExitCode.HARDWARE


class ScaleUsageError(ScaleError, ValueError):
    """A request the balance cannot take as written: a malformed address, an unknown
    setting, a pan that does not exist, calibration masses that are not a list of grams.
    Nothing was changed; the message says what to write instead."""

    exit_code = ExitCode.USAGE


class ScaleTimeout(ScaleError, TimeoutError):
    """No (stable) reading arrived in the time allowed. ``diagnosis``, when the balance
    could tell, says why the pan did not settle (a :class:`~companion.scale.noise.Diagnosis`:
    noise or motion, with the figures)."""

    def __init__(self, *args: object, diagnosis: Diagnosis | None = None) -> None:
        super().__init__(*args)
        self.diagnosis = diagnosis


class ScaleProtocolError(ScaleError, ValueError):
    """A line from the balance that does not decode (garbled, bad checksum, wrong version)."""


class ScaleNotFound(ScaleError):
    """No balance at that address (port missing, nothing answering the handshake)."""


class ScaleFault(ScaleError):
    """The balance reports a condition in which no weight may be given (chip fault, saturation)."""
