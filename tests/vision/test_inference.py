from __future__ import annotations

import importlib.util
import logging
import shutil

import numpy as np
import onnx
import pytest

from companion.vision import inference
from companion.vision.errors import VisionError
from companion.vision.inference import BACKENDS, available_backends, load_network
from companion.vision.reader import FACE_FILE, FACE_SPEC_FILE, FINDER_FILE, MODELS_DIR, DiceReader
from companion.vision.render import render_scene


def test_this_installation_runs_every_backend():
    # the test environment installs ONNX Runtime, so both backends are compared below
    assert available_backends() == list(BACKENDS)


@pytest.mark.parametrize("shape", [(1, 3, 320, 320), (1, 3, 240, 320), (1, 3, 96, 128), (2, 3, 64, 64)])
def test_the_finder_gives_the_same_maps_on_every_backend_at_any_size(shape):
    batch = np.random.default_rng(3).random(shape, dtype=np.float32)
    outs = [load_network(MODELS_DIR / FINDER_FILE, b, any_size=True).run(batch) for b in BACKENDS]
    assert outs[0].shape == (shape[0], 5, shape[2] // 4, shape[3] // 4)
    assert np.allclose(outs[0], outs[1], atol=1e-4)


@pytest.mark.parametrize("crops", [1, 7, 64])
def test_the_face_reader_gives_the_same_logits_on_every_backend(crops):
    batch = np.random.default_rng(4).standard_normal((crops, 3, 48, 48)).astype(np.float32)
    outs = [load_network(MODELS_DIR / FACE_FILE, b).run(batch).reshape(crops, -1) for b in BACKENDS]
    assert np.allclose(outs[0], outs[1], atol=1e-4)


def test_the_reader_reads_the_same_dice_on_every_backend():
    image = render_scene(900_410, n_dice=12, variety=True).image
    read = [DiceReader(backend=b).read(image) for b in BACKENDS]
    assert len(read[0]) >= 6
    assert [d.value for d in read[0]] == [d.value for d in read[1]]
    assert [d.unsure for d in read[0]] == [d.unsure for d in read[1]]
    assert np.allclose(read[0].centres, read[1].centres, atol=0.01)


def test_without_onnx_runtime_opencv_reads(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "onnxruntime" else real(name, *a))
    assert available_backends() == ["opencv"]
    assert load_network(MODELS_DIR / FACE_FILE).backend == "opencv"
    with pytest.raises(VisionError, match="onnxruntime is not installed; use one of opencv"):
        load_network(MODELS_DIR / FACE_FILE, "onnxruntime")


def test_an_unknown_backend_is_refused():
    with pytest.raises(VisionError, match="unknown inference backend 'tensorflow'"):
        DiceReader(backend="tensorflow")


def test_a_finder_exported_for_one_size_is_run_by_opencv(tmp_path, caplog):
    model = onnx.load(str(MODELS_DIR / FINDER_FILE))
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_value, dims[3].dim_value = 320, 320  # as a plain torch export leaves it
    onnx.save(model, str(tmp_path / FINDER_FILE))
    for name in (FACE_FILE, FACE_SPEC_FILE):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    with caplog.at_level(logging.INFO, logger=inference.__name__):
        net = load_network(tmp_path / FINDER_FILE, "onnxruntime", any_size=True)
    assert net.backend == "opencv" and "exported for one picture size" in caplog.text
    image = render_scene(900_411, width=640, height=480, n_dice=5).image
    fixed, dynamic = DiceReader(tmp_path).read(image), DiceReader().read(image)
    assert [d.value for d in fixed] == [d.value for d in dynamic] and len(fixed) >= 3


def test_a_model_that_cannot_take_the_input_says_so_in_words():
    net = load_network(MODELS_DIR / FACE_FILE, "onnxruntime")
    with pytest.raises(VisionError, match=f"the dice model {FACE_FILE} cannot read this input"):
        net.run(np.zeros((1, 3, 20, 20), np.float32))
