"""Missing, unplugged, shorted, saturated, glitching and powered-down amplifiers: the
firmware reports each as a flag within a bounded time, never hangs, never gives a weight."""

from __future__ import annotations

import pytest

from companion.scale import protocol as proto
from companion.scale.protocol import ErrorCode, Flag
from tests.support.firmware_rig import BalanceLink, FirmwareRig

pytestmark = pytest.mark.firmware

#: Board-time bound for reporting a silent amplifier at 80 SPS (firmware: 100 ms), plus
#: one main-loop pass.
NO_CHIP_BOUND_MS = 100 + 2


def _lines_until(link: BalanceLink, predicate, limit: int = 400) -> list[proto.Data]:
    """Data lines up to and including the first that matches."""
    seen = []
    for _ in range(limit):
        line = link.data(None, 1)[0]
        seen.append(line)
        if predicate(line):
            return seen
    raise AssertionError(f"no matching data line among {limit}")


def test_a_missing_amplifier_is_reported_and_repeated_not_waited_for(rig: FirmwareRig, board: BalanceLink) -> None:
    good = board.usable(1, 1)
    rig.no_chip(1)
    before = good + _lines_until(board, lambda r: r.channel == 1 and bool(r.flags & Flag.NO_CHIP))
    first = before[-1]
    last_good = [line for line in before if line.channel == 1 and line.raw is not None][-1]
    assert first.raw is None and first.grams is None
    assert not first.flags & Flag.DOUT_LOW  # DOUT floats high: nothing there, not a short
    assert first.ms - last_good.ms <= NO_CHIP_BOUND_MS + 13
    again = board.data(1, 3)
    assert all(line.flags & Flag.NO_CHIP for line in again)
    # Every 100 ms of the board's clock (Arduino's millis() steps by 2 now and then).
    assert all(99 <= b.ms - a.ms <= 102 for a, b in zip([first, *again], again, strict=False))
    # The other pan and the command handling go on as before.
    assert board.usable(0, 5)
    assert board.request(proto.ping_command("alive")) == proto.Pong("alive")
    assert board.request(proto.tare_command(1)) == proto.ErrorReply(
        ErrorCode.NO_CHIP, "TARE", "load cell amplifier not answering"
    )


def test_no_amplifiers_at_all_still_answers_every_command(rig: FirmwareRig, board: BalanceLink) -> None:
    watchdog_resets = rig.status()["watchdog_resets"]
    rig.no_chip(0)
    rig.no_chip(1)
    board.data(0, 1, predicate=lambda r: bool(r.flags & Flag.NO_CHIP))
    for _ in range(3):
        info = board.request(proto.info_command())
        assert isinstance(info, proto.Info) and info.powered
    assert board.request(proto.calibration_command(0, 5, 430, "x")) == proto.Calibration("CAL", 0, 5, 430, "x")
    assert rig.status()["watchdog_resets"] == watchdog_resets


def test_unplug_and_replug_of_an_amplifier(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(0, 77_777)
    board.reading(0, 77_777)
    rig.unplug(0)
    board.data(0, 1, predicate=lambda r: bool(r.flags & Flag.NO_CHIP))
    rig.replug(0)
    back = _lines_until(board, lambda r: r.channel == 0 and r.raw is not None)[-1]
    assert back.raw == 77_777
    assert back.flags & Flag.SETTLING, "the first reading after a replug must be flagged settling"
    usable = board.usable(0, 3)
    assert all(line.raw == 77_777 for line in usable)
    assert usable[0].ms - back.ms >= 50


def test_dout_shorted_low_gives_no_readings(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(0, 4321)
    board.reading(0, 4321)
    rig.stuck_low(0)
    lines = _lines_until(board, lambda r: r.channel == 0 and bool(r.flags & Flag.NO_CHIP))
    lines += board.data(0, 3)
    # A shorted DOUT clocks out zeros; none of them may pass as a reading.
    assert all(line.raw in (4321, None) for line in lines if line.channel == 0)
    assert all(line.flags & Flag.NO_CHIP and line.flags & Flag.DOUT_LOW for line in lines[-3:])
    rig.replug(0)
    back = board.usable(0, 1)[0]
    assert back.raw == 4321 and not back.flags & Flag.DOUT_LOW


def test_power_glitch_readings_are_flagged_until_settled(rig: FirmwareRig, board: BalanceLink) -> None:
    """After the amplifier resets by itself its first conversion is at gain 128 again,
    twice the gain-64 value: it must be flagged, never given as a usable reading."""
    rig.set_raw(0, 0)
    rig.set_cell(0, 0, 430)
    rig.set_grams(0, 100)
    assert board.request(proto.gain_command(0, 64)) == proto.Gain(0, 64)
    board.usable(0, 3, timeout=15)
    assert board.usable(0, 1)[0].raw == 21_500
    rig.glitch(0)
    after = board.data(0, 30)
    wrong = [line for line in after if line.raw != 21_500]
    assert wrong and wrong[0].raw == 43_000, "the rig's first conversion after a reset is at gain 128"
    assert all(not line.usable for line in wrong)
    assert after[-1].usable and after[-1].raw == 21_500


@pytest.mark.parametrize(("direction", "raw"), [("high", proto.RAW_MAX), ("low", proto.RAW_MIN)])
def test_saturation_is_flagged_and_never_weighed(
    rig: FirmwareRig, board: BalanceLink, direction: str, raw: int
) -> None:
    board.request(proto.calibration_command(0, 0, 430, "sat"))
    rig.saturate(0, direction)
    line = board.reading(0, raw)
    assert line.flags & Flag.SATURATED and line.grams is None and not line.usable
    assert board.request(proto.tare_command(0, 2)) == proto.ErrorReply(ErrorCode.SATURATED, "TARE", "reading saturated")
    rig.saturate(0, None)
    assert board.reading(0, 0).grams == 0.0


def test_grams_beyond_full_scale_saturate_like_the_chip(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_cell(1, 0, 2150)
    rig.set_grams(1, 5000)  # 10.75 million counts: beyond 24 bits
    line = board.reading(1, proto.RAW_MAX)
    assert line.flags & Flag.SATURATED


def test_power_down_and_up(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(1, 999)
    board.reading(1, 999)
    assert board.request(proto.power_command(False)) == proto.Power(False)
    down = board.data(None, 4, predicate=lambda r: bool(r.flags & Flag.POWERED_DOWN))
    assert all(line.raw is None for line in down)
    ch0 = [line.ms for line in down if line.channel == 0]
    assert len(ch0) == 2 and 999 <= ch0[1] - ch0[0] <= 1002
    assert rig.chip_status(0)["powered"] == "0" and rig.chip_status(1)["powered"] == "0"
    assert board.request(proto.tare_command(0)).code == ErrorCode.NO_CHIP
    info = board.request(proto.info_command())
    assert isinstance(info, proto.Info) and not info.powered
    assert board.request(proto.power_command(True)) == proto.Power(True)
    first = board.data(1, 1, predicate=lambda r: r.raw is not None)[0]
    assert first.flags & Flag.SETTLING
    assert board.usable(1, 1)[0].raw == 999
    assert rig.chip_status(1)["powered"] == "1"


def test_unplugged_in_the_middle_of_a_tare(rig: FirmwareRig, board: BalanceLink) -> None:
    board.usable(0, 1)
    board.send(proto.tare_command(0, 64))
    board.data(0, 2, predicate=lambda r: bool(r.flags & Flag.TARING))
    rig.unplug(0)
    reply = board.wait_for(lambda r: isinstance(r, proto.ErrorReply), 15)
    assert reply == proto.ErrorReply(ErrorCode.NO_CHIP, "TARE", "load cell amplifier not answering")
    rig.replug(0)
    assert board.request(proto.calibration_command(0)) == proto.Calibration("CAL", 0, 0, None, None)


@pytest.mark.parametrize("edge", [0, 1, 12, 24])
@pytest.mark.parametrize("channel", [0, 1])
def test_a_reset_during_a_reading_recovers(rig: FirmwareRig, board: BalanceLink, channel: int, edge: int) -> None:
    """The board restarts while an amplifier holds a conversion unread (edge 0: DOUT is
    already low when the firmware starts) or half clocked out; readings come back, and
    a half-read value is never given as usable."""
    rig.set_raw(0, 1111)
    rig.set_raw(1, -2222)
    for _ in range(2):
        board.usable(channel, 1)
        rig.reset_during_read(channel, edge)
        board.wait_for(lambda r: isinstance(r, proto.Hello), 15)
        after = board.data(None, 12)
        assert all(line.raw in (1111, -2222) for line in after if line.usable)
        assert board.usable(0, 1)[0].raw == 1111
        assert board.usable(1, 1)[0].raw == -2222
