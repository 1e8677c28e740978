"""The balance at 10 samples per second, asked for with RATE or strapped on the amplifier
boards (many HX711 boards tie RATE to ground, whatever the firmware's RATE pin says).

The firmware times settling, gaps and missing amplifiers by the pace the chip really
keeps: readings become usable within the settling time and stay usable, a slow chip is
not called missing, and an amplifier that resets by itself is caught at either pace.
"""

from __future__ import annotations

import itertools

import pytest

from companion.scale import protocol as proto
from companion.scale.protocol import Flag
from tests.support.firmware_rig import BalanceLink, FirmwareRig, fresh_board

pytestmark = pytest.mark.firmware

#: Board-time bound (ms) from the first reading at 10 SPS to the first usable one: the
#: 400 ms settling time, plus the two readings that show a strapped chip's real pace.
USABLE_WITHIN_MS = 700 + 100


def _channel0_readings(link: BalanceLink, count: int, timeout: float = 30.0) -> list[proto.Data]:
    """The next ``count`` data lines of channel 0, replies to commands skipped."""
    lines: list[proto.Data] = []
    while len(lines) < count:
        record = link.read_record(timeout)
        assert record is not None, "the balance went silent"
        if isinstance(record, proto.Data) and record.channel == 0:
            lines.append(record)
    return lines


@pytest.mark.parametrize("how", ["command", "strapped"])
def test_readings_at_10_sps_settle_once_and_stay_usable(rig: FirmwareRig, how: str) -> None:
    if how == "strapped":
        link = fresh_board(rig, strap_rate=10)  # the firmware is left at its default, 80 SPS
        assert link.hello is not None and link.hello.rate == 80
    else:
        link = fresh_board(rig)
        link.usable(0, 2)  # past the settling after power-up, at 80 SPS
        link.send(proto.rate_command(10))
    try:
        rig.set_raw(0, 123_456)
        lines = _channel0_readings(link, 40)
        readings = [line for line in lines if line.raw is not None]
        # A chip converting every 100 ms is slow, not missing.
        assert not [line for line in lines if line.flags & Flag.NO_CHIP], [line.ms for line in lines]
        slow = next(i for i, line in enumerate(readings) if line.flags & Flag.SETTLING)
        readings = readings[slow:]  # from the first reading after power-up or RATE,10 on
        flagged = [bool(line.flags & Flag.SETTLING) for line in readings]
        assert False in flagged, "every reading at 10 SPS was flagged SETTLING"
        first_usable = flagged.index(False)
        assert not any(flagged[first_usable:]), "flagged SETTLING again without a reason"
        assert readings[first_usable].ms - readings[0].ms <= USABLE_WITHIN_MS
        settled = readings[first_usable:]
        assert len(settled) >= 20
        assert all(95 <= b.ms - a.ms <= 105 for a, b in itertools.pairwise(settled)), [r.ms for r in settled]
        assert all(line.usable and line.raw == 123_456 for line in settled[2:])

        # A missing amplifier is still reported, by the 10 SPS timeout (700 ms).
        rig.unplug(0)
        missing = link.data(0, 1, predicate=lambda r: bool(r.flags & Flag.NO_CHIP))[0]
        assert 700 <= missing.ms - readings[-1].ms <= 900
        assert not link.rejected
    finally:
        link.close()


@pytest.mark.parametrize(("setting", "strap"), [(10, 10), (80, 10), (10, 80)])
def test_an_amplifier_reset_is_flagged_at_the_pace_it_really_keeps(rig: FirmwareRig, setting: int, strap: int) -> None:
    """An amplifier whose supply dips resets to gain 128: its first conversion is twice
    the gain-64 value and must never be usable, whatever rate the firmware was set to."""
    link = fresh_board(rig, strap_rate=strap)
    try:
        if setting != 80:
            assert link.request(proto.rate_command(setting)) == proto.Rate(setting)
        rig.set_cell(0, 0, 430)
        rig.set_grams(0, 100)
        assert link.request(proto.gain_command(0, 64)) == proto.Gain(0, 64)
        assert link.usable(0, 3, timeout=20)[-1].raw == 21_500
        rig.glitch(0)
        after = link.data(0, 12 if strap == 10 else 30, timeout=20)
        wrong = [line for line in after if line.raw != 21_500]
        assert wrong and wrong[0].raw == 43_000, "the rig's first conversion after a reset is at gain 128"
        assert all(not line.usable for line in wrong)
        assert after[-1].usable and after[-1].raw == 21_500
        assert not link.rejected
    finally:
        link.close()
