"""Hardware wiring: which scale and camera feed a session, and turning their readings into actions.

An action that asks for a measurement names its source with ``"from"``::

    {"type": "weigh", "player": "Ana", "from": "scale", "channel": 0}
    {"type": "roll", "player": "Ana", "from": "camera"}

:meth:`Hardware.resolve` takes the measurement and returns the concrete action, with the
``"from"`` key replaced by the data (``"weighing"``: a :class:`~companion.scale.Weighing`
as JSON; ``"detections"``: a :class:`~companion.vision.DiceDetections` as JSON). Only
concrete actions reach the engine and the journal, so replaying a game never needs the
hardware, and a disputed result can be derived again from what was stored.

Resolving blocks while the hardware works: the UI calls it off its main thread.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.games.base import IllegalAction

log = logging.getLogger(__name__)

#: The sources an action may name, and the key its data is stored under.
SOURCES = {"scale": "weighing", "camera": "detections"}

DEFAULT_SCALE_URL = "auto://"
DEFAULT_CAMERA_URL = "auto://"


def needs_hardware(action: Mapping[str, Any]) -> bool:
    """Whether ``action`` still asks for a measurement (has a ``"from"`` key)."""
    return "from" in action


class Hardware:
    """The scale and camera of one table, opened on first use and kept open.

    ``scale_url`` and ``camera_url`` choose the backends (``sim://``, ``serial:///dev/ttyUSB0``,
    ``cv://0`` ...); ``None`` means ``auto://`` for either (the hardware found, else a simulator). A
    camera address may carry the table's tray (``...?tray=x0,y0,x1,y1``): dice outside it are
    not read.
    """

    def __init__(self, scale_url: str | None = None, camera_url: str | None = None) -> None:
        self.scale_url = scale_url or DEFAULT_SCALE_URL
        self.camera_url = camera_url or DEFAULT_CAMERA_URL
        self._scale: Any = None
        self._camera: Any = None

    @classmethod
    def from_config(cls, hardware: Mapping[str, Any]) -> Hardware:
        """Build from a session's stored wiring: ``{"scale": URL, "camera": URL}``."""
        return cls(hardware.get("scale"), hardware.get("camera"))

    def to_config(self) -> dict[str, str]:
        """The wiring as stored with a session."""
        return {"scale": self.scale_url, "camera": self.camera_url}

    # -- devices ----------------------------------------------------------------------------

    def scale(self) -> Any:
        """The open :class:`~companion.scale.Scale` (opened now if needed).

        Raises:
            ScaleError: it cannot be opened.
        """
        if self._scale is None:
            from companion.scale import open_scale

            self._scale = open_scale(self.scale_url)
            log.info("scale %s opened", self.scale_url)
        return self._scale

    def camera(self) -> Any:
        """The open frame source (opened now if needed).

        Raises:
            VisionError: it cannot be opened.
        """
        if self._camera is None:
            from companion.vision import open_source

            self._camera = open_source(self.camera_url)
            log.info("camera %s opened", self.camera_url)
        return self._camera

    # -- resolving ----------------------------------------------------------------------------

    def resolve(self, action: Mapping[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """The concrete action for ``action``: its measurement taken and filled in.

        An action without ``"from"`` is returned as a copy, unchanged.

        Raises:
            IllegalAction: ``"from"`` names no known source.
            ScaleError: the scale gave no stable, trustworthy weight within ``timeout`` s.
            VisionError: the camera gave no frame.
        """
        concrete = dict(action)
        source = concrete.pop("from", None)
        if source is None:
            return concrete
        if source == "scale":
            channel = concrete.get("channel", 0)
            if isinstance(channel, bool) or not isinstance(channel, int) or channel < 0:
                raise IllegalAction('"channel" must be the pan: 0 for pan A, or 1 for pan B on a two-pan balance')
            weighing = self.scale().weigh_stable(timeout=timeout, channel=channel)
            concrete["weighing"] = weighing.to_json()
            return concrete
        if source == "camera":
            from companion.vision import read_dice

            camera = self.camera()
            frame = camera.read()
            concrete["detections"] = read_dice(frame, tray=camera.tray).to_json()
            return concrete
        known = " or ".join(f'"{s}"' for s in SOURCES)
        raise IllegalAction(f'"from" must be {known}, not {source!r}')

    def close(self) -> None:
        """Close whatever was opened."""
        for device in (self._scale, self._camera):
            if device is not None:
                try:
                    device.close()
                except Exception:  # closing must never mask the error that led here
                    log.exception("closing %r failed", device)
        self._scale = self._camera = None

    def __enter__(self) -> Hardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
