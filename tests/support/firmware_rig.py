"""Firmware in the loop: the real balance firmware running in simavr, for tests.

``FirmwareRig`` builds the firmware ELF (``firmware/``) and the simulator rig
(``firmware/sim/``) once per test session, starts the rig, and exposes its pseudo-terminal
(``rig.port``) where the firmware talks exactly as a Nano would over USB. The emulated
HX711 load cells are driven from the test::

    from tests.support.firmware_rig import FirmwareRig

    with FirmwareRig() as rig:                # build (once), start, stop at the end
        rig.set_raw(0, 123_456)               # channel 0's amplifier now reads 123456
        with rig.connect() as link:           # pyserial on rig.port, after a fresh reset
            assert link.hello.channels == 2
            sample = link.wait_for(lambda r: isinstance(r, Data) and r.raw == 123_456)
        scale = open_scale(f"serial://{rig.port}")   # or hand the port to a driver

A session-wide fixture keeps one rig process for many tests; ``rig.power_cycle()`` and
``rig.eeprom_erase()`` give each test a fresh board without restarting the process::

    @pytest.fixture(scope="session")
    def firmware_rig():
        with FirmwareRig() as rig:
            yield rig

The simulation runs no faster than real time (``speed=2.0`` runs it twice as fast when the
machine can; simavr manages 0.6x-1x of real time on a busy two-core machine, so give
waits generous timeouts). Time in the rig is simulated time: ``rig.wait_ms(200)`` returns
once 200 ms have passed on the board, however long that takes on the wall clock.

Nothing here is a mock: the bytes on ``rig.port`` come from the firmware's own UART.
``BalanceLink`` is a deliberately small line reader for tests of the firmware itself; the
product's serial driver lives in ``companion.scale``. ``FirmwareBench`` puts that driver
(``serial://``) on a rig of its own, calibrated like a real 1 kg cell, with hands that
place loads and pull cables: the scale behaviour tests and ``bench/scale_settle.py`` use it::

    bench = FirmwareBench(tmp_path, rate=10)  # the balance asked for 10 SPS (RATE,10)
    bench.place(12.5)
    weighing = bench.scale.weigh_stable(timeout=15)
    bench.close()
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import logging
import os
import select
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import serial

from companion.scale import Calibration, open_scale
from companion.scale import protocol as proto
from companion.scale.core import DATASHEET_NOISE_COUNTS

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parents[2]
FIRMWARE_DIR = REPO / "firmware"
SIM_DIR = FIRMWARE_DIR / "sim"

#: How long a rig control command may take on the wall clock (seconds). Only ``wait``
#: blocks for long, and it scales with the simulated time asked for.
CONTROL_TIMEOUT = 30.0


class RigError(RuntimeError):
    """The rig could not be built or started, died, or refused a control command."""


@dataclass(frozen=True)
class RigBuild:
    """Paths of a built firmware ELF and rig executable."""

    elf: Path
    rig: Path


_build_lock = threading.Lock()
_built: dict[tuple[tuple[str, int], ...], RigBuild] = {}


def build_rig(variant: Mapping[str, int] | None = None) -> RigBuild:
    """Build the firmware and the rig with ``make`` (once per process and variant; make
    skips work whose inputs did not change). Serialised across processes by a file lock.

    ``variant`` overrides ``config.h`` values, e.g. ``{"PURSER_MAX_CHANNELS": 1,
    "PURSER_RATE_PIN": -1}``; each variant builds in a folder of its own.

    Raises:
        RigError: the build failed; the message holds make's output, which names the
            Debian packages to install when a tool is missing.
    """
    key = tuple(sorted((variant or {}).items()))
    with _build_lock:
        if key in _built:
            return _built[key]
        args = ["make", "--no-print-directory", "-j2", "-C", str(SIM_DIR), "all"]
        folder = "build"
        if key:
            name = "v-" + "-".join(f"{k.removeprefix('PURSER_').lower()}{v}" for k, v in key)
            folder = f"build/{name}"
            args += [f"VARIANT={name}", "CONFIG=" + " ".join(f"-D{k}={int(v)}" for k, v in key)]
        (FIRMWARE_DIR / "build").mkdir(exist_ok=True)
        with open(FIRMWARE_DIR / "build" / ".build.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            started = time.monotonic()
            result = subprocess.run(args, capture_output=True, text=True, check=False)
        if result.returncode != 0:
            raise RigError(
                "building the balance firmware and its simulator rig failed:\n"
                + (result.stdout[-3000:] + result.stderr[-3000:]).strip()
            )
        log.info("firmware and rig (%s) built in %.1f s", folder, time.monotonic() - started)
        _built[key] = RigBuild(elf=FIRMWARE_DIR / folder / "purser_balance.elf", rig=SIM_DIR / folder / "purser-rig")
        return _built[key]


class FirmwareRig:
    """One running rig process: the firmware in simavr, its UART on ``port``.

    Args:
        eeprom: file the board's EEPROM is loaded from and saved to when the rig stops
            (None: starts erased, kept only while this rig runs).
        link: a symlink kept pointing at the current pty (survives ``replug_usb``).
        seed: seed of the emulated noise.
        speed: simulated seconds per wall-clock second at most (0: as fast as possible).
        variant: ``config.h`` values to build with instead (see ``build_rig``).
    """

    def __init__(
        self,
        *,
        eeprom: Path | str | None = None,
        link: Path | str | None = None,
        seed: int = 1,
        speed: float = 1.0,
        variant: Mapping[str, int] | None = None,
    ) -> None:
        self.variant = dict(variant or {})
        self.eeprom = Path(eeprom) if eeprom is not None else None
        self.link = Path(link) if link is not None else None
        self.seed = seed
        self.speed = speed
        self.port: str = ""
        self._proc: subprocess.Popen[bytes] | None = None
        self._replies = b""
        self._log = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> FirmwareRig:
        """Build if needed and start the rig; ``port`` is then the pty path.

        Raises:
            RigError: the build failed or the rig did not start.
        """
        built = build_rig(self.variant)
        self._log = tempfile.NamedTemporaryFile(prefix="purser-rig-", suffix=".log", delete=False)  # noqa: SIM115
        args = [str(built.rig), "--seed", str(self.seed), "--speed", str(self.speed)]
        if self.eeprom is not None:
            args += ["--eeprom", str(self.eeprom)]
        if self.link is not None:
            args += ["--link", str(self.link)]
        args.append(str(built.elf))
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log)
        self._replies = b""
        first = self._readline(CONTROL_TIMEOUT)
        if not first.startswith("ready pty="):
            self.stop()
            raise RigError(f"the rig did not start: {first!r}\n{self.log_tail()}")
        self.port = first.split("pty=", 1)[1].strip()
        return self

    def stop(self) -> None:
        """Stop the rig (saving the EEPROM file, if any). Safe to call twice."""
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.poll() is None:
                    proc.stdin.write(b"quit\n")
                    proc.stdin.flush()
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            for stream in (proc.stdin, proc.stdout):
                if stream:
                    stream.close()
        if self._log is not None:
            self._log.close()
            with contextlib.suppress(OSError):
                os.unlink(self._log.name)
            self._log = None

    def __enter__(self) -> FirmwareRig:
        return self.start() if self._proc is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        """True while the rig process is alive."""
        return self._proc is not None and self._proc.poll() is None

    def log_tail(self, chars: int = 2000) -> str:
        """The end of the rig's own log (simavr messages), for error reports."""
        if self._log is None:
            return ""
        try:
            return Path(self._log.name).read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    # ------------------------------------------------------------------ control channel

    def _readline(self, timeout: float) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        while b"\n" not in self._replies:
            left = deadline - time.monotonic()
            if left <= 0:
                raise RigError(f"the rig did not answer within {timeout:.0f} s\n{self.log_tail()}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise RigError(f"the rig exited (code {self._proc.wait()})\n{self.log_tail()}")
                self._replies += chunk
        line, _, self._replies = self._replies.partition(b"\n")
        return line.decode("ascii", "replace").strip()

    def command(self, text: str, timeout: float = CONTROL_TIMEOUT) -> str:
        """Send one control command; return what follows ``ok`` in the reply.

        Raises:
            RigError: the rig refused it (``error ...``) or is gone.
        """
        with self._lock:
            if not self.running:
                raise RigError(f"the rig is not running\n{self.log_tail()}")
            assert self._proc is not None and self._proc.stdin is not None
            try:
                self._proc.stdin.write(text.encode("ascii") + b"\n")
                self._proc.stdin.flush()
            except OSError as exc:
                raise RigError(f"the rig is gone\n{self.log_tail()}") from exc
            reply = self._readline(timeout)
        if reply == "ok" or reply.startswith("ok "):
            return reply[3:]
        raise RigError(f"rig command {text!r}: {reply}")

    # ------------------------------------------------------------------ load cells

    def set_raw(self, channel: int, counts: int) -> None:
        """Channel's HX711 outputs exactly ``counts`` (clamped to 24 bits) from its next conversion."""
        self.command(f"raw {channel} {int(counts)}")

    def set_grams(self, channel: int, grams: float) -> None:
        """Put ``grams`` on the pan; the cell model (``set_cell``) turns it into counts."""
        self.command(f"grams {channel} {float(grams)!r}")

    def set_cell(self, channel: int, zero_counts: float = 0.0, counts_per_gram: float = 430.0) -> None:
        """The load cell: counts with an empty pan, and counts per gram at gain 128
        (negative for a cell mounted or wired the other way round). Gain 64 halves the
        counts; gain 32 (input B) quarters them."""
        self.command(f"cell {channel} {float(zero_counts)!r} {float(counts_per_gram)!r}")

    def set_noise(self, channel: int, rms_counts: float) -> None:
        """Gaussian noise on every conversion, RMS in counts."""
        self.command(f"noise {channel} {float(rms_counts)!r}")

    def set_seed(self, seed: int) -> None:
        """Restart the noise generator from ``seed``."""
        self.command(f"seed {int(seed)}")

    def set_rate(self, rate: int | None, channel: int | None = None) -> None:
        """Strap the RATE input to 10 or 80 samples/s, or (None) let it follow the
        firmware's RATE pin (the default). ``channel`` None means both."""
        which = "all" if channel is None else str(channel)
        self.command(f"rate {which} {'pin' if rate is None else int(rate)}")

    def saturate(self, channel: int, direction: str | None = "high") -> None:
        """Drive the input beyond full scale: ``high`` (0x7FFFFF), ``low`` (0x800000), None: off."""
        self.command(f"saturate {channel} {direction or 'off'}")

    def unplug(self, channel: int) -> None:
        """Disconnect the channel's HX711 board: DOUT floats (reads high), no conversions."""
        self.command(f"unplug {channel}")

    def no_chip(self, channel: int) -> None:
        """No HX711 fitted on this channel (same as ``unplug``)."""
        self.unplug(channel)

    def replug(self, channel: int) -> None:
        """Connect the HX711 again: it powers up from reset (gain A/128) and settles first."""
        self.command(f"replug {channel}")

    def stuck_low(self, channel: int) -> None:
        """DOUT shorted to ground: always "ready", never a real reading. ``replug`` undoes it."""
        self.command(f"stuck {channel}")

    def bit_errors(self, to_host: float, to_board: float = 0.0, seed: int = 0) -> None:
        """A noisy cable: each bit on its way to the host is flipped with probability
        ``to_host`` (and each bit to the board with ``to_board``); 0 makes it clean again."""
        self.command(f"bit-errors {float(to_host)!r} {float(to_board)!r} {int(seed)}")

    def glitch(self, channel: int) -> None:
        """The HX711's supply dips: the chip resets by itself (gain back to A/128, settles again)."""
        self.command(f"glitch {channel}")

    # ------------------------------------------------------------------ the board

    def reset(self) -> None:
        """Press reset (or toggle DTR): the firmware restarts; SRAM, EEPROM and the
        amplifiers' state are kept. A fresh hello line follows."""
        self.command("reset")

    def reset_during_read(self, channel: int, edge: int = 12) -> None:
        """Reset the board when its firmware has clocked ``edge`` bits of a reading out
        of ``channel``'s HX711 (0: a conversion waits unread, DOUT low). The amplifier
        does not know the board restarted."""
        self.command(f"reset-during-read {channel} {int(edge)}")

    def power_cycle(self) -> None:
        """Board and amplifiers lose power and come back (EEPROM kept, SRAM lost)."""
        self.command("power-cycle")

    def unplug_usb(self) -> None:
        """Pull the USB cable: the pty disappears and the board stops."""
        self.command("usb-unplug")
        self.port = ""

    def replug_usb(self, *, power: bool = True) -> str:
        """Plug the cable back in: a new pty (a new ``port``), and the board powers up.

        With ``power=False`` the board stays off until ``power_cycle()``, so a test can
        open the new port first and see the hello (a real board may greet before the
        host has the port open).
        """
        reply = self.command("usb-replug" if power else "usb-replug hold")
        self.port = reply.split("pty=", 1)[1].strip()
        return self.port

    def eeprom_read(self, address: int, length: int) -> bytes:
        """Bytes of the board's EEPROM (1024 bytes)."""
        return bytes.fromhex(self.command(f"eeprom-read {int(address)} {int(length)}"))

    def eeprom_write(self, address: int, data: bytes) -> None:
        """Overwrite EEPROM bytes behind the firmware's back (to corrupt settings, say)."""
        self.command(f"eeprom-write {int(address)} {bytes(data).hex()}")

    def eeprom_erase(self) -> None:
        """EEPROM back to all 0xFF, as from the factory. Takes effect at the next reset."""
        self.command("eeprom-erase")

    def eeprom_stuck(self, address: int | None, value: int = 0xAA) -> None:
        """A worn EEPROM cell at ``address`` that always reads ``value``, whatever the
        firmware writes there (None: healthy again)."""
        self.command("eeprom-stuck off" if address is None else f"eeprom-stuck {int(address)} {int(value)}")

    def eeprom_save(self) -> None:
        """Write the EEPROM to the ``eeprom`` file now."""
        self.command("eeprom-save")

    def wait_ms(self, ms: float) -> float:
        """Let ``ms`` milliseconds pass on the board; returns the board's clock (ms).

        Raises:
            RigError: the board is unplugged, or the wait took absurdly long.
        """
        timeout = CONTROL_TIMEOUT + 20 * ms / 1000 / max(self.speed, 0.05)
        return float(self.command(f"wait {float(ms)!r}", timeout=timeout).split("=", 1)[1])

    def sim_time_ms(self) -> float:
        """Milliseconds simulated since the rig started."""
        return float(self.command("time").split("=", 1)[1])

    def status(self) -> dict[str, str]:
        """The rig's state: ``ms``, ``resets``, ``watchdog_resets``, ``asleep`` and per
        channel ``ch0``/``ch1`` (wiring, powered, gain, rate, conversions, reads, ...)."""
        fields: dict[str, str] = {}
        for item in self.command("status").split():
            key, _, value = item.partition("=")
            fields[key] = value
        return fields

    @property
    def channels(self) -> tuple[int, ...]:
        """The emulated amplifiers' channel numbers (the build's PURSER_MAX_CHANNELS)."""
        return tuple(range(int(self.variant.get("PURSER_MAX_CHANNELS", 2))))

    def chip_status(self, channel: int) -> dict[str, str]:
        """One emulated HX711: ``wiring`` and ``powered``, ``gain``, ``rate``, counters."""
        wiring, *rest = self.status()[f"ch{channel}"].split(",")
        return {"wiring": wiring, **dict(item.split("=", 1) for item in rest)}

    # ------------------------------------------------------------------ the serial side

    def connect(self, *, reset: bool = True, timeout: float = 10.0) -> BalanceLink:
        """Open the board's serial port. With ``reset`` the board is reset after opening
        and its hello line is read, so the link starts at a known point.

        Raises:
            RigError: no hello within ``timeout`` seconds.
        """
        link = BalanceLink(self.port)
        if reset:
            self.reset()
            try:
                link.hello = link.wait_for(lambda r: isinstance(r, proto.Hello), timeout)
            except TimeoutError as exc:
                link.close()
                raise RigError(f"no hello from the firmware after a reset\n{self.log_tail()}") from exc
        return link


def restore_hardware(rig: FirmwareRig) -> None:
    """Put the emulated hardware back to its start state: both amplifiers connected,
    0 counts, no noise, not saturated, the default cell model, RATE following the pin,
    USB plugged in, a clean cable. The EEPROM is left alone."""
    if not rig.running:
        rig.start()
    status = rig.status()
    if status["running"] == "0":
        rig.replug_usb()
    rig.bit_errors(0.0)
    for channel in rig.channels:
        rig.replug(channel)
        rig.saturate(channel, None)
        rig.set_noise(channel, 0)
        rig.set_cell(channel, 0, 430)
        rig.set_raw(channel, 0)
    rig.set_rate(None)


def fresh_board(
    rig: FirmwareRig, *, erase: bool = True, strap_rate: int | None = None, timeout: float = 15.0
) -> BalanceLink:
    """Power the board up from scratch (EEPROM erased unless ``erase`` is False) and
    return a link that has read the hello (``link.hello``).

    ``strap_rate`` (10 or 80) wires the amplifiers' RATE inputs to that rate on their
    boards, whatever the firmware's RATE pin says (None: they follow the pin).

    Raises:
        RigError: no hello within ``timeout`` seconds.
    """
    restore_hardware(rig)
    if strap_rate is not None:
        rig.set_rate(strap_rate)
    if erase:
        rig.eeprom_erase()
    link = BalanceLink(rig.port)
    rig.power_cycle()
    try:
        hello = link.wait_for(lambda r: isinstance(r, proto.Hello), timeout)
    except TimeoutError as exc:
        link.close()
        raise RigError(f"no hello from the firmware after power-up\n{rig.log_tail()}") from exc
    assert isinstance(hello, proto.Hello)
    link.hello = hello
    return link


class BalanceLink:
    """A small test client for the balance's serial protocol, over pyserial.

    Every line is decoded with ``companion.scale.protocol``; lines that do not decode are
    kept in ``rejected`` (a test can assert there were none).
    """

    def __init__(self, port: str, baud: int = proto.BAUD_RATE) -> None:
        self.serial = serial.Serial(port, baud, timeout=0.05)
        self.serial.reset_input_buffer()
        self.buffer = proto.LineBuffer()
        self.pending: collections.deque[proto.Record] = collections.deque()
        self.rejected: list[tuple[bytes, str]] = []
        self.hello: proto.Hello | None = None
        self.history: collections.deque[bytes] = collections.deque(maxlen=12)  # for error messages
        self._mid_line = True  # the port may have been opened in the middle of a line

    def close(self) -> None:
        """Close the port."""
        self.serial.close()

    def __enter__(self) -> BalanceLink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def send(self, command: bytes) -> None:
        """Write raw bytes (an encoded command, or anything at all)."""
        self.serial.write(command)
        self.serial.flush()

    def read_record(self, timeout: float = 5.0) -> proto.Record | None:
        """The next record from the board, or None if none came within ``timeout`` s."""
        deadline = time.monotonic() + timeout
        while not self.pending:
            if time.monotonic() > deadline:
                return None
            # At least one byte (or the 50 ms timeout), then whatever else has arrived.
            for line in self.buffer.feed(self.serial.read(max(1, self.serial.in_waiting))):
                self.history.append(line)
                if self._mid_line:
                    self._mid_line = False
                    if not line.startswith(b"$"):
                        continue  # the tail of a line sent before the port was opened
                try:
                    self.pending.append(proto.decode_line(line))
                except proto.LineError as exc:
                    self.rejected.append((line, exc.reason))
        return self.pending.popleft()

    def wait_for(self, predicate: Callable[[proto.Record], bool], timeout: float = 10.0) -> proto.Record:
        """Read until a record matches; the records before it are dropped.

        Raises:
            TimeoutError: nothing matched within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while True:
            record = self.read_record(max(0.0, deadline - time.monotonic()))
            if record is None:
                seen = b"\n".join(self.history).decode("ascii", "replace") or "(nothing at all)"
                raise TimeoutError(f"no matching line from the balance within {timeout:.0f} s; the last lines:\n{seen}")
            if predicate(record):
                return record

    def request(self, command: bytes, timeout: float = 10.0) -> proto.Record:
        """Send a command and return its reply (the first record that is neither a data
        line nor a hello).

        Raises:
            TimeoutError: no reply within ``timeout`` seconds.
        """
        self.send(command)
        return self.wait_for(lambda r: not isinstance(r, (proto.Data, proto.Hello)), timeout)

    def data(
        self,
        channel: int | None = None,
        count: int = 1,
        timeout: float = 10.0,
        predicate: Callable[[proto.Data], bool] | None = None,
    ) -> list[proto.Data]:
        """The next ``count`` data lines (of ``channel``, matching ``predicate``).

        Raises:
            TimeoutError: fewer arrived within ``timeout`` seconds.
        """
        found: list[proto.Data] = []
        deadline = time.monotonic() + timeout
        while len(found) < count:
            record = self.wait_for(
                lambda r: (
                    isinstance(r, proto.Data)
                    and (channel is None or r.channel == channel)
                    and (predicate is None or predicate(r))
                ),
                max(0.0, deadline - time.monotonic()),
            )
            assert isinstance(record, proto.Data)
            found.append(record)
        return found

    def usable(self, channel: int, count: int = 1, timeout: float = 15.0) -> list[proto.Data]:
        """The next ``count`` readings of ``channel`` fit for weighing (``Data.usable``)."""
        return self.data(channel, count, timeout, predicate=lambda r: r.usable)

    def reading(self, channel: int, raw: int, timeout: float = 15.0) -> proto.Data:
        """Wait for a data line of ``channel`` whose raw count is ``raw``."""
        return self.data(channel, 1, timeout, predicate=lambda r: r.raw == raw)[0]

    def drain(self) -> None:
        """Forget everything received so far."""
        self.serial.reset_input_buffer()
        self.pending.clear()
        self.buffer = proto.LineBuffer()
        self._mid_line = True


class FirmwareBench:
    """The product's ``serial://`` driver on the real firmware in simavr, with hands.

    A rig of its own (``link`` symlink in ``tmp``, so the driver finds the board again
    after ``unplug``/``replug``), both emulated cells 84,213 counts empty and 2,150 counts
    per gram with the HX711's datasheet noise for the rate, and the calibration written to
    the balance through the protocol (kept in its EEPROM) before the balance is opened
    again as ``scale``: weights use the calibration the balance itself keeps.

    Args:
        tmp: a folder for the pty link.
        rate: samples per second, 10 or 80.
        strapped: the amplifiers' RATE inputs are wired to ``rate`` on their boards and
            the firmware is not told (it keeps its default, 80 SPS); otherwise the driver
            asks for ``rate`` (``serial://...?rate=``) and the RATE pin sets it.
        seed: seed of the emulated noise.
        noise: the cells' noise as a multiple of the HX711 datasheet figure at ``rate``.
        missing: channels whose amplifier board is not fitted (the firmware is built for
            two; a maker starting with one cell leaves channel 1 empty).

    Raises:
        RigError: the rig could not be built or started.
        ScaleError: the driver could not open the balance.
    """

    name = "firmware"
    #: How far a weight may be from the load placed (grams).
    tolerance_g = 0.06
    ZERO, CPG = 84_213, 2150.0

    def __init__(
        self,
        tmp: Path,
        *,
        rate: int = 80,
        strapped: bool = False,
        seed: int = 1,
        noise: float = 1.0,
        missing: tuple[int, ...] = (),
    ) -> None:
        if rate not in proto.RATES:
            raise ValueError(f"rate must be one of {proto.RATES}, not {rate!r}")
        self.rate = rate
        self.rig = FirmwareRig(link=Path(tmp) / "balance-tty", seed=seed).start()
        self._timers: list[threading.Timer] = []
        self._loads = [0.0] * len(self.rig.channels)
        try:
            for ch in self.rig.channels:
                self.rig.set_cell(ch, self.ZERO, self.CPG)
                self.rig.set_noise(ch, noise * DATASHEET_NOISE_COUNTS[rate])
                self.rig.set_grams(ch, 0.0)
            for ch in missing:
                self.rig.no_chip(ch)
            url = f"serial://{self.rig.link}?handshake=10"
            self.url = url
            if strapped:
                self.rig.set_rate(rate)
            else:
                url += f"&rate={rate}"
                self.url = url
            with open_scale(url) as first:
                for ch in range(first.channels):
                    first.write_calibration(
                        Calibration(self.CPG, float(self.ZERO), 0.02, device_id=first.device_id, channel=ch)
                    )
            self.scale: Any = open_scale(url)
        except BaseException:
            self.rig.stop()
            raise

    def now(self) -> float:
        """The clock the driver stamps readings with (s)."""
        return time.monotonic()

    def place(self, grams: float, channel: int = 0) -> None:
        """Add ``grams`` to the pan (in one step: the rig's pan does not ring)."""
        self._loads[channel] += grams
        self.rig.set_grams(channel, self._loads[channel])

    def clear(self, channel: int = 0) -> None:
        """Empty the pan."""
        self._loads[channel] = 0.0
        self.rig.set_grams(channel, 0.0)

    def unplug(self) -> None:
        """Pull the USB cable."""
        self.rig.unplug_usb()

    def replug(self) -> None:
        """Plug the USB cable back in (the board powers up again)."""
        self.rig.replug_usb()

    def chip_missing(self, on: bool, channel: int = 0) -> None:
        """Disconnect (True) or reconnect (False) the channel's amplifier board."""
        if on:
            self.rig.unplug(channel)
        else:
            self.rig.replug(channel)

    def saturate(self, on: bool, channel: int = 0) -> None:
        """Drive the channel's input beyond full scale (True) or back (False)."""
        self.rig.saturate(channel, "high" if on else None)

    def later(self, delay_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` on a timer thread ``delay_s`` seconds from now (wall clock)."""
        timer = threading.Timer(delay_s, action)
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    def close(self) -> None:
        """Cancel pending actions, close the balance and stop the rig."""
        for timer in self._timers:
            timer.cancel()
        try:
            self.scale.close()
        finally:
            self.rig.stop()
