"""``auto://``: find a Purser balance on the serial ports, or fall back to the simulator.

Every port ``serial.tools.list_ports`` reports is tried with the balance's handshake
(``handshake`` seconds each, 2 by default; ``ports=/dev/ttyUSB0,/dev/ttyACM0`` limits
the search). When none answers, the simulated balance is used and it says so loudly:
``status().simulated`` is true and ``status().message`` is a sentence for the app's
banner; ``fallback=none`` makes that an error (``ScaleNotFound``) instead. Other
settings go to the simulator (``auto://?clock=virtual&pieces=5``).
"""

from __future__ import annotations

import logging
from typing import Any

from serial.tools import list_ports

from companion.scale.base import Scale
from companion.scale.errors import ScaleError, ScaleNotFound, ScaleUsageError
from companion.scale.registry import ScaleURL
from companion.scale.serial_scale import SerialScale
from companion.scale.sim import SimScale, build_sim

log = logging.getLogger(__name__)


def candidate_ports() -> list[str]:
    """Serial ports worth probing, USB ones first."""
    ports = list(list_ports.comports())
    ports.sort(key=lambda p: (p.vid is None, p.device))
    return [p.device for p in ports]


class FallbackSimScale(SimScale):
    """The simulator standing in for a balance that was not found: it says so."""

    def __init__(self, *args: Any, tried: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tried = tried

    def _message(self) -> str:
        where = ", ".join(self.tried) if self.tried else "no serial ports"
        return f"No balance found (tried {where}): using the SIMULATED balance, weights are not real"


def open_auto(url: ScaleURL) -> Scale:
    """Probe the ports for a Purser balance; else the simulator with a banner message.

    Raises:
        ScaleNotFound: nothing found and ``fallback=none``.
    """
    handshake = url.number("handshake", 2.0, 0.1, 30.0)
    ports_text = url.text("ports", "")
    fallback = url.text("fallback", "sim")
    if fallback not in ("sim", "none"):
        raise ScaleUsageError(f"fallback={fallback!r} in {url.url!r} must be sim or none")
    ports = [p for p in ports_text.split(",") if p] if ports_text else candidate_ports()
    tried = []
    for port in ports:
        tried.append(port)
        try:
            scale = SerialScale(f"serial://{port}", port, handshake_s=handshake)
        except ScaleError as exc:
            log.info("no balance on %s: %s", port, exc)
            continue
        log.info("found balance %s on %s", scale.device_id, port)
        return scale
    if fallback == "none":
        raise ScaleNotFound(f"no Purser balance answered (tried {', '.join(tried) or 'no ports'})")
    sim_url = ScaleURL(
        url.url, "sim", "", {k: v for k, v in url.params.items() if k not in ("handshake", "ports", "fallback")}
    )
    fallback_scale = build_sim(sim_url, FallbackSimScale, tried=tried)
    log.warning("%s", fallback_scale.status().message)
    return fallback_scale
