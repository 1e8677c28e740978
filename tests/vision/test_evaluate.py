"""Scoring readings against labels: matching by centre, totals, the confusion matrix."""

import json

import numpy as np
import pytest

from companion.vision.evaluate import (
    BadLabels,
    Label,
    LabelledImage,
    Reading,
    format_scores,
    headline_row,
    in_box,
    in_boxes,
    load_labels,
    match,
    score,
    score_by_group,
)


def img(kind, *dice, name="nb_x.jpg"):
    return LabelledImage(name, kind, tuple(Label(v, b) for v, b in dice))


def test_nothing_labelled_nothing_read():
    r = match(img("die"), [])
    assert r.pairs == [] and r.missed == [] and r.extra == [] and r.all_right
    s = score([r])
    assert (s.images, s.dice, s.correct, s.missed, s.extra, s.images_all_right) == (1, 0, 0, 0, 0, 1)
    assert s.to_json()["die_accuracy"] == 0.0


def test_no_images_at_all():
    s = score([])
    assert s.images == 0 and s.median_ms == 0.0
    assert "0 photos" in format_scores("all", s)


def test_die_boxes_match_by_centre_inside_the_box():
    lab = img("die", (5, (100, 100, 40, 40)))
    assert match(lab, [Reading(5, (105, 95, 40, 40))]).all_right  # centre inside
    r = match(lab, [Reading(5, (125, 100, 40, 40))])  # centre 145,120: outside the box
    assert r.missed == [5] and r.extra == [(5, False)] and not r.all_right
    assert r.missed_at == [0]


def test_pip_boxes_match_within_one_box_size():
    lab = img("pips", (1, (200, 200, 10, 10)))  # a "1": the box covers just the pip
    near = match(lab, [Reading(1, (190, 192, 40, 40))])  # reading centre 210,212: 7 px away
    assert near.all_right
    far = match(lab, [Reading(1, (220, 200, 40, 40))])  # 35 px away, box size 10
    assert far.missed == [1] and len(far.extra) == 1


def test_a_one_in_pip_boxes_matches_within_half_the_photos_dice():
    # the other dice's pip boxes span 36 px: dice of 50 px, so a one reaches 25 px
    lab = img("pips", (1, (200, 200, 10, 10)), (4, (400, 400, 36, 36)), (6, (500, 100, 36, 36)))
    read = [Reading(4, (393, 393, 50, 50)), Reading(6, (493, 93, 50, 50))]
    near = match(lab, [Reading(1, (195, 218, 20, 20)), *read])  # centre 205,228: 23 px away
    assert near.all_right
    far = match(lab, [Reading(1, (195, 222, 20, 20)), *read])  # 27 px away
    assert far.missed == [1] and len(far.extra) == 1


def test_a_one_with_whole_die_boxes_still_needs_its_centre_inside():
    lab = img("die", (1, (200, 200, 20, 20)), (4, (400, 400, 50, 50)))
    r = match(lab, [Reading(1, (205, 215, 20, 20)), Reading(4, (400, 400, 50, 50))])  # centre 215,225
    assert r.missed == [1] and r.missed_at == [0]
    other = match(lab, [Reading(1, (200, 200, 20, 20))])
    assert other.missed == [4] and other.missed_at == [1]


@pytest.mark.parametrize(
    ("points", "inside"),
    [
        ([], []),
        ([(15, 25)], [True]),
        ([(10, 20), (40, 60)], [True, True]),  # the edges belong to the box
        ([(9.9, 25), (15, 60.1), (100, 100)], [False, False, False]),
    ],
)
def test_in_box_tells_which_points_lie_in_the_box(points, inside):
    assert in_box(np.array(points, float), (10, 20, 30, 40)).tolist() == inside


@pytest.mark.parametrize(
    ("points", "boxes", "inside"),
    [
        ([], [], []),
        ([(15, 25)], [], []),
        ([], [(10, 20, 30, 40)], [[]]),
        ([(15, 25), (100, 100)], [(10, 20, 30, 40), (90, 90, 10, 10)], [[True, False], [False, True]]),
    ],
)
def test_in_boxes_gives_one_row_of_points_per_box(points, boxes, inside):
    got = in_boxes(np.array(points, float), boxes)
    assert got.shape == (len(boxes), len(points)) and got.tolist() == inside


def test_extra_readings_say_where_they_are_among_the_readings():
    lab = img("die", (2, (0, 0, 50, 50)))
    reads = [Reading(5, (300, 300, 50, 50), unsure=True), Reading(2, (0, 0, 50, 50)), Reading(6, (100, 0, 50, 50))]
    r = match(lab, reads)
    assert r.extra_at == [0, 2] and r.extra == [(5, True), (6, False)]
    assert match(lab, []).extra_at == [] and match(lab, reads[1:2]).extra_at == []


def test_each_reading_matches_one_label_closest_first():
    lab = img("die", (2, (0, 0, 50, 50)), (3, (40, 0, 50, 50)))
    # one reading sits in the overlap, nearer the second die; a second reading is on die one
    r = match(lab, [Reading(3, (43, 5, 40, 40)), Reading(2, (0, 0, 50, 50))])
    assert sorted(p[:2] for p in r.pairs) == [(2, 2), (3, 3)]


@pytest.mark.parametrize(
    "truth, read, expect",
    [
        ([], [], (0, 0, 0, 0, 0)),
        ([4], [4], (1, 0, 0, 0, 0)),
        ([4], [5], (0, 1, 0, 0, 0)),
        ([4], [], (0, 0, 0, 1, 0)),
        ([], [6], (0, 0, 0, 0, 1)),
    ],
)
def test_totals(truth, read, expect):
    lab = img("die", *[(v, (0, 0, 10, 10)) for v in truth])
    s = score([match(lab, [Reading(v, (0, 0, 10, 10)) for v in read])])
    assert (s.correct, s.wrong_sure, s.wrong_unsure, s.missed, s.extra) == expect


def test_unsure_dice_are_counted_apart():
    lab = img("die", (4, (0, 0, 10, 10)), (2, (50, 0, 10, 10)))
    s = score([match(lab, [Reading(4, (0, 0, 10, 10), unsure=True), Reading(3, (50, 0, 10, 10), unsure=True)])])
    assert (s.correct, s.right_unsure, s.wrong_unsure, s.wrong_sure) == (1, 1, 1, 0)


def test_confusion_matrix_and_groups():
    a = match(
        img("die", (1, (0, 0, 10, 10)), (6, (50, 0, 10, 10)), name="nb_a.jpg"),
        [Reading(1, (0, 0, 10, 10)), Reading(5, (50, 0, 10, 10)), Reading(2, (200, 200, 9, 9))],
    )
    b = match(img("pips", (3, (0, 0, 10, 10)), name="mp_b.jpg"), [])
    groups = score_by_group([a, b])
    assert set(groups) == {"nb", "mp", "all"}
    c = groups["all"].confusion
    assert c[0][0] == 1 and c[5][4] == 1 and c[6][1] == 1 and c[2][6] == 1
    assert sum(map(sum, c)) == 4
    assert groups["nb"].dice == 2 and groups["mp"].missed == 1


def test_load_labels(tmp_path):
    rec = {"image": "images/mp_a.jpg", "box_kind": "pips", "dice": [{"value": 3, "box": [1, 2, 3, 4]}]}
    (tmp_path / "labels.jsonl").write_text(json.dumps(rec) + "\n\n")
    (lab,) = load_labels(tmp_path)
    assert lab.group == "mp" and lab.dice == (Label(3, (1.0, 2.0, 3.0, 4.0)),)


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        '{"image": "a.jpg"}',
        '{"image": "a", "dice": [{"value": 7, "box": [0,0,1,1]}]}',
        '{"image": "a", "box_kind": "x", "dice": []}',
        '{"image": "a", "dice": [{"value": 2, "box": [0]}]}',
    ],
)
def test_bad_labels_are_refused(tmp_path, line):
    (tmp_path / "labels.jsonl").write_text(line + "\n")
    with pytest.raises(BadLabels, match="line 1"):
        load_labels(tmp_path)


def test_missing_labels_file(tmp_path):
    with pytest.raises(BadLabels, match="cannot read"):
        load_labels(tmp_path)


def test_headline_figures():
    """Missed, read confidently, confident reads wrong and confident phantoms per 100 dice."""
    lab = img("die", (5, (0, 0, 40, 40)), (3, (100, 0, 40, 40)), (2, (200, 0, 40, 40)), (6, (300, 0, 40, 40)))
    reads = [
        Reading(5, (0, 0, 40, 40)),  # right, sure
        Reading(4, (100, 0, 40, 40)),  # wrong, sure
        Reading(2, (200, 0, 40, 40), unsure=True),  # right, flagged
        Reading(1, (500, 0, 40, 40)),  # a phantom, sure
        Reading(1, (600, 0, 40, 40), unsure=True),  # a phantom, flagged: it asks, so not counted
    ]  # and the 6 is missed
    s = score([match(lab, reads)])
    h = s.headline()
    assert h["readable_dice"] == 4 and s.missed == 1
    assert h["read_confidently"] == pytest.approx(2 / 4)
    assert h["confident_wrong"] == pytest.approx(1 / 2)
    assert h["confident_phantoms"] == 1 and h["confident_phantoms_per_100"] == pytest.approx(25.0)
    row = headline_row("nb", s)
    assert row.startswith("| nb (1) | 4 | 25.0 % | 50.0 % | 50.00 % (1/2) | 25.00 (1) |")
