"""Hardware wiring: a camera action resolved into the dice read, within the table's tray."""

from __future__ import annotations

from companion.session.hardware import Hardware
from companion.vision.tray import Tray

CAMERA = "sim://?dice=5&seed=7"


def _centres_x(action: dict) -> list[float]:
    return [d["box"][0] + d["box"][2] / 2 for d in action["detections"]["dice"]]


def test_a_camera_action_gets_the_dice_read_and_keeps_everything_else():
    with Hardware("sim://", CAMERA) as hw:
        action = hw.resolve({"type": "roll", "player": "Ana", "from": "camera", "keep": [6]})
    assert "from" not in action and action["type"] == "roll" and action["keep"] == [6]
    dice = action["detections"]["dice"]
    assert len(dice) == 5 and all(1 <= d["value"] <= 6 for d in dice)
    assert action["detections"]["unsure"] == sum(d["unsure"] for d in dice)


def test_the_tray_in_the_camera_address_leaves_dice_outside_it_unread():
    with Hardware("sim://", CAMERA) as hw:
        everywhere = hw.resolve({"type": "roll", "player": "Ana", "from": "camera"})
    xs = sorted(_centres_x(everywhere))
    split = (xs[0] + xs[-1]) / 2 / 640  # the picture is 640 wide
    tray = Tray.rectangle(0.0, 0.0, split, 1.0)
    with Hardware("sim://", f"{CAMERA}&tray={tray}") as hw:
        inside = hw.resolve({"type": "roll", "player": "Ana", "from": "camera"})
    kept = [x for x in xs if x < split * 640]
    assert 0 < len(kept) < len(xs)
    assert sorted(_centres_x(inside)) == kept  # the same dice as before, only those in the tray
    assert [d["value"] for d in sorted(inside["detections"]["dice"], key=lambda d: d["box"][0])] == [
        d["value"]
        for d in sorted(everywhere["detections"]["dice"], key=lambda d: d["box"][0])
        if d["box"][0] + d["box"][2] / 2 < split * 640
    ]
