"""Whether a serial port is there, by the name a user or the system gave it."""

from __future__ import annotations

from pathlib import Path

import pytest
from serial.tools import list_ports, list_ports_common

from companion.scale.serial_port import port_present


def test_a_device_file_is_there_while_it_exists(tmp_path: Path) -> None:
    port = tmp_path / "ttyUSB0"
    assert not port_present(str(port))
    port.touch()
    assert port_present(str(port))


@pytest.mark.parametrize(("name", "present"), [("COM3", True), ("com3", True), ("COM4", False), ("COM30", False)])
def test_a_windows_port_is_there_while_the_system_lists_it(
    monkeypatch: pytest.MonkeyPatch, name: str, present: bool
) -> None:
    listed = [list_ports_common.ListPortInfo("COM3", skip_link_detection=True)]
    monkeypatch.setattr(list_ports, "comports", lambda: listed)
    assert port_present(name) is present


def test_no_windows_port_is_there_when_none_is_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(list_ports, "comports", lambda: [])
    assert not port_present("COM1")


@pytest.mark.parametrize("url", ["loop://", "socket://localhost:7777", "rfc2217://host:2217"])
def test_a_pyserial_url_is_taken_to_be_there(url: str) -> None:
    assert port_present(url)
