"""Tare, calibration and identity in EEPROM: kept across resets and power loss, checked
by their checksums, and resets that announce themselves."""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from pathlib import Path

import pytest
import serial

from companion.scale import protocol as proto
from companion.scale.protocol import ErrorCode, Flag
from tests.support.firmware_rig import BalanceLink, FirmwareRig

pytestmark = pytest.mark.firmware

SETTINGS_BLOCK = 0  # EEPROM address of the settings block (firmware/purser_balance/settings.cpp)
IDENTITY_BLOCK = 128


def test_blank_eeprom_runs_on_defaults_and_says_so(board: BalanceLink) -> None:
    hello = board.hello
    assert hello is not None
    assert (hello.protocol, hello.channels, hello.rate, hello.settings, hello.reset) == (2, 2, 80, "blank", "power")
    assert re.fullmatch(r"PB-[0-9A-F]{8}", hello.device_id)
    line = board.usable(0, 1)[0]
    assert line.flags & Flag.DEFAULTS and line.flags & Flag.UNCALIBRATED
    board.request(proto.calibration_command(0, 10, 430, "first"))
    assert not board.usable(0, 1)[0].flags & Flag.DEFAULTS
    assert board.request(proto.info_command()).settings == "ok"


def test_tare_averages_settled_readings_into_the_offset(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.set_raw(0, 250_000)
    rig.set_noise(0, 40)
    rig.set_seed(3)
    board.request(proto.calibration_command(0, 0, "2150.5", "tare-test"))
    reply = board.request(proto.tare_command(0, 32))
    assert isinstance(reply, proto.Calibration) and reply.command == "TARE"
    assert abs(reply.offset - 250_000) <= 3 * 40 / 32**0.5 + 1
    assert (reply.factor, reply.cal_id) == (Decimal("2150.5"), "tare-test")
    assert board.request(proto.calibration_command(0)).offset == reply.offset
    grams = [line.grams for line in board.usable(0, 20)]
    assert abs(sum(grams) / len(grams)) < 0.02


def test_taring_lines_are_flagged_and_a_second_tare_is_refused(board: BalanceLink) -> None:
    board.usable(0, 1)
    board.send(proto.tare_command(0, 40))
    taring = board.data(0, 3, predicate=lambda r: bool(r.flags & Flag.TARING))
    assert all(line.flags & Flag.TARING for line in taring)
    busy = board.request(proto.tare_command(0))
    assert busy == proto.ErrorReply(ErrorCode.BUSY, "TARE", "tare already running")
    assert board.request(proto.calibration_command(0, 1, 2, "x")).code == ErrorCode.BUSY
    # The other pan is free meanwhile; the two tares end in either order.
    board.send(proto.tare_command(1, 2))
    replies = [board.wait_for(lambda r: not isinstance(r, proto.Data), 15) for _ in range(2)]
    assert sorted(replies, key=lambda r: r.channel) == [
        proto.Calibration("TARE", 0, 0, None, None),
        proto.Calibration("TARE", 1, 0, None, None),
    ]


@pytest.mark.parametrize("how", ["reset", "power_cycle", "reset_command", "usb"])
def test_calibration_survives_a_restart(rig: FirmwareRig, board: BalanceLink, how: str) -> None:
    set_reply = board.request(proto.calibration_command(0, -31_000, "-2150.125", "pan-0.v2"))
    board.request(proto.calibration_command(1, 123, "430", "pan-1"))
    board.request(proto.gain_command(1, 128))
    board.request(proto.rate_command(10))
    board.request(proto.id_command("booty-scale-1"))
    expected_reset = {"reset": "external", "power_cycle": "power", "reset_command": "command", "usb": "power"}[how]
    link = board
    if how == "reset":
        rig.reset()
    elif how == "power_cycle":
        rig.power_cycle()
    elif how == "reset_command":
        assert board.request(proto.reset_command()) == proto.Ack("RESET")
    else:
        rig.unplug_usb()
        with pytest.raises(serial.SerialException):
            for _ in range(100):  # the host's port dies with the cable
                board.serial.read(4096)
        port = rig.replug_usb(power=False)
        assert port and rig.port == port
        link = BalanceLink(port)
        rig.power_cycle()
    try:
        hello = link.wait_for(lambda r: isinstance(r, proto.Hello), 20)
        assert hello == proto.Hello(2, "0.2.0", "booty-scale-1", 2, 10, "ok", expected_reset)
        assert link.request(proto.calibration_command(0)) == set_reply
        assert link.request(proto.calibration_command(1)) == proto.Calibration("CAL", 1, 123, Decimal(430), "pan-1")
        assert link.request(proto.rate_command()) == proto.Rate(10)
        assert rig.chip_status(0)["rate"] == "10"
    finally:
        if link is not board:
            link.close()


def test_settings_survive_the_rig_process_itself(tmp_path: Path) -> None:
    """The EEPROM file outlives the simulated board: a new process is a new day."""
    eeprom = tmp_path / "eeprom.bin"
    with FirmwareRig(eeprom=eeprom) as first, first.connect() as link:
        assert link.hello.settings == "blank"
        link.request(proto.calibration_command(0, 777, "1000.5", "day-1"))
    assert eeprom.stat().st_size == 1024
    with FirmwareRig(eeprom=eeprom) as second, second.connect() as link:
        assert link.hello.settings == "ok"
        assert link.request(proto.calibration_command(0)) == proto.Calibration(
            "CAL", 0, 777, Decimal("1000.5"), "day-1"
        )


def test_a_corrupt_settings_block_falls_back_to_defaults(rig: FirmwareRig, board: BalanceLink) -> None:
    board.request(proto.calibration_command(0, 5, 430, "good"))
    board.request(proto.id_command("kept-id"))
    byte = rig.eeprom_read(SETTINGS_BLOCK + 6, 1)[0]
    rig.eeprom_write(SETTINGS_BLOCK + 6, bytes([byte ^ 0x10]))  # one bit of channel 0's offset
    link = BalanceLink(rig.port)
    try:
        rig.reset()
        hello = link.wait_for(lambda r: isinstance(r, proto.Hello), 15)
        assert hello.settings == "bad" and hello.device_id == "kept-id"
        assert link.request(proto.calibration_command(0)) == proto.Calibration("CAL", 0, 0, None, None)
        line = link.usable(0, 1)[0]
        assert line.flags & Flag.DEFAULTS and line.grams is None
        assert link.request(proto.info_command()).settings == "bad"
    finally:
        link.close()


def test_a_corrupt_identity_block_gets_the_boards_own_id_back(rig: FirmwareRig, board: BalanceLink) -> None:
    own = board.hello.device_id
    board.request(proto.id_command("custom"))
    rig.eeprom_write(IDENTITY_BLOCK + 2, b"\x00")
    link = BalanceLink(rig.port)
    try:
        rig.reset()
        hello = link.wait_for(lambda r: isinstance(r, proto.Hello), 15)
        assert hello.device_id == own and hello.settings == "blank"
    finally:
        link.close()


def test_a_worn_eeprom_cell_is_reported_not_hidden(rig: FirmwareRig, board: BalanceLink) -> None:
    rig.eeprom_stuck(SETTINGS_BLOCK + 6)  # a byte of channel 0's stored offset
    try:
        reply = board.request(proto.calibration_command(0, 5, 430, "worn"))
        assert reply == proto.ErrorReply(ErrorCode.EEPROM, "CAL", "settings not saved")
        assert board.request(proto.tare_command(1, 2)) == proto.ErrorReply(
            ErrorCode.EEPROM, "TARE", "settings not saved"
        )
        link = BalanceLink(rig.port)
        rig.reset()
        hello = link.wait_for(lambda r: isinstance(r, proto.Hello), 15)
        link.close()
        assert hello.settings == "bad"
    finally:
        rig.eeprom_stuck(None)


def test_defaults_clear_the_settings_but_keep_the_id(board: BalanceLink) -> None:
    board.request(proto.id_command("stays"))
    board.request(proto.calibration_command(1, 9, 430, "goes"))
    board.request(proto.gain_command(0, 32))
    assert board.request(proto.defaults_command()) == proto.Ack("DEFAULTS")
    assert board.request(proto.calibration_command(1)) == proto.Calibration("CAL", 1, 0, None, None)
    assert board.request(proto.gain_command(0)) == proto.Gain(0, 128)
    assert board.request(proto.id_command()) == proto.DeviceId("stays")
    assert board.request(proto.info_command()).settings == "ok"


def test_a_lost_hello_is_recognised_after_a_reset_mid_line(rig: FirmwareRig, board: BalanceLink) -> None:
    """A reset cuts the line being sent; the host still finds the fresh hello."""
    for _ in range(5):
        rig.reset()
    hello = board.wait_for(lambda r: isinstance(r, proto.Hello), 15)
    assert hello.reset == "external"
    assert board.usable(0, 1)


def test_one_pan_board_with_strapped_rate() -> None:
    """A build for one amplifier whose RATE pin is tied low on the board."""
    variant = {"PURSER_MAX_CHANNELS": 1, "PURSER_RATE_PIN": -1, "PURSER_FIXED_RATE": 10, "PURSER_LED_PIN": -1}
    with FirmwareRig(variant=variant) as rig:
        assert rig.channels == (0,)
        rig.set_raw(0, -4242)
        with rig.connect() as link:
            assert (link.hello.channels, link.hello.rate) == (1, 10)
            lines = link.usable(0, 3)
            assert all(line.raw == -4242 and line.channel == 0 for line in lines)
            # Arduino's millis() steps by 2 now and then: 99-101 ms apart.
            assert all(99 <= b.ms - a.ms <= 101 for a, b in itertools.pairwise(lines))
            assert link.request(proto.rate_command(80)) == proto.ErrorReply(
                ErrorCode.UNSUPPORTED, "RATE", "rate pin not wired"
            )
            assert link.request(proto.rate_command()) == proto.Rate(10)
            assert link.request(proto.channels_command(2)).code == ErrorCode.RANGE
            assert link.request(proto.tare_command(1)).code == ErrorCode.RANGE
            assert link.request(proto.wiring_command(0)) == proto.Wiring(0, 2, 3, None)
            assert link.request(proto.wiring_command(1)).code == ErrorCode.RANGE
