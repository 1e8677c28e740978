"""What every balance must do, checked on each bench (simulator, real firmware in simavr).

The weigh-off must be right: a weight is either the load on the pan (within the
balance's tolerance) or no weight at all, whatever happens to the cable or the chip.
"""

from __future__ import annotations

import math

import pytest

from companion.scale import ScaleError, ScaleFault, ScaleTimeout


def weigh(bench, timeout: float = 15.0, channel: int = 0):
    return bench.scale.weigh_stable(timeout=timeout, channel=channel)


def weigh_collection(bench, pieces):
    """Tare, place ``pieces`` one by one, weigh: the weight is their sum, with its readings."""
    bench.scale.tare()
    for p in pieces:
        bench.place(p)
    w = weigh(bench)
    assert w.grams == pytest.approx(sum(pieces), abs=bench.tolerance_g)
    assert 0 < w.uncertainty_g < 0.1
    assert w.samples == len(w.raw_counts) >= 5
    assert w.calibration == bench.scale.calibration(0).id
    assert w.channel == 0
    return w


@pytest.mark.parametrize("pieces", [[], [4.2], [12.5, 7.3], [3.1, 5.0, 8.8, 1.6, 2.4], [250.0, 120.5]])
def test_a_collection_weighs_what_it_is(bench, pieces):
    weigh_collection(bench, pieces)


def test_a_collection_weighs_what_it_is_at_10_sps(bench10):
    """At 10 readings a second a weight comes as surely as at 80, whether the balance was
    asked for 10 SPS or its amplifier boards are strapped to it."""
    weigh_collection(bench10, [])
    weigh_collection(bench10, [12.5, 7.3])
    bench10.place(30.0)  # placed just before asking: the old weight must not be reported
    assert weigh(bench10).grams == pytest.approx(49.8, abs=bench10.tolerance_g)


def test_weighing_rederives_from_its_raw_counts(bench):
    bench.scale.tare()
    bench.place(42.0)
    w = weigh(bench)
    cal = bench.scale.calibration(0)
    again = math.fsum(cal.grams(r) for r in w.raw_counts) / len(w.raw_counts) - w.tare_g
    assert again == pytest.approx(w.grams, abs=1e-9)


def test_only_readings_after_the_call_count(bench):
    bench.scale.tare()
    bench.place(20.0)
    assert weigh(bench).grams == pytest.approx(20.0, abs=bench.tolerance_g)
    bench.place(30.0)  # placed just before asking: the old, stable 20 g must not be reported
    assert weigh(bench).grams == pytest.approx(50.0, abs=bench.tolerance_g)
    bench.clear()
    assert weigh(bench).grams == pytest.approx(0.0, abs=bench.tolerance_g)


def test_tare_makes_the_present_load_zero(bench):
    bench.place(100.0)
    bench.scale.tare()
    assert weigh(bench).grams == pytest.approx(0.0, abs=bench.tolerance_g)
    bench.place(7.5)
    w = weigh(bench)
    assert w.grams == pytest.approx(7.5, abs=bench.tolerance_g)
    assert w.tare_g == pytest.approx(100.0, abs=bench.tolerance_g)


def test_unplug_mid_weighing_never_mixes_readings_from_both_sides(bench):
    bench.scale.tare()
    bench.place(60.0)
    weigh(bench)
    start = bench.now()
    bench.later(0.3, bench.unplug)
    bench.later(0.35, lambda: bench.place(0.04))  # within the motion band: a mixed window would pass
    bench.later(1.5, bench.replug)
    w = weigh(bench, timeout=20.0)
    # The weight comes from a whole window read after the cable came back.
    assert bench.now() - start >= 1.5 + bench.scale.window_s * 0.8
    assert w.grams == pytest.approx(60.04, abs=bench.tolerance_g)


def test_no_weight_while_unplugged(bench):
    bench.scale.tare()
    bench.unplug()
    with pytest.raises(ScaleTimeout, match=r"disconnected|no steady weight"):
        weigh(bench, timeout=2.0)
    assert not bench.scale.status().connected
    bench.replug()
    assert weigh(bench).grams == pytest.approx(0.0, abs=bench.tolerance_g)


def test_constant_motion_gives_a_clear_timeout_not_a_weight(bench):
    bench.scale.tare()
    for i in range(40):
        bench.later(0.1 * i, lambda: bench.place(5.0))
    with pytest.raises(ScaleTimeout) as err:
        weigh(bench, timeout=3.0)
    assert "no steady weight" in str(err.value)
    assert bench.scale.status().unstable


@pytest.mark.parametrize(
    "fault, message, flag, state",
    [
        ("chip_missing", "pan A: no amplifier answers - check DOUT on D2, SCK on D3", "chip_fault", "no_amplifier"),
        ("saturate", "overloaded", "saturated", "saturated"),
    ],
)
def test_a_chip_fault_is_a_fault_never_a_number(bench, fault, message, flag, state):
    bench.scale.tare()
    getattr(bench, fault)(True)
    with pytest.raises(ScaleFault, match=message):
        weigh(bench, timeout=5.0)
    status = bench.scale.status()
    assert status.pan(0).state == state and message.split(" - ")[0] in status.message
    # The balance as a whole is faulty only when no pan can weigh (the firmware's second
    # pan still works).
    assert getattr(status, flag) == (bench.scale.channels == 1)
    getattr(bench, fault)(False)
    assert weigh(bench).grams == pytest.approx(0.0, abs=bench.tolerance_g)


def test_over_capacity_is_refused(bench):
    bench.scale.tare()
    cal = bench.scale.calibration(0)
    bench.place(cal.capacity_g + 10 * cal.interval_g)
    with pytest.raises(ScaleFault, match="overloaded"):
        weigh(bench, timeout=5.0)


def test_two_pans_weigh_separately(bench2):
    scale = bench2.scale
    assert scale.channels == 2
    scale.tare(0)
    scale.tare(1)
    bench2.place(30.0, channel=0)
    bench2.place(45.5, channel=1)
    a = weigh(bench2, channel=0)
    b = weigh(bench2, channel=1)
    assert (a.channel, b.channel) == (0, 1)
    assert a.grams == pytest.approx(30.0, abs=bench2.tolerance_g)
    assert b.grams == pytest.approx(45.5, abs=bench2.tolerance_g)


@pytest.mark.parametrize(
    "channel, named",
    [(2, "pan C (channel 2)"), (-1, "channel -1"), ("0", "channel '0'"), (True, "channel True")],
)
def test_a_pan_that_does_not_exist_is_refused(bench, channel, named):
    with pytest.raises(ScaleError, match=r"this balance has (one pan \(A|\d pans \(A and B)") as caught:
        bench.scale.weigh_stable(timeout=1.0, channel=channel)
    assert str(caught.value).endswith(f"; there is no {named}")


def test_readings_report_stability(bench):
    bench.scale.tare()
    bench.place(80.0)
    seen = []
    for reading in bench.scale.readings(timeout=5.0):
        seen.append(reading)
        if len(seen) >= 400 or (reading.stable and reading.net_g > 1.0):
            break
    arrived = next(i for i, r in enumerate(seen) if r.net_g is not None and r.net_g > 1.0)
    assert not seen[arrived].stable  # the first reading of a new load is never "stable"
    assert not any(r.stable for r in seen if r.net_g is not None and 1.0 < r.net_g < 79.0)
    assert seen[-1].stable
    assert seen[-1].net_g == pytest.approx(80.0, abs=bench.tolerance_g)
