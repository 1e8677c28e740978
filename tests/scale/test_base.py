"""What the bare ``Scale`` interface gives a backend that supplies only its readings."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from companion.scale.base import Reading, Sample, Scale, ScaleStatus, Waiting, Weighing
from companion.scale.calprocedure import Plan, calibrate, simulator_of
from companion.scale.errors import ScaleError, ScaleTimeout
from companion.scale.sim import SimScale


class ListScale(Scale):
    """A backend that plays back a list of readings, then times out once per list."""

    url = "list://"
    channels = 2

    def __init__(self, *batches: list[Reading]) -> None:
        self.batches = list(batches)

    def readings(self, timeout: float = 2.0) -> Iterator[Reading]:
        if not self.batches:
            raise ScaleError("the list is played out")
        yield from self.batches.pop(0)
        raise ScaleTimeout(f"nothing for {timeout} s")

    def tare(self, channel: int = 0, timeout: float = 10.0) -> None:
        raise NotImplementedError

    def weigh_stable(self, timeout: float = 10.0, channel: int = 0) -> Weighing:
        raise NotImplementedError

    def status(self) -> ScaleStatus:
        return ScaleStatus(connected=True)


def reading(t: float, channel: int = 0, grams: float = 1.0) -> Reading:
    return Reading(Sample(t, channel, 100, grams), grams, True, "steady")


def test_watch_says_waiting_when_readings_stop_and_carries_on_when_they_come_back() -> None:
    scale = ListScale([reading(0.0), reading(0.1)], [reading(5.0)])
    seen: list[Reading | Waiting] = []
    with pytest.raises(ScaleError, match="played out"):
        for item in scale.watch(notice_s=0.5):
            seen.append(item)
    kinds = [type(x).__name__ for x in seen]
    assert kinds == ["Reading", "Reading", "Waiting", "Reading", "Waiting"]
    assert "waiting for the balance list://" in seen[2].message  # type: ignore[union-attr]


@pytest.mark.parametrize(("channel", "expected"), [(None, [0.0, 0.1, 0.2]), (1, [0.1]), (0, [0.0, 0.2])])
def test_fresh_samples_keeps_only_the_pan_asked_for(channel: int | None, expected: list[float]) -> None:
    scale = ListScale([reading(0.0, 0), reading(0.1, 1), reading(0.2, 0)])
    got: list[float] = []
    with pytest.raises(ScaleTimeout):
        for sample in scale.fresh_samples(channel):
            got.append(sample.t)
    assert got == expected


def test_samples_are_the_readings_samples_and_an_empty_stream_times_out() -> None:
    assert [s.t for s in _until_timeout(ListScale([reading(0.0), reading(0.3)]).samples())] == [0.0, 0.3]
    assert _until_timeout(ListScale([]).samples()) == []


def _until_timeout(stream: Iterator[Sample]) -> list[Sample]:
    got: list[Sample] = []
    with pytest.raises(ScaleTimeout):
        got.extend(stream)
    return got


def test_a_backend_that_cannot_tell_gives_no_diagnosis() -> None:
    assert ListScale().diagnose(0) is None


def test_calibration_is_refused_on_a_balance_that_keeps_no_calibration() -> None:
    asked: list[float] = []
    with pytest.raises(ScaleError, match="cannot be calibrated"):
        calibrate(ListScale([reading(0.0)]), Plan(masses=(100.0, 200.0)), lambda m, i, n: asked.append(m))
    assert asked == []  # refused before anyone is asked to load the pan


def test_only_the_built_in_simulator_places_masses_itself() -> None:
    assert simulator_of(ListScale()) is None
    sim = SimScale(virtual=True)
    try:
        assert simulator_of(sim) is sim
    finally:
        sim.close()
