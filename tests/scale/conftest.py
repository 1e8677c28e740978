"""Fixtures for the balance tests: a private data folder, and one "bench" per backend.

A bench is a balance plus the hands that put loads on it. The same behavioural tests run
on every bench: the built-in simulator (on its virtual clock) and the real firmware in
simavr, talked to through a pseudo-terminal (``FirmwareBench``, from the firmware rig's
driver in ``tests/support/firmware_rig.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.scale import open_scale
from tests.support.firmware_rig import FirmwareBench


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Calibration profiles and tares go to a throw-away folder, never the user's."""
    monkeypatch.setenv("PURSER_DATA_DIR", str(tmp_path / "purser-data"))


class SimBench:
    """The simulator: loads and faults are scripted on its virtual clock."""

    name = "sim"
    #: How far a weight may be from the load placed (grams): the simulated cell's bow.
    tolerance_g = 0.06

    def __init__(self, channels: int = 1, seed: int = 11, rate: int = 80) -> None:
        self.scale: Any = open_scale(f"sim://?clock=virtual&seed={seed}&channels={channels}&rate={rate}")

    def now(self) -> float:
        return self.scale.now()

    def place(self, grams: float, channel: int = 0) -> None:
        self.scale.place(grams, channel)

    def clear(self, channel: int = 0) -> None:
        self.scale.clear(channel)

    def unplug(self) -> None:
        self.scale.unplug()

    def replug(self) -> None:
        self.scale.replug()

    def chip_missing(self, on: bool, channel: int = 0) -> None:
        self.scale.set_fault(on, channel)

    def saturate(self, on: bool, channel: int = 0) -> None:
        self.scale.set_saturated(on, channel)

    def later(self, delay_s: float, action: Callable[[], None]) -> None:
        self.scale.at(delay_s, action)

    def close(self) -> None:
        self.scale.close()


BENCHES = ["sim", pytest.param("firmware", marks=pytest.mark.firmware)]


def _make_bench(kind: str, channels: int, tmp: Path, rate: int = 80) -> Iterator[Any]:
    b: Any
    if kind == "sim":
        b = SimBench(channels=channels, rate=rate)
    else:
        b = FirmwareBench(tmp, rate=rate, strapped=kind == "firmware-strapped")
    try:
        yield b
    finally:
        b.close()


@pytest.fixture(params=BENCHES)
def bench(request, tmp_path) -> Iterator[Any]:
    """A balance with hands (see the module docstring)."""
    yield from _make_bench(request.param, 1, tmp_path)


@pytest.fixture(params=BENCHES)
def bench2(request, tmp_path) -> Iterator[Any]:
    """A two-pan balance with hands."""
    yield from _make_bench(request.param, 2, tmp_path)


@pytest.fixture(params=[*BENCHES, pytest.param("firmware-strapped", marks=pytest.mark.firmware)])
def bench10(request, tmp_path) -> Iterator[Any]:
    """A balance at 10 samples per second: the simulator, the firmware asked for 10 SPS,
    and the firmware on amplifier boards whose RATE input is strapped to 10 SPS while
    the firmware was left at 80."""
    yield from _make_bench(request.param, 1, tmp_path, rate=10)
