"""The tablet's scale and camera as the screens see them: live, threaded, never blocking.

:class:`HardwareService` owns one :class:`~companion.session.hardware.Hardware` (the
balance and camera chosen by URL) and one worker thread per device. Everything that may
block (opening a port, probing ``auto://``, waiting for a stable weight, reading a frame)
runs on those threads; what the screens show comes back through Kivy properties set on
the UI thread. A missing or failing device becomes a state with a message in words
("missing", "fault"), never an exception in the UI.

Each device thread runs its jobs one at a time, so a weighing and the live display never
talk to the balance at the same moment.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty

from companion.session.hardware import Hardware
from companion.ui.background import on_ui

log = logging.getLogger(__name__)

#: How often the live weight is pushed to the screen, and frames to the preview (per second).
LIVE_RATE_HZ = 10.0
PREVIEW_RATE_HZ = 3.0

Job = Callable[[Hardware], Any]


class _Worker:
    """One thread that owns one device: jobs in a queue, an optional idle step between them."""

    def __init__(self, name: str, idle: Callable[[], None], idle_period: float,
                 hardware: Callable[[], Hardware]) -> None:
        self._jobs: queue.Queue[tuple[Job, Callable[[Any], Any] | None, Callable[[BaseException], Any] | None] | None] = (
            queue.Queue()
        )
        self._idle = idle
        self._idle_period = idle_period
        self.idle_enabled = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._hardware = hardware

    def start(self) -> None:
        self._thread.start()

    def submit(self, job: Job, on_done: Callable[[Any], Any] | None, on_error: Callable[[BaseException], Any] | None) -> None:
        self._jobs.put((job, on_done, on_error))

    def stop(self, timeout: float = 2.0) -> None:
        self._stopped.set()
        self._jobs.put(None)
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stopped.is_set():
            wait = self._idle_period if self.idle_enabled.is_set() else 0.5
            try:
                item = self._jobs.get(timeout=wait)
            except queue.Empty:
                item = None
                if self.idle_enabled.is_set() and not self._stopped.is_set():
                    try:
                        self._idle()
                    except Exception:  # a device error while idle is reported by _idle itself
                        log.exception("idle step failed")
                continue
            if item is None:
                continue
            job, on_done, on_error = item
            try:
                result = job(self._hardware())
            except BaseException as exc:  # handed back to the UI thread, never lost
                log.info("hardware job failed: %s", exc)
                if on_error is not None:
                    on_ui(on_error, exc)
            else:
                if on_done is not None:
                    on_ui(on_done, result)


def camera_key(url: str) -> str:
    """A camera's address without its ``tray=`` setting: what a marked tray is kept under."""
    from companion.vision.sources import with_tray

    try:
        return with_tray(url, None)
    except ValueError:
        return url


def _describe_error(exc: BaseException) -> str:
    """A device error in words for the screen, as a sentence."""
    if isinstance(exc, ImportError):
        return "This installation of Purser has no driver for it."
    text = str(exc).strip() or exc.__class__.__name__
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


class HardwareService(EventDispatcher):
    """The scale and camera with their states, for the screens to bind to.

    States: ``"off"`` (not opened yet), ``"opening"``, ``"ready"``, ``"missing"`` (cannot
    be opened; ``*_message`` says why and the screens offer the manual way in), ``"fault"``
    (opened, but readings cannot be trusted now).
    """

    scale_url = StringProperty("")
    camera_url = StringProperty("")

    scale_state = StringProperty("off")
    scale_message = StringProperty("")
    scale_simulated = BooleanProperty(False)
    scale_info = DictProperty({})
    scale_channels = NumericProperty(1)
    #: The live reading (grams; None when there is none) and whether it is steady.
    grams = ObjectProperty(None, allownone=True)
    stable = BooleanProperty(False)
    live_channel = NumericProperty(0)

    camera_state = StringProperty("off")
    camera_message = StringProperty("")
    camera_simulated = BooleanProperty(False)
    #: Where the dice are rolled, as tray text ("" for the whole picture): from the camera address.
    tray = StringProperty("")
    #: The latest preview frame (BGR ndarray) and the dice read from it (DiceDetections).
    frame = ObjectProperty(None, allownone=True, force_dispatch=True)
    detections = ObjectProperty(None, allownone=True, force_dispatch=True)
    #: A frame has arrived since the camera was (re)opened: reading the dice makes sense.
    has_frame = BooleanProperty(False)

    #: True while any simulator stands in for real hardware (the banner shows).
    simulated = BooleanProperty(False)

    _camera_note = ""  # what the opened camera source said about itself (auto:// fallback)

    def __init__(self, scale_url: str, camera_url: str, trays: Mapping[str, str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scale_url = scale_url
        self.camera_url = camera_url
        #: Trays marked in the app, by camera address (see :func:`camera_key`); kept by the
        #: app's settings, read here when a camera opens.
        self.trays: Mapping[str, str] = trays if trays is not None else {}
        # One Hardware per device, each used only by its own thread: the scale's opens
        # only the scale, the camera's only the camera.
        self._scale_hw = Hardware(scale_url, camera_url)
        self._camera_hw = Hardware(scale_url, camera_url)
        self._scale: Any = None  # the open Scale, set and read on the scale thread
        self._camera: Any = None  # the open frame source, on the camera thread
        self._scale_worker = _Worker("purser-scale", self._scale_idle, 1.0 / LIVE_RATE_HZ, lambda: self._scale_hw)
        self._camera_worker = _Worker("purser-camera", self._camera_idle, 1.0 / PREVIEW_RATE_HZ,
                                      lambda: self._camera_hw)
        self._samples: Any = None
        self._restart_stream = threading.Event()
        self._started = False
        self._closed = False
        self.bind(scale_simulated=self._update_simulated, camera_simulated=self._update_simulated)

    @property
    def scale(self) -> Any:
        """The open scale (None until opened). Talk to it through :meth:`run_on_scale`; only a
        simulator's own scripting (``place``/``clear``, thread-safe) may be used directly."""
        return self._scale

    @property
    def camera(self) -> Any:
        """The open frame source (None until opened); read it through :meth:`run_on_camera`."""
        return self._camera

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Start the device threads and open both devices in the background."""
        if self._started:
            return
        self._started = True
        self._scale_worker.start()
        self._camera_worker.start()
        self.open_scale()
        self.open_camera()

    def close(self) -> None:
        """Stop the threads and release the devices."""
        if self._closed:
            return
        self._closed = True
        self._scale_worker.idle_enabled.clear()
        self._camera_worker.idle_enabled.clear()
        self._scale_worker.stop()
        self._camera_worker.stop()
        self._scale_hw.close()
        self._camera_hw.close()

    def reconfigure(self, scale_url: str, camera_url: str) -> None:
        """Use other devices from now on (settings changed); reopens what changed."""
        scale_changed = scale_url != self.scale_url
        camera_changed = camera_url != self.camera_url
        self.scale_url, self.camera_url = scale_url, camera_url
        if scale_changed:
            self._scale_worker.submit(lambda hw: self._swap_scale(hw, scale_url), None, None)
            self.open_scale()
        if camera_changed:
            self._camera_worker.submit(lambda hw: self._swap_camera(hw, camera_url), None, None)
            self.open_camera()

    def _swap_scale(self, hw: Hardware, url: str) -> None:
        """Use the scale at ``url`` from now on (scale thread)."""
        self._samples = None
        self._scale = None
        hw.close()
        self._scale_hw = Hardware(url, self._scale_hw.camera_url)

    def _swap_camera(self, hw: Hardware, url: str) -> None:
        """Use the camera at ``url`` from now on (camera thread)."""
        self._camera = None
        hw.close()
        self._camera_hw = Hardware(self._camera_hw.scale_url, url)

    def _update_simulated(self, *_: Any) -> None:
        self.simulated = self.scale_simulated or self.camera_simulated

    # -- scale ------------------------------------------------------------------------------

    def open_scale(self) -> None:
        """(Re)open the scale in the background; the state says how it went."""
        self.scale_state = "opening"
        self.scale_message = f"Looking for the scale at {self.scale_url}..."
        self._scale_worker.submit(self._open_scale_job, self._scale_opened, self._scale_failed)

    def _open_scale_job(self, hw: Hardware) -> dict[str, Any]:
        self._samples = None
        self._scale = None
        hw.close()
        scale = hw.scale()
        self._scale = scale
        info = dict(scale.info()) if hasattr(scale, "info") else {"url": getattr(scale, "url", "")}
        status = scale.status()
        return {
            "info": info,
            "simulated": bool(getattr(scale, "simulated", False) or status.simulated),
            "channels": int(getattr(scale, "channels", 1) or 1),
            "message": status.message,
        }

    def _scale_opened(self, result: Mapping[str, Any]) -> None:
        self.scale_info = dict(result["info"])
        self.scale_simulated = result["simulated"]
        self.scale_channels = result["channels"]
        self.scale_state = "ready"
        note = result.get("message") or ""
        if self.scale_simulated:
            self.scale_message = note or "No balance found: the built-in simulated scale stands in."
        else:
            self.scale_message = note or "Scale connected."

    def _scale_failed(self, exc: BaseException) -> None:
        self.scale_state = "missing"
        self.scale_simulated = False
        self.grams = None
        self.scale_message = f"No scale: {_describe_error(exc)} Type weights in by hand, or check the cable and try again."

    def refresh_scale_info(self) -> None:
        """Read what the open scale says about itself again (after a calibration)."""
        self._scale_worker.submit(lambda hw: dict(hw.scale().info()), lambda info: setattr(self, "scale_info", info),
                                  None)

    def watch_scale(self, on: bool, channel: int = 0) -> None:
        """Stream live readings of ``channel`` into :attr:`grams` while ``on``."""
        self.live_channel = channel
        # The scale thread owns the stream of readings; it starts a fresh one when told.
        self._restart_stream.set()
        if on:
            self._scale_worker.idle_enabled.set()
        else:
            self._scale_worker.idle_enabled.clear()

    def _scale_idle(self) -> None:
        """One live reading (runs on the scale thread), at most :data:`LIVE_RATE_HZ` a second."""
        scale = self._scale
        if scale is None:
            return
        channel = int(self.live_channel)
        if self._restart_stream.is_set():
            self._restart_stream.clear()
            self._samples = None
        try:
            if self._samples is None:
                # Backends built on the stream core give net grams and a stable flag per
                # reading; any other backend gives raw samples (gross grams, stability
                # from its status).
                stream = scale.readings(timeout=2.0) if hasattr(scale, "readings") else scale.samples(timeout=2.0)
                self._samples = iter(stream)
            latest = None
            deadline = time.monotonic() + 1.0 / LIVE_RATE_HZ
            while latest is None or time.monotonic() < deadline:
                item = next(self._samples)
                sample = getattr(item, "sample", item)
                if sample.channel == channel:
                    latest = item
            status = scale.status()
        except StopIteration:
            self._samples = None
            return
        except Exception as exc:  # a device error becomes a state on the screen
            self._samples = None
            on_ui(self._live_failed, exc)
            time.sleep(0.5)
            return
        sample = getattr(latest, "sample", latest)
        if hasattr(latest, "net_g"):
            grams, stable = latest.net_g, bool(latest.stable)
        else:
            grams, stable = sample.grams, not status.unstable
        if sample.fault or sample.saturated:
            grams = None
        on_ui(self._live_reading, grams, stable, status)

    def _live_reading(self, grams: float | None, stable: bool, status: Any) -> None:
        self.grams = grams
        self.stable = stable and grams is not None
        if self.scale_state != "ready" or status.chip_fault or status.saturated:
            if status.chip_fault or status.saturated:
                self.scale_state = "fault"
                self.scale_message = status.message or (
                    "The balance reports a fault: no weight can be trusted until it clears."
                )
            else:
                self.scale_state = "ready"
                self.scale_message = status.message or "Scale connected."

    def _live_failed(self, exc: BaseException) -> None:
        self.grams = None
        self.stable = False
        self.scale_state = "fault"
        self.scale_message = f"The scale stopped answering: {_describe_error(exc)}"

    def tare(self, channel: int = 0, on_done: Callable[[Any], Any] | None = None,
             on_error: Callable[[BaseException], Any] | None = None) -> None:
        """Zero ``channel`` in the background."""
        self._scale_worker.submit(lambda hw: hw.scale().tare(channel=channel), on_done, on_error)

    def run_on_camera(self, job: Job, on_done: Callable[[Any], Any] | None = None,
                      on_error: Callable[[BaseException], Any] | None = None) -> None:
        """Run ``job(hardware)`` on the camera's thread."""
        self._camera_worker.submit(job, on_done, on_error)

    def run_on_scale(self, job: Job, on_done: Callable[[Any], Any] | None = None,
                     on_error: Callable[[BaseException], Any] | None = None) -> None:
        """Run ``job(hardware)`` on the scale's thread (calibration steps, weighings)."""
        self._scale_worker.submit(job, on_done, on_error)

    # -- camera -----------------------------------------------------------------------------

    def open_camera(self) -> None:
        """(Re)open the camera in the background."""
        self.has_frame = False
        self.frame = None  # the last camera's picture is not this one's
        self.detections = None
        self.camera_state = "opening"
        self.camera_message = f"Opening the camera at {self.camera_url}..."
        self._camera_worker.submit(self._open_camera_job, self._camera_opened, self._camera_failed)

    def _open_camera_job(self, hw: Hardware) -> dict[str, Any]:
        self._camera = None
        hw.close()
        source = hw.camera()
        marked = self.trays.get(camera_key(hw.camera_url))
        if marked is not None:  # marked in the app for this camera: it wins over the address's own
            from companion.vision.tray import Tray

            source.tray = Tray.parse(marked) if marked else None
        self._camera = source
        return {"simulated": bool(source.simulated), "message": source.message,
                "tray": "" if source.tray is None else str(source.tray)}

    def _camera_opened(self, result: Mapping[str, Any]) -> None:
        self.camera_simulated = result["simulated"]
        self.camera_state = "ready"
        self._camera_note = str(result.get("message") or "")
        self.tray = str(result.get("tray") or "")
        self.camera_message = self._camera_note or (
            "No camera: the built-in simulated dice camera stands in." if self.camera_simulated else "Camera connected."
        )

    def _camera_failed(self, exc: BaseException) -> None:
        self.has_frame = False
        self.camera_state = "missing"
        self.camera_simulated = False
        self.frame = None
        self.detections = None
        self.camera_message = f"No camera: {_describe_error(exc)} Tap the dice in by hand instead."

    def use_tray(self, text: str, on_error: Callable[[BaseException], Any] | None = None) -> None:
        """Read dice only inside the tray ``text`` ("" for the whole picture) from now on."""

        def job(hw: Hardware) -> str:
            from companion.vision.tray import Tray

            tray = Tray.parse(text) if text else None
            hw.camera().tray = tray
            return "" if tray is None else str(tray)

        self._camera_worker.submit(job, lambda tray: setattr(self, "tray", tray), on_error)

    def watch_camera(self, on: bool) -> None:
        """Stream preview frames and their dice into :attr:`frame` / :attr:`detections` while ``on``."""
        if on:
            self._camera_worker.idle_enabled.set()
        else:
            self._camera_worker.idle_enabled.clear()

    def _camera_idle(self) -> None:
        source = self._camera
        if source is None:
            return
        try:
            frame = source.read()
        except Exception as exc:  # shown as a state; the manual way in stays open
            on_ui(self._preview_failed, exc)
            time.sleep(0.5)
            return
        try:
            from companion.vision import read_dice

            detections, problem = read_dice(frame, tray=source.tray), None
        except Exception as exc:  # the picture still shows; the dice are typed in
            detections, problem = None, exc
        on_ui(self._preview, frame, detections, problem)

    def _preview(self, frame: Any, detections: Any, problem: BaseException | None = None) -> None:
        self.frame = frame
        self.detections = detections
        if frame is not None and not self.has_frame:
            self.has_frame = True
        if problem is not None:
            self.camera_state = "fault"
            self.camera_message = f"The dice reader failed: {_describe_error(problem)} Tap the dice in by hand instead."
        elif self.camera_state != "ready":
            self.camera_state = "ready"
            self.camera_message = self._camera_note or ("Camera connected." if not self.camera_simulated else (
                "No camera: the built-in simulated dice camera stands in."
            ))

    def _preview_failed(self, exc: BaseException) -> None:
        self.has_frame = False
        self.camera_state = "fault"
        self.frame = None
        self.detections = None
        self.camera_message = f"The camera gave no picture: {_describe_error(exc)} Tap the dice in by hand instead."

    # -- measurements for actions -------------------------------------------------------------

    def resolve(self, action: Mapping[str, Any], on_done: Callable[[dict[str, Any]], Any],
                on_error: Callable[[BaseException], Any], timeout: float = 15.0) -> None:
        """Take the measurement ``action`` asks for on the right device's thread.

        ``on_done(concrete_action)`` or ``on_error(exc)`` is called on the UI thread.
        """
        source = action.get("from")
        if source == "camera":
            def read(hw: Hardware) -> dict[str, Any]:
                camera = hw.camera()
                if getattr(camera, "simulated", False) and hasattr(camera, "next_roll"):
                    camera.next_roll()  # the simulated table rolls its dice when asked to read them
                return hw.resolve(action, timeout)

            self._camera_worker.submit(read, on_done, on_error)
            return
        self._scale_worker.submit(lambda hw: hw.resolve(action, timeout), on_done, on_error)
