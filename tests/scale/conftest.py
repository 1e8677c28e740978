"""Fixtures for the balance tests: a private data folder, and one "bench" per backend.

A bench is a balance plus the hands that put loads on it. The same behavioural tests run
on every bench: the built-in simulator (on its virtual clock) and the real firmware in
simavr, talked to through a pseudo-terminal.
"""

from __future__ import annotations

import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.scale import Calibration, open_scale


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path, monkeypatch):
    """Calibration profiles and tares go to a throw-away folder, never the user's."""
    monkeypatch.setenv("PURSER_DATA_DIR", str(tmp_path / "purser-data"))


class SimBench:
    """The simulator: loads and faults are scripted on its virtual clock."""

    name = "sim"
    #: How far a weight may be from the load placed (grams): the simulated cell's bow.
    tolerance_g = 0.06

    def __init__(self, channels: int = 1, seed: int = 11) -> None:
        self.scale: Any = open_scale(f"sim://?clock=virtual&seed={seed}&channels={channels}")

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


class Rig:
    """The firmware rig (``firmware/sim``: the real firmware ELF in simavr with emulated
    HX711s), driven through its stdin/stdout command lines (see ``firmware/sim/rig.c``)."""

    ROOT = Path(__file__).resolve().parents[2] / "firmware"
    _built = False

    @classmethod
    def build(cls) -> Path:
        """Build the firmware and the rig once per test run (make does nothing when up to date)."""
        if not cls._built:
            result = subprocess.run(["make", "-s", "-C", str(cls.ROOT / "sim")], capture_output=True, text=True, timeout=600)
            if result.returncode != 0:
                raise RuntimeError(f"building the firmware rig failed:\n{result.stdout}\n{result.stderr}")
            cls._built = True
        return cls.ROOT / "sim" / "build" / "purser-rig"

    def __init__(self, tmp: Path, seed: int = 1) -> None:
        binary = self.build()
        self.link = tmp / "balance-tty"
        self.proc = subprocess.Popen(
            [str(binary), "--eeprom", str(tmp / "eeprom.bin"), "--link", str(self.link), "--seed", str(seed),
             str(self.ROOT / "build" / "purser_balance.elf")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self._lock = threading.Lock()
        first = self.proc.stdout.readline().strip()
        if not first.startswith("ready"):
            self.close()
            raise RuntimeError(f"the firmware rig did not start: {first!r}")

    def cmd(self, line: str) -> str:
        with self._lock:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline().strip()
        if not reply.startswith("ok"):
            raise RuntimeError(f"rig refused {line!r}: {reply!r}")
        return reply

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.cmd("quit")
                self.proc.wait(timeout=5)
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(timeout=5)


class FirmwareBench:
    """The real firmware in simavr over a pseudo-terminal; loads set on its emulated cells.

    The firmware is calibrated through the protocol (CAL, kept in its EEPROM) and the
    balance opened again, so weights use the calibration the balance itself keeps.
    """

    name = "firmware"
    tolerance_g = 0.06
    ZERO, CPG = 84_213, 2150.0

    def __init__(self, tmp: Path, rate: int = 80) -> None:
        self.rig = Rig(tmp)
        self._timers: list[threading.Timer] = []
        self._loads = [0.0, 0.0]
        try:
            for ch in (0, 1):
                self.rig.cmd(f"cell {ch} {self.ZERO} {self.CPG}")
                self.rig.cmd(f"noise {ch} 38")
                self.rig.cmd(f"grams {ch} 0")
            self.rig.cmd(f"rate all {rate}")
            url = f"serial://{self.rig.link}?handshake=10"
            with open_scale(url) as first:
                for ch in range(first.channels):
                    first.write_calibration(Calibration(self.CPG, float(self.ZERO), 0.02, device_id=first.device_id, channel=ch))
            self.scale: Any = open_scale(url)
        except BaseException:
            self.rig.close()
            raise

    def now(self) -> float:
        return time.monotonic()

    def place(self, grams: float, channel: int = 0) -> None:
        self._loads[channel] += grams
        self.rig.cmd(f"grams {channel} {self._loads[channel]!r}")

    def clear(self, channel: int = 0) -> None:
        self._loads[channel] = 0.0
        self.rig.cmd(f"grams {channel} 0")

    def unplug(self) -> None:
        self.rig.cmd("usb-unplug")

    def replug(self) -> None:
        self.rig.cmd("usb-replug")

    def chip_missing(self, on: bool, channel: int = 0) -> None:
        self.rig.cmd(f"{'unplug' if on else 'replug'} {channel}")

    def saturate(self, on: bool, channel: int = 0) -> None:
        self.rig.cmd(f"saturate {channel} {'high' if on else 'off'}")

    def later(self, delay_s: float, action: Callable[[], None]) -> None:
        timer = threading.Timer(delay_s, action)
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        try:
            self.scale.close()
        finally:
            self.rig.close()


BENCHES = ["sim", pytest.param("firmware", marks=pytest.mark.firmware)]


def _make_bench(kind: str, channels: int, tmp: Path) -> Iterator[Any]:
    b: Any = SimBench(channels=channels) if kind == "sim" else FirmwareBench(tmp)
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
