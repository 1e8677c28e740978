"""`purser dice read / eval / watch` through the real command line."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import cv2

DATA = Path(__file__).with_name("data")


def purser(*args, expect=0):
    r = subprocess.run(
        [sys.executable, "-m", "companion", "dice", *args], capture_output=True, text=True, check=False, timeout=300
    )
    assert r.returncode == expect, r.stderr + r.stdout
    return r


def sample_images():
    return sorted((DATA / "images").glob("*.jpg"))


def test_read_json_lines_and_annotate(tmp_path):
    images = sample_images()[:2]
    out = tmp_path / "marked"
    r = purser("read", *map(str, images), "--json", "--annotate", str(out))
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [rec["image"] for rec in lines] == [str(p) for p in images]
    for rec in lines:
        assert rec["dice"] and rec["unsure"] == sum(d["unsure"] for d in rec["dice"])
        for d in rec["dice"]:
            assert 1 <= d["value"] <= 6 and len(d["box"]) == 4 and 0 <= d["confidence"] <= 1
    marked = sorted(out.glob("*.png"))
    assert [p.stem for p in marked] == [p.stem for p in images]
    assert cv2.imread(str(marked[0])).shape == cv2.imread(str(images[0])).shape


def test_read_text_and_single_annotation(tmp_path):
    image = sample_images()[0]
    target = tmp_path / "one.png"
    r = purser("read", str(image), "--annotate", str(target))
    assert r.stdout.startswith(f"{image}: ") and target.is_file()


def test_read_reports_bad_files_and_goes_on(tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"nope")
    r = purser("read", str(tmp_path / "missing.jpg"), str(bad), str(sample_images()[0]), "--json", expect=1)
    assert "no picture at" in r.stderr and "not a picture" in r.stderr
    assert len(r.stdout.splitlines()) == 1


def test_read_with_the_tray_found_automatically():
    r = purser("read", str(sample_images()[0]), "--json", "--tray", "auto")
    rec = json.loads(r.stdout)
    assert rec["count"] == len(rec["dice"]) and rec["unreadable"] == sum(not d["readable"] for d in rec["dice"])


def test_read_refuses_a_bad_tray():
    r = purser("read", str(sample_images()[0]), "--tray", "1,2,3", expect=2)
    assert "cannot read the tray" in r.stderr


def test_eval_on_the_sample_photos(tmp_path):
    r = purser("eval", str(DATA), "--json")
    figures = json.loads(r.stdout)
    total = figures["all"]
    assert total["images"] == len(sample_images())
    assert total["dice"] == sum(
        len(json.loads(row)["dice"]) for row in (DATA / "labels.jsonl").read_text().splitlines()
    )
    assert {"nb", "mp", "all"} == set(figures)
    assert len(total["confusion"]) == 7 and total["median_ms"] > 0
    text = purser("eval", str(DATA)).stdout
    assert "dice read right" in text and "confusion" in text and "median latency" in text
    assert "read confidently" in text and "confident phantoms" in text
    assert {"read_confidently", "confident_wrong", "confident_phantoms_per_100"} <= set(total)


def test_eval_with_no_labels(tmp_path):
    (tmp_path / "labels.jsonl").write_text("")
    figures = json.loads(purser("eval", str(tmp_path), "--json").stdout)
    assert figures["all"]["images"] == 0 and figures["all"]["dice"] == 0


def test_eval_on_a_missing_folder(tmp_path):
    r = purser("eval", str(tmp_path / "nowhere"), expect=2)
    assert "cannot read the labels" in r.stderr


def test_eval_counts_a_wrong_label(tmp_path):
    """Changing one label of a die the reader gets right costs exactly that die."""
    from companion.vision import read_dice
    from companion.vision.evaluate import Reading, load_labels, match
    from companion.vision.sources import read_image

    shutil.copytree(DATA / "images", tmp_path / "images")
    lines = (DATA / "labels.jsonl").read_text().splitlines()
    before = json.loads(purser("eval", str(DATA), "--json").stdout)["all"]
    changed = None
    for k, lab in enumerate(load_labels(DATA)):
        det = read_dice(read_image(DATA / lab.image))
        result = match(lab, [Reading(d.value, d.box) for d in det])
        if result.all_right:
            changed = k
            break
    assert changed is not None, "the reader gets no sample photo all right"
    rec = json.loads(lines[changed])
    rec["dice"][0]["value"] = rec["dice"][0]["value"] % 6 + 1  # now disagrees with the photo
    lines[changed] = json.dumps(rec)
    (tmp_path / "labels.jsonl").write_text("\n".join(lines) + "\n")
    after = json.loads(purser("eval", str(tmp_path), "--json").stdout)["all"]
    n = before["dice"]
    assert after["dice"] == n
    assert round(after["die_accuracy"] * n) == round(before["die_accuracy"] * n) - 1
    assert round(after["image_all_right"] * after["images"]) == round(before["image_all_right"] * before["images"]) - 1


def test_watch_the_simulator_reads_each_roll():
    r = purser("watch", "--camera", "sim://?seed=3&dice=3&still=8&tumble=3", "--fps", "10", "--rolls", "2")
    rolls = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["roll"] for x in rolls] == [1, 2]
    # 11 frames a roll: 3 tumbling, then 8 still; a roll is read after 0.6 s of stillness
    assert all(x["frame"] % 11 >= 3 + 6 for x in rolls)
    assert all(len(x["dice"]) >= 1 for x in rolls)


def test_watch_a_missing_camera():
    r = purser("watch", "--camera", "cv://57", expect=7)
    assert "no camera 57" in r.stderr
