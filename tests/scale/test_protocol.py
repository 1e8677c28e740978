"""The balance protocol codec against the shared vectors, plus fuzzing of the decoder."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scale import protocol as proto
from companion.scale.errors import ScaleProtocolError
from tests.support import protocol_vectors as vectors


def _load(kind: str) -> list:
    """The vectors of one kind as pytest parameters (input bytes, expectation)."""
    return [pytest.param(v.data, v.expectation, id=v.id) for v in vectors.load(kind)]


_pairs = vectors.pairs


def _none(text: str) -> str | None:
    return None if text == "-" else text


def _expected_record(expectation: str) -> proto.Record:
    """The record a vector's expectation column describes."""
    words = expectation.split(" ", 2)
    kind = words[0]
    if kind == "hello":
        f = _pairs(expectation.split(" ", 1)[1])
        return proto.Hello(
            int(f["protocol"]), f["firmware"], f["id"], int(f["channels"]), int(f["rate"]), f["settings"], f["reset"]
        )
    if kind == "data":
        f = _pairs(expectation.split(" ", 1)[1])
        return proto.Data(
            seq=int(f["seq"]),
            ms=int(f["ms"]),
            channel=int(f["ch"]),
            raw=None if f["raw"] == "-" else int(f["raw"]),
            grams=None if f["grams"] == "-" else float(f["grams"]),
            flags=proto.Flag(int(f["flags"], 16)),
        )
    if kind == "err":
        f = _pairs(expectation.split(" ", 1)[1])
        return proto.ErrorReply(int(f["code"]), None if f["cmd"] == "?" else f["cmd"], f["text"])
    assert kind == "ok", expectation
    command = words[1]
    f = _pairs(words[2]) if len(words) > 2 else {}
    if command == "PING":
        return proto.Pong(f.get("token"))
    if command == "INFO":
        return proto.Info(
            int(f["protocol"]),
            f["firmware"],
            f["id"],
            int(f["channels"]),
            int(f["rate"]),
            f["settings"],
            f["streaming"] == "1",
            f["powered"] == "1",
        )
    if command == "ID":
        return proto.DeviceId(f["id"])
    if command == "CHANNELS":
        return proto.ChannelCount(int(f["channels"]))
    if command == "STREAM":
        return proto.Streaming(f["on"] == "1")
    if command == "RATE":
        return proto.Rate(int(f["rate"]))
    if command == "GAIN":
        return proto.Gain(int(f["ch"]), int(f["gain"]))
    if command == "POWER":
        return proto.Power(f["on"] == "1")
    if command == "WIRING":
        rate = _none(f["rate"])
        return proto.Wiring(int(f["ch"]), int(f["dout"]), int(f["sck"]), None if rate is None else int(rate))
    if command in ("CAL", "TARE"):
        factor = _none(f["factor"])
        return proto.Calibration(
            command, int(f["ch"]), int(f["offset"]), None if factor is None else Decimal(factor), _none(f["calid"])
        )
    return proto.Ack(command)


def _encode(expectation: str) -> bytes:
    """What the host's encoder sends for a command described by a vector's expectation."""
    name, _, rest = expectation.partition(" ")
    f = _pairs(rest)
    if name == "PING":
        return proto.ping_command(f.get("token"))
    if name == "INFO":
        return proto.info_command()
    if name == "ID":
        return proto.id_command(f.get("id"))
    if name == "CHANNELS":
        return proto.channels_command(int(f["channels"]) if "channels" in f else None)
    if name == "STREAM":
        return proto.stream_command(f["on"] == "1" if "on" in f else None)
    if name == "RATE":
        return proto.rate_command(int(f["rate"]) if "rate" in f else None)
    if name == "GAIN":
        return proto.gain_command(int(f["ch"]), int(f["gain"]) if "gain" in f else None)
    if name == "POWER":
        return proto.power_command(f["on"] == "1" if "on" in f else None)
    if name == "TARE":
        return proto.tare_command(int(f["ch"]), int(f["samples"]))
    if name == "CAL":
        if "offset" not in f:
            return proto.calibration_command(int(f["ch"]))
        return proto.calibration_command(int(f["ch"]), int(f["offset"]), _none(f["factor"]), _none(f["calid"]))
    if name == "DEFAULTS":
        return proto.defaults_command()
    if name == "WIRING":
        return proto.wiring_command(int(f["ch"]))
    assert name == "RESET", expectation
    return proto.reset_command()


# ------------------------------------------------------------------------- vectors


@pytest.mark.parametrize(("text", "expected"), _load("crc"))
def test_crc16_vectors(text: bytes, expected: str) -> None:
    assert proto.crc16(text) == int(expected, 16)


def test_every_error_of_up_to_three_bits_in_a_line_is_caught() -> None:
    """CRC-16/CCITT-FALSE on lines of up to 96 characters: every single- and two-bit error
    changes the checksum (all single-bit syndromes differ), and the polynomial's (x + 1)
    factor catches every odd number of flipped bits, three included. CRC-8 missed some
    two-bit errors 127 bits apart."""
    bits = 8 * (proto.MAX_LINE - 5)
    # The CRC is linear: the change a flipped bit makes is the CRC of that bit alone (with
    # the initial value and the rest of the line cancelling out).
    zero = proto.crc16(bytes(bits // 8))
    syndromes = set()
    for bit in range(bits):
        pattern = bytearray(bits // 8)
        pattern[bit // 8] = 0x80 >> (bit % 8)
        syndromes.add(proto.crc16(bytes(pattern)) ^ zero)
    assert 0 not in syndromes and len(syndromes) == bits
    two_bit_misses_of_crc8 = [
        (a, b)
        for a in range(8)
        for b in range(a + 1, 8 * 40)
        if proto.crc8(_flip(bytes(40), a, b)) == proto.crc8(bytes(40))
    ]
    assert two_bit_misses_of_crc8, "CRC-8 would have caught these too: the point of CRC-16 is gone"


def _flip(data: bytes, *bits: int) -> bytes:
    out = bytearray(data)
    for bit in bits:
        out[bit // 8] ^= 0x80 >> (bit % 8)
    return bytes(out)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_two_and_three_bit_errors_anywhere_are_refused(data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(_VALID))
    count = data.draw(st.integers(2, 3))
    bits = data.draw(st.lists(st.integers(0, 8 * len(line) - 1), min_size=count, max_size=count, unique=True))
    with pytest.raises(proto.LineError):
        proto.decode_line(_flip(line, *bits))


@pytest.mark.parametrize(("line", "expectation"), _load("dev"))
def test_device_line_vectors(line: bytes, expectation: str) -> None:
    if expectation.startswith("reject "):
        reason = expectation.split(" ", 1)[1]
        with pytest.raises(proto.LineError) as caught:
            proto.decode_line(line)
        assert caught.value.reason == reason, str(caught.value)
        assert isinstance(caught.value, ScaleProtocolError) and isinstance(caught.value, ValueError)
    else:
        assert proto.decode_line(line) == _expected_record(expectation)
        # Line endings as the balance sends them make no difference.
        assert proto.decode_line(line + b"\r\n") == _expected_record(expectation)
        assert proto.decode_line(line.decode("ascii")) == _expected_record(expectation)


@pytest.mark.parametrize(("line", "expectation"), _load("enc"))
def test_encoder_vectors(line: bytes, expectation: str) -> None:
    assert _encode(expectation) == line + b"\n"


@pytest.mark.parametrize(("inputs", "expected"), _load("grams"))
def test_grams_vectors(inputs: bytes, expected: str) -> None:
    raw, offset, factor = inputs.decode().split(" ")
    milligrams = proto.milligrams_from_raw(int(raw), int(offset), factor)
    sign = "-" if milligrams < 0 else ""
    assert f"{sign}{abs(milligrams) // 1000}.{abs(milligrams) % 1000:03d}" == expected
    assert proto.grams_from_raw(int(raw), int(offset), Decimal(factor)) == float(expected)


def test_every_vector_kind_is_present() -> None:
    for kind in ("crc", "dev", "cmd", "enc", "grams"):
        assert _load(kind), kind
    rejects = {e.values[1] for e in _load("dev") if e.values[1].startswith("reject")}
    assert {
        f"reject {r}"
        for r in (
            "empty",
            "length",
            "framing",
            "charset",
            "checksum",
            "kind",
            "fields",
            "value",
            "consistency",
            "version",
        )
    } <= rejects


# ------------------------------------------------------------------------- encoder rules


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: proto.tare_command(2), "channel"),
        (lambda: proto.tare_command(-1), "channel"),
        (lambda: proto.tare_command(True), "channel"),
        (lambda: proto.tare_command(0, 0), "samples"),
        (lambda: proto.tare_command(0, 65), "samples"),
        (lambda: proto.rate_command(40), "rate"),
        (lambda: proto.gain_command(0, 100), "gain"),
        (lambda: proto.channels_command(3), "channel count"),
        (lambda: proto.calibration_command(0, 8_388_608, 1, "x"), "offset"),
        (lambda: proto.calibration_command(0, 0, 0, "x"), "non-zero"),
        (lambda: proto.calibration_command(0, 0, "1.2345678", "x"), "decimals"),
        (lambda: proto.calibration_command(0, 0, 1_234_567_890, "x"), "significant"),
        (lambda: proto.calibration_command(0, 0, "1e3x", "x"), "not a number"),
        (lambda: proto.calibration_command(0, 0, float("nan"), "x"), "non-zero"),
        (lambda: proto.calibration_command(0, 0, None, "x"), "needs a factor"),
        (lambda: proto.calibration_command(0, 0, 5, "-"), "cannot be a calibration id"),
        (lambda: proto.calibration_command(0, 0, 5, "abcdefghijklm"), "calibration id"),
        (lambda: proto.calibration_command(0, 0, 5, "a,b"), "calibration id"),
        (lambda: proto.calibration_command(0, None, 5, "x"), "offset"),
        (lambda: proto.id_command("-"), "device id"),
        (lambda: proto.id_command("no spaces"), "device id"),
        (lambda: proto.ping_command("x" * 17), "ping token"),
        (lambda: proto.encode_command("tare", 0), "upper-case"),
        (lambda: proto.encode_command("TARE", "0,1"), "argument"),
        (lambda: proto.encode_command("TARE", ""), "argument"),
        (lambda: proto.encode_command("PING", *["abcdefghijklmnop"] * 4), "longer"),
    ],
)
def test_encoder_refuses_what_the_balance_cannot_take(make, message: str) -> None:
    """Each bad argument gets an error naming what is wrong; nothing is sent."""
    with pytest.raises(ScaleProtocolError, match=message):
        make()


@pytest.mark.parametrize(
    ("factor", "text"),
    [
        (2150.5, "2150.5"),
        (Decimal("2150.50"), "2150.5"),
        ("0002150.5", "2150.5"),
        (2150, "2150"),
        (Decimal("2.15E+3"), "2150"),
        (-430.25, "-430.25"),
        (0.000001, "0.000001"),
        (123456789, "123456789"),
        ("123456.789", "123456.789"),
    ],
)
def test_factor_canonical_text(factor, text: str) -> None:
    assert proto.format_factor(factor) == text
    assert proto.parse_factor(text) == Decimal(text)


# ------------------------------------------------------------------------- line buffer


@pytest.mark.parametrize(
    ("chunks", "lines", "discarded"),
    [
        ([], [], 0),
        ([b"$A*00\r\n"], [b"$A*00"], 0),
        ([b"$A*0", b"0\r", b"\n$B*11\n"], [b"$A*00", b"$B*11"], 0),
        ([b"\r\n\r\n"], [], 0),
        # Cut by a reset: the fragment is dropped at the next '$', never glued to it.
        ([b"$D,1,2,0,40", b"$HELLO*00\r\n"], [b"$HELLO*00"], 1),
        ([b"x" * 200 + b"\r\n$A*00\n"], [b"$A*00"], 1),
        ([b"x" * 200 + b"$A*00\n"], [b"$A*00"], 1),
        ([b"x" * proto.MAX_LINE + b"\n"], [b"x" * proto.MAX_LINE], 0),
    ],
)
def test_line_buffer(chunks: list[bytes], lines: list[bytes], discarded: int) -> None:
    buffer = proto.LineBuffer()
    got: list[bytes] = []
    for chunk in chunks:
        got += buffer.feed(chunk)
    assert got == lines
    assert buffer.discarded == discarded


# ------------------------------------------------------------------------- invariants

_VALID = [e.values[0] for e in _load("dev") if not e.values[1].startswith("reject")]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=120))
def test_decoder_never_crashes_on_arbitrary_bytes(data: bytes) -> None:
    try:
        record = proto.decode_line(data)
    except proto.LineError:
        return
    # Whatever decodes must be a record re-encodable to the same checksum-valid line.
    assert isinstance(
        record,
        (
            proto.Hello,
            proto.Data,
            proto.Pong,
            proto.Info,
            proto.DeviceId,
            proto.ChannelCount,
            proto.Streaming,
            proto.Rate,
            proto.Gain,
            proto.Power,
            proto.Calibration,
            proto.Ack,
            proto.ErrorReply,
        ),
    )


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_VALID), st.data())
def test_any_single_damaged_byte_is_refused(line: bytes, data: st.DataObject) -> None:
    """One byte changed anywhere in a valid line never decodes (CRC-16 catches every burst up to 16 bits)."""
    where = data.draw(st.integers(0, len(line) - 1))
    replacement = data.draw(st.integers(0, 255).filter(lambda b: b != line[where]))
    damaged = line[:where] + bytes([replacement]) + line[where + 1 :]
    with pytest.raises(proto.LineError):
        proto.decode_line(damaged)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(_VALID), max_size=6), st.lists(st.integers(1, 40), max_size=8), st.sets(st.integers(0, 5))
)
def test_line_buffer_cut_lines_never_merge(lines: list[bytes], cuts: list[int], torn: set[int]) -> None:
    """Lines cut short (torn) and re-chunked anywhere: every complete line comes out whole."""
    stream = bytearray()
    expected = []
    for i, line in enumerate(lines):
        if i in torn:
            stream += line[: len(line) // 2]  # the rest never arrives (unplugged mid-line)
        else:
            stream += line + b"\r\n"
            expected.append(line)
    buffer = proto.LineBuffer()
    got: list[bytes] = []
    pos = 0
    for cut in [*cuts, len(stream)]:
        got += buffer.feed(bytes(stream[pos : pos + cut]))
        pos += cut
    got += buffer.feed(bytes(stream[pos:]))
    got += buffer.feed(b"\n")
    for line in got:
        if line in expected:
            continue
        # Only a torn fragment at the very end (no '$' after it) may come out, and it is refused.
        with pytest.raises(proto.LineError):
            proto.decode_line(line)
    assert [line for line in got if line in expected] == expected


@settings(max_examples=300, deadline=None)
@given(
    st.integers(proto.RAW_MIN, proto.RAW_MAX),
    st.integers(proto.RAW_MIN, proto.RAW_MAX),
    st.integers(-999_999_999, 999_999_999).filter(bool),
    st.integers(0, 6),
)
def test_milligrams_is_the_exact_rounded_quotient(raw: int, offset: int, mantissa: int, decimals: int) -> None:
    factor = Decimal(mantissa).scaleb(-decimals)
    exact = (Decimal(raw - offset) * 1000 / factor) if factor else Decimal(0)
    got = proto.milligrams_from_raw(raw, offset, factor)
    assert abs(Decimal(got) - exact) <= Decimal("0.5")
    # Half-way cases go away from zero, and the result is symmetric in sign.
    assert proto.milligrams_from_raw(offset - (raw - offset), offset, factor) == -got or raw == offset


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(proto.CHANNELS),
    st.integers(proto.RAW_MIN, proto.RAW_MAX),
    st.integers(-999_999_999, 999_999_999).filter(bool),
    st.integers(0, 6),
    st.from_regex(re.compile(r"[A-Za-z0-9._-]{1,12}"), fullmatch=True).filter(lambda s: s != "-"),
)
def test_calibration_command_round_trips_through_a_reply(channel, offset, mantissa, decimals, cal_id) -> None:
    """What the host sets is exactly what a CAL reply carrying the same text decodes to."""
    factor = Decimal(mantissa).scaleb(-decimals)
    command = proto.calibration_command(channel, offset, factor, cal_id)
    body = command[1 : command.index(b"*")].decode()
    reply_body = "OK," + body
    reply = f"${reply_body}*{proto.crc16(reply_body.encode()):04X}"
    record = proto.decode_line(reply)
    assert record == proto.Calibration("CAL", channel, offset, factor.normalize(), cal_id)


# ------------------------------------------------------------------------- the documentation

HARDWARE_MD = Path(__file__).resolve().parents[2] / "hardware.md"


def _documented_lines() -> list[str]:
    text = HARDWARE_MD.read_text(encoding="utf-8")
    found = re.findall(r"\$[A-Z][^`|\n$*]*\*[0-9A-F]{4}", text)
    return [line for line in found if not line.endswith("*CCCC") and "<" not in line]


def test_hardware_md_shows_many_protocol_lines() -> None:
    assert len(_documented_lines()) >= 20


@pytest.mark.parametrize("line", _documented_lines())
def test_every_line_in_hardware_md_decodes(line: str) -> None:
    """The examples a maker reads are real lines: right checksum, right fields."""
    proto.decode_line(line)


_DATA_WITH_GRAMS = [line for line in _VALID if line.startswith(b"$D,") and line.split(b",")[5] != b"-"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(_DATA_WITH_GRAMS), st.integers(-5000, 5000).filter(bool), st.data())
def test_a_line_whose_grams_disagree_with_its_counts_is_refused(line: bytes, milligrams: int, data: st.DataObject):
    """A line that passed its checksum (here forged with a fresh one) but whose grams are not
    its raw counts through the balance's calibration is not trusted."""
    record = proto.decode_line(line)
    assert isinstance(record, proto.Data) and record.raw is not None and record.grams is not None
    offset = data.draw(st.integers(proto.RAW_MIN, proto.RAW_MAX))
    factor = Decimal(data.draw(st.integers(1, 10**6))).scaleb(-3)
    honest = proto.grams_from_raw(record.raw, offset, factor)
    assert proto.grams_agree(
        proto.Data(record.seq, record.ms, record.channel, record.raw, honest, record.flags), offset, factor
    )
    forged = round(honest + milligrams / 1000, 3)
    assert not proto.grams_agree(
        proto.Data(record.seq, record.ms, record.channel, record.raw, forged, record.flags), offset, factor
    )
    # No calibration kept, yet grams on the line: refused too.
    assert not proto.grams_agree(record, None, None)
