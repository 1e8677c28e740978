"""Our firmware over serial, in simavr: what only a real link can show."""

from __future__ import annotations

import os
import random

import pytest

from companion.scale import ScaleNotFound, open_scale
from companion.scale.protocol import format_factor
from companion.scale.serial_scale import firmware_factor
from tests.support.firmware_rig import FirmwareBench

pytestmark = pytest.mark.firmware


@pytest.fixture
def fw(tmp_path):
    bench = FirmwareBench(tmp_path)
    yield bench
    bench.close()


def test_handshake_reads_the_balance(fw):
    info = fw.scale.info()
    assert info["protocol"] == 2 and info["firmware"]
    assert info["device_id"] and info["channels"] in (1, 2)
    assert info["calibrations"][0]["source"] == "firmware"  # kept in its EEPROM


def test_garbage_sent_down_the_line_changes_no_weight(fw):
    fw.scale.tare()
    fw.place(33.3)
    rng = random.Random(5)
    port = fw.scale._link.port
    for _ in range(20):
        port.write(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 90))) + b"\n")
    w = fw.scale.weigh_stable(timeout=15.0)
    assert w.grams == pytest.approx(33.3, abs=fw.tolerance_g)
    assert fw.scale.status().connected


def test_a_tare_is_kept_for_the_next_run(fw):
    fw.place(12.0)
    fw.scale.tare()
    url = fw.scale.url
    fw.scale.close()
    fw.scale = open_scale(url)
    assert fw.scale.zero(0) == pytest.approx(12.0, abs=fw.tolerance_g)
    assert fw.scale.weigh_stable(timeout=15.0).grams == pytest.approx(0.0, abs=fw.tolerance_g)


def test_a_port_where_nothing_answers_is_not_a_balance():
    master, slave = os.openpty()
    try:
        with pytest.raises(ScaleNotFound, match="no Purser balance answered"):
            open_scale(f"serial://{os.ttyname(slave)}?handshake=0.5")
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize(
    "cpg, text", [(2150.0, "2150"), (2150.24254000429, "2150.24254"), (-430.123456789, "-430.123457"), (0.5, "0.5")]
)
def test_factor_fits_what_the_firmware_keeps(cpg, text):
    assert format_factor(firmware_factor(cpg)) == text
