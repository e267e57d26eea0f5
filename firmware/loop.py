"""The capture loop: watch a small gray image for motion, and read the board only when it has settled.

    frame source ──lores──▶ motion? ──▶ settled for settle_seconds? ──full frame──▶ consumer.feed(image, t)
                                                                                      │
                                                      on_events(events, frame) ◀──────┘

* Never queues frames: one frame is in hand at a time and sources return their newest frame.
* The expensive read (vision) happens once per settle, not per frame; a still board costs one small gray diff per
  poll, and polls slow to ``idle_fps`` when nothing moves (a Pi must not run hot all evening).
* Camera failures are retried with exponential back-off; the loop reports its state and resumes. It never invents a
  move: events come only from the consumer, from frames it actually saw.
* Every run is bounded (``max_seconds``, ``max_frames``) or stopped from another thread (:meth:`CaptureLoop.stop`).

The consumer is the move tracker (``tilecam.vision.moves``): anything with ``feed(image, t) -> list`` of detected
events; one with ``note_motion(moving, t)`` is also told where the small image moved (a bool mask) on each frame
with motion. A consumer that sets ``wants_every_frame = True`` is given every frame's full image instead of settled
ones; one whose ``wants_another_read`` is true after a frame (it found no board in it) is given the next frame too.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from tilecam.firmware.sources import EndOfStream, Frame, FrameSource, SourceError

log = logging.getLogger(__name__)

# Loop states, as reported in LoopStatus.state.
STARTING, WATCHING, SETTLING, CAMERA_LOST, STOPPED = "starting", "watching", "settling", "camera-lost", "stopped"


class DetectedEvent(Protocol):
    """What a consumer returns: ``kind`` (``play``, ``pass``, ``exchange``, … as the tracker defines) and whatever
    the daemon needs to turn it into a game-service command (``placement`` for a play)."""

    kind: str


@dataclass(frozen=True, slots=True)
class DetectedMove:
    """A plain detected event, for consumers that have no type of their own (stand-ins, replays)."""

    kind: str                      # "play" or "pass"
    placement: Any = None          # an engine Placement for a play
    confidence: float = 1.0


class FrameConsumer(Protocol):
    """The move tracker's side of the loop: gets full-size BGR images with their time, returns detected events."""

    def feed(self, image: np.ndarray, t: float) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class LoopConfig:
    """Motion and pacing. Motion is the fraction of lores pixels whose gray level changed by more than
    ``pixel_threshold`` between consecutive frames; a placed tile is ~0.3 % of a board-filling frame, a hand 5 %+."""

    pixel_threshold: int = 18
    motion_fraction: float = 0.002
    # Stillness (source time) after motion before the board is read, and at least this many still frames. Short:
    # a hand still over the board is the tracker's to tell (squares that changed and read as covered), so the loop
    # need not wait for it to leave; a rendered game leaves the board still for 0.8 s, a camera shake within it
    # leaves three frames.
    settle_seconds: float = 0.25
    settle_frames: int = 3
    idle_fps: float = 2.0             # live sources: polls per second while nothing moves
    active_fps: float = 8.0           # …and while something moves or is settling
    retry_initial_s: float = 0.5      # first wait before reopening a failed camera
    retry_max_s: float = 30.0         # back-off ceiling
    status_every_s: float = 10.0      # how often the on_status callback hears about an unchanged state


@dataclass
class LoopStatus:
    """What the loop is doing, for logs, the web's device panel and systemd's STATUS line."""

    state: str = STARTING
    source: str = ""
    frames: int = 0
    reads: int = 0
    motion_frames: int = 0
    events: int = 0
    source_errors: int = 0
    consumer_errors: int = 0
    reconnects: int = 0
    last_error: str = ""
    stop_reason: str = ""
    tracker: str = ""              # what the move tracker last said (settled, a hand over the board, no board found)
    started: float = field(default_factory=time.monotonic)

    def to_dict(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d["uptime_s"] = round(time.monotonic() - self.started, 1)
        d.pop("started")
        return d

    def line(self) -> str:
        text = f"{self.state}: {self.source}, {self.frames} frames, {self.reads} reads, {self.events} events"
        text += f"; tracker: {self.tracker}" if self.tracker else ""
        return text + (f"; last error: {self.last_error}" if self.last_error else "")


def moving_pixels(a: np.ndarray, b: np.ndarray, pixel_threshold: int) -> np.ndarray:
    """Where the gray value differs by more than ``pixel_threshold`` between two small frames of one size."""
    return np.abs(a.astype(np.int16) - b.astype(np.int16)) > pixel_threshold


def motion_fraction(a: np.ndarray, b: np.ndarray, pixel_threshold: int) -> float:
    """Fraction of pixels whose gray value differs by more than ``pixel_threshold`` (1.0 when the sizes differ)."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(moving_pixels(a, b, pixel_threshold))) / a.size


class CaptureLoop:
    """Run a source into a consumer. ``on_events(events, frame)`` gets each non-empty list the consumer returns,
    with the frame it came from (for the snapshot); ``on_status(status)`` hears about state changes; ``on_tick()``
    is called once per iteration (the systemd watchdog)."""

    def __init__(self, source: FrameSource, consumer: FrameConsumer,
                 on_events: Callable[[list[Any], Frame], None] | None = None,
                 config: LoopConfig | None = None, *,
                 on_status: Callable[[LoopStatus], None] | None = None,
                 on_tick: Callable[[], None] | None = None) -> None:
        self.source = source
        self.consumer = consumer
        self.on_events = on_events or (lambda events, frame: None)
        self.config = config or LoopConfig()
        self.on_status = on_status or (lambda status: None)
        self.on_tick = on_tick or (lambda: None)
        self.status = LoopStatus(source=source.name)
        self._stop = threading.Event()
        self._read_requested = threading.Event()
        self._last_status_report = 0.0

    # -- control from other threads

    def stop(self) -> None:
        """Ask the loop to finish its current frame and return (safe from any thread or a signal handler)."""
        self._stop.set()

    def request_read(self) -> None:
        """Read the next frame whatever the motion says (a player pressed their clock button)."""
        self._read_requested.set()

    # -- the loop

    def run(self, max_seconds: float | None = None, max_frames: int | None = None) -> LoopStatus:
        """Run until the recording ends, ``stop()``, ``max_seconds`` of wall time or ``max_frames`` frames."""
        cfg = self.config
        every_frame = bool(getattr(self.consumer, "wants_every_frame", False))
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        previous: np.ndarray | None = None
        need_read = True           # the first frame (and the first after a reconnect) is always read
        moving = False
        last_motion_t = 0.0
        still_frames = 0
        opened = False
        backoff = cfg.retry_initial_s

        try:
            while not self._stop.is_set():
                if deadline is not None and time.monotonic() >= deadline:
                    self.status.stop_reason = "max-seconds"
                    break
                if max_frames is not None and self.status.frames >= max_frames:
                    self.status.stop_reason = "max-frames"
                    break
                self.on_tick()

                # Open (or reopen) the source; a failure waits with back-off and tries again.
                if not opened:
                    try:
                        self.source.open()
                    except SourceError as exc:
                        if not self.source.live:
                            raise
                        self._lost(exc)
                        self._wait(backoff, deadline)
                        backoff = min(backoff * 2, cfg.retry_max_s)
                        continue
                    if self.status.state == CAMERA_LOST:
                        self.status.reconnects += 1
                        log.info("camera %s is back", self.source.name)
                    opened = True
                    need_read, previous, moving, still_frames = True, None, False, 0
                    self._set_state(WATCHING)

                started = time.monotonic()
                try:
                    frame = self.source.read()
                except EndOfStream:
                    self.status.stop_reason = "end-of-stream"
                    break
                except SourceError as exc:
                    self.status.source_errors += 1
                    if not self.source.live:
                        # A bad frame in a recording: skip it (the source has moved past it) and go on.
                        self.status.last_error = str(exc)
                        log.warning("%s", exc)
                        continue
                    self._lost(exc)
                    self.source.close()
                    opened = False
                    self._wait(backoff, deadline)
                    backoff = min(backoff * 2, cfg.retry_max_s)
                    continue
                backoff = cfg.retry_initial_s
                self.status.frames += 1

                # Motion on the small gray image.
                if previous is not None and motion_fraction(previous, frame.lores, cfg.pixel_threshold) \
                        > cfg.motion_fraction:
                    # where it moved, for a consumer that asks (the tracker: the side of the board an arm reached in
                    # from, which the still frames it reads never show); looked up each time: the daemon gives the
                    # loop a new tracker for a new game
                    noting_motion = None if every_frame else getattr(self.consumer, "note_motion", None)
                    if noting_motion is not None and previous.shape == frame.lores.shape:
                        noting_motion(moving_pixels(previous, frame.lores, cfg.pixel_threshold), frame.t)
                    moving = True
                    last_motion_t = frame.t
                    still_frames = 0
                    self.status.motion_frames += 1
                    self._set_state(SETTLING)
                elif moving:
                    still_frames += 1
                previous = frame.lores

                settled = moving and still_frames >= cfg.settle_frames and frame.t - last_motion_t >= cfg.settle_seconds
                forced = self._read_requested.is_set()
                if every_frame or need_read or settled or forced:
                    self._read_requested.clear()
                    self._feed(frame)
                    # a consumer that could not use the frame (no board found in it) is given the next one too
                    need_read = bool(getattr(self.consumer, "wants_another_read", False))
                    if settled or forced:
                        moving, still_frames = False, 0
                        self._set_state(WATCHING)

                if self.source.live:
                    fps = cfg.active_fps if moving else cfg.idle_fps
                    self._wait(1.0 / fps - (time.monotonic() - started), deadline)
        finally:
            self.source.close()
            if not self.status.stop_reason:
                self.status.stop_reason = "stopped" if self._stop.is_set() else "error"
            self._set_state(STOPPED)
        return self.status

    def _feed(self, frame: Frame) -> None:
        self.status.reads += 1
        try:
            events = self.consumer.feed(frame.full(), frame.t)
        except SourceError as exc:
            self.status.source_errors += 1
            self.status.last_error = str(exc)
            return
        except Exception as exc:  # noqa: BLE001 — the scorekeeper outlives a vision bug; counted, logged, shown
            self.status.consumer_errors += 1
            self.status.last_error = f"{type(exc).__name__}: {exc}"
            log.exception("the move tracker failed on frame %d", frame.index)
            return
        finally:
            self.status.tracker = str(getattr(self.consumer, "status", "") or "")
        if events:
            self.status.events += len(events)
            self.on_events(list(events), frame)

    def _lost(self, exc: Exception) -> None:
        self.status.last_error = str(exc)
        if self.status.state != CAMERA_LOST:
            log.warning("camera %s lost: %s (retrying)", self.source.name, exc)
        self._set_state(CAMERA_LOST)

    def _wait(self, seconds: float, deadline: float | None) -> None:
        """Sleep (stop-aware), ticking at least once a second so a long back-off does not starve the watchdog."""
        end = time.monotonic() + seconds
        if deadline is not None:
            end = min(end, deadline)
        while not self._stop.is_set():
            left = end - time.monotonic()
            if left <= 0:
                return
            self._stop.wait(min(left, 1.0))
            if left > 1.0:
                self.on_tick()

    def _set_state(self, state: str) -> None:
        now = time.monotonic()
        if state != self.status.state or now - self._last_status_report >= self.config.status_every_s:
            self.status.state = state
            self._last_status_report = now
            self.on_status(self.status)
