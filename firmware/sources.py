"""Camera sources behind one small protocol: Pi camera, webcam, video file, folder of frames, zip of frames, demo.

Every source hands out :class:`Frame` objects. A frame carries a small gray image (``lores``) that is cheap to get
and is what the capture loop compares for motion; the full-size colour image is fetched only when the loop decides to
read the board (``frame.full()``). On the Pi camera the two come from two streams of the same camera (``lores`` YUV
and ``main``), so an evening of watching a still board never copies a full-size frame.

Failures are typed: :class:`EndOfStream` when a file or folder has no more frames (the loop stops), :class:`SourceError`
when a camera cannot be opened or stops delivering (the loop backs off and reopens).

Nothing here needs a camera to import: picamera2 and cv2 are imported inside the functions that use them.
"""

from __future__ import annotations

import re
import time
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
VIDEO_SUFFIXES = (".avi", ".mp4", ".mkv", ".mov", ".mjpeg", ".mjpg", ".webm", ".h264")
LORES_WIDTH = 160  # width of the gray motion image; ~10 px per board square when the board fills the frame
DEMO_CLIP = Path(__file__).with_name("data") / "demo_game.zip"


class SourceError(RuntimeError):
    """A camera or file cannot deliver frames (not found, disconnected, unreadable). The loop retries live ones."""


class EndOfStream(SourceError):
    """A recorded source (file, folder, demo) has no more frames."""


class BadSourceSpec(ValueError):
    """A ``--source`` value that names no kind of source and no existing file or folder."""


# --------------------------------------------------------------------------------------------------- frames


@dataclass(eq=False)
class Frame:
    """One captured frame: ``index`` (0-based count from this source), ``t`` (seconds; the camera's clock for live
    sources, ``index / fps`` for recorded ones), ``lores`` (small gray uint8 image for motion detection) and
    ``full()`` (the full-size BGR uint8 image, fetched on first call and cached)."""

    index: int
    t: float
    lores: np.ndarray
    _full: Callable[[], np.ndarray] | np.ndarray = field(repr=False)

    def full(self) -> np.ndarray:
        if callable(self._full):
            self._full = self._full()
        return self._full


def to_lores(image: np.ndarray, width: int = LORES_WIDTH) -> np.ndarray:
    """A small gray copy of a BGR (or gray) image, ``width`` pixels wide, aspect kept."""
    import cv2

    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape[:2]
    if w <= width:
        return np.ascontiguousarray(gray)
    height = max(1, round(h * width / w))
    return cv2.resize(gray, (width, height), interpolation=cv2.INTER_AREA)


def frame_from_image(image: np.ndarray, index: int, t: float) -> Frame:
    return Frame(index=index, t=t, lores=to_lores(image), _full=image)


@runtime_checkable
class FrameSource(Protocol):
    """What the capture loop needs from a camera or a recording.

    ``name`` says what it is (``picamera``, ``webcam:0``, ``video:PATH``, ``folder:PATH``, ``demo``); ``live`` is
    True for cameras (frames come in real time, there is no end, failures are retried). ``read()`` returns the newest
    frame (never a queued old one), raises :class:`EndOfStream` at the end of a recording and :class:`SourceError`
    when a camera fails. ``open()`` may be called again after ``close()`` (the loop reopens a failed camera).
    """

    name: str
    live: bool

    def open(self) -> None: ...

    def read(self) -> Frame: ...

    def close(self) -> None: ...


def natural_key(name: str) -> tuple:
    """Sort key that puts ``image-2`` before ``image-10``."""
    return tuple(int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name))


# --------------------------------------------------------------------------------------------------- recordings


class _Recorded:
    """Shared pacing for recorded sources: ``t = index / fps``; with ``realtime`` the reader sleeps so frames come
    at the recorded rate (the demo in ``tilecam run``); without it they come as fast as they are read (tests)."""

    live = False

    def __init__(self, fps: float, realtime: bool, loop: bool) -> None:
        if fps <= 0:
            raise ValueError(f"fps must be positive, got {fps}")
        self.fps = float(fps)
        self.realtime = realtime
        self.loop = loop
        self._index = 0
        self._started: float | None = None

    def _pace(self, index: int) -> float:
        t = index / self.fps
        if self.realtime:
            now = time.monotonic()
            if self._started is None:
                self._started = now - t
            delay = self._started + t - now
            if delay > 0:
                time.sleep(delay)
        return t


class FolderSource(_Recorded):
    """Image files in a folder, in natural order (``image-2`` before ``image-10``)."""

    def __init__(self, folder: str | Path, fps: float = 5.0, realtime: bool = False, loop: bool = False) -> None:
        super().__init__(fps, realtime, loop)
        self.folder = Path(folder)
        self.name = f"folder:{self.folder}"
        self._files: list[Path] = []

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"no folder {self.folder}")
        self._files = sorted((p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
                             key=lambda p: natural_key(p.name))
        if not self._files:
            raise SourceError(f"no image files ({', '.join(IMAGE_SUFFIXES)}) in {self.folder}")
        self._index = 0
        self._started = None

    def read(self) -> Frame:
        import cv2

        if self._index >= len(self._files):
            if not self.loop:
                raise EndOfStream(f"{self.name}: all {len(self._files)} frames read")
        index = self._index
        self._index += 1  # past this frame even when it fails to decode, so a bad file is skipped, not retried
        path = self._files[index % len(self._files)]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"cannot decode image {path}")
        return frame_from_image(image, index, self._pace(index))

    def close(self) -> None:
        pass


class ZipFramesSource(_Recorded):
    """JPEG/PNG frames stored in a zip file (natural order of the member names); how the demo clip is bundled.

    ``metadata`` holds ``game.json`` from the zip when there is one (players, the GCG of the recorded game).
    """

    def __init__(self, path: str | Path, fps: float | None = None, realtime: bool = False, loop: bool = False,
                 name: str | None = None) -> None:
        self.path = Path(path)
        self.metadata: dict[str, Any] = {}
        super().__init__(fps or 5.0, realtime, loop)
        self._explicit_fps = fps is not None
        self.name = name or f"zip:{self.path}"
        self._zip: zipfile.ZipFile | None = None
        self._members: list[str] = []

    def open(self) -> None:
        import json

        if not self.path.is_file():
            raise SourceError(f"no file {self.path}")
        try:
            self._zip = zipfile.ZipFile(self.path)
        except zipfile.BadZipFile as exc:
            raise SourceError(f"{self.path} is not a zip of frames: {exc}") from exc
        names = self._zip.namelist()
        self._members = sorted((n for n in names if Path(n).suffix.lower() in IMAGE_SUFFIXES), key=natural_key)
        if not self._members:
            raise SourceError(f"no image files in {self.path}")
        if "game.json" in names:
            self.metadata = json.loads(self._zip.read("game.json").decode("utf-8"))
            if not self._explicit_fps and self.metadata.get("fps"):
                self.fps = float(self.metadata["fps"])
        self._index = 0
        self._started = None

    def read(self) -> Frame:
        import cv2

        if self._zip is None:
            raise SourceError(f"{self.name} is not open")
        if self._index >= len(self._members) and not self.loop:
            raise EndOfStream(f"{self.name}: all {len(self._members)} frames read")
        index = self._index
        self._index += 1  # past this frame even when it fails to decode
        member = self._members[index % len(self._members)]
        data = np.frombuffer(self._zip.read(member), dtype=np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        if image is None:
            raise SourceError(f"cannot decode {member} in {self.path}")
        return frame_from_image(image, index, self._pace(index))

    def __len__(self) -> int:
        return len(self._members)

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()
            self._zip = None


class VideoFileSource(_Recorded):
    """A video file read with OpenCV (any container/codec the installed OpenCV can decode; MJPEG .avi always)."""

    def __init__(self, path: str | Path, fps: float | None = None, realtime: bool = False, loop: bool = False) -> None:
        super().__init__(fps or 10.0, realtime, loop)
        self._explicit_fps = fps is not None
        self.path = Path(path)
        self.name = f"video:{self.path}"
        self._cap: Any = None

    def open(self) -> None:
        import cv2

        if not self.path.is_file():
            raise SourceError(f"no file {self.path}")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            raise SourceError(f"OpenCV cannot open video {self.path}")
        if not self._explicit_fps:
            fps = cap.get(cv2.CAP_PROP_FPS)
            if fps and fps > 0:
                self.fps = float(fps)
        self._cap = cap
        self._index = 0
        self._started = None

    def read(self) -> Frame:
        import cv2

        if self._cap is None:
            raise SourceError(f"{self.name} is not open")
        ok, image = self._cap.read()
        if not ok:
            if self.loop and self._index > 0:
                self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                ok, image = self._cap.read()
            if not ok:
                raise EndOfStream(f"{self.name}: end after {self._index} frames")
        t = self._pace(self._index)
        frame = frame_from_image(image, self._index, t)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def demo_source(realtime: bool = True, path: str | Path | None = None) -> ZipFramesSource:
    """The bundled clip of a short game (firmware/data/demo_game.zip), played at its recorded rate by default."""
    clip = Path(path) if path else DEMO_CLIP
    return ZipFramesSource(clip, realtime=realtime, name="demo")


# --------------------------------------------------------------------------------------------------- webcam


class WebcamSource:
    """A USB/V4L2 webcam through OpenCV ``VideoCapture``.

    The driver's buffer is set to one frame, and a read after a pause first drops the frames the driver kept
    (``grab()`` without decoding), so the frame returned is the newest, not one from seconds ago.
    """

    live = True

    def __init__(self, index: int = 0, size: tuple[int, int] | None = (1920, 1080),
                 capture_factory: Callable[..., Any] | None = None) -> None:
        self.index = index
        self.size = size
        self.name = f"webcam:{index}"
        self._factory = capture_factory
        self._cap: Any = None
        self._count = 0
        self._last_read = 0.0

    def open(self) -> None:
        import cv2

        factory = self._factory or cv2.VideoCapture
        cap = factory(self.index)
        if not cap.isOpened():
            raise SourceError(f"no webcam at index {self.index} (is it plugged in? see `v4l2-ctl --list-devices`)")
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self.size:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap
        self._last_read = 0.0

    def read(self) -> Frame:
        if self._cap is None:
            raise SourceError(f"{self.name} is not open")
        now = time.monotonic()
        if self._last_read and now - self._last_read > 0.2:
            for _ in range(4):  # drop what the driver queued while we slept
                self._cap.grab()
        ok, image = self._cap.read()
        if not ok or image is None:
            raise SourceError(f"{self.name} stopped delivering frames")
        self._last_read = time.monotonic()
        frame = frame_from_image(image, self._count, self._last_read)
        self._count += 1
        return frame

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


def webcam_available(index: int = 0, capture_factory: Callable[..., Any] | None = None) -> bool:
    """True when a webcam at ``index`` opens and delivers one frame (on Linux, only if /dev/video* exists: no
    device, no probe — and no OpenCV warnings on a machine without a camera)."""
    import sys

    if capture_factory is None and sys.platform.startswith("linux") and not list(Path("/dev").glob("video*")):
        return False
    try:
        import cv2

        cap = (capture_factory or cv2.VideoCapture)(index)
    except Exception:  # noqa: BLE001 — probing hardware: any backend failure means "not available"
        return False
    try:
        return bool(cap.isOpened()) and bool(cap.read()[0])
    finally:
        cap.release()


# --------------------------------------------------------------------------------------------------- Pi camera

# libcamera control values (libcamera.controls.AfModeEnum), written as numbers so tests need no libcamera.
AF_MODE_MANUAL, AF_MODE_AUTO = 0, 1


@dataclass(frozen=True, slots=True)
class PiCameraSettings:
    """Pi camera streams and locking. ``main`` is the reading resolution; ``lores`` the motion stream (YUV420)."""

    main: tuple[int, int] = (2304, 1296)
    lores: tuple[int, int] = (320, 180)
    camera_num: int = 0
    settle_frames_max: int = 60   # give auto exposure/white balance at most this many frames to settle
    settle_tolerance: float = 0.03  # relative change between frames below which AE/AWB count as settled
    autofocus: bool = True


class PiCameraSource:
    """Raspberry Pi Camera Module 2/3 through picamera2 (``apt install python3-picamera2`` or the ``[pi]`` extra).

    On ``open()``: two streams are configured (``main`` RGB888 — which picamera2 lays out as BGR, what OpenCV wants —
    and a small ``lores`` YUV420 whose Y plane is the motion image), one autofocus cycle is run and the lens position
    locked (Camera Module 3; the v2 has fixed focus), then auto exposure and white balance are allowed to settle and
    are locked at the settled values, so the board's colours and brightness do not drift while the game goes on.
    ``queue=False`` makes every capture wait for a fresh frame: never an old queued one.
    """

    live = True

    def __init__(self, settings: PiCameraSettings | None = None,
                 picamera2_factory: Callable[[int], Any] | None = None) -> None:
        self.settings = settings or PiCameraSettings()
        self.name = "picamera"
        self._factory = picamera2_factory
        self.cam: Any = None
        self.locked_controls: dict[str, Any] = {}
        self._count = 0

    def _make(self) -> Any:
        if self._factory is not None:
            return self._factory(self.settings.camera_num)
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise SourceError("picamera2 is not installed (on Raspberry Pi OS: sudo apt install python3-picamera2)"
                              ) from exc
        try:
            return Picamera2(self.settings.camera_num)
        except (IndexError, RuntimeError) as exc:
            raise SourceError(f"no Pi camera {self.settings.camera_num}: {exc}") from exc

    def open(self) -> None:
        s = self.settings
        cam = self._make()
        try:
            config = cam.create_video_configuration(
                main={"size": s.main, "format": "RGB888"},
                lores={"size": s.lores, "format": "YUV420"},
                buffer_count=3, queue=False, display=None, encode=None,
            )
            cam.configure(config)
            cam.start()
            self.cam = cam
            self.locked_controls = {}
            if s.autofocus:
                self._lock_focus()
            self._lock_exposure()
        except SourceError:
            self._stop(cam)
            raise
        except Exception as exc:  # noqa: BLE001 — libcamera raises plain RuntimeErrors and others; report, retry
            self._stop(cam)
            raise SourceError(f"Pi camera failed to start: {exc}") from exc

    def _lock_focus(self) -> None:
        cam = self.cam
        if "AfMode" not in getattr(cam, "camera_controls", {}):
            return  # fixed-focus module (Camera Module 2, HQ with a manual lens)
        cam.set_controls({"AfMode": AF_MODE_AUTO})
        ok = cam.autofocus_cycle()
        lens = cam.capture_metadata().get("LensPosition")
        if lens is None:
            return
        controls = {"AfMode": AF_MODE_MANUAL, "LensPosition": float(lens)}
        cam.set_controls(controls)
        self.locked_controls.update(controls)
        self.locked_controls["AfSucceeded"] = bool(ok)

    def _lock_exposure(self) -> None:
        """Let AE/AWB run until exposure, gain and colour gains stop changing, then fix them at those values."""
        cam, s = self.cam, self.settings
        previous: tuple[float, ...] | None = None
        meta: dict[str, Any] = {}
        for _ in range(s.settle_frames_max):
            meta = cam.capture_metadata()
            current = _exposure_vector(meta)
            if previous is not None and current and _relatively_close(previous, current, s.settle_tolerance):
                break
            previous = current
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        if "ExposureTime" in meta:
            controls["ExposureTime"] = int(meta["ExposureTime"])
        if "AnalogueGain" in meta:
            controls["AnalogueGain"] = float(meta["AnalogueGain"])
        if "ColourGains" in meta:
            controls["ColourGains"] = tuple(float(g) for g in meta["ColourGains"])
        cam.set_controls(controls)
        self.locked_controls.update(controls)

    def read(self) -> Frame:
        if self.cam is None:
            raise SourceError("the Pi camera is not open")
        cam = self.cam
        w, h = self.settings.lores
        try:
            yuv = cam.capture_array("lores")
        except Exception as exc:  # noqa: BLE001 — a disconnected ribbon shows up as assorted libcamera errors
            raise SourceError(f"Pi camera stopped delivering frames: {exc}") from exc
        # The Y (luma) plane of YUV420 is the first `h` rows; rows may be padded to the stride: keep `w` columns.
        lores = np.ascontiguousarray(yuv[:h, :w])

        def full() -> np.ndarray:
            try:
                return cam.capture_array("main")
            except Exception as exc:  # noqa: BLE001 — as above
                raise SourceError(f"Pi camera stopped delivering frames: {exc}") from exc

        frame = Frame(index=self._count, t=time.monotonic(), lores=to_lores(lores), _full=full)
        self._count += 1
        return frame

    def close(self) -> None:
        if self.cam is not None:
            self._stop(self.cam)
            self.cam = None

    @staticmethod
    def _stop(cam: Any) -> None:
        for method in ("stop", "close"):
            try:
                getattr(cam, method)()
            except Exception:  # noqa: BLE001 — closing a broken camera must not hide the original error
                pass


def _exposure_vector(meta: dict[str, Any]) -> tuple[float, ...]:
    values: list[float] = []
    for key in ("ExposureTime", "AnalogueGain"):
        if key in meta:
            values.append(float(meta[key]))
    values.extend(float(g) for g in meta.get("ColourGains", ()))
    return tuple(values)


def _relatively_close(a: Iterable[float], b: Iterable[float], tolerance: float) -> bool:
    a, b = tuple(a), tuple(b)
    return len(a) == len(b) and all(abs(x - y) <= tolerance * max(abs(x), abs(y), 1e-9) for x, y in zip(a, b))


def picamera_available() -> bool:
    """True when picamera2 imports and reports at least one camera."""
    try:
        from picamera2 import Picamera2
    except ImportError:
        return False
    try:
        return bool(Picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 — probing hardware
        return False


# --------------------------------------------------------------------------------------------------- choosing


@dataclass(frozen=True, slots=True)
class SourceChoice:
    source: FrameSource
    reason: str


def open_source_spec(spec: str, *, realtime_recordings: bool = False, realtime_demo: bool = True,
                     fps: float | None = None,
                     picamera: PiCameraSettings | None = None,
                     probe_picamera: Callable[[], bool] = picamera_available,
                     probe_webcam: Callable[[int], bool] = webcam_available) -> SourceChoice:
    """Turn a ``--source`` value into a source (not yet opened) and a sentence saying which and why.

    ``auto`` (the Pi camera, else webcam 0, else the demo), ``picamera``, ``webcam`` / ``webcam:N``, ``demo``, or a
    path: a folder of images, a ``.zip`` of frames, or a video file. Raises :class:`BadSourceSpec` for anything else.
    """
    spec = (spec or "auto").strip()
    if spec == "auto":
        if probe_picamera():
            return SourceChoice(PiCameraSource(picamera), "auto: found a Pi camera")
        if probe_webcam(0):
            return SourceChoice(WebcamSource(0), "auto: no Pi camera; found webcam 0")
        return SourceChoice(demo_source(realtime=realtime_demo),
                            "auto: no camera found; playing the bundled demo game")
    if spec == "picamera":
        return SourceChoice(PiCameraSource(picamera), "the Pi camera, as asked")
    m = re.fullmatch(r"webcam(?::(\d+))?", spec)
    if m:
        index = int(m.group(1) or 0)
        return SourceChoice(WebcamSource(index), f"webcam {index}, as asked")
    if spec == "demo":
        return SourceChoice(demo_source(realtime=realtime_demo), "the bundled demo game, as asked")
    path = Path(spec).expanduser()
    if path.is_dir():
        return SourceChoice(FolderSource(path, fps=fps or 5.0, realtime=realtime_recordings), f"frames in {path}")
    if path.is_file():
        if path.suffix.lower() == ".zip":
            return SourceChoice(ZipFramesSource(path, fps=fps, realtime=realtime_recordings), f"frames in {path}")
        if path.suffix.lower() in IMAGE_SUFFIXES:
            raise BadSourceSpec(f"--source {spec!r} is one image; give the folder of frames it is in")
        return SourceChoice(VideoFileSource(path, fps=fps, realtime=realtime_recordings), f"video {path}")
    raise BadSourceSpec(f"--source {spec!r}: not auto, picamera, webcam[:N], demo, nor an existing file or folder")
