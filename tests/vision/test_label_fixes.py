"""Corrections to published labels: loading, applying, and refusing fixes that do not fit."""

import json

import pytest

from companion.vision.evaluate import BadLabels, Label, LabelledImage
from companion.vision.label_fixes import apply_label_fixes, load_fixed_labels, load_label_fixes

LABELS = [
    LabelledImage("images/gr_1.jpg", "die", (Label(5, (10, 10, 50, 50)), Label(2, (80, 10, 50, 50)))),
    LabelledImage("images/gr_2.jpg", "die", ()),
]
ADD = {"image": "gr_2.jpg", "add": {"value": 4, "box": [5, 6, 40, 41]}, "why": "a die the labels leave out"}
CHANGE = {"image": "gr_1.jpg", "die": 0, "was": 5, "value": 3, "why": "it shows three"}


def fixes_file(tmp_path, entries):
    path = tmp_path / "fixes.json"
    path.write_text(json.dumps(entries))
    return path


def test_no_fixes_change_nothing(tmp_path):
    assert apply_label_fixes(LABELS, load_label_fixes(fixes_file(tmp_path, []))) == LABELS


def test_a_die_left_out_is_added_and_a_wrong_value_changed(tmp_path):
    fixed = apply_label_fixes(LABELS, load_label_fixes(fixes_file(tmp_path, [ADD, CHANGE])))
    assert [d.value for d in fixed[0].dice] == [3, 2]
    assert fixed[0].dice[0].box == LABELS[0].dice[0].box
    assert fixed[1].dice == (Label(4, (5, 6, 40, 41)),)
    assert [lab.image for lab in fixed] == [lab.image for lab in LABELS]
    assert [d.value for d in LABELS[0].dice] == [5, 2]  # the labels given are left as they were


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ({**CHANGE, "image": "gr_9.jpg"}, "no such image"),
        ({**CHANGE, "die": 2}, "die 2 is not labelled 5"),
        ({**CHANGE, "was": 4}, "die 0 is not labelled 4"),
    ],
)
def test_a_fix_that_does_not_fit_the_labels_is_refused(tmp_path, entry, says):
    with pytest.raises(BadLabels, match=says):
        apply_label_fixes(LABELS, load_label_fixes(fixes_file(tmp_path, [entry])))


@pytest.mark.parametrize(
    ("entries", "says"),
    [
        ({"image": "x.jpg"}, "must be a JSON list"),
        (["x"], "'image' and 'why'"),
        ([{**CHANGE, "why": None}], "'image' and 'why'"),
        ([{**ADD, "add": {"value": 4}}], "'box'"),
        ([{**ADD, "add": {"value": 4, "box": [0, 0, 0, 10]}}], "'box'"),
        ([{**ADD, "add": {"value": 4, "box": [0, 0, 1e999, 10]}}], "'box'"),
        ([{**ADD, "add": {"value": 7, "box": [0, 0, 10, 10]}}], "1-6, not 7"),
        ([{**CHANGE, "die": -1}], "'add', or the index 'die'"),
        ([{**CHANGE, "die": True}], "'add', or the index 'die'"),
        ([{**CHANGE, "was": None}], "1-6, not None"),
    ],
)
def test_a_bad_fixes_file_is_refused(tmp_path, entries, says):
    with pytest.raises(BadLabels, match=says):
        load_label_fixes(fixes_file(tmp_path, entries))


def test_a_fix_for_a_source_not_given_is_skipped(tmp_path):
    other = {**CHANGE, "image": "nb_1.jpg"}  # a fix for a photo of another dataset
    fixed = apply_label_fixes(LABELS, load_label_fixes(fixes_file(tmp_path, [other, ADD])))
    assert fixed == [LABELS[0], LabelledImage("images/gr_2.jpg", "die", (Label(4, (5, 6, 40, 41)),))]


def test_an_unreadable_fixes_file_is_refused(tmp_path):
    with pytest.raises(BadLabels, match="cannot read the label fixes"):
        load_label_fixes(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("[{")
    with pytest.raises(BadLabels, match="cannot read the label fixes"):
        load_label_fixes(tmp_path / "bad.json")


def test_labels_of_datasets_are_loaded_with_the_fixes(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    rows = [{"image": lab.image, "box_kind": "die", "dice": []} for lab in LABELS]
    (data / "labels.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    fixes = fixes_file(tmp_path, [ADD])
    assert [len(lab.dice) for _, lab in load_fixed_labels([data], None)] == [0, 0]
    fixed = load_fixed_labels([data], fixes)
    assert [(d, len(lab.dice)) for d, lab in fixed] == [(data, 0), (data, 1)]
