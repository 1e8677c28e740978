"""A balance on a serial port: opening it with errors a maker understands, reading it in
a thread, and reopening it every quarter second after a pulled cable until it is back.

Losing the port starts a new segment, so no weight mixes readings from before and after.
"""

from __future__ import annotations

import abc
import contextlib
import logging
import os
import re
import time
from typing import Generic, TypeVar

import serial

from companion.scale.errors import ScaleError, ScaleNotFound
from companion.scale.threaded import ThreadedScale

log = logging.getLogger(__name__)

#: What a read from a port that went away raises (pyserial, the OS, or a half-closed port).
PORT_LOST = (serial.SerialException, OSError, TypeError, AttributeError)

#: What :meth:`SerialPortScale._reopen` gives back and :meth:`SerialPortScale._resume` takes.
Opened = TypeVar("Opened")


def port_problem(port: str, exc: BaseException) -> str:
    """Why ``port`` could not be opened, in words."""
    errno = getattr(exc, "errno", None)
    text = str(exc)
    if errno == 2 or "No such file" in text or ("could not open port" in text and "[Errno 2]" in text):
        return f"there is no port {port}: is the balance plugged in? (`purser scale info auto://` looks for it)"
    if errno in (13, 16) or "Permission denied" in text or "busy" in text.lower():
        return (
            f"the port {port} is busy or not allowed (another program using it, or add yourself to the dialout group)"
        )
    return f"cannot open the port {port}: {text}"


def port_present(name: str) -> bool:
    """Whether serial port ``name`` is there now: a device file (``/dev/ttyUSB0``) that
    exists, or a Windows port (``COM3``) the system lists. A pyserial URL (``loop://``,
    ``socket://``) is taken to be there."""
    if name.startswith("/"):
        return os.path.exists(name)
    if re.fullmatch(r"(?i)com\d+", name):
        from serial.tools import list_ports

        return name.upper() in {p.device.upper() for p in list_ports.comports()}
    return True


def open_port(port: str, baud: int, write_timeout: float | None = None) -> serial.SerialBase:
    """``port`` (a device or a pyserial URL) opened at ``baud``; reads wait at most 50 ms.

    ``write_timeout`` is in seconds (None: writes may block).

    Raises:
        ScaleNotFound: the port is missing, busy or not allowed (said in words).
    """
    try:
        return serial.serial_for_url(port, baudrate=baud, timeout=0.05, write_timeout=write_timeout)
    except (serial.SerialException, OSError, ValueError) as exc:
        raise ScaleNotFound(port_problem(port, exc)) from exc


def release_port(port: serial.SerialBase) -> None:
    """Close ``port``; one that is already gone is left as it is."""
    with contextlib.suppress(serial.SerialException, OSError):
        port.close()


class SerialPortScale(ThreadedScale, Generic[Opened]):
    """A :class:`ThreadedScale` reading a serial port, which it reopens after it fails.

    A subclass calls :meth:`_start_port` first in ``__init__`` and implements
    :meth:`_live_port` (the port being read), :meth:`_received` (what to do with the bytes),
    :meth:`_reopen` (open the port and start talking again) and :meth:`_resume` (take up
    the stream on what ``_reopen`` gave).
    """

    #: pyserial's write timeout for the port (s); None: writes may block.
    write_timeout_s: float | None = None
    #: How often a lost port is tried again (s).
    reconnect_s: float = 0.25
    silent_s: float | None = 2.0

    def _start_port(self, port: str, baud: int, device: str) -> None:
        """Set the port and its baud rate, and the queue with messages naming ``device``
        (e.g. "the OpenScale")."""
        self.port_name = port
        self.baud = baud
        self._device = device
        self._start_queue(closed=f"{device} connection is closed", no_reading=f"no reading from {device} on {port}")

    def _open_port(self) -> serial.SerialBase:
        return open_port(self.port_name, self.baud, self.write_timeout_s)

    @abc.abstractmethod
    def _live_port(self) -> serial.SerialBase:
        """The port the reader thread uses now."""

    @abc.abstractmethod
    def _received(self, chunk: bytes) -> None:
        """Take bytes read from the port (any length, lines cut anywhere)."""

    @abc.abstractmethod
    def _reopen(self) -> Opened:
        """Open the port again and start talking.

        Raises:
            ScaleError: the device is not back (yet).
        """

    @abc.abstractmethod
    def _resume(self, opened: Opened) -> None:
        """Take up the stream on what :meth:`_reopen` gave."""

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._live_port()
            try:
                chunk = port.read(max(1, port.in_waiting or 0))
            except PORT_LOST as exc:
                if self._stop.is_set():
                    return
                log.warning("lost %s on %s: %s", self._device, self.port_name, exc)
                self._online = False
                self._segment += 1
                release_port(port)
                self._reconnect()
                continue
            self._received(chunk)

    def _reconnect(self) -> None:
        """Reopen the port every ``reconnect_s`` until the device answers (or the scale is closed)."""
        while not self._stop.is_set():
            time.sleep(self.reconnect_s)
            try:
                opened = self._reopen()
            except ScaleError as exc:
                log.debug("%s on %s is not back yet: %s", self._device, self.port_name, exc)
                continue
            self._resume(opened)
            self._online = True
            return

    def close(self) -> None:
        """Stop reading and release the port."""
        if self._closed:
            return
        super().close()
        release_port(self._live_port())
