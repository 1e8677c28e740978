"""Frame sources behind one interface, chosen by URL.

- ``sim://?seed=1&dice=5&width=640&height=480&still=20&tumble=6``: rendered synthetic
  dice (the default: it needs no camera). Without ``still`` the dice lie still until
  :meth:`SimSource.next_roll` rolls them again (the app does before each reading, so the
  simulated table never shows the same roll twice); with it, every ``tumble + still``
  frames the dice are rolled again: ``tumble`` frames of moving, blurred dice, then
  ``still`` frames of the new roll.
- ``cv://0`` (or ``cv://0?width=1280&height=720``): a camera through OpenCV.
- ``auto://``: the first camera that gives a picture (``cameras=0,2`` limits the search),
  else the simulator (five dice unless ``dice=`` says otherwise), which says so in
  ``message``; ``fallback=none`` makes that an error.
- ``file://PATH``: a picture (the same frame every read), a folder of pictures (one per
  read, in name order) or a video (one frame per read). ``?loop=1`` starts again at the end.

Any address may end with ``tray=x0,y0,x1,y1`` (or ``tray=x,y;x,y;x,y...``): the part of
the picture where dice are rolled, in fractions of its width and height (see
:mod:`companion.vision.tray`). It is kept with the camera's address, so it is set once
per table; readers of the source use ``source.tray``.

``open_source(url)`` returns a :class:`FrameSource`; ``read()`` gives a BGR uint8 array.
"""

from __future__ import annotations

import abc
import logging
import math
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import SplitResult, parse_qs, unquote, urlencode, urlsplit

import cv2
import numpy as np

from companion.vision.errors import CameraNotFound, VisionError
from companion.vision.render import RenderedDie, render_scene
from companion.vision.tray import Tray

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
VIDEO_SUFFIXES = frozenset({".avi", ".mp4", ".mkv", ".mov", ".webm", ".m4v", ".mpg", ".mpeg"})
DEFAULT_URL = "sim://"


class EndOfFrames(VisionError):
    """A recorded source (folder or video) has no more frames."""


class FrameSource(abc.ABC):
    """Where frames come from. Use as a context manager or call :meth:`close`.

    ``simulated`` is true for the built-in renderer standing in for a camera.
    """

    url: str = ""
    simulated: bool = False
    #: A sentence for the player about where the frames come from ("" when nothing to say).
    message: str = ""
    #: Where dice are rolled (None: the whole picture); from the address's ``tray=``.
    tray: Tray | None = None

    @abc.abstractmethod
    def read(self) -> np.ndarray:
        """The next frame, BGR uint8 (H, W, 3).

        Raises:
            VisionError: no frame could be had (EndOfFrames at the end of a recording).
        """

    def close(self) -> None:  # noqa: B027 (a source with nothing to release needs no close)
        """Release the device or file."""

    def frames(self) -> Iterator[np.ndarray]:
        """Frames until the source ends (forever for cameras and the simulator)."""
        while True:
            try:
                yield self.read()
            except EndOfFrames:
                return

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.url}>"


def _params(query: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(query, keep_blank_values=True).items()}


def _int(params: dict[str, str], key: str, default: int, lo: int = 0, hi: int = 1 << 30) -> int:
    if key not in params:
        return default
    try:
        v = int(params[key])
    except ValueError as exc:
        raise VisionError(f"camera setting {key}={params[key]!r} is not a whole number") from exc
    if not lo <= v <= hi:
        raise VisionError(f"camera setting {key}={v} must be between {lo} and {hi}")
    return v


# -------------------------------------------------------------------------- simulator ------


class SimSource(FrameSource):
    """Rendered dice: a still scene, or a table where the dice are rolled again and again."""

    simulated = True

    def __init__(
        self,
        seed: int = 0,
        dice: int | None = None,
        width: int = 640,
        height: int = 480,
        still: int = 0,
        tumble: int = 6,
        url: str = DEFAULT_URL,
    ) -> None:
        self.url = url
        self.seed, self.n_dice, self.width, self.height = seed, dice, width, height
        self.still, self.tumble = still, tumble
        self.frame_index = 0
        self.rolls_asked = 0
        self._scene_key: int | None = None
        self._scene_image: np.ndarray | None = None
        self._scene_dice: tuple[RenderedDie, ...] = ()

    def _scene(self, roll: int) -> np.ndarray:
        if self._scene_key != roll:
            scene = render_scene(self.seed * 7919 + roll, self.width, self.height, self.n_dice)
            self._scene_key, self._scene_image, self._scene_dice = roll, scene.image, scene.dice
        assert self._scene_image is not None
        return self._scene_image

    @property
    def roll_index(self) -> int:
        """Which roll the next frame belongs to (0 for a still scene never rolled again)."""
        return self._roll_of(self.frame_index)

    def _roll_of(self, index: int) -> int:
        return self.rolls_asked + (0 if self.still <= 0 else index // (self.tumble + self.still))

    def next_roll(self) -> None:
        """Roll the dice again: the frames from now on show a new scene."""
        self.rolls_asked += 1

    @property
    def truth(self) -> tuple[RenderedDie, ...]:
        """The dice of the scene last returned by :meth:`read` (their values and boxes)."""
        return self._scene_dice

    def is_tumbling(self, index: int) -> bool:
        """Whether frame ``index`` shows dice in motion."""
        return self.still > 0 and index % (self.tumble + self.still) < self.tumble

    def read(self) -> np.ndarray:
        """The next simulated frame (dice still, or tumbling between rolls)."""
        i = self.frame_index
        self.frame_index += 1
        rng = np.random.default_rng((self.seed, i))
        roll = self._roll_of(i)
        if self.is_tumbling(i):
            return self._tumbling(rng, roll)
        base = self._scene(roll)
        noise = rng.normal(0, 1.5, base.shape)
        return np.clip(base + noise, 0, 255).astype(np.uint8)

    def _tumbling(self, rng: np.random.Generator, roll: int) -> np.ndarray:
        """Dice in motion: the coming scene shifted, smeared along the motion, and a hand."""
        base = self._scene(roll).astype(np.float32)
        angle = rng.uniform(0, 2 * math.pi)
        dist = rng.uniform(15, 60)
        dx, dy = math.cos(angle) * dist, math.sin(angle) * dist
        m = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        moved = cv2.warpAffine(base, m, (self.width, self.height), borderMode=cv2.BORDER_REFLECT)
        k = max(3, int(dist / 2)) | 1
        kernel = np.zeros((k, k), np.float32)
        c = k // 2
        cv2.line(
            kernel,
            (int(c - math.cos(angle) * c), int(c - math.sin(angle) * c)),
            (int(c + math.cos(angle) * c), int(c + math.sin(angle) * c)),
            1.0,
            1,
        )
        moved = cv2.filter2D(moved, -1, kernel / kernel.sum())
        centre = (int(rng.uniform(0, self.width)), int(rng.uniform(0, self.height)))
        axes = (int(self.width * rng.uniform(0.1, 0.2)), int(self.height * rng.uniform(0.15, 0.3)))
        cv2.ellipse(moved, centre, axes, float(rng.uniform(0, 180)), 0, 360, (120, 150, 200), -1)
        return np.clip(moved, 0, 255).astype(np.uint8)


def _open_sim(url: str, params: dict[str, str]) -> SimSource:
    dice = _int(params, "dice", 0, 0, 40) or None
    return SimSource(
        seed=_int(params, "seed", 0),
        dice=dice,
        width=_int(params, "width", 640, 64, 4096),
        height=_int(params, "height", 480, 64, 4096),
        still=_int(params, "still", 0, 0, 100000),
        tumble=_int(params, "tumble", 6, 1, 1000),
        url=url,
    )


# -------------------------------------------------------------------------- camera ---------


class CameraSource(FrameSource):
    """A camera opened through OpenCV."""

    def __init__(self, index: int, width: int = 0, height: int = 0, url: str = "") -> None:
        self.url = url or f"cv://{index}"
        self.index = index
        cap = cv2.VideoCapture(index)
        if not cap.isOpened():
            cap.release()
            raise CameraNotFound(
                f"no camera {index} found: check it is plugged in and not used by another program "
                f"(or use sim:// to play without a camera)"
            )
        if width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._cap: cv2.VideoCapture | None = cap

    def read(self) -> np.ndarray:
        """The camera's latest frame.

        Raises:
            VisionError: the camera is closed or gave no picture.
        """
        if self._cap is None:
            raise VisionError(f"camera {self.index} is closed")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise VisionError(f"camera {self.index} gave no picture; is it still connected?")
        return frame

    def close(self) -> None:
        """Release the camera."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _open_camera(url: str, netloc: str, params: dict[str, str]) -> CameraSource:
    try:
        index = int(netloc or "0")
    except ValueError as exc:
        raise VisionError(f"cannot read the camera address {url!r}: write cv://0 for the first camera") from exc
    return CameraSource(index, _int(params, "width", 0, 0, 8192), _int(params, "height", 0, 0, 8192), url)


# -------------------------------------------------------------------------- files ----------


def read_image(path: Path | str) -> np.ndarray:
    """A picture file as BGR uint8.

    Raises:
        CameraNotFound: there is no such file.
        VisionError: the file is not a picture OpenCV can read.
    """
    path = Path(path)
    if not path.is_file():
        raise CameraNotFound(f"no picture at {path}")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise VisionError(f"{path} is not a picture Purser can read (JPEG, PNG, BMP, TIFF or WebP)")
    return image


class ImageSource(FrameSource):
    """One picture (the same frame every read) or a folder of pictures (one per read)."""

    def __init__(self, paths: list[Path], still: bool, loop: bool, url: str) -> None:
        self.url, self.paths, self.still, self.loop = url, paths, still, loop
        self._next = 0
        self._cached: np.ndarray | None = None

    def read(self) -> np.ndarray:
        """The picture, or the next picture of the folder."""
        if self.still:
            if self._cached is None:
                self._cached = read_image(self.paths[0])
            return self._cached.copy()
        if self._next >= len(self.paths):
            if not self.loop:
                raise EndOfFrames(f"no more pictures in {self.url}")
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        return read_image(path)


class VideoSource(FrameSource):
    """A video file, one frame per read."""

    def __init__(self, path: Path, loop: bool, url: str) -> None:
        self.url, self.path, self.loop = url, path, loop
        self._cap: cv2.VideoCapture | None = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            self._cap.release()
            self._cap = None
            raise VisionError(f"{path} is not a video Purser can read")

    def read(self) -> np.ndarray:
        """The next frame of the video."""
        if self._cap is None:
            raise VisionError(f"the video {self.path} is closed")
        ok, frame = self._cap.read()
        if not ok and self.loop:
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._cap.read()
        if not ok or frame is None:
            raise EndOfFrames(f"the video {self.path} has no more frames")
        return frame

    def close(self) -> None:
        """Close the video file."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def _open_file(url: str, path: Path, params: dict[str, str]) -> FrameSource:
    loop = params.get("loop", "0") not in ("0", "", "false", "no")
    if path.is_dir():
        paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not paths:
            raise CameraNotFound(f"the folder {path} has no pictures (JPEG, PNG, BMP, TIFF or WebP)")
        return ImageSource(paths, still=False, loop=loop, url=url)
    if not path.exists():
        raise CameraNotFound(f"no picture or video at {path}")
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoSource(path, loop, url)
    source = ImageSource([path], still=True, loop=loop, url=url)
    source.read()  # fail now, with a clear message, if it is not a picture
    return source


# -------------------------------------------------------------------------- auto -----------


def candidate_cameras() -> list[int]:
    """Camera indexes worth trying: the video devices Linux lists, else the first one."""
    dev = Path("/dev")
    if dev.is_dir() and any(dev.glob("video*")):
        found = []
        for node in dev.glob("video*"):
            suffix = node.name[len("video") :]
            if suffix.isdigit():
                found.append(int(suffix))
        return sorted(found)
    return [] if dev.is_dir() else [0]


def _open_auto(url: str, params: dict[str, str]) -> FrameSource:
    fallback = params.get("fallback", "sim")
    if fallback not in ("sim", "none"):
        raise VisionError(f"fallback={fallback!r} in {url!r} must be sim or none")
    if "cameras" in params:
        try:
            indexes = [int(v) for v in params["cameras"].split(",") if v.strip()]
        except ValueError as exc:
            raise VisionError(f"cameras= in {url!r} must list camera numbers, like cameras=0,1") from exc
    else:
        indexes = candidate_cameras()
    tried = []
    for index in indexes:
        tried.append(f"camera {index}")
        try:
            source = CameraSource(index, _int(params, "width", 0, 0, 8192), _int(params, "height", 0, 0, 8192))
        except CameraNotFound:
            continue
        try:
            source.read()  # some video nodes open but never give a picture (metadata nodes)
        except VisionError:
            source.close()
            continue
        log.info("auto camera: using camera %d", index)
        return source
    where = f"tried {', '.join(tried)}" if tried else "none is connected"
    if fallback == "none":
        raise CameraNotFound(f"no camera gave a picture ({where}): plug one in, or use sim://")
    sim = _open_sim(url, {"dice": "5", **params})
    sim.message = f"No camera found ({where}): using the SIMULATED dice camera, the dice are not real"
    log.warning("%s", sim.message)
    return sim


def open_source(url: str = DEFAULT_URL) -> FrameSource:
    """Open the frame source named by ``url`` (``sim://``, ``cv://N``, ``file://PATH``, ``auto://``).

    A plain path is taken as ``file://``.

    Raises:
        CameraNotFound: no camera, file or folder at that address.
        VisionError: the address or a setting in it cannot be understood, or the file is
            not a picture or video.
    """
    if "://" not in url:
        url = "file://" + url
    parts = urlsplit(url)
    params = _params(parts.query)
    tray = Tray.parse(params.pop("tray")) if params.get("tray") else None
    source = _open(url, parts, params)
    source.tray = tray
    return source


def _open(url: str, parts: SplitResult, params: dict[str, str]) -> FrameSource:
    scheme = parts.scheme.lower()
    if scheme == "sim":
        return _open_sim(url, params)
    if scheme == "cv":
        return _open_camera(url, parts.netloc, params)
    if scheme == "file":
        return _open_file(url, Path(unquote(parts.netloc + parts.path)).expanduser(), params)
    if scheme == "auto":
        return _open_auto(url, params)
    raise VisionError(f"unknown camera address {url!r}: use auto://, sim://, cv://0 or file://PATH")


def with_tray(url: str, tray: Tray | None) -> str:
    """``url`` with its ``tray=`` setting replaced by ``tray`` (removed when None)."""
    parts = urlsplit(url if "://" in url else "file://" + url)
    pairs = [(k, v) for k, vs in parse_qs(parts.query, keep_blank_values=True).items() for v in vs if k != "tray"]
    if tray is not None:
        pairs.append(("tray", str(tray)))
    query = urlencode(pairs, safe=",;:/")
    # urlunsplit would drop the "//" of an address with no host, such as sim://
    return f"{parts.scheme}://{parts.netloc}{parts.path}" + (f"?{query}" if query else "")
