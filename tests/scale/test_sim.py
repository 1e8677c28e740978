"""The simulated balance: URL settings, scripting, the cell model, both clocks."""

from __future__ import annotations

import time

import numpy as np
import pytest

from companion.scale import ScaleError, ScaleFault, ScaleTimeout, ScaleUsageError, open_scale
from companion.scale.simcell import RAW_MAX, CellParams, Pan


def test_pieces_in_the_url_are_on_the_pan_from_the_start():
    scale = open_scale("sim://?pieces=12.5,7.3&clock=virtual")
    assert scale.pieces() == (12.5, 7.3)
    assert scale.weigh_stable().grams == pytest.approx(19.8, abs=0.02)


def test_two_pans_from_the_url():
    scale = open_scale("sim://?channels=2&pieces=10&pieces1=4,4&clock=virtual")
    assert scale.channels == 2
    assert scale.weigh_stable(channel=1).grams == pytest.approx(8.0, abs=0.02)
    assert scale.weigh_stable(channel=0).grams == pytest.approx(10.0, abs=0.02)


@pytest.mark.parametrize(
    "url, message",
    [
        ("sim://?rate=40", "rate='40'"),
        ("sim://?channels=3", "channels='3'"),
        ("sim://?noise=loud", "noise='loud'"),
        ("sim://?pieces=1,heavy", "grams separated by commas"),
        ("sim://?pieces=-4", "grams separated by commas"),
        ("sim://?pieces1=4", "pieces1 needs channels=2"),
        ("sim://?clock=fast", "clock='fast'"),
        ("sim://?colour=red", "does not know the setting"),
        ("sim://?seed=1&seed=2", "given twice"),
    ],
)
def test_bad_settings_are_refused_with_their_name(url, message):
    with pytest.raises(ScaleError, match=message):
        open_scale(url)


def test_the_same_seed_gives_the_same_readings():
    a = open_scale("sim://?clock=virtual&seed=4&pieces=50")
    b = open_scale("sim://?clock=virtual&seed=4&pieces=50")
    assert a.weigh_stable().raw_counts == b.weigh_stable().raw_counts


@pytest.mark.parametrize("rate", [10, 80])
def test_datasheet_noise_at_each_rate(rate):
    scale = open_scale(f"sim://?clock=virtual&rate={rate}&drift=0&creep=0&seed=1")
    raws = [s.raw for s, _ in zip(scale.fresh_samples(), range(400), strict=False)]
    expected = {10: 21.0, 80: 38.0}[rate]
    assert np.std(raws) == pytest.approx(expected, rel=0.15)
    times = [s.t for s, _ in zip(scale.fresh_samples(), range(3), strict=False)]
    assert np.diff(times) == pytest.approx([1 / rate] * 2)


def test_noiseless_sim_reads_exact_counts():
    scale = open_scale("sim://?clock=virtual&noise=0&drift=0&creep=0&nonlinearity=0&pieces=100")
    raws = {s.raw for s, _ in zip(scale.fresh_samples(), range(20), strict=False)}
    assert raws == {84_213 + 215_000}


def test_removing_a_piece_that_is_not_there_is_refused():
    scale = open_scale("sim://?pieces=5&clock=virtual")
    with pytest.raises(ScaleError, match="no 6 g piece"):
        scale.remove(6.0)
    assert scale.remove(5.0) == [5.0]
    assert scale.pieces() == ()


def test_placing_rings_and_settles():
    pan = Pan(CellParams(noise_counts=0, drift=0, creep=0, nonlinearity=0))
    pan.change(0.0, 200.0, np.random.default_rng(1))
    loads = [pan.true_load(t) for t in np.arange(0, 2.0, 0.005)]
    assert max(loads) > 200.0 * 1.02  # it overshoots
    assert pan.true_load(3.0) == pytest.approx(200.0, abs=1e-6)
    settle = pan.settling_time(0.0, 0.05)
    assert 0.3 < settle < 2.0
    assert all(abs(pan.true_load(t) - 200.0) <= 0.05 for t in np.arange(settle, settle + 1, 0.001))


def test_creep_adds_a_little_of_the_load_over_minutes():
    pan = Pan(CellParams(drift=0, creep=2e-4, creep_s=600))
    pan.change(0.0, 500.0, np.random.default_rng(1), settled=True)
    assert pan.true_load(1800.0) - pan.true_load(5.0) == pytest.approx(500 * 2e-4 * 0.95, rel=0.05)


def test_adc_saturates_at_full_scale():
    pan = Pan(CellParams(noise_counts=0, drift=0, creep=0))
    pan.change(0.0, 4000.0, np.random.default_rng(1), settled=True)
    assert pan.raw(1.0, np.random.default_rng(1)) == (RAW_MAX, True)


def test_spikes_are_rejected_not_weighed():
    scale = open_scale("sim://?clock=virtual&spikes=0.03&seed=9&pieces=25")
    for _ in range(5):
        assert scale.weigh_stable().grams == pytest.approx(25.0, abs=0.05)


def test_advance_and_at_run_on_the_virtual_clock():
    scale = open_scale("sim://?clock=virtual")
    hits = []
    scale.at(2.0, lambda: hits.append(scale.now()))
    scale.advance(1.0)
    assert hits == []
    scale.advance(1.5)
    assert hits == [2.0]


def test_advance_needs_the_virtual_clock():
    with pytest.raises(ScaleError, match="virtual"):
        open_scale("sim://").advance(1.0)


def test_virtual_timeout_costs_no_real_time():
    scale = open_scale("sim://?clock=virtual")
    scale.unplug()
    started = time.monotonic()
    with pytest.raises(ScaleTimeout):
        scale.weigh_stable(timeout=600.0)
    assert scale.now() >= 600.0
    assert time.monotonic() - started < 30.0  # generous: this machine is shared


def test_real_clock_paces_readings():
    scale = open_scale("sim://?rate=80")
    samples = [s for s, _ in zip(scale.fresh_samples(), range(9), strict=False)]
    span = samples[-1].t - samples[0].t
    assert span == pytest.approx(0.1, abs=1e-9)
    assert time.monotonic() >= samples[-1].t


def test_status_says_it_is_simulated():
    scale = open_scale("sim://")
    status = scale.status()
    assert status.simulated and status.connected
    assert "Simulated" in status.message
    scale.unplug()
    assert not scale.status().connected


def test_saved_profile_is_used_only_when_asked(tmp_path):
    from companion.scale.profile import Calibration, SavedProfile, save_profile

    cal = Calibration(counts_per_gram=2000.0, zero_counts=84_213.0, sigma_g=0.02, device_id="sim", channel=0)
    save_profile(SavedProfile(cal))
    assert open_scale("sim://").calibration(0).source == "factory"
    assert open_scale("sim://?profile=saved").calibration(0) == cal


def test_a_missing_amplifier_is_one_pan_down_not_the_balance():
    scale = open_scale("sim://?clock=virtual&channels=2&missing=1&pieces=25")
    assert scale.weigh_stable(channel=0).grams == pytest.approx(25.0, abs=0.06)
    status = scale.status()
    assert not status.chip_fault and not status.saturated
    a, b = status.pans
    assert (a.name, a.state, a.working) == ("A", "ok", True)
    assert (b.name, b.state, b.working) == ("B", "no_amplifier", False)
    assert b.message == "pan B: no amplifier answers - check DOUT on D4, SCK on D5 and its power (VCC, GND)"
    assert status.faults() == [b.message] and b.message in status.message
    assert status.note == "Simulated balance: weights are not real"  # not the pan's trouble
    with pytest.raises(ScaleFault, match="pan B: no amplifier answers"):
        scale.weigh_stable(timeout=2.0, channel=1)
    scale.set_fault(False, 1)
    assert scale.weigh_stable(channel=1).grams == pytest.approx(0.0, abs=0.06)


def test_no_amplifier_at_all_is_a_faulty_balance():
    scale = open_scale("sim://?clock=virtual&channels=2&missing=0,1")
    scale.survey(1.0)
    status = scale.status()
    assert status.chip_fault and [p.state for p in status.pans] == ["no_amplifier", "no_amplifier"]


def test_a_dout_shorted_to_ground_is_told_from_a_missing_amplifier():
    scale = open_scale("sim://?clock=virtual")
    scale.set_fault(True, 0, kind="dout_low")
    with pytest.raises(ScaleFault, match="DOUT on D2 is held low"):
        scale.weigh_stable(timeout=2.0)
    assert scale.status().pan(0).state == "dout_low"


def test_a_faulty_reading_has_no_raw_count():
    scale = open_scale("sim://?clock=virtual&missing=0")
    reading = next(scale.readings())
    assert reading.sample.raw is None and reading.net_g is None
    assert reading.to_json()["raw"] is None and "no amplifier answers" in reading.to_json()["message"]


@pytest.mark.parametrize(
    "url, message",
    [
        ("sim://?missing=1", "must name pans of this balance"),
        ("sim://?missing=a", "must name pans"),
        ("sim://?noise=fivex", "must be datasheet, a multiple like 5x, or grams"),
    ],
)
def test_bad_simulator_settings_are_usage_errors(url, message):
    with pytest.raises(ScaleUsageError, match=message):
        open_scale(url)


def test_off_centre_pieces_read_off_by_the_corner_error():
    scale = open_scale("sim://?clock=virtual&corner=0.001&noise=0&drift=0&creep=0&nonlinearity=0")
    scale.place(100.0, position="back-right", settled=True)
    assert scale.true_load() == pytest.approx(100.1)
    scale.clear()
    scale.advance(5.0)  # the pan stops bouncing
    scale.place(100.0, position="front-left", settled=True)
    assert scale.true_load() == pytest.approx(99.9)
    with pytest.raises(ScaleUsageError, match="position 'middle'"):
        scale.place(1.0, position="middle")
