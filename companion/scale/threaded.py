"""A streaming balance fed by a reader thread through a queue.

The backend's ``_run`` reads the device in a daemon thread and puts each :class:`Sample`
on a queue; callers take them with a deadline, so a silent device becomes a
``ScaleTimeout``, never a hang. The backend names itself in the messages it passes to
:meth:`ThreadedScale._start_queue` ("the OpenScale", "the balance", ...).
"""

from __future__ import annotations

import abc
import queue
import threading
import time

from companion.scale.base import Sample
from companion.scale.core import StreamScale
from companion.scale.errors import ScaleError, ScaleTimeout


class ThreadedScale(StreamScale):
    """A :class:`StreamScale` whose readings come from a reader thread.

    A subclass calls :meth:`_start_queue` early in ``__init__`` (before anything that
    touches the queue or the segment counter), implements :meth:`_run`, and starts it
    with :meth:`_start_reader` once the device answers. It may override :meth:`_stalled`
    to turn a quiet queue into a reading (a fault, say).
    """

    #: Longest single wait on the queue (s) before the closed flag is checked again.
    poll_s: float = 0.25
    #: Without a line from the device for this long (s) it counts as disconnected;
    #: None: it counts as connected while the reader is online.
    silent_s: float | None = None
    #: How long :meth:`close` waits for the reader thread (s); None: not at all (for a
    #: thread whose reads may block forever).
    join_s: float | None = 2.0

    _samples: queue.Queue[Sample]
    _stop: threading.Event
    _segment: int
    _online: bool
    _last_line: float
    _thread: threading.Thread

    def _start_queue(self, *, closed: str, no_reading: str) -> None:
        """Set up the queue, the stop flag, the segment counter and the link state.

        ``closed`` is the error for reading a closed balance, ``no_reading`` the timeout
        when nothing arrives by the deadline; both name the device for the player.
        """
        self._samples = queue.Queue()
        self._latest: dict[int, Sample] = {}
        self._stop = threading.Event()
        self._segment = 0
        self._online = False
        self._last_line = time.monotonic()
        self._closed_text = closed
        self._no_reading_text = no_reading

    def _put(self, sample: Sample) -> None:
        """Hand a reading to the callers (reader thread), noting it as its pan's latest."""
        self._latest[sample.channel] = sample
        self._samples.put(sample)

    def _latest_sample(self, channel: int) -> Sample | None:
        """The newest reading of ``channel``: the reader thread's, which may not have been
        taken by a caller yet, so the status is current even while nobody reads."""
        seen = super()._latest_sample(channel)
        latest = self._latest.get(channel)
        if latest is None or (seen is not None and seen.t >= latest.t):
            return seen
        return latest

    def _start_reader(self, name: str) -> None:
        """Count the device as online and start :meth:`_run` in a daemon thread ``name``."""
        self._online = True
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    @abc.abstractmethod
    def _run(self) -> None:
        """Read the device until ``_stop`` is set, putting samples on ``_samples``."""

    def _stalled(self) -> Sample | None:
        """A reading to give when the queue stayed empty for ``poll_s`` (None: keep waiting)."""
        return None

    def _read(self, deadline: float) -> Sample:
        while True:
            if self._closed:
                raise ScaleError(self._closed_text)
            wait = deadline - time.monotonic()
            if wait <= 0:
                # Unplugged: say that Purser is waiting for it (it carries on by itself).
                raise ScaleTimeout(self._no_reading_text if self._online else self._waiting_message())
            try:
                return self._samples.get(timeout=min(wait, self.poll_s))
            except queue.Empty:
                stalled = self._stalled()
                if stalled is not None:
                    return stalled

    def _flush(self) -> None:
        while True:
            try:
                self._samples.get_nowait()
            except queue.Empty:
                return

    def _connected(self) -> bool:
        if not self._online or self._closed:
            return False
        return self.silent_s is None or time.monotonic() - self._last_line < self.silent_s

    def close(self) -> None:
        """Stop the reader thread (waiting up to ``join_s`` for it) and stop using the balance."""
        if self._closed:
            return
        self._stop.set()
        super().close()
        thread = getattr(self, "_thread", None)
        if thread is not None and self.join_s is not None:
            thread.join(timeout=self.join_s)
