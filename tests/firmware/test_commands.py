"""Commands to the real firmware: the refusals of the shared vectors, garbage, over-long
lines, and streaming that carries on through all of it."""

from __future__ import annotations

import itertools
import random
from decimal import Decimal

import pytest

from companion.scale import protocol as proto
from companion.scale.protocol import ErrorCode
from tests.support import protocol_vectors as vectors
from tests.support.firmware_rig import BalanceLink, FirmwareRig

pytestmark = pytest.mark.firmware

_REFUSED = [v for v in vectors.load("cmd", "enc") if v.expectation.startswith("error ")]
_IGNORED = [v for v in vectors.load("cmd", "enc") if v.expectation == "none"]


def test_refused_command_vectors_get_their_error_reply_and_change_nothing(board: BalanceLink) -> None:
    """Every refusal of the shared vectors, on one board (a fresh board per vector would
    take minutes): each gets its error reply, blank lines get none, and afterwards the
    settings are as they were."""
    for vector in _REFUSED:
        fields = vector.expectation.split()
        code, name = int(fields[1]), fields[2].removeprefix("cmd=")
        reply = board.request(vector.data + b"\n")
        assert isinstance(reply, proto.ErrorReply), vector.id
        assert (reply.code, reply.command) == (code, None if name == "?" else name), vector.id
    for vector in _IGNORED:
        board.send(vector.data + b"\r\n")
        assert board.request(proto.ping_command("after")) == proto.Pong("after"), vector.id
    assert board.request(proto.calibration_command(0)) == proto.Calibration("CAL", 0, 0, None, None)
    assert board.request(proto.calibration_command(1)) == proto.Calibration("CAL", 1, 0, None, None)
    info = board.request(proto.info_command())
    assert isinstance(info, proto.Info)
    assert (info.channels, info.rate, info.streaming, info.powered, info.settings) == (2, 80, True, True, "blank")
    assert board.request(proto.gain_command(0)) == proto.Gain(0, 128)


def test_garbage_gets_errors_while_streaming_goes_on(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(0, 31_337)
    board.reading(0, 31_337)
    garbage = [
        b"hello there\n",
        b"\x00\x01\x02\n",
        b"$$$$\n",
        b"TARE,9\n",
        b"\xff\xfe\xfd\r\n",
        b"CAL,0,1,2\n",
        b"tare 0 0\n",
        b"*\n",
        b",,,\n",
        b"RATE,1e3\n",
    ]
    board.send(b"".join(garbage))
    replies: list[proto.Record] = []
    data: list[proto.Data] = []
    while len(replies) < len(garbage):
        record = board.read_record(15)
        assert record is not None, f"only {len(replies)} replies to {len(garbage)} bad lines"
        (data if isinstance(record, proto.Data) else replies).append(record)
    assert all(isinstance(r, proto.ErrorReply) for r in replies), replies
    data += board.data(None, 10)
    assert [(b.seq - a.seq) % proto.SEQ_MODULO for a, b in itertools.pairwise(data)] == [1] * (len(data) - 1)
    assert all(line.raw == 31_337 for line in data if line.channel == 0)
    assert board.request(proto.calibration_command(0)) == proto.Calibration("CAL", 0, 0, None, None)


@pytest.mark.parametrize("length", [65, 66, 100, 300, 2000])
def test_over_long_lines_are_discarded_whole(board: BalanceLink, length: int) -> None:
    # A valid command at the end of the long line must not be obeyed.
    line = b"x" * (length - len(b"STREAM,0")) + b"STREAM,0"
    reply = board.request(line + b"\n")
    assert reply == proto.ErrorReply(ErrorCode.TOO_LONG, None, "line too long")
    assert board.request(proto.stream_command()) == proto.Streaming(True)


@pytest.mark.parametrize(
    "fragment",
    [b"", b"TARE,0", b"CAL,0,1,2", b"$STREAM", b"\x00\xff", b"x" * 200, b"$" * 70],
)
def test_a_command_cut_short_is_dropped_not_glued_to_the_next(board: BalanceLink, fragment: bytes) -> None:
    board.send(fragment)  # no line end: the rest never came
    assert board.request(proto.ping_command("next")) == proto.Pong("next")
    assert board.request(proto.stream_command()) == proto.Streaming(True)
    assert board.request(proto.calibration_command(0)) == proto.Calibration("CAL", 0, 0, None, None)


def test_the_longest_accepted_line(board: BalanceLink) -> None:
    line = b"PING," + b"a" * 16 + b" " * (proto.MAX_COMMAND - 21)
    assert len(line) == proto.MAX_COMMAND
    assert board.request(line + b"\n") == proto.Pong("a" * 16)


def test_random_bytes_never_reset_or_change_the_board(rig: FirmwareRig, board: BalanceLink) -> None:
    board.request(proto.calibration_command(1, 42, "2150.5", "keep"))
    watchdog_resets = rig.status()["watchdog_resets"]
    noise = random.Random(20_240_601)
    blob = bytes(noise.choice(b"\x00\x07\x1b\x7f\x80\xffabcDEF,*$ 0123456789\r\n") for _ in range(3000))
    board.send(blob + b"\n")
    # A flood overruns the board's 64-byte receive buffer (no flow control on a UART):
    # let it drain, then the board answers as before.
    replies: list[proto.Record] = []
    while True:
        try:
            replies.append(board.wait_for(lambda r: not isinstance(r, proto.Data), 3 if replies else 30))
        except TimeoutError:
            break
    assert len(replies) > 20 and all(isinstance(r, proto.ErrorReply) for r in replies), replies
    assert board.request(proto.ping_command("still-here")) == proto.Pong("still-here")
    assert board.request(proto.calibration_command(1)) == proto.Calibration("CAL", 1, 42, Decimal("2150.5"), "keep")
    assert rig.status()["watchdog_resets"] == watchdog_resets
    assert board.usable(0, 2)


def test_ping_info_and_streaming(rig: FirmwareRig, board: BalanceLink) -> None:
    assert board.request(proto.ping_command()) == proto.Pong(None)
    info = board.request(proto.info_command())
    hello = board.hello
    assert isinstance(info, proto.Info) and hello is not None
    assert (info.firmware, info.device_id, info.channels, info.rate) == (
        hello.firmware,
        hello.device_id,
        hello.channels,
        hello.rate,
    )
    assert board.request(proto.stream_command(False)) == proto.Streaming(False)
    rig.wait_ms(300)
    board.send(proto.ping_command("quiet"))
    after = board.wait_for(lambda r: isinstance(r, proto.Pong), 15)
    assert after == proto.Pong("quiet")
    assert not any(isinstance(r, proto.Data) for r in board.pending)
    assert board.request(proto.stream_command(True)) == proto.Streaming(True)
    assert board.usable(0, 2)


def test_typed_commands_work_like_a_serial_monitor(board: BalanceLink) -> None:
    """Lower case, spaces, and every kind of line ending."""
    assert board.request(b"ping typed\r\n") == proto.Pong("typed")
    assert board.request(b"gain 1\r") == proto.Gain(1, 128)
    assert board.request(b"Stream\n") == proto.Streaming(True)


def test_wiring_names_each_amplifiers_pins(board: BalanceLink) -> None:
    """The pins of config.h, so the host can say which wire to check."""
    assert board.request(proto.wiring_command(0)) == proto.Wiring(0, 2, 3, 6)
    assert board.request(proto.wiring_command(1)) == proto.Wiring(1, 4, 5, 6)
