"""One simulator rig for the whole session; each test gets a freshly powered board."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.firmware_rig import BalanceLink, FirmwareRig, fresh_board


@pytest.fixture(scope="session")
def rig() -> Iterator[FirmwareRig]:
    """The firmware running in simavr, shared by the tests in this directory."""
    with FirmwareRig(seed=7) as running:
        yield running


@pytest.fixture
def board(rig: FirmwareRig) -> Iterator[BalanceLink]:
    """A freshly powered board with erased EEPROM, streaming, both amplifiers at 0 counts."""
    link = fresh_board(rig)
    try:
        yield link
    finally:
        link.close()
    assert not link.rejected, f"lines from the firmware did not decode: {link.rejected[:5]}"
