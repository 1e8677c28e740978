"""Roll detection over a stream of frames: one reading per roll.

:class:`RollWatcher` looks at how much of the tray changes between frames. Motion (dice
thrown, a hand in the tray) arms it; when the tray has then been still for
``still_seconds`` it reads the dice once and disarms. Pauses of a moving hand shorter than
that give no reading, dice still tumbling are never read, and a hand that passes over the
tray and leaves the dice as they were gives no second reading of the same roll.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detections import DiceDetections
from companion.vision.reader import DiceReader, read_dice
from companion.vision.tray import Tray

log = logging.getLogger(__name__)

#: Frames are compared at this width (pixels): enough to see a die move, cheap to do.
MOTION_WIDTH = 160


@dataclass(frozen=True)
class RollSettings:
    """How the watcher tells motion from stillness.

    ``pixel_change``: levels (0-255, any colour channel) a pixel must change by to count
    as moving;
    ``moving_share``: share of the tray (0-1) that must change between two frames for
    motion; ``still_seconds``: how long the tray must stay still before reading;
    ``still_frames``: and for at least this many frames; ``new_roll_share``: share of the
    tray that must differ from the last roll read for the settled dice to be a new roll.
    """

    pixel_change: int = 24
    moving_share: float = 0.004
    still_seconds: float = 0.6
    still_frames: int = 3
    new_roll_share: float = 0.002


@dataclass(frozen=True)
class RollReading:
    """A settled roll: the dice read, the frame they were read from and when (seconds)."""

    detections: DiceDetections
    frame: np.ndarray
    t: float


class RollWatcher:
    """Feed it frames in order; it returns a :class:`RollReading` once per roll.

    With ``armed=True`` (default) dice already lying still when watching starts are read
    once; with ``armed=False`` only dice that move after watching starts are read.
    """

    def __init__(
        self,
        reader: DiceReader | None = None,
        tray: Tray | None = None,
        settings: RollSettings | None = None,
        armed: bool = True,
    ) -> None:
        self.reader = reader
        self.tray = tray
        self.settings = settings or RollSettings()
        self.armed = armed
        self._prev: np.ndarray | None = None
        self._last_read: np.ndarray | None = None
        self._still_since: float | None = None
        self._still_count = 0
        self._mask: np.ndarray | None = None

    @property
    def moving(self) -> bool:
        """Whether the last frame showed motion."""
        return self._still_count == 0 and self._prev is not None

    def _small(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        sw, sh = MOTION_WIDTH, max(1, round(h * MOTION_WIDTH / w))
        small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = small[..., None]
        if self._mask is None or self._mask.shape != small.shape[:2]:
            self._mask = (self.tray.mask(sw, sh) > 0) if self.tray is not None else np.ones(small.shape[:2], bool)
        return cv2.GaussianBlur(small, (5, 5), 0).reshape(sh, sw, -1)

    def _changed_share(self, a: np.ndarray, b: np.ndarray) -> float:
        # colour, not grey: a hand as bright as the table still differs in hue
        assert self._mask is not None
        changed = (cv2.absdiff(a, b).reshape(a.shape).max(axis=2) > self.settings.pixel_change) & self._mask
        return float(changed.sum()) / max(int(self._mask.sum()), 1)

    def feed(self, frame: np.ndarray, t: float | None = None) -> RollReading | None:
        """Look at the next frame (taken at ``t`` seconds, default now); a reading or None."""
        t = time.monotonic() if t is None else t
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            self._still_since, self._still_count = t, 1
            return None
        if self._changed_share(prev, small) > self.settings.moving_share:
            self.armed = True
            self._still_since, self._still_count = None, 0
            return None
        if self._still_since is None:
            self._still_since = t
        self._still_count += 1
        s = self.settings
        if not self.armed or self._still_count < s.still_frames or t - self._still_since < s.still_seconds:
            return None
        self.armed = False
        if (
            self._last_read is not None
            and self._last_read.shape == small.shape
            and self._changed_share(self._last_read, small) <= s.new_roll_share
        ):
            log.debug("the tray settled as it was: not a new roll")
            return None
        self._last_read = small
        detections = read_dice(frame, tray=self.tray, reader=self.reader)
        log.info("roll settled: %s", detections.faces())
        return RollReading(detections, frame, t)
