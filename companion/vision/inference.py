"""Running the reader's ONNX networks: ONNX Runtime where it is installed, else OpenCV.

ONNX Runtime runs the face reader about a fifth faster than ``cv2.dnn`` and the finder
about a third faster on one core (``python bench/dice_latency.py``); both give the same
numbers to 1e-5. OpenCV stays as the fallback for platforms without an ONNX Runtime
build, and for a finder exported with a fixed input size (ONNX Runtime refuses any other
size; re-export it with dynamic axes).
"""

from __future__ import annotations

import abc
import importlib.util
import logging
from pathlib import Path

import cv2
import numpy as np

from companion.vision.errors import VisionError

log = logging.getLogger(__name__)

#: The backends, fastest first.
BACKENDS = ("onnxruntime", "opencv")


class Network(abc.ABC):
    """One loaded network: an input batch (N, C, H, W) float32 in, its first output out."""

    backend: str = ""

    def __init__(self, path: Path) -> None:
        self.path = path

    @abc.abstractmethod
    def run(self, batch: np.ndarray) -> np.ndarray:
        """The network's output for ``batch``.

        Raises:
            VisionError: the network cannot take this input.
        """


class OpenCVNetwork(Network):
    """A network run by ``cv2.dnn``; ``engine`` ``"classic"`` or ``"new"`` picks one of
    OpenCV 5's DNN engines where it has both (None: its default)."""

    backend = "opencv"

    def __init__(self, path: Path, engine: str | None = None) -> None:
        super().__init__(path)
        flag = getattr(cv2.dnn, f"ENGINE_{engine.upper()}", None) if engine else None
        try:
            if flag is not None:
                self._net = cv2.dnn.readNetFromONNX(str(path), engine=flag)
            else:
                self._net = cv2.dnn.readNetFromONNX(str(path))
        except cv2.error as exc:
            raise VisionError(f"the dice model {path} could not be loaded: {exc}") from exc

    def run(self, batch: np.ndarray) -> np.ndarray:
        try:
            self._net.setInput(np.ascontiguousarray(batch, np.float32))
            return np.asarray(self._net.forward())
        except cv2.error as exc:
            raise VisionError(f"the dice model {self.path.name} cannot read this input: {exc}") from exc


class OnnxRuntimeNetwork(Network):
    """A network run by ONNX Runtime on one CPU thread (the frame rate, not one frame, is
    what more cores would buy, and the app runs beside the UI)."""

    backend = "onnxruntime"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # its own warnings would go to stderr, not our log
        try:
            self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # ONNX Runtime raises its own classes, not exported stably
            raise VisionError(f"the dice model {path} could not be loaded: {exc}") from exc
        self._input = self._session.get_inputs()[0].name

    @property
    def any_size(self) -> bool:
        """Whether the network takes pictures of any height and width."""
        shape = self._session.get_inputs()[0].shape
        return not any(isinstance(d, int) for d in shape[2:])

    def run(self, batch: np.ndarray) -> np.ndarray:
        try:
            return np.asarray(self._session.run(None, {self._input: np.ascontiguousarray(batch, np.float32)})[0])
        except Exception as exc:  # as above
            raise VisionError(f"the dice model {self.path.name} cannot read this input: {exc}") from exc


def available_backends() -> list[str]:
    """The backends this installation can run, fastest first."""
    return [b for b in BACKENDS if b == "opencv" or importlib.util.find_spec(b) is not None]


def load_network(path: Path, backend: str | None = None, *, any_size: bool = False) -> Network:
    """Load the ONNX network at ``path`` with ``backend`` (default: the fastest installed).

    ``any_size``: the network must take pictures of any size (the finder); with ONNX
    Runtime, a file exported for one size is run by OpenCV instead.

    Raises:
        VisionError: the file is missing or cannot be loaded, or ``backend`` is unknown or
            not installed.
    """
    if not path.is_file():
        raise VisionError(f"the dice model {path.name} is missing from {path.parent}; reinstall Purser")
    have = available_backends()
    chosen = backend or have[0]
    if chosen not in BACKENDS:
        raise VisionError(f"unknown inference backend {chosen!r}; use one of {', '.join(BACKENDS)}")
    if chosen not in have:
        raise VisionError(f"the inference backend {chosen} is not installed; use one of {', '.join(have)}")
    if chosen == "onnxruntime":
        net = OnnxRuntimeNetwork(path)
        if not any_size or net.any_size:
            return net
        log.info("%s was exported for one picture size: OpenCV runs it", path.name)
    # OpenCV 5's default engine runs a few small crops about 40 % slower than its classic
    # one; the finder is as fast on either
    return OpenCVNetwork(path, None if any_size else "classic")
