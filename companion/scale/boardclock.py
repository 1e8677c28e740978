"""Reading times from the balance's own clock, on the host's clock.

Every data line carries the board's milliseconds when the reading was taken. A busy host
reads lines late and in bursts; stamping them on arrival would squeeze a second of
readings into an instant and could make a moving load look steady. So a reading's time
is the board's time plus an offset to the host's clock:

- the offset is the smallest (arrival - board time) seen: a line can only arrive after
  it was made, so the quickest arrival is the truest, and a reading's time is never later
  than its arrival;
- it may grow by at most ``drift`` seconds per second (a board's ceramic resonator is
  off by up to about 0.5 %), so times between readings are the board's, to within that;
- the board's 32-bit millisecond counter wraps after 49.7 days; a jump back of more than
  a second (a reset whose hello was lost) starts afresh and says so.
"""

from __future__ import annotations

from dataclasses import dataclass

MS_MODULO = 2**32
#: The most the board's clock may run slow against the host's (fraction).
DRIFT = 0.01
#: A jump back of the board's clock by more than this (ms) is a restart, not disorder.
RESTART_MS = 1000


@dataclass
class BoardClock:
    """Maps board milliseconds to host seconds (see the module docstring)."""

    drift: float = DRIFT
    _offset: float | None = None
    _last_ms: int | None = None
    _wraps: int = 0
    _last_board_s: float = 0.0

    def reset(self) -> None:
        """The board restarted (or the link was lost): anchor afresh."""
        self._offset = None
        self._last_ms = None
        self._wraps = 0
        self._last_board_s = 0.0

    def to_host(self, board_ms: int, arrived: float) -> tuple[float, bool]:
        """The host time (s) of a reading the board took at ``board_ms``, which arrived at
        ``arrived`` (host s); and True when the board's clock jumped back (a restart)."""
        restarted = False
        if self._last_ms is not None and board_ms < self._last_ms:
            if self._last_ms - board_ms > MS_MODULO // 2:
                self._wraps += 1
            elif self._last_ms - board_ms > RESTART_MS:
                self.reset()
                restarted = True
        if self._last_ms is None or board_ms >= self._last_ms or self._last_ms - board_ms > MS_MODULO // 2:
            self._last_ms = board_ms
        board_s = (board_ms + self._wraps * MS_MODULO) / 1000.0
        candidate = arrived - board_s
        if self._offset is None:
            self._offset = candidate
        else:
            grown = self._offset + self.drift * max(0.0, board_s - self._last_board_s)
            self._offset = min(grown, candidate)
        self._last_board_s = max(self._last_board_s, board_s)
        return board_s + self._offset, restarted
