"""Weighing: balance backends behind one interface, chosen by URL.

``open_scale("sim://")`` gives the built-in simulated balance; ``serial:///dev/ttyUSB0``
our firmware; ``openscale://``, ``hx711://`` and ``auto://`` the others (see
``hardware.md``).
"""

from companion.scale.base import PanStatus, Sample, Scale, ScaleStatus, Waiting, Weighing
from companion.scale.errors import (
    ScaleError,
    ScaleFault,
    ScaleNotFound,
    ScaleProtocolError,
    ScaleTimeout,
    ScaleUsageError,
)
from companion.scale.profile import Calibration
from companion.scale.registry import open_scale, register_backend

__all__ = [
    "Calibration",
    "PanStatus",
    "Sample",
    "Scale",
    "ScaleError",
    "ScaleFault",
    "ScaleNotFound",
    "ScaleProtocolError",
    "ScaleStatus",
    "ScaleTimeout",
    "ScaleUsageError",
    "Waiting",
    "Weighing",
    "open_scale",
    "register_backend",
]
