"""Reading times from the board's clock: bursts keep their spacing, slow boards are
followed, wraps and restarts are seen."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.scale.boardclock import MS_MODULO, SLEW, BoardClock


def _run(clock: BoardClock, lines: list[tuple[int, float]]) -> list[tuple[float, bool]]:
    return [clock.to_host(ms, arrived) for ms, arrived in lines]


def test_prompt_lines_keep_the_boards_spacing():
    rng = random.Random(1)
    clock = BoardClock()
    lines = [(12 * i + 1000, 50.0 + 0.012 * i + rng.uniform(0.0005, 0.003)) for i in range(400)]
    times = [t for t, _ in _run(clock, lines)]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert all(0.012 * (1 - SLEW) - 1e-9 <= g <= 0.012 * 1.02 for g in gaps)
    assert all(t <= arrived + 0.1 for t, (_, arrived) in zip(times, lines, strict=False))


def test_a_burst_read_late_is_not_squeezed_together():
    """The host read nothing for 0.3 s, then 25 lines at once: their times are the board's."""
    clock = BoardClock()
    before = [(12 * i, 10.0 + 0.012 * i + 0.001) for i in range(100)]
    _run(clock, before)
    burst = [(12 * i, 10.0 + 0.012 * 125 + 0.002) for i in range(100, 125)]
    clock.expect(burst[-1][0], burst[-1][1])
    times = [t for t, _ in _run(clock, burst)]
    assert all(g == pytest.approx(0.012, abs=1e-9) for g in (b - a for a, b in itertools.pairwise(times)))


def test_a_board_running_slow_is_followed():
    """A simulated board at 60 % of real time: times stay close to arrival (a weighing's
    'readings after the call' still means something) and are never squeezed."""
    clock = BoardClock()
    lines = [(12 * i, 0.012 * i / 0.6 + 0.002) for i in range(2000)]  # 40 s of host time
    out = _run(clock, lines)
    times = [t for t, _ in out]
    late = [arrived - t for t, (_, arrived) in zip(times[-200:], lines[-200:], strict=False)]
    assert max(late) < 0.3
    assert all(b - a >= 0.012 * (1 - SLEW) - 1e-9 for a, b in itertools.pairwise(times))
    assert clock.rate() == pytest.approx(1 / 0.6 - 1, rel=0.1)


def test_the_millisecond_counter_wraps_without_a_break():
    clock = BoardClock()
    start = MS_MODULO - 60
    lines = [((start + 12 * i) % MS_MODULO, 100.0 + 0.012 * i) for i in range(10)]
    out = _run(clock, lines)
    assert not any(restarted for _, restarted in out)
    assert [round(b[0] - a[0], 6) for a, b in itertools.pairwise(out)] == [0.012] * 9


def test_a_restart_whose_hello_was_lost_starts_afresh():
    clock = BoardClock()
    _run(clock, [(50_000 + 12 * i, 1.0 + 0.012 * i) for i in range(10)])
    t, restarted = clock.to_host(30, 1.2)
    assert restarted and t == pytest.approx(1.2)


def test_an_offset_far_too_late_is_reset_and_said():
    clock = BoardClock()
    # The first line sat in a buffer for half a second; then lines come promptly.
    first = clock.to_host(0, 10.5)
    assert not first[1]
    t, restarted = clock.to_host(12, 10.013)
    assert restarted and t == pytest.approx(10.013)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 0.05), min_size=20, max_size=200), st.integers(0, MS_MODULO - 1))
def test_times_never_bunch_up_whatever_the_delays(delays, start):
    """However late each line arrives (up to 50 ms), readings stay at least 95 % of the
    board's spacing apart, and a time is never more than 0.1 s after its line arrived."""
    clock = BoardClock()
    times = []
    for i, delay in enumerate(delays):
        ms = (start + 12 * i) % MS_MODULO
        arrived = 7.0 + 0.012 * i + delay
        t, _ = clock.to_host(ms, arrived)
        times.append((t, arrived))
    for (a, _), (b, _) in itertools.pairwise(times):
        assert b - a >= 0.012 * (1 - SLEW) - 1e-9
    assert all(t <= arrived + 0.1 + 1e-9 for t, arrived in times)


def test_a_busy_second_does_not_teach_the_clock_a_wrong_rate():
    """Lines read 0.2 s late for a while (a busy host) must not be taken for a board that
    runs slow: the burst keeps the board's spacing and no reset follows."""
    clock = BoardClock()
    _run(clock, [(12 * i, 0.012 * i + 0.001) for i in range(400)])  # 4.8 s of prompt lines
    late = [(12 * i, 0.012 * i + 0.2) for i in range(400, 420)]
    clock.expect(late[-1][0], late[-1][1])
    out = _run(clock, late) + _run(clock, [(12 * i, 0.012 * i + 0.001) for i in range(420, 600)])
    assert not any(restarted for _, restarted in out)
    times = [t for t, _ in out]
    assert all(0.012 * (1 - SLEW) - 1e-9 <= b - a <= 0.012 * 1.1 for a, b in itertools.pairwise(times))
    assert clock.rate() < 0.02


def test_a_board_slower_than_the_offset_may_follow_is_caught_up_with():
    """A board at 40 % of real time falls behind faster than the offset may grow: the clock
    catches up (starting afresh) rather than lagging ever further."""
    clock = BoardClock()
    lines = [(12 * i, 0.012 * i / 0.4) for i in range(3000)]  # 90 s of host time
    out = _run(clock, lines)
    late = [arrived - t for (t, _), (_, arrived) in zip(out, lines, strict=False)]
    assert max(late[-500:]) < 1.0
    assert any(restarted for _, restarted in out)
