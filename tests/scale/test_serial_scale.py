"""Our firmware over serial, in simavr: what only a real link can show.

A maker's balance as it really is: one amplifier on the two-channel firmware, noise five
times the datasheet's, a noisy cable, USB unplugged for a while, a host too busy to read
at once.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import sys
import time
from decimal import Decimal

import pytest

from companion.cli import main
from companion.scale import ScaleNotFound, Waiting, open_scale
from companion.scale import protocol as proto
from companion.scale.noise import DATASHEET_NOISE_COUNTS
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
    assert info["protocol"] == 2 and info["firmware"] == "0.2.0"
    assert info["device_id"] and info["channels"] in (1, 2)
    assert info["calibrations"][0]["source"] == "firmware"  # kept in its EEPROM
    assert fw.scale.wiring(0) == {"dout": "D2", "sck": "D3", "rate": "D6"}
    assert fw.scale.wiring(1) == {"dout": "D4", "sck": "D5", "rate": "D6"}


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


@pytest.mark.parametrize("times", [1, 3, 5])
def test_one_to_five_times_the_datasheet_noise_still_weighs_honestly(tmp_path, times):
    """Clone boards, long wires, USB power: the balance measures the noise itself, averages
    for it, and the load lies within three of the uncertainties it states."""
    bench = FirmwareBench(tmp_path, noise=float(times), seed=3)
    try:
        bench.scale.tare(timeout=20.0)
        for load in (49.75, 12.3):
            bench.clear()
            bench.place(load)
            w = bench.scale.weigh_stable(timeout=20.0)
            assert abs(w.grams - load) <= 3 * w.uncertainty_g, (w.grams, w.uncertainty_g)
            # The readings' share is the measured noise averaged, never the datasheet's.
            assert w.uncertainty_g >= w.noise_g / w.samples**0.5 > 0.6 * times * 38 / 2150 / w.samples**0.5
        pan = bench.scale.status().pan(0)
        assert pan.noise_measured and pan.noise_ratio == pytest.approx(times, rel=0.35)
        assert bench.scale.noise_counts(0) == pytest.approx(times * DATASHEET_NOISE_COUNTS[80], rel=0.35)
        if times == 5:
            assert pan.band_g > 0.1 and "noisy" in pan.message
    finally:
        bench.close()


def test_one_amplifier_on_the_two_channel_firmware(tmp_path, monkeypatch, capsys):
    """Most makers start with one cell: pan A weighs, pan B is named with its wires."""
    monkeypatch.setenv("PURSER_DATA_DIR", str(tmp_path / "data"))
    bench = FirmwareBench(tmp_path, missing=(1,))
    try:
        bench.scale.tare(timeout=15.0)
        bench.place(25.0)
        w = bench.scale.weigh_stable(timeout=15.0)
        assert w.grams == pytest.approx(25.0, abs=bench.tolerance_g) and w.channel == 0
        status = bench.scale.status()
        assert not status.chip_fault
        assert status.pan(0).working and status.pan(1).state == "no_amplifier"
        assert "pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power" in status.message
        # The command line on the same wiring.
        bench.scale.close()
        assert main(["scale", "weigh", bench.url, "--json", "--timeout", "15"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["grams"] == pytest.approx(25.0, abs=bench.tolerance_g)
        assert out["notes"] == ["pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND)"]
        bench.scale = open_scale(bench.url)
    finally:
        bench.close()


def test_a_dout_wire_shorted_to_ground_is_named(fw):
    fw.rig.stuck_low(1)
    deadline = time.monotonic() + 10
    while fw.scale.status().pan(1).state != "dout_low":  # the status is current while nobody reads
        assert time.monotonic() < deadline, fw.scale.status()
        time.sleep(0.1)
    message = fw.scale.status().pan(1).message
    assert message.startswith("pan B: the amplifier's DOUT on D4 is held low")
    fw.place(10.0)
    assert fw.scale.weigh_stable(timeout=15.0).grams == pytest.approx(10.0, abs=fw.tolerance_g)


def test_a_noisy_cable_never_makes_a_wrong_weight(fw):
    """Bits flipped on the way to the host (one line in five damaged): CRC-16 refuses the
    damaged lines, the host's cross-check of grams against raw counts stands behind it,
    and every weight is right."""
    fw.scale.tare(timeout=15.0)
    fw.rig.bit_errors(7e-4, seed=11)
    for load in (20.0, 45.5, 3.3, 120.0):
        fw.clear()
        fw.place(load)
        w = fw.scale.weigh_stable(timeout=20.0)
        assert w.grams == pytest.approx(load, abs=fw.tolerance_g)
    assert fw.scale.garbled >= 10
    assert int(fw.rig.status()["flipped"]) >= fw.scale.garbled


def test_a_stale_calibration_copy_is_caught_and_read_again(fw):
    """If the host's copy of the balance's calibration is wrong, the grams on the lines no
    longer agree with their raw counts: the lines are refused and the copy read again."""
    good = fw.scale.firmware_calibrations[0]
    fw.scale.firmware_calibrations[0] = proto.Calibration("CAL", 0, good.offset, Decimal("1234.5"), "stale")
    before = fw.scale.mismatched
    fw.place(10.0)
    w = fw.scale.weigh_stable(timeout=15.0)
    assert w.grams == pytest.approx(10.0, abs=fw.tolerance_g)
    assert fw.scale.mismatched >= before + 3
    assert fw.scale.firmware_calibrations[0] == good


@pytest.mark.parametrize("outage_s", [1.0, 4.0])
def test_watch_waits_through_a_usb_outage(fw, outage_s):
    fw.place(7.0)
    seen: list[object] = []
    unplugged_at = replugged_at = None
    for item in fw.scale.watch(notice_s=0.5):
        seen.append(item)
        if unplugged_at is None and len(seen) > 80:
            fw.unplug()
            unplugged_at = time.monotonic()
        elif unplugged_at is not None and replugged_at is None and time.monotonic() - unplugged_at >= outage_s:
            fw.replug()
            replugged_at = time.monotonic()
        elif replugged_at is not None and not isinstance(item, Waiting) and item.sample.channel == 0 and item.stable:
            break  # (the other pan, empty, may settle first)
        assert time.monotonic() - (replugged_at or time.monotonic()) < 30, "no readings after the cable came back"
    waits = [item for item in seen if isinstance(item, Waiting)]
    # Unplugged, the port is named; a board just plugged back in may stay quiet a moment
    # longer on a loaded machine, and is then said to be silent.
    unplugged = f"waiting for the balance on {fw.rig.link}"
    silent = f"the balance on {fw.rig.link} is silent: waiting for it (check its cable)"
    assert unplugged in {w.message for w in waits}
    assert {w.message for w in waits} <= {unplugged, silent}
    assert seen[-1].net_g == pytest.approx(7.0, abs=fw.tolerance_g)
    assert fw.scale.reconnects == 1


def test_a_balance_plugged_back_in_under_another_port_name_is_found_there(fw, tmp_path):
    """Linux often names a USB adapter plugged back in ttyUSB1 where it was ttyUSB0: the
    driver opened on the first name finds the same balance under the new one."""
    fw.scale.close()
    first = tmp_path / "ttyUSB0"  # the name the balance had; the rig's link is its new one
    first.symlink_to(fw.rig.port)
    fw.scale = open_scale(f"serial://{first}?handshake=10&ports={tmp_path / 'ttyUSB7'},{fw.rig.link}")
    device = fw.scale.device_id
    fw.unplug()
    first.unlink()
    fw.replug()
    deadline = time.monotonic() + 30
    while fw.scale.port_name != str(fw.rig.link) or not fw.scale.status().connected:
        assert time.monotonic() < deadline, f"still waiting on {fw.scale.port_name}"
        time.sleep(0.1)
    fw.place(12.5)
    assert fw.scale.weigh_stable(timeout=15.0).grams == pytest.approx(12.5, abs=fw.tolerance_g)
    assert fw.scale.device_id == device and fw.scale.reconnects == 1


def test_a_different_balance_on_another_port_is_not_taken_for_the_one_unplugged(fw, tmp_path):
    """Two balances at one table: ours is unplugged, and the other one, with its own id and
    calibration, answers on another port. The driver keeps waiting for its own balance
    instead of weighing on the other one's figures."""
    fw.scale.close()
    first = tmp_path / "ttyUSB0"
    first.symlink_to(fw.rig.port)
    fw.scale = open_scale(f"serial://{first}?handshake=10&ports={fw.rig.link}")
    ours = fw.scale.device_id
    reply = fw.scale.command(proto.id_command("other-pans"), lambda r: isinstance(r, proto.DeviceId), timeout=5.0)
    assert reply == proto.DeviceId("other-pans")  # the board now says it is another balance
    fw.unplug()
    first.unlink()
    fw.replug()
    time.sleep(4.0)  # several searches of the port list
    status = fw.scale.status()
    assert not status.connected and status.message == f"waiting for the balance on {first}: plug it back in"
    assert (fw.scale.port_name, fw.scale.device_id, fw.scale.reconnects) == (str(first), ours, 0)


def test_readings_are_timed_by_the_balance_not_by_a_busy_host(fw):
    """The host stops reading for a while (a busy tablet): the readings it then gets in a
    burst keep the balance's own spacing, 12.5 ms, so a load cannot look steadier than it is."""
    fw.scale._flush()
    switch = sys.getswitchinterval()
    sys.setswitchinterval(0.25)  # the reader thread waits while this one spins
    try:
        end = time.monotonic() + 0.2
        while time.monotonic() < end:
            pass
    finally:
        sys.setswitchinterval(switch)
    samples = []
    for sample in fw.scale.samples(timeout=5.0):
        if sample.channel == 0:
            samples.append(sample)
        if len(samples) >= 40:
            break
    # On a loaded machine the clock may have to start afresh once (a new segment, which no
    # weighing spans, and whose times may lie before the last segment's); within a segment
    # the spacing must hold.
    runs = [list(run) for _, run in itertools.groupby(samples, key=lambda s: s.segment)]
    assert len(runs) <= 2, f"the clock started afresh {len(runs) - 1} times"
    gaps = [b.t - a.t for run in runs for a, b in itertools.pairwise(run)]
    # The board's 12.5 ms (11-14 ms by millis(), as the main loop notices a conversion),
    # to within the 5 % the clock may slew; never a burst. A line lost while the host was
    # away (a full serial buffer on a loaded machine) leaves a gap of whole periods.
    periods = [max(1, round(g / 0.0125)) for g in gaps]
    assert [round(g, 4) for g, k in zip(gaps, periods) if not 0.009 * k <= g <= 0.017 * k] == []
    assert sum(periods) - len(periods) <= 2, "more than two lines lost"
    span = sum(run[-1].t - run[0].t for run in runs)
    assert 0.94 * 0.0125 * sum(periods) <= span <= 1.06 * 0.0125 * sum(periods)


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
