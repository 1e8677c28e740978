"""The booty balance's serial line protocol, version 2: command encoder and line decoder.

The balance firmware (``firmware/purser_balance``) speaks ASCII lines at 115200 baud,
8N1. Everything it sends looks like ``$BODY*CCCC`` followed by CR LF, where BODY is
comma-separated fields and CCCC is the CRC-16 of BODY as four upper-case hex digits
(polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR:
CRC-16/CCITT-FALSE). It catches every error of up to three bits in a line, where
version 1's CRC-8 let some two-bit errors through. ``hardware.md`` has the full
description with a serial-monitor transcript; ``firmware/protocol-vectors.txt`` holds
the test vectors the firmware and this module are both checked against.

Lines the balance sends decode into the frozen records below (``Hello``, ``Data``, one
record per kind of ``$OK`` reply, ``ErrorReply``). Anything that is not exactly a
version-2 line (bad checksum, missing field, a number out of range, flags that
contradict the values) raises ``LineError``, a ``ScaleProtocolError``: a damaged line
never turns into a weight. A version-1 hello or INFO (two hex digits of CRC-8) is
recognised only to say which firmware to flash.

Commands are built by the ``*_command`` functions, which validate their arguments
and return the bytes to write, checksum and newline included.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from companion.scale.errors import ScaleProtocolError

PROTOCOL_VERSION = 2
BAUD_RATE = 115_200

RAW_MIN = -8_388_608  #: smallest 24-bit two's complement reading
RAW_MAX = 8_388_607  #: largest 24-bit two's complement reading
SEQ_MODULO = 65_536  #: data-line sequence numbers count 0..65535, then wrap to 0
MS_MODULO = 2**32  #: the firmware's millisecond clock wraps after about 49.7 days

MAX_LINE = 96  #: longest line the balance sends, without CR LF
MAX_COMMAND = 64  #: longest command the balance accepts, without the line ending

CHANNELS = (0, 1)
RATES = (10, 80)  #: samples per second
GAINS = (128, 64, 32)  #: 128 and 64 read input A, 32 reads input B
TARE_SAMPLES_DEFAULT = 8
TARE_SAMPLES_MAX = 64
FACTOR_MAX_DIGITS = 9  #: significant digits a calibration factor may have
FACTOR_MAX_DECIMALS = 6  #: digits after the decimal point a calibration factor may have
ID_MAX = 16  #: longest device id
CAL_ID_MAX = 12  #: longest calibration id
TOKEN_MAX = 16  #: longest ping token
NONE = "-"  #: the marker for "no value" in a field
PINS = range(2, 20)  #: Arduino pins a balance may wire (D2-D13, A0-A5 as 14-19)

_NAME_RE = re.compile(r"[A-Za-z0-9._-]+")
_INT_RE = re.compile(r"-?[0-9]+")
_UINT_RE = re.compile(r"[0-9]+")
_GRAMS_RE = re.compile(r"-?[0-9]+\.[0-9]{3}")
_FACTOR_RE = re.compile(r"-?[0-9]+(\.[0-9]+)?")
_VERSION_RE = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")
_HEX4_RE = re.compile(r"[0-9A-F]{4}")


class Flag(enum.IntFlag):
    """Condition bits of a data line (the last field, four hex digits)."""

    NO_CHIP = 0x0001  #: the HX711 gave no conversion in time (missing, unplugged); no reading
    SATURATED = 0x0002  #: the reading is at the end of the 24-bit range: no weight
    POWERED_DOWN = 0x0004  #: the chips are powered down on request; no reading
    UNCALIBRATED = 0x0008  #: the channel has no calibration factor; no grams
    DEFAULTS = 0x0010  #: settings fell back to defaults (blank or corrupt EEPROM), not yet saved
    SETTLING = 0x0020  #: just after power-up, reset, a gain/rate change or a gap: not yet settled
    TARING = 0x0040  #: a tare is collecting readings on this channel
    DOUT_LOW = 0x0080  #: with NO_CHIP: DOUT is held low (shorted, or a stuck chip), not floating high


_KNOWN_FLAGS = 0x00FF

#: Flags under which a data line carries no raw reading at all.
NO_READING = Flag.NO_CHIP | Flag.POWERED_DOWN


class ErrorCode(enum.IntEnum):
    """Codes of ``$ERR`` replies."""

    UNKNOWN = 1  #: unknown command
    SYNTAX = 2  #: wrong number or form of arguments, or characters that do not belong
    RANGE = 3  #: an argument outside its allowed range
    CHECKSUM = 4  #: the command's checksum does not match
    TOO_LONG = 5  #: the line was longer than 64 characters and was discarded
    BUSY = 6  #: a tare is already running on that channel
    NO_CHIP = 7  #: the channel's HX711 does not answer (missing, unplugged, powered down)
    SATURATED = 8  #: the reading is at the end of the range, so it cannot be a tare
    UNSUPPORTED = 9  #: not possible on this build (the RATE pin is not wired)
    EEPROM = 10  #: the settings could not be saved


class LineError(ScaleProtocolError):
    """A line that is not a valid version-2 line; ``reason`` says which rule it broke.

    Reasons: ``empty``, ``length``, ``framing``, ``charset``, ``checksum``, ``kind``,
    ``fields``, ``value``, ``consistency``, ``version``.
    """

    def __init__(self, reason: str, message: str, line: bytes = b"") -> None:
        super().__init__(message)
        self.reason = reason
        self.line = line


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Hello:
    """The first line after every reset of the balance.

    ``settings`` is ``ok`` (read from EEPROM), ``blank`` (never saved) or ``bad``
    (checksum wrong: defaults in use). ``reset`` is the cause of the reset: ``power``,
    ``external``, ``brownout``, ``watchdog``, ``command`` or ``unknown``.
    """

    protocol: int
    firmware: str
    device_id: str
    channels: int
    rate: int
    settings: str
    reset: str


@dataclass(frozen=True)
class Data:
    """One conversion (or one report of a missing one) on one channel.

    ``raw`` is the HX711's signed 24-bit count, ``None`` when there is no reading
    (``Flag.NO_CHIP`` or ``Flag.POWERED_DOWN``). ``grams`` is the balance's own
    conversion, ``(raw - offset) / factor`` rounded to the milligram, ``None`` when the
    channel is uncalibrated, saturated or has no reading. ``ms`` is the firmware's
    clock in milliseconds at the reading; ``seq`` counts data lines modulo 65536.
    """

    seq: int
    ms: int
    channel: int
    raw: int | None
    grams: float | None
    flags: Flag

    @property
    def usable(self) -> bool:
        """True when the raw reading may be used for a weight (present, settled, in range)."""
        return self.raw is not None and not self.flags & (Flag.SATURATED | Flag.SETTLING | NO_READING)


@dataclass(frozen=True)
class Pong:
    """``$OK,PING[,token]``: the balance is alive; echoes the token if one was sent."""

    token: str | None


@dataclass(frozen=True)
class Info:
    """``$OK,INFO,...``: the hello's fields plus whether it streams and is powered."""

    protocol: int
    firmware: str
    device_id: str
    channels: int
    rate: int
    settings: str
    streaming: bool
    powered: bool


@dataclass(frozen=True)
class DeviceId:
    """``$OK,ID,<id>``: the device id (stored in EEPROM)."""

    device_id: str


@dataclass(frozen=True)
class ChannelCount:
    """``$OK,CHANNELS,<n>``: how many channels (pans) are read."""

    channels: int


@dataclass(frozen=True)
class Streaming:
    """``$OK,STREAM,<0|1>``: whether data lines are sent."""

    on: bool


@dataclass(frozen=True)
class Rate:
    """``$OK,RATE,<10|80>``: samples per second."""

    rate: int


@dataclass(frozen=True)
class Gain:
    """``$OK,GAIN,<ch>,<gain>``: the channel's gain (128, 64: input A; 32: input B)."""

    channel: int
    gain: int


@dataclass(frozen=True)
class Power:
    """``$OK,POWER,<0|1>``: whether the HX711s are powered up."""

    on: bool


@dataclass(frozen=True)
class Calibration:
    """``$OK,CAL,...`` or ``$OK,TARE,...``: a channel's tare offset and calibration.

    ``offset`` is in raw counts; ``factor`` counts per gram (negative for a reversed
    cell), ``None`` when uncalibrated; ``cal_id`` the host-chosen name of the
    calibration, ``None`` when unset. ``command`` is ``CAL`` or ``TARE``.
    """

    command: str
    channel: int
    offset: int
    factor: Decimal | None
    cal_id: str | None


@dataclass(frozen=True)
class Ack:
    """``$OK,DEFAULTS`` or ``$OK,RESET``: a command with no values in its reply."""

    command: str


@dataclass(frozen=True)
class Wiring:
    """``$OK,WIRING,<ch>,<dout>,<sck>,<rate pin>``: the Arduino pins of a channel's amplifier.

    ``rate_pin`` is ``None`` when the boards' RATE inputs are strapped (not wired).
    """

    channel: int
    dout: int
    sck: int
    rate_pin: int | None


@dataclass(frozen=True)
class ErrorReply:
    """``$ERR,<code>,<command>,<text>``: a command was refused and changed nothing.

    ``command`` is the refused command's name, or ``None`` when the line was too
    garbled to tell (``?`` on the wire).
    """

    code: int
    command: str | None
    text: str


Record = (
    Hello
    | Data
    | Pong
    | Info
    | DeviceId
    | ChannelCount
    | Streaming
    | Rate
    | Gain
    | Power
    | Calibration
    | Ack
    | Wiring
    | ErrorReply
)


# --------------------------------------------------------------------------- checksums


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) of ``data``."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS (poly 0x07, init 0, no reflection) of ``data``: version 1's checksum, used
    only to recognise a version-1 balance."""
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


# --------------------------------------------------------------------------- grams


def parse_factor(text: str) -> Decimal:
    """A calibration factor from its text (counts per gram) in canonical form.

    Raises:
        ScaleProtocolError: not a plain decimal, zero, more than 9 significant digits
            or more than 6 decimals.
    """
    if not _FACTOR_RE.fullmatch(text):
        raise ScaleProtocolError(f"calibration factor {text!r} is not a plain decimal number")
    return _check_factor(Decimal(text))


def _check_factor(value: Decimal) -> Decimal:
    if not value.is_finite() or value == 0:
        raise ScaleProtocolError("the calibration factor must be a non-zero number of counts per gram")
    _, digits, exponent = value.normalize().as_tuple()
    assert isinstance(exponent, int)
    decimals = max(0, -exponent)
    # Significant digits of the number as the firmware stores it (mantissa * 10^-decimals).
    mantissa_digits = len(digits) + max(0, exponent)
    if decimals > FACTOR_MAX_DECIMALS:
        raise ScaleProtocolError(f"calibration factor {value} has more than {FACTOR_MAX_DECIMALS} decimals")
    if mantissa_digits > FACTOR_MAX_DIGITS:
        raise ScaleProtocolError(f"calibration factor {value} has more than {FACTOR_MAX_DIGITS} significant digits")
    return value.normalize() if exponent <= 0 else value.quantize(Decimal(1))


def format_factor(factor: Decimal | int | float | str) -> str:
    """The canonical text of a calibration factor, as the firmware prints it.

    Raises:
        ScaleProtocolError: the factor cannot be stored by the firmware (see ``parse_factor``).
    """
    if isinstance(factor, float):
        factor = repr(factor)
    try:
        value = Decimal(factor) if not isinstance(factor, Decimal) else factor
    except InvalidOperation as exc:
        raise ScaleProtocolError(f"calibration factor {factor!r} is not a number") from exc
    return format(_check_factor(value), "f")


def milligrams_from_raw(raw: int, offset: int, factor: Decimal | int | float | str) -> int:
    """``(raw - offset) / factor`` in milligrams, rounded half away from zero.

    Exactly the firmware's arithmetic, so a weight can be derived again from the raw
    counts and the calibration that produced it.
    """
    value = Decimal(format_factor(factor))
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    decimals = -exponent if exponent < 0 else 0
    mantissa = int(value.scaleb(decimals))
    numerator = (raw - offset) * 10 ** (decimals + 3)
    quotient, remainder = divmod(abs(numerator), abs(mantissa))
    if 2 * remainder >= abs(mantissa):
        quotient += 1
    negative = (numerator < 0) != (mantissa < 0)
    return int(-quotient if negative and quotient else quotient)


def grams_from_raw(raw: int, offset: int, factor: Decimal | int | float | str) -> float:
    """``(raw - offset) / factor`` in grams, to the milligram, exactly as the firmware prints it."""
    return milligrams_from_raw(raw, offset, factor) / 1000


def grams_agree(data: Data, offset: int | None, factor: Decimal | None) -> bool:
    """Whether ``data``'s grams are exactly its raw counts through the calibration the balance
    keeps (``offset`` counts, ``factor`` counts per gram; None: it keeps none).

    A line that passed its checksum but fails this was damaged in a way the checksum
    missed, or the host's copy of the calibration is stale: either way its numbers are not
    to be trusted.
    """
    if data.raw is None or data.flags & Flag.SATURATED:
        return data.grams is None
    if factor is None or offset is None:
        return data.grams is None and bool(data.flags & Flag.UNCALIBRATED)
    if data.grams is None or data.flags & Flag.UNCALIBRATED:
        return False
    return grams_from_raw(data.raw, offset, factor) == data.grams


# --------------------------------------------------------------------------- decoding


def decode_line(line: bytes | str) -> Record:
    """Decode one line from the balance (with or without its CR LF) into a record.

    Raises:
        LineError: the line is not a valid protocol-2 line; nothing in it may be trusted.
    """
    raw_line = line.encode("latin-1") if isinstance(line, str) else bytes(line)
    data = raw_line
    if data.endswith(b"\n"):
        data = data[:-1]
    if data.endswith(b"\r"):
        data = data[:-1]
    if not data:
        raise LineError("empty", "empty line from the balance", raw_line)
    if len(data) > MAX_LINE:
        raise LineError("length", f"line from the balance is {len(data)} bytes, longer than {MAX_LINE}", raw_line)
    if any(b < 0x20 or b > 0x7E for b in data):
        raise LineError("charset", "line from the balance holds bytes that are not printable ASCII", raw_line)
    if data[:1] != b"$" or len(data) < 6 or data[-5:-4] != b"*":
        _older_version(data, raw_line)
        raise LineError("framing", "line from the balance is not framed as $...*CCCC", raw_line)
    body = data[1:-5]
    if b"$" in body or b"*" in body:
        raise LineError("framing", "line from the balance holds a stray '$' or '*' (two lines run together?)", raw_line)
    check = data[-4:].decode("ascii")
    if not re.fullmatch(r"[0-9A-F]{4}", check):
        raise LineError("framing", f"checksum {check!r} is not four upper-case hex digits", raw_line)
    if int(check, 16) != crc16(body):
        raise LineError("checksum", "line from the balance failed its checksum (damaged in transit)", raw_line)
    fields = body.decode("ascii").split(",")
    kind = fields[0]
    try:
        decoder = _DECODERS.get(kind)
        if decoder is None:
            raise LineError("kind", f"unknown kind of line {kind!r} from the balance")
        return decoder(fields[1:])
    except LineError as exc:
        exc.line = raw_line
        raise


def _older_version(data: bytes, raw_line: bytes) -> None:
    """Refuse a version-1 hello or INFO (``*CC``, CRC-8) naming its protocol, so the maker is
    told to flash the firmware that matches; any other line returns without a verdict."""
    match = re.fullmatch(rb"\$((HELLO|OK,INFO),([0-9]{1,3}),[^$*]*)\*([0-9A-F]{2})", data)
    if match is None or int(match.group(4), 16) != crc8(match.group(1)):
        return
    _protocol(match.group(3).decode("ascii"))


def _expect(fields: list[str], count: int, what: str) -> None:
    if len(fields) != count:
        raise LineError("fields", f"{what} line has {len(fields)} fields, expected {count}")


def _int(text: str, what: str, low: int, high: int) -> int:
    if not _INT_RE.fullmatch(text):
        raise LineError("value", f"{what} {text!r} is not a whole number")
    if text.startswith("-0") or (len(text) > 1 and text.startswith("0")):
        raise LineError("value", f"{what} {text!r} has a leading zero")
    value = int(text)
    if not low <= value <= high:
        raise LineError("value", f"{what} {value} is outside {low}..{high}")
    return value


def _choice(text: str, what: str, allowed: Iterable[int]) -> int:
    allowed = tuple(allowed)
    value = _int(text, what, min(allowed), max(allowed))
    if value not in allowed:
        raise LineError("value", f"{what} {value} is not one of {', '.join(map(str, allowed))}")
    return value


def _bool(text: str, what: str) -> bool:
    if text not in ("0", "1"):
        raise LineError("value", f"{what} {text!r} is not 0 or 1")
    return text == "1"


def _name(text: str, what: str, longest: int) -> str:
    if not _NAME_RE.fullmatch(text) or len(text) > longest:
        raise LineError("value", f"{what} {text!r} is not 1-{longest} letters, digits, '.', '_' or '-'")
    return text


def _word(text: str, what: str, allowed: tuple[str, ...]) -> str:
    if text not in allowed:
        raise LineError("value", f"{what} {text!r} is not one of {', '.join(allowed)}")
    return text


_SETTINGS = ("ok", "blank", "bad")
_RESETS = ("power", "external", "brownout", "watchdog", "command", "unknown")


def _protocol(text: str) -> int:
    version = _int(text, "protocol version", 0, 999)
    if version < PROTOCOL_VERSION:
        raise LineError(
            "version",
            f"the balance's firmware speaks protocol {version} and this app protocol {PROTOCOL_VERSION}: "
            "flash the firmware that comes with this app (hardware.md, 'Building and flashing the firmware')",
        )
    if version > PROTOCOL_VERSION:
        raise LineError(
            "version",
            f"the balance speaks protocol {version}, newer than this app's protocol {PROTOCOL_VERSION}: update the app",
        )
    return version


def _decode_hello(fields: list[str]) -> Hello:
    if fields:
        _protocol(fields[0])  # a newer firmware may add fields: report the version first
    _expect(fields, 7, "hello")
    return Hello(
        protocol=PROTOCOL_VERSION,
        firmware=_version(fields[1]),
        device_id=_name(fields[2], "device id", ID_MAX),
        channels=_choice(fields[3], "channel count", (1, 2)),
        rate=_choice(fields[4], "rate", RATES),
        settings=_word(fields[5], "settings state", _SETTINGS),
        reset=_word(fields[6], "reset cause", _RESETS),
    )


def _decode_data(fields: list[str]) -> Data:
    _expect(fields, 6, "data")
    seq = _int(fields[0], "sequence number", 0, SEQ_MODULO - 1)
    ms = _int(fields[1], "timestamp", 0, MS_MODULO - 1)
    channel = _choice(fields[2], "channel", CHANNELS)
    if not _HEX4_RE.fullmatch(fields[5]):
        raise LineError("value", f"flags {fields[5]!r} are not four upper-case hex digits")
    bits = int(fields[5], 16)
    if bits & ~_KNOWN_FLAGS:
        raise LineError("value", f"flags {fields[5]} set bits that protocol {PROTOCOL_VERSION} does not define")
    flags = Flag(bits)
    raw = None if fields[3] == NONE else _int(fields[3], "raw reading", RAW_MIN, RAW_MAX)
    grams: float | None = None
    if fields[4] != NONE:
        if not _GRAMS_RE.fullmatch(fields[4]) or re.match(r"-?0[0-9]", fields[4]) or fields[4] == "-0.000":
            raise LineError("value", f"grams {fields[4]!r} is not a number with three decimals")
        grams = float(fields[4])
    # The flags and the values must tell the same story, or the line is not trusted.
    if (raw is None) != bool(flags & NO_READING):
        raise LineError("consistency", "data line's reading and its no-reading flags disagree")
    if raw is not None and bool(flags & Flag.SATURATED) != (raw in (RAW_MIN, RAW_MAX)):
        raise LineError("consistency", "data line's saturated flag and its reading disagree")
    if grams is not None and (raw is None or flags & (Flag.SATURATED | Flag.UNCALIBRATED)):
        raise LineError("consistency", "data line gives grams where no weight may be given")
    if grams is None and raw is not None and not flags & (Flag.SATURATED | Flag.UNCALIBRATED):
        raise LineError("consistency", "data line has a calibrated reading but no grams")
    if flags & Flag.DOUT_LOW and not flags & Flag.NO_CHIP:
        raise LineError("consistency", "data line says DOUT is held low without a missing reading")
    return Data(seq=seq, ms=ms, channel=channel, raw=raw, grams=grams, flags=flags)


def _decode_ok(fields: list[str]) -> Record:
    if not fields:
        raise LineError("fields", "OK reply names no command")
    command, values = fields[0], fields[1:]
    if command == "PING":
        if len(values) > 1:
            raise LineError("fields", "PING reply has too many fields")
        return Pong(token=_name(values[0], "ping token", TOKEN_MAX) if values else None)
    if command == "INFO":
        _expect(values, 8, "INFO reply")
        return Info(
            protocol=_protocol(values[0]),
            firmware=_version(values[1]),
            device_id=_name(values[2], "device id", ID_MAX),
            channels=_choice(values[3], "channel count", (1, 2)),
            rate=_choice(values[4], "rate", RATES),
            settings=_word(values[5], "settings state", _SETTINGS),
            streaming=_bool(values[6], "streaming"),
            powered=_bool(values[7], "powered"),
        )
    if command == "ID":
        _expect(values, 1, "ID reply")
        return DeviceId(_name(values[0], "device id", ID_MAX))
    if command == "CHANNELS":
        _expect(values, 1, "CHANNELS reply")
        return ChannelCount(_choice(values[0], "channel count", (1, 2)))
    if command == "STREAM":
        _expect(values, 1, "STREAM reply")
        return Streaming(_bool(values[0], "streaming"))
    if command == "RATE":
        _expect(values, 1, "RATE reply")
        return Rate(_choice(values[0], "rate", RATES))
    if command == "GAIN":
        _expect(values, 2, "GAIN reply")
        return Gain(_choice(values[0], "channel", CHANNELS), _choice(values[1], "gain", GAINS))
    if command == "POWER":
        _expect(values, 1, "POWER reply")
        return Power(_bool(values[0], "power"))
    if command in ("CAL", "TARE"):
        _expect(values, 4, f"{command} reply")
        factor: Decimal | None = None
        if values[2] != NONE:
            try:
                factor = parse_factor(values[2])
            except ScaleProtocolError as exc:
                raise LineError("value", str(exc)) from exc
            if format_factor(factor) != values[2]:
                raise LineError("value", f"calibration factor {values[2]!r} is not in canonical form")
        cal_id = None if values[3] == NONE else _name(values[3], "calibration id", CAL_ID_MAX)
        if factor is None and cal_id is not None:
            raise LineError("consistency", "calibration has an id but no factor")
        return Calibration(
            command=command,
            channel=_choice(values[0], "channel", CHANNELS),
            offset=_int(values[1], "offset", RAW_MIN, RAW_MAX),
            factor=factor,
            cal_id=cal_id,
        )
    if command == "WIRING":
        _expect(values, 4, "WIRING reply")
        return Wiring(
            channel=_choice(values[0], "channel", CHANNELS),
            dout=_choice(values[1], "DOUT pin", PINS),
            sck=_choice(values[2], "SCK pin", PINS),
            rate_pin=None if values[3] == NONE else _choice(values[3], "RATE pin", PINS),
        )
    if command in ("DEFAULTS", "RESET"):
        _expect(values, 0, f"{command} reply")
        return Ack(command)
    raise LineError("kind", f"OK reply to unknown command {command!r}")


def _version(text: str) -> str:
    if not _VERSION_RE.fullmatch(text) or len(text) > 11:
        raise LineError("value", f"firmware version {text!r} is not like 1.2.3")
    return text


def _decode_err(fields: list[str]) -> ErrorReply:
    _expect(fields, 3, "error reply")
    code = _int(fields[0], "error code", 1, 99)
    command = None if fields[1] == "?" else fields[1]
    if command is not None and not re.fullmatch(r"[A-Z]{1,12}", command):
        raise LineError("value", f"error reply names command {command!r}")
    if not fields[2]:
        raise LineError("value", "error reply has no text")
    return ErrorReply(code=code, command=command, text=fields[2])


_DECODERS: dict[str, Callable[[list[str]], Record]] = {
    "HELLO": _decode_hello,
    "D": _decode_data,
    "OK": _decode_ok,
    "ERR": _decode_err,
}


class LineBuffer:
    """Splits the byte stream from the balance into lines.

    A line cut short (the cable pulled mid-line, a reset mid-line) runs into the next
    one; a ``$`` always starts a new line, so the fragment before it is dropped and
    counted in ``discarded`` rather than glued to the next line. Runs of more than
    ``MAX_LINE`` bytes without an end are dropped too.
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.discarded = 0

    def feed(self, data: bytes) -> list[bytes]:
        """Add received bytes; return the complete lines (without CR LF) now available."""
        lines: list[bytes] = []
        for byte in data:
            if byte in (0x0A, 0x0D):
                if self._buf and not self._overflow:
                    lines.append(bytes(self._buf))
                elif self._overflow:
                    self.discarded += 1
                self._buf.clear()
                self._overflow = False
                continue
            if byte == 0x24 and (self._buf or self._overflow):  # '$' mid-line
                self.discarded += 1
                self._buf.clear()
                self._overflow = False
            if self._overflow:
                continue
            if len(self._buf) >= MAX_LINE:
                self._overflow = True
                self._buf.clear()
                continue
            self._buf.append(byte)
        return lines


# --------------------------------------------------------------------------- commands


def encode_command(name: str, *args: object) -> bytes:
    """``$NAME,arg,...*CCCC\\n`` for any command; the typed helpers below validate first.

    Raises:
        ScaleProtocolError: a name or argument that cannot be sent (comma, non-ASCII,
            too long).
    """
    if not re.fullmatch(r"[A-Z]{1,12}", name):
        raise ScaleProtocolError(f"command name {name!r} is not 1-12 upper-case letters")
    parts = [name]
    for arg in args:
        text = str(int(arg)) if isinstance(arg, bool) else str(arg)
        if not text or not re.fullmatch(r"[A-Za-z0-9._-]+", text):
            raise ScaleProtocolError(f"command argument {text!r} is not letters, digits, '.', '_' or '-'")
        parts.append(text)
    body = ",".join(parts).encode("ascii")
    line = b"$" + body + b"*" + f"{crc16(body):04X}".encode("ascii")
    if len(line) > MAX_COMMAND:
        raise ScaleProtocolError(f"command is {len(line)} bytes, longer than the balance accepts ({MAX_COMMAND})")
    return line + b"\n"


def _check_channel(channel: int) -> int:
    if isinstance(channel, bool) or not isinstance(channel, int) or channel not in CHANNELS:
        raise ScaleProtocolError(f"channel {channel!r} is not 0 or 1")
    return channel


def _check_name(text: str, what: str, longest: int) -> str:
    if not isinstance(text, str) or not _NAME_RE.fullmatch(text) or len(text) > longest:
        raise ScaleProtocolError(f"{what} {text!r} must be 1-{longest} letters, digits, '.', '_' or '-'")
    return text


def ping_command(token: str | None = None) -> bytes:
    """``PING[,token]``: ask for ``$OK,PING[,token]``."""
    if token is None:
        return encode_command("PING")
    return encode_command("PING", _check_name(token, "ping token", TOKEN_MAX))


def info_command() -> bytes:
    """``INFO``: ask for the ``$OK,INFO`` record."""
    return encode_command("INFO")


def id_command(device_id: str | None = None) -> bytes:
    """``ID``: ask for the device id; ``ID,<id>``: store a new one."""
    if device_id is None:
        return encode_command("ID")
    if device_id == NONE:
        raise ScaleProtocolError("'-' cannot be a device id")
    return encode_command("ID", _check_name(device_id, "device id", ID_MAX))


def channels_command(channels: int | None = None) -> bytes:
    """``CHANNELS``: ask how many pans are read; ``CHANNELS,<1|2>``: set it."""
    if channels is None:
        return encode_command("CHANNELS")
    if channels not in (1, 2) or isinstance(channels, bool):
        raise ScaleProtocolError(f"channel count {channels!r} is not 1 or 2")
    return encode_command("CHANNELS", channels)


def stream_command(on: bool | None = None) -> bytes:
    """``STREAM``: ask; ``STREAM,<0|1>``: stop or start sending data lines."""
    return encode_command("STREAM") if on is None else encode_command("STREAM", int(bool(on)))


def rate_command(rate: int | None = None) -> bytes:
    """``RATE``: ask; ``RATE,<10|80>``: set samples per second."""
    if rate is None:
        return encode_command("RATE")
    if rate not in RATES or isinstance(rate, bool):
        raise ScaleProtocolError(f"rate {rate!r} is not 10 or 80 samples per second")
    return encode_command("RATE", rate)


def gain_command(channel: int, gain: int | None = None) -> bytes:
    """``GAIN,<ch>``: ask; ``GAIN,<ch>,<128|64|32>``: set (this clears the calibration)."""
    _check_channel(channel)
    if gain is None:
        return encode_command("GAIN", channel)
    if gain not in GAINS or isinstance(gain, bool):
        raise ScaleProtocolError(f"gain {gain!r} is not 128, 64 or 32")
    return encode_command("GAIN", channel, gain)


def power_command(on: bool | None = None) -> bytes:
    """``POWER``: ask; ``POWER,<0|1>``: power the HX711s down or up."""
    return encode_command("POWER") if on is None else encode_command("POWER", int(bool(on)))


def tare_command(channel: int, samples: int | None = None) -> bytes:
    """``TARE,<ch>[,<n>]``: average the next ``n`` settled readings (default 8) as zero."""
    _check_channel(channel)
    if samples is None:
        return encode_command("TARE", channel)
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= TARE_SAMPLES_MAX:
        raise ScaleProtocolError(f"tare samples {samples!r} is not 1..{TARE_SAMPLES_MAX}")
    return encode_command("TARE", channel, samples)


def calibration_command(
    channel: int,
    offset: int | None = None,
    factor: Decimal | int | float | str | None = None,
    cal_id: str | None = None,
) -> bytes:
    """``CAL,<ch>``: ask; ``CAL,<ch>,<offset>,<factor>,<cal-id>``: store a calibration.

    ``factor`` is counts per gram (negative for a reversed cell), ``None`` to clear the
    calibration (the channel then reports no grams); ``cal_id`` names it (1-12 of
    letters, digits, '.', '_', '-'), ``None`` for no name.
    """
    _check_channel(channel)
    if offset is None:
        if factor is not None or cal_id is not None:
            raise ScaleProtocolError("a calibration needs its offset")
        return encode_command("CAL", channel)
    if isinstance(offset, bool) or not isinstance(offset, int) or not RAW_MIN <= offset <= RAW_MAX:
        raise ScaleProtocolError(f"offset {offset!r} is not a 24-bit count ({RAW_MIN}..{RAW_MAX})")
    factor_text = NONE if factor is None else format_factor(factor)
    if cal_id is None:
        id_text = NONE
    else:
        if cal_id == NONE:
            raise ScaleProtocolError("'-' cannot be a calibration id; pass None for no id")
        id_text = _check_name(cal_id, "calibration id", CAL_ID_MAX)
    if factor is None and cal_id is not None:
        raise ScaleProtocolError("a calibration id needs a factor")
    return encode_command("CAL", channel, offset, factor_text, id_text)


def wiring_command(channel: int) -> bytes:
    """``WIRING,<ch>``: ask which Arduino pins the channel's amplifier is wired to."""
    return encode_command("WIRING", _check_channel(channel))


def defaults_command() -> bytes:
    """``DEFAULTS``: put every setting but the device id back to factory values."""
    return encode_command("DEFAULTS")


def reset_command() -> bytes:
    """``RESET``: restart the balance (a hello follows about two seconds later)."""
    return encode_command("RESET")
