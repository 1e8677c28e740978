"""The firmware builds for the ATmega328P, fits it, refuses impossible wiring at compile
time, and its protocol code passes the shared vectors on the host."""

from __future__ import annotations

import re
import subprocess

import pytest

from tests.support.firmware_rig import FIRMWARE_DIR, build_rig

pytestmark = pytest.mark.firmware

#: An old-bootloader Nano keeps 2 KB of the 32 KB flash for itself.
FLASH_LIMIT = 30_720
#: Static RAM (of 2048 bytes) the firmware may take; the rest is stack.
RAM_LIMIT = 1_280


def test_protocol_code_passes_the_vectors_on_the_host() -> None:
    result = subprocess.run(
        ["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), "test"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    checked = re.search(r"(\d+) vectors checked, (\d+) failed", result.stdout)
    assert checked and int(checked.group(1)) > 250 and checked.group(2) == "0", result.stdout


def test_firmware_fits_the_atmega328p() -> None:
    elf = build_rig().elf
    sections = subprocess.run(["avr-size", "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    size = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\.\w+)\s+(\d+)", sections, re.M)}
    flash = size[".text"] + size.get(".data", 0)
    ram = size.get(".data", 0) + size.get(".bss", 0) + size.get(".noinit", 0)
    assert flash <= FLASH_LIMIT, f"{flash} bytes of flash"
    assert ram <= RAM_LIMIT, f"{ram} bytes of static RAM leave too little stack"
    hexfile = elf.with_suffix(".hex")
    assert hexfile.read_text().startswith(":") and hexfile.stat().st_mtime >= elf.stat().st_mtime


def test_firmware_builds_for_the_uno_too() -> None:
    """The Uno's pin map and board define (BOARD=uno); the Nano build serves both of the
    Nano's bootloaders (they differ only in upload speed)."""
    result = subprocess.run(
        ["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), "BOARD=uno", "BUILD=build/uno", "all"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert (FIRMWARE_DIR / "build" / "uno" / "purser_balance.hex").read_text().startswith(":")
    refused = subprocess.run(
        ["make", "--no-print-directory", "-C", str(FIRMWARE_DIR), "BOARD=every"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert refused.returncode != 0 and "BOARD must be nano or uno" in refused.stderr


def _check_config(overrides: dict[str, int], mcu: str = "atmega328p") -> subprocess.CompletedProcess[str]:
    """The sketch's configuration checks compiled for ``mcu`` with ``overrides`` defined."""
    defines = [f"-D{name}={value}" for name, value in overrides.items()]
    return subprocess.run(
        [
            "avr-g++",
            "-std=gnu++11",
            f"-mmcu={mcu}",
            "-fsyntax-only",
            "-x",
            "c++",
            "-include",
            str(FIRMWARE_DIR / "purser_balance" / "config_check.h"),
            *defines,
            "/dev/null",
        ],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {
            "PURSER_CH0_DOUT_PIN": 14,
            "PURSER_CH0_SCK_PIN": 15,
            "PURSER_CH1_DOUT_PIN": 16,
            "PURSER_CH1_SCK_PIN": 17,
            "PURSER_RATE_PIN": 18,
        },
        {"PURSER_MAX_CHANNELS": 1, "PURSER_CH1_DOUT_PIN": 2, "PURSER_CH1_SCK_PIN": 3},
        {"PURSER_RATE_PIN": -1, "PURSER_FIXED_RATE": 80, "PURSER_LED_PIN": -1},
        {"PURSER_BAUD": 57600, "PURSER_MAX_CHANNELS": 1},
    ],
)
def test_workable_wiring_compiles(overrides: dict[str, int]) -> None:
    result = _check_config(overrides)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"PURSER_CH1_SCK_PIN": 2}, "uses a pin twice"),
        ({"PURSER_RATE_PIN": 13}, "uses a pin twice"),
        ({"PURSER_CH0_SCK_PIN": 4}, "uses a pin twice"),
        ({"PURSER_CH0_DOUT_PIN": 1}, "PURSER_CH0_DOUT_PIN must be 2..19"),
        ({"PURSER_CH0_SCK_PIN": 20}, "PURSER_CH0_SCK_PIN must be 2..19"),
        ({"PURSER_CH1_DOUT_PIN": 0}, "PURSER_CH1_DOUT_PIN must be 2..19"),
        ({"PURSER_LED_PIN": 21}, "PURSER_LED_PIN must be 2..19 or -1"),
        ({"PURSER_MAX_CHANNELS": 3}, "PURSER_MAX_CHANNELS must be 1 or 2"),
        ({"PURSER_RATE_PIN": -1, "PURSER_FIXED_RATE": 40}, "PURSER_FIXED_RATE must be 10 or 80"),
        ({"PURSER_BAUD": 9600}, "PURSER_BAUD must be 57600 or 115200"),
        ({"PURSER_BAUD": 57600}, "two channels at 80 samples/s need 115200 baud"),
    ],
)
def test_impossible_wiring_stops_the_build_with_a_reason(overrides: dict[str, int], message: str) -> None:
    result = _check_config(overrides)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_the_sketch_refuses_other_microcontrollers() -> None:
    result = _check_config({}, mcu="atmega2560")
    assert result.returncode != 0 and "written for the ATmega328P" in result.stderr
