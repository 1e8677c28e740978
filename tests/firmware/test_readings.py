"""Readings from the real firmware in simavr: exact counts, grams, gain, rate, two pans."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest

from companion.scale import protocol as proto
from companion.scale.protocol import Flag
from tests.support.firmware_rig import BalanceLink, FirmwareRig

pytestmark = pytest.mark.firmware


# Both ends, both sides of zero, the sign boundary of each byte, alternating bit patterns.
RAW_VALUES = [
    -8_388_608,
    -8_388_607,
    -8_388_480,
    -65_537,
    -65_536,
    -257,
    -256,
    -129,
    -128,
    -2,
    -1,
    0,
    1,
    127,
    128,
    255,
    256,
    65_535,
    65_536,
    5_592_405,
    -5_592_406,
    986_895,
    8_388_606,
    8_388_607,
]


def test_raw_counts_arrive_exactly(rig: FirmwareRig, board: BalanceLink) -> None:
    """For each value, channel 0 reads it and channel 1 its bitwise complement, at the same
    time (one board for the whole series: a fresh one per value would take a minute)."""
    saturated = {proto.RAW_MIN, proto.RAW_MAX}
    for raw in RAW_VALUES:
        other = -raw - 1
        rig.set_raw(0, raw)
        rig.set_raw(1, other)
        board.reading(0, raw)
        board.reading(1, other)
        for line in board.data(None, 6):
            expected = raw if line.channel == 0 else other
            assert line.raw == expected, f"set {raw} / {other}"
            assert bool(line.flags & Flag.SATURATED) == (expected in saturated)
            assert line.grams is None and line.flags & Flag.UNCALIBRATED


def test_sequence_numbers_count_every_line_of_both_channels(board: BalanceLink) -> None:
    lines = board.data(None, 40)
    assert [(b.seq - a.seq) % proto.SEQ_MODULO for a, b in itertools.pairwise(lines)] == [1] * 39
    assert {line.channel for line in lines} == {0, 1}
    # 80 readings per second per channel: about 12.5 ms apart on the board's own clock.
    ch0 = [line.ms for line in lines if line.channel == 0]
    gaps = [b - a for a, b in itertools.pairwise(ch0)]
    assert all(11 <= gap <= 15 for gap in gaps), gaps


@pytest.mark.parametrize(
    ("offset", "factor", "raw"),
    [
        (0, "430", 0),
        (0, "430", 430_000),
        (51_234, "2150.5", 51_234 + 537_625),
        (-1_200, "2150.1", 21_501 - 1_200),
        (1_000, "-430.25", 1_000 - 43_025),  # a reversed cell
        (0, "0.000001", 7),
        (8_388_607, "123456789", -8_388_607),
        (0, "1", -1),
    ],
)
def test_grams_are_exactly_the_hosts_arithmetic(
    rig: FirmwareRig, board: BalanceLink, offset: int, factor: str, raw: int
) -> None:
    reply = board.request(proto.calibration_command(0, offset, factor, "vec"))
    assert reply == proto.Calibration("CAL", 0, offset, Decimal(factor), "vec")
    rig.set_raw(0, raw)
    line = board.reading(0, raw)
    assert not line.flags & Flag.UNCALIBRATED
    assert line.grams == proto.grams_from_raw(raw, offset, factor)


def test_a_reversed_cell_weighs_positive_with_a_negative_factor(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_cell(0, zero_counts=-20_000, counts_per_gram=-430)
    rig.set_grams(0, 0)
    board.reading(0, -20_000)
    empty = board.usable(0, 4)
    assert len({line.raw for line in empty}) == 1 and empty[0].raw == -20_000
    assert board.request(proto.tare_command(0, 4)) == proto.Calibration("TARE", 0, -20_000, None, None)
    board.request(proto.calibration_command(0, -20_000, -430, "reversed"))
    rig.set_grams(0, 250)
    line = board.reading(0, -20_000 - 107_500)
    assert line.grams == 250.0


def test_two_pans_read_independently_and_at_once(rig: FirmwareRig, board: BalanceLink) -> None:
    board.request(proto.calibration_command(0, 0, 430, "left"))
    board.request(proto.calibration_command(1, 0, 2150, "right"))
    rig.set_cell(0, 0, 430)
    rig.set_cell(1, 0, 2150)
    rig.set_grams(0, 12.5)
    rig.set_grams(1, 80)
    board.reading(0, 5375)
    board.reading(1, 172_000)
    lines = board.data(None, 20)
    assert {(line.channel, line.grams) for line in lines} == {(0, 12.5), (1, 80.0)}
    # Interleaved: neither pan waits for the other.
    assert all(a.channel != b.channel for a, b in itertools.pairwise(lines))


@pytest.mark.parametrize(("gain", "divisor"), [(128, 1), (64, 2), (32, 4)])
def test_gain_selects_the_amplifiers_input_and_clears_the_calibration(
    rig: FirmwareRig, board: BalanceLink, gain: int, divisor: int
) -> None:
    board.request(proto.calibration_command(1, 0, 430, "g128"))
    rig.set_cell(1, 0, 430)
    rig.set_grams(1, 100)
    assert board.request(proto.gain_command(1, gain)) == proto.Gain(1, gain)
    line = board.reading(1, 43_000 // divisor)
    assert rig.chip_status(1)["gain"] == str(gain)
    calibration = board.request(proto.calibration_command(1))
    if gain == 128:
        assert line.grams == 100.0 and calibration.factor == 430
    else:
        # Counts per gram changed with the gain: the old factor must not be used.
        assert line.grams is None and line.flags & Flag.UNCALIBRATED
        assert calibration == proto.Calibration("CAL", 1, 0, None, None)
    assert board.request(proto.gain_command(1)) == proto.Gain(1, gain)


def test_gain_change_flags_the_next_readings_as_settling(rig: FirmwareRig, board: BalanceLink) -> None:
    board.usable(0, 2)
    board.send(proto.gain_command(0, 64))
    seen: list[proto.Data] = []
    while True:
        record = board.read_record(15)
        assert record is not None
        if isinstance(record, proto.Gain):
            break
        if isinstance(record, proto.Data) and record.channel == 0:
            seen.append(record)
    seen += board.data(0, 8)
    flagged = [line.flags & Flag.SETTLING != 0 for line in seen]
    # Unflagged before the change takes effect, then flagged for the 50 ms settling time
    # (by the board's clock), then clear for good.
    first = flagged.index(True)
    end = flagged.index(False, first)
    assert not any(flagged[end:])
    assert seen[end - 1].ms - seen[first].ms < 50 <= seen[end].ms - seen[first].ms


def test_rate_command_drives_the_rate_pin(rig: FirmwareRig, board: BalanceLink) -> None:
    assert board.hello.rate == 80
    assert board.request(proto.rate_command(10)) == proto.Rate(10)
    assert rig.chip_status(0)["rate"] == "10"
    lines = board.usable(0, 3)
    gaps = [b.ms - a.ms for a, b in itertools.pairwise(lines)]
    assert all(95 <= gap <= 105 for gap in gaps), gaps
    info = board.request(proto.info_command())
    assert isinstance(info, proto.Info) and info.rate == 10
    assert board.request(proto.rate_command(80)) == proto.Rate(80)
    assert rig.chip_status(1)["rate"] == "80"


def test_channel_count_one_reads_only_the_first_pan(board: BalanceLink) -> None:
    assert board.request(proto.channels_command(1)) == proto.ChannelCount(1)
    board.drain()
    assert {line.channel for line in board.data(None, 10)} == {0}
    reply = board.request(proto.tare_command(1))
    assert reply == proto.ErrorReply(proto.ErrorCode.RANGE, "TARE", "value out of range")
    assert board.request(proto.channels_command(2)) == proto.ChannelCount(2)
    assert {line.channel for line in board.data(None, 10)} == {0, 1}


def test_noise_reaches_the_host_unfiltered(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(0, 100_000)
    rig.set_noise(0, 50)
    values = [line.raw for line in board.usable(0, 40)]
    assert len(set(values)) > 10
    mean = sum(values) / len(values)
    assert abs(mean - 100_000) < 50
    assert max(values) - min(values) < 50 * 12
