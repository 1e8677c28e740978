"""auto://: find the balance on a port, or fall back to the simulator and say so."""

from __future__ import annotations

import os

import pytest

from companion.scale import ScaleError, ScaleNotFound, open_scale
from companion.scale.auto import candidate_ports


@pytest.fixture
def silent_port():
    master, slave = os.openpty()
    yield os.ttyname(slave)
    os.close(master)
    os.close(slave)


def test_falls_back_to_the_simulator_loudly(silent_port):
    scale = open_scale(f"auto://?ports={silent_port}&handshake=0.3&clock=virtual&pieces=5")
    status = scale.status()
    assert scale.simulated and status.simulated
    assert "SIMULATED" in status.message and silent_port in status.message
    assert status.note == status.message  # the backend's own words; no pan has any
    assert scale.weigh_stable().grams == pytest.approx(5.0, abs=0.05)


def test_fallback_none_is_an_error(silent_port):
    with pytest.raises(ScaleNotFound, match="no Purser balance answered"):
        open_scale(f"auto://?ports={silent_port}&handshake=0.3&fallback=none")


def test_bad_fallback_is_refused():
    with pytest.raises(ScaleError, match="fallback"):
        open_scale("auto://?ports=&fallback=maybe")


def test_candidate_ports_lists_device_paths():
    assert all(isinstance(p, str) and p for p in candidate_ports())
