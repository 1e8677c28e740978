"""``serial://PORT``: the Purser balance firmware over USB serial (protocol version 2).

``serial:///dev/ttyUSB0``, ``serial://COM3`` or any pyserial URL (``serial://loop://``
is not useful: nothing answers). Settings: ``baud`` (115200), ``handshake`` seconds to
wait for the balance to answer (3; an Arduino resets when the port opens), ``rate``
10 or 80 to set the sampling rate, ``capacity`` and ``interval`` (grams) for a balance
calibrated only in its firmware, ``ports`` (a comma list) where to look for the balance
when its port is gone (default: every serial port of the system).

On opening: PING with a token until it is echoed (the protocol version is checked on
every line), INFO, the calibration and wiring of each channel, streaming on. A reader
thread then decodes lines: checksummed data lines become samples, timed by the board's
own clock (:mod:`companion.scale.boardclock`), so a busy host reading lines late and in
bursts cannot make a moving load look steady. The grams the balance prints on each line
must equal the raw counts through the calibration the balance keeps (the host derives
them again exactly): a line where they differ is refused like a garbled one. A sequence
gap, a reset (a hello line) or a reconnect starts a new segment, so no weight mixes
readings from both sides of a gap. A pulled cable is retried every quarter second for as
long as it takes; meanwhile the status says "waiting for the balance on PORT". When
the port itself has gone (a USB adapter plugged back in is often given the next name,
``/dev/ttyUSB1`` for ``/dev/ttyUSB0``), the other ports are asked too, and the balance is
taken up on the one where the same balance (its device id) answers.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import serial

from companion.scale import protocol as proto
from companion.scale.boardclock import BoardClock
from companion.scale.errors import ScaleError, ScaleNotFound, ScaleProtocolError, ScaleTimeout, ScaleUsageError
from companion.scale.profile import Calibration, load_calibration, nominal
from companion.scale.registry import ScaleURL
from companion.scale.serial_port import SerialPortScale, open_port, port_present, port_problem, release_port

__all__ = ["SerialScale", "firmware_factor", "open_serial", "pin_name", "port_problem"]

log = logging.getLogger(__name__)

RECONNECT_EVERY_S = 0.25
#: Without a line for this long the balance counts as disconnected.
SILENT_S = 2.0
#: Lines in a row on one channel whose grams disagree with the host's copy of the
#: balance's calibration before that copy is read again (it may have changed).
MISMATCHES_BEFORE_REREAD = 3
#: Lines lost in a row (and board milliseconds between the readings either side) that a
#: weighing may span; a longer gap starts afresh.
MAX_LOST_LINES = 8
MAX_LOST_MS = 100


def pin_name(pin: int) -> str:
    """An Arduino pin number as printed on the board: 2 -> ``D2``, 14 -> ``A0``."""
    return f"A{pin - 14}" if pin >= 14 else f"D{pin}"


def _command_name(command: bytes) -> str:
    """The name in a command line (``$CAL,0*CC`` -> ``CAL``), as the balance's replies give it."""
    return command[1:].split(b",")[0].split(b"*")[0].decode("ascii", "replace")


def _answers(record: proto.Record, name: str, accept: Callable[[proto.Record], bool]) -> bool:
    """Whether ``record`` is the reply to command ``name`` that ``accept`` takes.

    Raises:
        ScaleError: it is the balance refusing the command.
    """
    if isinstance(record, proto.ErrorReply) and record.command == name:
        raise ScaleError(f"the balance refused {name}: {record.text}")
    return accept(record)


class _Link:
    """An open port and its line splitter, with synchronous request/reply for the handshake."""

    def __init__(self, port: serial.SerialBase) -> None:
        self.port = port
        self.lines = proto.LineBuffer()
        self.pending: list[bytes] = []

    def read_record(self, deadline: float) -> proto.Record | None:
        """The next decodable record before ``deadline`` (None at the deadline).

        Raises:
            ScaleProtocolError: a line from a different protocol version.
            serial.SerialException, OSError: the port failed.
        """
        while time.monotonic() < deadline:
            if not self.pending:
                chunk = self.port.read(max(1, self.port.in_waiting or 0))
                self.pending.extend(self.lines.feed(chunk))
                continue
            line = self.pending.pop(0)
            try:
                return proto.decode_line(line)
            except proto.LineError as exc:
                if exc.reason == "version":
                    raise
                log.debug("ignored a line during the handshake: %s", exc)
        return None

    def request(
        self, command: bytes, accept: Callable[[proto.Record], bool], timeout: float, retry_s: float = 0.0
    ) -> proto.Record:
        """Send ``command`` and wait for a reply ``accept`` takes (resending every ``retry_s``).

        Raises:
            ScaleTimeout: no such reply in time.
            ScaleError: the balance refused the command.
        """
        deadline = time.monotonic() + timeout
        name = _command_name(command)
        while True:
            self.port.write(command)
            self.port.flush()
            resend = time.monotonic() + retry_s if retry_s else deadline
            while time.monotonic() < min(resend, deadline):
                record = self.read_record(min(resend, deadline))
                if record is None:
                    break
                if _answers(record, name, accept):
                    return record
            if time.monotonic() >= deadline:
                raise ScaleTimeout(f"the balance did not answer {name}")


def _calibration_reply(channel: int) -> Callable[[proto.Record], bool]:
    """Whether a record is the ``CAL`` reply for ``channel``."""
    return lambda r: isinstance(r, proto.Calibration) and r.command == "CAL" and r.channel == channel


def _wiring_reply(channel: int) -> Callable[[proto.Record], bool]:
    """Whether a record is the ``WIRING`` reply for ``channel``."""
    return lambda r: isinstance(r, proto.Wiring) and r.channel == channel


#: What the handshake gives: the link, the balance's INFO, each channel's calibration and wiring.
_Opened = tuple[_Link, proto.Info, list[proto.Calibration], list[proto.Wiring]]


def _handshake(port: serial.SerialBase, timeout: float, rate: int | None) -> _Opened:
    """Open the conversation: ping, info, calibrations, wiring, rate, streaming on.

    Raises:
        ScaleNotFound: nothing answered like a Purser balance.
        ScaleProtocolError: it answered with another protocol version.
    """
    link = _Link(port)
    with contextlib.suppress(serial.SerialException, OSError):
        port.reset_input_buffer()
    token = "p" + secrets.token_hex(4)
    try:
        link.request(proto.ping_command(token), lambda r: isinstance(r, proto.Pong) and r.token == token, timeout, 0.5)
        info = link.request(proto.info_command(), lambda r: isinstance(r, proto.Info), 2.0)
        assert isinstance(info, proto.Info)
        cals = []
        wiring = []
        for ch in range(info.channels):
            cal = link.request(proto.calibration_command(ch), _calibration_reply(ch), 2.0)
            assert isinstance(cal, proto.Calibration)
            cals.append(cal)
            pins = link.request(proto.wiring_command(ch), _wiring_reply(ch), 2.0)
            assert isinstance(pins, proto.Wiring)
            wiring.append(pins)
        if rate is not None and rate != info.rate:
            link.request(proto.rate_command(rate), lambda r: isinstance(r, proto.Rate) and r.rate == rate, 2.0)
            info = proto.Info(**{**info.__dict__, "rate": rate})
        link.request(proto.stream_command(True), lambda r: isinstance(r, proto.Streaming) and r.on, 2.0)
    except ScaleTimeout as exc:
        raise ScaleNotFound(f"no Purser balance answered on {port.name or port.port}") from exc
    except proto.LineError as exc:
        raise ScaleProtocolError(str(exc)) from exc
    return link, info, cals, wiring


def _calibration(
    device_id: str, channel: int, fw: proto.Calibration | None, capacity: float, interval: float
) -> Calibration:
    """The host's calibration for a channel: a saved profile, else the firmware's, else nominal."""
    saved = load_calibration(device_id, channel)
    if saved is not None:
        return saved
    if fw is not None and fw.factor is not None:
        return Calibration(
            counts_per_gram=float(fw.factor),
            zero_counts=float(fw.offset),
            sigma_g=0.5 * interval,
            interval_g=interval,
            capacity_g=capacity,
            id=fw.cal_id or "",
            device_id=device_id,
            channel=channel,
            source="firmware",
        )
    return nominal(channel, device_id, capacity)


def firmware_factor(counts_per_gram: float) -> Decimal:
    """``counts_per_gram`` rounded to what the firmware stores (9 significant digits, 6 decimals)."""
    value = Decimal(repr(counts_per_gram))
    whole = len(str(abs(int(value)))) if abs(value) >= 1 else 0
    decimals = max(0, min(proto.FACTOR_MAX_DECIMALS, proto.FACTOR_MAX_DIGITS - whole))
    return Decimal(proto.format_factor(value.quantize(Decimal(1).scaleb(-decimals))))


class SerialScale(SerialPortScale[_Opened]):
    """Our balance firmware on a serial port (see the module docstring)."""

    backend = "serial"
    write_timeout_s = 1.0
    reconnect_s = RECONNECT_EVERY_S
    silent_s = SILENT_S

    def __init__(
        self,
        url: str,
        port: str,
        *,
        baud: int = proto.BAUD_RATE,
        handshake_s: float = 3.0,
        rate: int | None = None,
        capacity_g: float = 1000.0,
        interval_g: float = 0.1,
        search_ports: list[str] | None = None,
    ) -> None:
        self._start_port(port, baud, "the balance")
        self._search_ports = search_ports
        #: Ports found not to be this balance while it was away (not asked again until it is back).
        self._not_here: set[str] = set()
        self.handshake_s = handshake_s
        self._rate_wanted = rate
        self._capacity = capacity_g
        self._interval = interval_g
        self._replies: queue.Queue[proto.Record] = queue.Queue()
        self._cmd_lock = threading.Lock()
        self._expected_seq: int | None = None
        self._last_ms: int | None = None
        self._clock = BoardClock()
        self._mismatch_run = [0, 0]
        self._rereading = threading.Lock()
        self.garbled = 0
        self.mismatched = 0
        self.gaps = 0
        self.reconnects = 0
        link, info, fw_cals, wiring = self._open_link()
        self.info_record = info
        self.firmware_calibrations = fw_cals
        self.pins = wiring
        cals = [_calibration(info.device_id, ch, fw_cals[ch], capacity_g, interval_g) for ch in range(info.channels)]
        super().__init__(url, cals, rate_sps=info.rate, device_id=info.device_id, persist_zero=True)
        self._link = link
        self._start_reader(f"scale-{port}")

    # -- connecting ------------------------------------------------------------------------

    def _open_link(self, name: str | None = None) -> _Opened:
        """Open the port ``name`` (default: this balance's) and start talking.

        Raises:
            ScaleNotFound: the port is missing, or nothing answers on it like a balance.
            ScaleProtocolError: a balance of another protocol version answers.
        """
        name = self.port_name if name is None else name
        port = open_port(name, self.baud, self.write_timeout_s)
        try:
            return _handshake(port, self.handshake_s, self._rate_wanted)
        except (serial.SerialException, OSError) as exc:
            port.close()
            raise ScaleNotFound(f"the balance on {name} stopped answering: {exc}") from exc
        except BaseException:
            port.close()
            raise

    def _reopen(self) -> _Opened:
        try:
            return self._open_link()
        except ScaleError:
            if port_present(self.port_name):
                raise
            found = self._find_elsewhere()
            if found is None:
                raise
            return found

    def _find_elsewhere(self) -> _Opened | None:
        """This balance on another port, opened, or None. A port where something else
        answers, or nothing, is not asked again until the balance is back (opening a port
        resets an Arduino)."""
        if self._search_ports is not None:
            ports = self._search_ports
        else:
            from companion.scale.auto import candidate_ports  # auto builds on this module

            ports = candidate_ports()
        for port in ports:
            if port == self.port_name or port in self._not_here:
                continue
            try:
                opened = self._open_link(port)
            except ScaleError as exc:
                if not isinstance(exc, ScaleNotFound) or port_present(port):
                    self._not_here.add(port)  # a port that is not there yet may still appear
                log.debug("looking for balance %s: not on %s (%s)", self.device_id, port, exc)
                continue
            if opened[1].device_id != self.device_id:
                self._not_here.add(port)
                release_port(opened[0].port)
                log.info("balance %s is on %s, not balance %s", opened[1].device_id, port, self.device_id)
                continue
            log.warning("balance %s came back on %s (it was on %s)", self.device_id, port, self.port_name)
            self.port_name = port
            self._not_here.clear()
            return opened
        return None

    def _resume(self, opened: _Opened) -> None:
        """Back on the balance after a pulled cable (a different one plugged in keeps its own calibration)."""
        link, info, fw_cals, wiring = opened
        self.firmware_calibrations = fw_cals
        self.pins = wiring
        self._clock.reset()
        if info.device_id != self.device_id:
            log.warning("a different balance (%s) was plugged in instead of %s", info.device_id, self.device_id)
            self.device_id = info.device_id
            for ch in range(min(self.channels, info.channels)):
                self.set_calibration(_calibration(info.device_id, ch, fw_cals[ch], self._capacity, self._interval), ch)
        self._link = link
        self._segment += 1
        self._expected_seq = None
        self._last_ms = None
        self._last_line = time.monotonic()
        self.reconnects += 1
        log.info("balance on %s is back", self.port_name)

    def _live_port(self) -> serial.SerialBase:
        return self._link.port

    def _received(self, chunk: bytes) -> None:
        arrived = time.monotonic()
        records: list[proto.Record] = []
        for line in self._link.lines.feed(chunk):
            self._last_line = arrived
            try:
                records.append(proto.decode_line(line))
            except proto.LineError as exc:
                self.garbled += 1  # a reading lost with it shows as a gap in the sequence
                log.debug("ignored a damaged line from the balance: %s", exc)
        # The freshest reading of a burst sets the clock first, so the ones before it keep
        # the board's spacing (lines read late must not bunch up in time).
        freshest = next((r for r in reversed(records) if isinstance(r, (proto.Data, proto.Hello))), None)
        if isinstance(freshest, proto.Data):
            self._clock.expect(freshest.ms, arrived)
        for record in records:
            self._handle(record, arrived)

    def _handle(self, record: proto.Record, arrived: float) -> None:
        if isinstance(record, proto.Data):
            self._data(record, arrived)
        elif isinstance(record, proto.Hello):
            log.warning("the balance restarted (%s)", record.reset)
            self._segment += 1
            self._expected_seq = None
            self._last_ms = None
            self._clock.reset()
            threading.Thread(target=self._restart_stream, daemon=True).start()
        else:
            if isinstance(record, proto.Calibration) and record.channel < len(self.firmware_calibrations):
                self.firmware_calibrations[record.channel] = record  # what the balance keeps now
            self._replies.put(record)

    def _restart_stream(self) -> None:
        """After the balance reset itself: its calibrations read again, streaming back on."""
        try:
            for ch in range(self.channels):
                self._reread_calibration(ch)
            self.command(proto.stream_command(True), lambda r: isinstance(r, proto.Streaming) and r.on)
        except ScaleError as exc:
            log.warning("could not restart streaming after a reset: %s", exc)

    def _reread_calibration(self, channel: int) -> None:
        """Ask the balance for the calibration it keeps on ``channel`` (the reply updates
        the host's copy, see :meth:`_handle`)."""
        self.command(proto.calibration_command(channel), _calibration_reply(channel))

    def _reread_in_background(self, channel: int) -> None:
        if not self._rereading.acquire(blocking=False):
            return

        def job() -> None:
            try:
                self._reread_calibration(channel)
            except ScaleError as exc:
                log.info("could not read the balance's calibration again: %s", exc)
            finally:
                self._rereading.release()

        threading.Thread(target=job, daemon=True).start()

    def _grams_agree(self, d: proto.Data) -> bool:
        """True when the line's grams are exactly its raw counts through the calibration the
        balance keeps (or it gives none where it keeps none)."""
        fw = self.firmware_calibrations[d.channel] if d.channel < len(self.firmware_calibrations) else None
        return proto.grams_agree(d, None if fw is None else fw.offset, None if fw is None else fw.factor)

    def _data(self, d: proto.Data, arrived: float) -> None:
        if self._expected_seq is not None and d.seq != self._expected_seq:
            missing = (d.seq - self._expected_seq) % proto.SEQ_MODULO
            self.gaps += 1
            quiet_ms = (d.ms - self._last_ms) % proto.MS_MODULO if self._last_ms is not None else None
            # A line or two lost to noise on an otherwise running link hides nothing (the
            # readings either side are a few milliseconds apart); a longer gap may hide a
            # change of load, so the readings after it start afresh.
            if missing > MAX_LOST_LINES or quiet_ms is None or quiet_ms > MAX_LOST_MS:
                self._segment += 1
                log.info("%d reading(s) from the balance went missing: starting afresh", missing)
        self._expected_seq = (d.seq + 1) % proto.SEQ_MODULO
        self._last_ms = d.ms
        t, restarted = self._clock.to_host(d.ms, arrived)
        if restarted:
            self._segment += 1
        if d.channel >= self.channels:
            return
        if not self._grams_agree(d):
            # Checksum right, numbers wrong: a line that cannot be trusted (or a calibration
            # changed behind the host's back, which is then read again).
            self.mismatched += 1
            self._segment += 1
            self._mismatch_run[d.channel] += 1
            log.info("a line's grams disagree with its raw counts on pan %d: refused", d.channel)
            if self._mismatch_run[d.channel] >= MISMATCHES_BEFORE_REREAD:
                self._mismatch_run[d.channel] = 0
                self._reread_in_background(d.channel)
            return
        self._mismatch_run[d.channel] = 0
        if d.flags & (proto.Flag.SETTLING | proto.Flag.TARING):
            # Not settled (after a reset, a rate change, a gap): never part of a weight.
            self._segment += 1
            return
        if d.raw is None or d.flags & proto.NO_READING:
            kind = (
                "powered_down"
                if d.flags & proto.Flag.POWERED_DOWN
                else "dout_low"
                if d.flags & proto.Flag.DOUT_LOW
                else "no_amplifier"
            )
            sample = self._make_sample(t, d.channel, None, fault=True, segment=self._segment, fault_kind=kind)
        else:
            saturated = bool(d.flags & proto.Flag.SATURATED)
            sample = self._make_sample(t, d.channel, d.raw, saturated=saturated, segment=self._segment)
        self._put(sample)

    # -- the stream --------------------------------------------------------------------------

    def _message(self) -> str:
        if not self._online:
            return f"waiting for the balance on {self.port_name}: plug it back in"
        if time.monotonic() - self._last_line >= SILENT_S:
            return f"the balance on {self.port_name} is silent: check its cable"
        return ""

    def _waiting_message(self) -> str:
        if not self._online or self._closed:
            return f"waiting for the balance on {self.port_name}"
        return f"the balance on {self.port_name} is silent: waiting for it (check its cable)"

    def wiring(self, channel: int) -> dict[str, str]:
        """The pins pan ``channel``'s amplifier is wired to, as the balance reports them."""
        for pins in self.pins:
            if pins.channel == channel:
                named = {"dout": pin_name(pins.dout), "sck": pin_name(pins.sck)}
                if pins.rate_pin is not None:
                    named["rate"] = pin_name(pins.rate_pin)
                return named
        return {}

    # -- commands ----------------------------------------------------------------------------

    def command(self, line: bytes, accept: Callable[[proto.Record], bool], timeout: float = 2.0) -> proto.Record:
        """Send a command (from :mod:`~companion.scale.protocol`) and return the reply ``accept`` takes.

        Raises:
            ScaleTimeout: no reply in time. ScaleError: refused, or the balance is unplugged.
        """
        name = _command_name(line)
        with self._cmd_lock:
            if self._closed or self._stop.is_set():
                raise ScaleError("the balance's link is closed; open the balance again")
            if not self._online:
                raise ScaleError("the balance is unplugged")
            while not self._replies.empty():
                self._replies.get_nowait()
            try:
                self._link.port.write(line)
                self._link.port.flush()
            except (serial.SerialException, OSError) as exc:
                raise ScaleError(f"cannot talk to the balance: {exc}") from exc
            except (TypeError, ValueError) as exc:
                # pyserial's write on a port closed by another thread meanwhile
                if self._closed or self._stop.is_set():
                    raise ScaleError("the balance's link is closed; open the balance again") from exc
                raise
            deadline = time.monotonic() + timeout
            while True:
                wait = deadline - time.monotonic()
                if wait <= 0:
                    raise ScaleTimeout(f"the balance did not answer {name}")
                try:
                    record = self._replies.get(timeout=wait)
                except queue.Empty:
                    continue
                if _answers(record, name, accept):
                    return record

    def write_calibration(self, calibration: Calibration) -> bool:
        """Store ``calibration`` in the balance's EEPROM (rounded as the firmware keeps it)."""
        ch = calibration.channel
        offset = round(calibration.zero_counts)
        factor = firmware_factor(calibration.counts_per_gram)
        reply = self.command(
            proto.calibration_command(ch, offset, factor, calibration.id[: proto.CAL_ID_MAX]), _calibration_reply(ch)
        )
        assert isinstance(reply, proto.Calibration)
        ok = reply.offset == offset and reply.factor == factor
        if not ok:
            raise ScaleError("the balance did not keep the calibration it was sent")
        return True

    def info(self) -> dict[str, Any]:
        """The base info plus firmware version, port, and link counters."""
        data = super().info()
        data.update(
            port=self.port_name,
            firmware=self.info_record.firmware,
            protocol=self.info_record.protocol,
            settings=self.info_record.settings,
            garbled_lines=self.garbled,
            mismatched_lines=self.mismatched,
            sequence_gaps=self.gaps,
            reconnects=self.reconnects,
        )
        return data

    def close(self) -> None:
        """Stop streaming and release the port."""
        if self._closed:
            return
        self._stop.set()
        try:
            if self._online:
                self._link.port.write(proto.stream_command(False))
        except (serial.SerialException, OSError):
            pass
        super().close()


def open_serial(url: ScaleURL) -> SerialScale:
    """Build a :class:`SerialScale` from a ``serial://PORT`` URL (see the module docstring).

    Raises:
        ScaleNotFound: the port is missing or nothing answers on it.
        ScaleProtocolError: the balance speaks another protocol version.
    """
    baud = url.integer("baud", proto.BAUD_RATE, lo=300, hi=4_000_000)
    handshake = url.number("handshake", 3.0, 0.1, 60.0)
    rate_text = url.text("rate", "")
    rate = None if not rate_text else url.integer("rate", 80, choices=proto.RATES)
    capacity = url.number("capacity", 1000.0, 1.0, 1e6)
    interval = url.number("interval", max(0.1, capacity / 10000.0), 1e-4, capacity)
    ports_text = url.text("ports", "")
    url.check_all_used()
    if not url.port:
        raise ScaleUsageError("serial:// needs a port, e.g. serial:///dev/ttyUSB0 or serial://COM3")
    return SerialScale(
        url.url,
        url.port,
        baud=baud,
        handshake_s=handshake,
        rate=rate,
        capacity_g=capacity,
        interval_g=interval,
        search_ports=[p for p in ports_text.split(",") if p] if ports_text else None,
    )
