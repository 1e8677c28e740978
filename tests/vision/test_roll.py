"""Roll detection over frame streams: one reading per roll, none while dice or hands move."""

import cv2
import numpy as np
import pytest

from companion.vision import RollSettings, RollWatcher, Tray, open_source, read_dice
from companion.vision.sources import SimSource

FPS = 10.0


def feed_all(watcher, frames):
    """Feed frames at FPS; returns [(frame index, reading)]."""
    out = []
    for i, frame in enumerate(frames):
        reading = watcher.feed(frame, i / FPS)
        if reading is not None:
            out.append((i, reading))
    return out


def test_one_reading_per_simulated_roll_from_a_recorded_video(tmp_path):
    sim = SimSource(seed=5, dice=4, still=12, tumble=4)
    frames = [sim.read() for _ in range(48)]  # three rolls: 4 tumbling then 12 still frames each
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (640, 480))
    for f in frames:
        writer.write(f)
    writer.release()
    with open_source(f"file://{path}") as video:
        readings = feed_all(RollWatcher(), video.frames())
    assert len(readings) == 3
    for (i, reading), roll in zip(readings, range(3)):
        start = roll * 16
        # read only once the dice have been still for 0.6 s, and within that roll's still frames
        assert start + 4 + 6 <= i < start + 16
        assert not any(sim.is_tumbling(j) for j in range(i - 6, i + 1))
        assert reading.detections.to_json() == read_dice(reading.frame).to_json()


def hand(frame, x, y):
    out = frame.copy()
    cv2.ellipse(out, (x, y), (70, 110), 20.0, 0, 360, (120, 150, 200), -1)
    return out


def test_hand_pauses_and_passes_give_no_second_reading():
    sim = SimSource(seed=8, dice=3)
    still = sim.read()
    other = SimSource(seed=9, dice=3).read()
    noise = np.random.default_rng(0)
    jitter = lambda f: np.clip(f + noise.normal(0, 1.5, f.shape), 0, 255).astype(np.uint8)  # noqa: E731
    frames = [jitter(still) for _ in range(8)]  # dice lying there: read once
    frames += [hand(still, 100 + 60 * k, 300) for k in range(3)]  # a hand comes in
    frames += [hand(still, 280, 300)] * 3  # and pauses for 0.3 s
    frames += [hand(still, 340 + 60 * k, 300) for k in range(3)]  # and goes away
    frames += [jitter(still) for _ in range(10)]  # dice as they were: not a new roll
    frames += [hand(other, 300, 200 + 20 * k) for k in range(3)]  # a real new roll
    frames += [jitter(other) for _ in range(10)]
    readings = feed_all(RollWatcher(), frames)
    assert [i for i, _ in readings] == [6, 37]


def test_not_armed_means_dice_already_lying_there_are_not_read():
    frame = SimSource(seed=3, dice=2).read()
    assert feed_all(RollWatcher(armed=False), [frame] * 12) == []
    assert len(feed_all(RollWatcher(armed=True), [frame] * 12)) == 1


def test_motion_outside_the_tray_is_ignored():
    frame = SimSource(seed=4, dice=2, width=640, height=480).read()
    watcher = RollWatcher(tray=Tray.rectangle(0.0, 0.0, 0.5, 1.0))
    frames = [frame] * 8 + [hand(frame, 560, 100 + 40 * k) for k in range(6)] + [frame] * 8
    assert [i for i, _ in feed_all(watcher, frames)] == [6]


@pytest.mark.parametrize("still_seconds, expect", [(0.2, 1), (5.0, 0)])
def test_still_time_setting(still_seconds, expect):
    frame = SimSource(seed=6, dice=2).read()
    watcher = RollWatcher(settings=RollSettings(still_seconds=still_seconds, still_frames=2))
    assert len(feed_all(watcher, [frame] * 10)) == expect
