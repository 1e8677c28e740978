"""The tablet's scale and camera as the screens see them: live, threaded, never blocking.

:class:`HardwareService` owns one :class:`~companion.session.hardware.Hardware` (the
balance and camera chosen by URL) and one worker thread per device. Everything that may
block (opening a port, probing ``auto://``, waiting for a stable weight, reading a frame)
runs on those threads; what the screens show comes back through Kivy properties set on
the UI thread. A missing or failing device becomes a state with a message in words
("missing", "fault", "waiting"), never an exception in the UI.

The balance is watched pan by pan: :attr:`HardwareService.pans` holds each pan's state,
measured noise, averaging, motion band and wiring as the driver reports them, so a
two-pan balance with one amplifier missing weighs on the other pan and names the one that
cannot. An unplugged balance is waited for ("waiting for the balance on PORT") and
picked up again by itself. A weighing or tare that fails is put in one calm line (noise
or motion, which pan, which wire), with the longer what-to-check in :attr:`scale_advice`.

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
from kivy.properties import (
    BooleanProperty,
    DictProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)

from companion.errors import ExitCode, PurserError
from companion.session.hardware import Hardware
from companion.ui.background import on_ui
from companion.ui.scale_words import Trouble, sentence, weigh_trouble

log = logging.getLogger(__name__)

#: How often the live weight is pushed to the screen, and frames to the preview (per second).
LIVE_RATE_HZ = 10.0
PREVIEW_RATE_HZ = 3.0
#: After this long without a reading the live view says the balance is being waited for (s).
WAIT_NOTICE_S = 0.5
#: How long a weighing from a screen may wait for a steady load (s).
WEIGH_TIMEOUT_S = 15.0

Job = Callable[[Hardware], Any]


class _Worker:
    """One thread that owns one device: jobs in a queue, an optional idle step between them."""

    def __init__(
        self, name: str, idle: Callable[[], None], idle_period: float, hardware: Callable[[], Hardware]
    ) -> None:
        self._jobs: queue.Queue[
            tuple[Job, Callable[[Any], Any] | None, Callable[[BaseException], Any] | None] | None
        ] = queue.Queue()
        self._idle = idle
        self._idle_period = idle_period
        self.idle_enabled = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._hardware = hardware

    def start(self) -> None:
        self._thread.start()

    def submit(
        self, job: Job, on_done: Callable[[Any], Any] | None, on_error: Callable[[BaseException], Any] | None
    ) -> None:
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


class BalanceTrouble(PurserError):
    """A weighing or tare that failed, put in words: ``str()`` is one calm line for the
    message bar; :attr:`trouble` holds the longer what-to-check and the kind. (A hardware
    error like the driver's ``ScaleError`` it stands for; the driver is imported only once
    a balance is opened, not at the app's start.)"""

    exit_code = ExitCode.HARDWARE

    def __init__(self, trouble: Trouble) -> None:
        super().__init__(trouble.line)
        self.trouble = trouble


def explain_failure(scale: Any, exc: BaseException, channel: int) -> BalanceTrouble:
    """Why ``scale`` gave no weight on ``channel`` (``exc`` from the driver), asked of the
    driver at once, on the scale's thread: unplugged, a pan's fault, noise or motion."""
    from companion.scale.errors import ScaleFault, ScaleTimeout

    status = None
    diagnosis = getattr(exc, "diagnosis", None)  # the driver's judgement when it gave up
    try:
        status = scale.status()
        if isinstance(exc, ScaleTimeout) and diagnosis is None and 0 <= channel < scale.channels:
            diagnosis = scale.diagnose(channel)
    except Exception:  # the explanation must never hide the failure it explains
        log.exception("could not ask the balance why it gave no weight")
    pan = status.pan(channel) if status is not None else None
    waiting = ""
    if status is not None and status.waiting:
        waiting = pan.message if pan is not None and pan.message else "waiting for the balance"
    return BalanceTrouble(
        weigh_trouble(
            str(exc).strip() or exc.__class__.__name__,
            timeout=isinstance(exc, ScaleTimeout),
            fault=isinstance(exc, ScaleFault),
            waiting=waiting,
            diagnosis=diagnosis,
            channel=channel,
            channels=int(getattr(scale, "channels", 1) or 1),
        )
    )


def _pan_rows(status: Any) -> list[dict[str, Any]]:
    """Each pan's status as a plain dict, figures rounded so a live view redraws only when
    something a person can see has changed."""
    rows = []
    for pan in getattr(status, "pans", ()):
        row = pan.to_json()
        row["noise_g"] = round(float(row["noise_g"]), 4)
        row["noise_ratio"] = round(float(row["noise_ratio"]), 1)
        row["band_g"] = round(float(row["band_g"]), 3)
        rows.append(row)
    return rows


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
    (opened, but readings cannot be trusted now: for the balance, no pan can weigh), and for
    the balance ``"waiting"`` (unplugged or silent: waited for, picked up again by itself).
    A two-pan balance with one pan that cannot weigh is ``"ready"``: :attr:`pans` says which.
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
    #: Each pan as the driver reports it (``PanStatus.to_json()``: channel, name, state,
    #: working, message, noise_g, noise_ratio, noise_measured, averaging, band_g, noisy,
    #: wiring).
    pans = ListProperty([])
    #: What to check after the last weighing or tare that failed ("" once one succeeds).
    scale_advice = StringProperty("")
    #: How long a weighing asked for by a screen may wait for a steady load (s).
    weigh_timeout_s = NumericProperty(WEIGH_TIMEOUT_S)

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

    def __init__(self, scale_url: str, camera_url: str, trays: Mapping[str, str] | None = None, **kwargs: Any) -> None:
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
        self._camera_worker = _Worker(
            "purser-camera", self._camera_idle, 1.0 / PREVIEW_RATE_HZ, lambda: self._camera_hw
        )
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
        self.grams = None  # the last balance's reading is not this one's
        self.stable = False
        self._scale_worker.submit(self._open_scale_job, self._scale_opened, self._scale_failed)

    def _open_scale_job(self, hw: Hardware) -> dict[str, Any]:
        self._samples = None
        self._scale = None
        hw.close()
        scale = hw.scale()
        self._scale = scale
        # every pan says how it is before the screens show it (a missing amplifier may
        # be reported only every 0.7 s)
        status = scale.survey(1.0)
        info = dict(scale.info())
        return {
            "info": info,
            "simulated": bool(getattr(scale, "simulated", False) or status.simulated),
            "channels": int(getattr(scale, "channels", 1) or 1),
            "status": status,
        }

    def _scale_opened(self, result: Mapping[str, Any]) -> None:
        self.scale_info = dict(result["info"])
        self.scale_simulated = result["simulated"]
        self.scale_channels = result["channels"]
        self.scale_advice = ""
        self._take_status(result["status"])

    def _take_status(self, status: Any, waiting: str = "") -> None:
        """The balance's state, message and pans from the driver's status (UI thread);
        ``waiting`` is the driver's words while no reading comes."""
        self.pans = _pan_rows(status)
        if waiting or status.waiting:
            words = waiting or next((p.message for p in status.pans if p.message), "") or "waiting for the balance"
            self.scale_state = "waiting"
            self.scale_message = sentence(words) + " It carries on by itself when it is back."
        elif status.chip_fault or status.saturated:
            self.scale_state = "fault"
            self.scale_message = sentence(
                "; ".join(status.faults())
                or status.message
                or "the balance reports a fault: no weight can be trusted until it clears"
            )
        else:
            self.scale_state = "ready"
            note = status.note  # each pan row says the pan's own words
            if note:
                self.scale_message = sentence(note)
            elif self.scale_simulated:
                self.scale_message = "No balance found: the built-in simulated scale stands in."
            else:
                self.scale_message = "Scale connected."

    def _scale_failed(self, exc: BaseException) -> None:
        self.scale_state = "missing"
        self.scale_simulated = False
        self.pans = []
        self.grams = None
        self.scale_message = (
            f"No scale: {_describe_error(exc)} Type weights in by hand, or check the cable and try again."
        )

    def refresh_scale_info(self) -> None:
        """Read what the open scale says about itself again (after a calibration)."""
        self._scale_worker.submit(
            lambda hw: dict(hw.scale().info()), lambda info: setattr(self, "scale_info", info), None
        )

    def pan(self, channel: int) -> Mapping[str, Any] | None:
        """Pan ``channel``'s row of :attr:`pans`, if the balance has reported it."""
        return next((p for p in self.pans if p.get("channel") == channel), None)

    def can_weigh(self, channel: int) -> bool:
        """True when the balance is ready and pan ``channel`` can weigh (it may be settling)."""
        if self.scale_state != "ready" or not 0 <= channel < int(self.scale_channels):
            return False
        pan = self.pan(channel)
        return pan is None or bool(pan.get("working", True))

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
        """The latest live reading and every pan's state (runs on the scale thread), at most
        :data:`LIVE_RATE_HZ` times a second, on the real clock and the scale's own (a
        simulator on a virtual clock is read at the pace of a real one)."""
        from companion.scale.base import Reading, Waiting

        scale = self._scale
        if scale is None:
            return
        channel = int(self.live_channel)
        if not 0 <= channel < scale.channels:
            channel = 0
        if self._restart_stream.is_set():
            self._restart_stream.clear()
            self._samples = None
        period = 1.0 / LIVE_RATE_HZ
        try:
            if self._samples is None:
                self._samples = iter(scale.watch(notice_s=WAIT_NOTICE_S))
            latest: Reading | None = None
            waiting: Waiting | None = None
            started = time.monotonic()
            began = scale.now()
            while True:
                item = next(self._samples)
                if isinstance(item, Waiting):
                    waiting = item
                    break
                if item.sample.channel == channel:
                    latest = item
                spent = time.monotonic() - started
                if spent >= 1.0:  # the watched pan says nothing (a firmware reporting its fault slowly)
                    break
                if latest is not None and (spent >= period or scale.now() - began >= period):
                    break
            status = scale.status()
        except StopIteration:
            self._samples = None
            return
        except Exception as exc:  # a device error becomes a state on the screen
            self._samples = None
            on_ui(self._live_failed, exc)
            time.sleep(0.5)
            return
        if waiting is not None:
            on_ui(self._live_waiting, waiting.message, status)
            return
        if latest is None:
            on_ui(self._live_reading, None, False, status)
            return
        grams, stable = latest.net_g, latest.stable
        if latest.sample.fault or latest.sample.saturated:
            grams = None
        on_ui(self._live_reading, grams, stable, status)

    def _live_reading(self, grams: float | None, stable: bool, status: Any) -> None:
        self.grams = grams
        self.stable = stable and grams is not None
        self._take_status(status)

    def _live_waiting(self, message: str, status: Any) -> None:
        self.grams = None
        self.stable = False
        self._take_status(status, waiting=message)

    def _live_failed(self, exc: BaseException) -> None:
        self.grams = None
        self.stable = False
        self.scale_state = "fault"
        self.scale_message = f"The scale stopped answering: {_describe_error(exc)}"

    def tare(
        self,
        channel: int = 0,
        on_done: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> None:
        """Zero ``channel`` in the background; a failure reaches ``on_error`` as a
        :class:`BalanceTrouble` (one line; what to check in :attr:`scale_advice`)."""
        self._scale_worker.submit(
            self._explained(lambda hw: hw.scale().tare(channel=channel), channel),
            self._succeeded(on_done),
            self._failed(on_error),
        )

    def weigh(
        self,
        channel: int = 0,
        on_done: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> None:
        """One steady weighing of ``channel`` in the background (a ``Weighing``), within
        :attr:`weigh_timeout_s`; a failure reaches ``on_error`` as a :class:`BalanceTrouble`."""
        timeout = float(self.weigh_timeout_s)
        self._scale_worker.submit(
            self._explained(lambda hw: hw.scale().weigh_stable(timeout=timeout, channel=channel), channel),
            self._succeeded(on_done),
            self._failed(on_error),
        )

    def _explained(self, job: Job, channel: int) -> Job:
        """``job`` whose balance errors come out put in words (on the scale's thread)."""

        def run(hw: Hardware) -> Any:
            from companion.scale.errors import ScaleError

            try:
                return job(hw)
            except ScaleError as exc:
                if isinstance(exc, BalanceTrouble) or self._scale is None:
                    raise
                raise explain_failure(self._scale, exc, channel) from exc

        return run

    def _succeeded(self, on_done: Callable[[Any], Any] | None) -> Callable[[Any], Any]:
        def done(result: Any) -> None:
            self.scale_advice = ""
            if on_done is not None:
                on_done(result)

        return done

    def _failed(self, on_error: Callable[[BaseException], Any] | None) -> Callable[[BaseException], Any]:
        def failed(exc: BaseException) -> None:
            if isinstance(exc, BalanceTrouble):
                self.scale_advice = exc.trouble.advice
            if on_error is not None:
                on_error(exc)

        return failed

    def run_on_camera(
        self,
        job: Job,
        on_done: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> None:
        """Run ``job(hardware)`` on the camera's thread."""
        self._camera_worker.submit(job, on_done, on_error)

    def run_on_scale(
        self,
        job: Job,
        on_done: Callable[[Any], Any] | None = None,
        on_error: Callable[[BaseException], Any] | None = None,
    ) -> None:
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
        return {
            "simulated": bool(source.simulated),
            "message": source.message,
            "tray": "" if source.tray is None else str(source.tray),
        }

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

    def find_tray(self, on_done: Callable[[str], Any], on_error: Callable[[BaseException], Any] | None = None) -> None:
        """Look for the tray in a fresh frame (the whole picture, with the dice read in it) and
        call ``on_done`` with its tray text, or "" when no region is clearly a tray. The tray
        is only proposed: :meth:`use_tray` keeps it."""

        def job(hw: Hardware) -> str:
            import numpy as np

            from companion.vision import read_dice
            from companion.vision.errors import VisionError
            from companion.vision.tray import detect_tray

            source = hw.camera()
            if source is None:
                raise VisionError("the camera is not open yet")
            frame = source.read()
            centres = np.array([(d.box[0] + d.box[2] / 2, d.box[1] + d.box[3] / 2) for d in read_dice(frame)])
            tray = detect_tray(frame, centres.reshape(-1, 2) if len(centres) else None)
            return "" if tray is None else str(tray)

        self._camera_worker.submit(job, on_done, on_error)

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
            self.camera_message = self._camera_note or (
                "Camera connected."
                if not self.camera_simulated
                else ("No camera: the built-in simulated dice camera stands in.")
            )

    def _preview_failed(self, exc: BaseException) -> None:
        self.has_frame = False
        self.camera_state = "fault"
        self.frame = None
        self.detections = None
        self.camera_message = f"The camera gave no picture: {_describe_error(exc)} Tap the dice in by hand instead."

    # -- measurements for actions -------------------------------------------------------------

    def resolve(
        self,
        action: Mapping[str, Any],
        on_done: Callable[[dict[str, Any]], Any],
        on_error: Callable[[BaseException], Any],
        timeout: float | None = None,
    ) -> None:
        """Take the measurement ``action`` asks for on the right device's thread (a weighing
        waits up to ``timeout`` s, by default :attr:`weigh_timeout_s`).

        ``on_done(concrete_action)`` or ``on_error(exc)`` is called on the UI thread; a
        weighing that fails comes as a :class:`BalanceTrouble` (one calm line).
        """
        if timeout is None:
            timeout = float(self.weigh_timeout_s)
        source = action.get("from")
        if source == "camera":

            def read(hw: Hardware) -> dict[str, Any]:
                camera = hw.camera()
                if getattr(camera, "simulated", False) and hasattr(camera, "next_roll"):
                    camera.next_roll()  # the simulated table rolls its dice when asked to read them
                return hw.resolve(action, timeout)

            self._camera_worker.submit(read, on_done, on_error)
            return
        channel = action.get("channel", 0)
        channel = channel if isinstance(channel, int) and not isinstance(channel, bool) else 0
        self._scale_worker.submit(
            self._explained(lambda hw: hw.resolve(action, timeout), channel),
            self._succeeded(on_done),
            self._failed(on_error),
        )
