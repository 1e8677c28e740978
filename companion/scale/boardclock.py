"""Reading times from the balance's own clock, on the host's clock.

Every data line carries the board's milliseconds when the reading was taken. A busy host
reads lines late and in bursts; stamping them on arrival would squeeze a second of
readings into an instant and could make a moving load look steady. So a reading's time
is the board's time plus an offset to the host's clock:

- the offset follows the smallest (arrival - board time) seen: a line can only arrive
  after it was made, so the quickest arrival is the truest. It falls towards a quicker
  line at 5 % of the time passing (so readings keep their spacing to within 5 %; a time
  may then be up to 0.1 s after the line's arrival), and drops at once, starting afresh,
  when it is off by more. :meth:`BoardClock.expect` takes the freshest line of a burst
  first, so the lines before it keep their spacing;
- the offset may grow only as fast as the board's clock is seen to fall behind the
  host's over the last few seconds (a board's resonator is off by up to about 0.5 %; a
  simulated board may run at 60 % of real time), plus 1 %: a burst of late lines is never
  squeezed together, only stretched by at most that rate. Should even the quickest lines
  of a second come more than 0.1 s late, the offset catches up at once, starting afresh;
- the board's 32-bit millisecond counter wraps after 49.7 days; a jump back of more than
  a second (a reset whose hello was lost), or an offset that had to fall by more than
  0.1 s, starts afresh and says so, so no weighing spans it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

MS_MODULO = 2**32
#: The least the offset may grow per second of board time (the host's and the board's
#: clocks never agree exactly).
DRIFT = 0.01
#: The most it may grow (a board at half speed).
MAX_DRIFT = 1.0
#: A jump back of the board's clock by more than this (ms) is a restart, not disorder.
RESTART_MS = 1000
#: An offset that has to fall by more than this (s) is set at once, and the readings
#: before are not joined to the ones after; less, and it falls at :data:`SLEW`.
STEP_S = 0.1
#: How fast the offset may fall towards a quicker line (s per board s): USB adapters and
#: busy hosts delay lines by up to tens of milliseconds, now and then.
SLEW = 0.05
#: Rate estimate: the smallest offset seen in each bucket of this many board seconds, over
#: this many buckets.
BUCKET_S = 0.5
BUCKETS = 16


@dataclass
class BoardClock:
    """Maps board milliseconds to host seconds (see the module docstring)."""

    drift: float = DRIFT
    _offset: float | None = None
    _last_ms: int | None = None
    _wraps: int = 0
    _last_board_s: float = 0.0
    _resync: bool = False
    #: (board s at the bucket's start, quickest offset seen in it, least lateness in it)
    _buckets: deque[tuple[float, float, float]] = field(default_factory=lambda: deque(maxlen=BUCKETS))
    _rate: float = 0.0
    _rate_at: float | None = None

    def reset(self) -> None:
        """The board restarted (or the link was lost): anchor afresh."""
        self._offset = None
        self._last_ms = None
        self._wraps = 0
        self._last_board_s = 0.0
        self._resync = False
        self._buckets.clear()
        self._rate = 0.0
        self._rate_at = None

    def rate(self) -> float:
        """How fast the board's clock falls behind the host's (s per board s): the median
        of the slopes between the lowest offsets of the last few seconds' buckets (a bucket
        of lines all read late, while the host was busy, cannot sway it); 0 until the
        buckets span two seconds."""
        closed = [(b, m) for b, m, _ in list(self._buckets)[:-1]]  # the newest bucket is still filling
        if len(closed) < 4 or closed[-1][0] - closed[0][0] < 2.0:
            return 0.0
        if self._rate_at != closed[-1][0]:
            slopes = sorted((m1 - m0) / (b1 - b0) for i, (b0, m0) in enumerate(closed) for (b1, m1) in closed[i + 1 :])
            self._rate = max(0.0, slopes[len(slopes) // 2])
            self._rate_at = closed[-1][0]
        return self._rate

    def _board_seconds(self, board_ms: int) -> tuple[float, bool]:
        """``board_ms`` unwrapped to seconds since the anchor's epoch; True on a restart."""
        restarted = False
        if self._last_ms is not None and board_ms < self._last_ms:
            if self._last_ms - board_ms > MS_MODULO // 2:
                self._wraps += 1
            elif self._last_ms - board_ms > RESTART_MS:
                self.reset()
                restarted = True
        if self._last_ms is None or board_ms >= self._last_ms or self._last_ms - board_ms > MS_MODULO // 2:
            self._last_ms = board_ms
        return (board_ms + self._wraps * MS_MODULO) / 1000.0, restarted

    def _observe(self, board_s: float, arrived: float) -> None:
        candidate = arrived - board_s
        if self._offset is None:
            self._offset = candidate
        else:
            step = max(0.0, board_s - self._last_board_s)
            if candidate < self._offset - STEP_S:
                self._offset = candidate  # far too late: start afresh
                self._resync = True
            elif candidate < self._offset:
                # A quicker line: slew towards it, so the readings keep their spacing.
                self._offset = max(candidate, self._offset - SLEW * step)
            else:
                allowance = min(MAX_DRIFT, self.drift + 1.1 * self.rate())
                self._offset = min(self._offset + allowance * step, candidate)
        self._last_board_s = max(self._last_board_s, board_s)
        late = candidate - self._offset
        bucket = board_s // BUCKET_S * BUCKET_S
        if self._buckets and self._buckets[-1][0] == bucket:
            _, quickest, least_late = self._buckets[-1]
            self._buckets[-1] = (bucket, min(quickest, candidate), min(least_late, late))
        elif not self._buckets or bucket > self._buckets[-1][0]:
            self._catch_up(candidate)
            self._buckets.append((bucket, candidate, candidate - self._offset))
        # (an older bucket: a line of a burst whose freshest line was taken first)

    def _catch_up(self, candidate: float) -> None:
        """When every line of each of the last two whole buckets came more than
        :data:`STEP_S` after its mapped time, the board runs slower than the offset was
        allowed to follow: take this line's offset, and start afresh."""
        if self._offset is None or len(self._buckets) < 2:
            return
        if min(self._buckets[-1][2], self._buckets[-2][2]) > STEP_S:
            self._offset = candidate
            self._resync = True

    def expect(self, board_ms: int, arrived: float) -> None:
        """The freshest line of a burst that arrived at ``arrived`` (host s) was taken at
        ``board_ms``: set the offset from it before the burst's lines are timed."""
        if self._last_ms is not None and not 0 <= board_ms - self._last_ms < 10_000:
            return  # a wrap or a restart: the lines will say so in turn
        board_s = (board_ms + self._wraps * MS_MODULO) / 1000.0
        self._observe(board_s, arrived)

    def to_host(self, board_ms: int, arrived: float) -> tuple[float, bool]:
        """The host time (s) of a reading the board took at ``board_ms``, which arrived at
        ``arrived`` (host s); and True when the readings before it must not be joined to it
        (the board restarted, or the offset had to be set back)."""
        board_s, restarted = self._board_seconds(board_ms)
        self._observe(board_s, arrived)
        if self._resync:
            self._resync = False
            restarted = True
        assert self._offset is not None
        return board_s + self._offset, restarted
