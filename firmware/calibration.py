"""The calibration view: what the camera sees now, with the grid vision found drawn over it, for the web page
``/calibrate`` (docs/CAMERA.md).

While ``tilecam run`` runs, the daemon keeps a :class:`CalibrationView`: the capture loop's latest frame (through
:class:`TeeSource`), the tracker's last raw vision reading (through :func:`tap_reader`) and the loop's status. At
most every ``every_s`` seconds (2 s) it writes two small files into the data folder, each replaced atomically:

* ``calibration.jpg`` — the frame (at most ``width`` px wide) with the playing grid drawn over it
  (:func:`tilecam.vision.locate.draw_location`). The grid is the one the tracker's reader located at its last read;
  when the reader has none (its last read found no board, or the tracker has no vision reader) the frame is located
  here (:func:`tilecam.vision.locate.locate_board`), so at most once per write;
* ``calibration.json`` — :func:`tilecam.core.calibration_files.read_calibration`'s dict: ``updated`` (Unix time), ``status`` {``source``,
  ``state``, ``fps``, ``tracker``, ``line``}, ``board`` {``found``, ``from`` ("reader" | "locate" | null),
  ``score``, ``corners`` (in the picture's pixels), ``problem``}, ``image`` {``width``, ``height``}, ``reading``
  (null, or {``grid`` 15 strings, ``confidence`` 15×15 (2 decimals), ``low`` [[row, col] …] below
  ``low_below``, ``low_below``, ``age_s``}).

The web reads these files (through :mod:`tilecam.core.calibration_files`) and never the camera (one process owns
it).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tilecam.core.calibration_files import write_calibration

log = logging.getLogger(__name__)

#: A square read below this is shown as unsure on the page: the reader's own bar (``vision.read.UNSURE_BELOW``),
#: under which about one calibrated reading in five is wrong.
LOW_CONFIDENCE = 0.8


# ----------------------------------------------------------------------------------------------- taps


class TeeSource:
    """A frame source that hands every frame it reads to ``seen`` too; everything else is the wrapped source's."""

    def __init__(self, source: Any, seen: Callable[[Any], None]) -> None:
        self._source = source
        self._seen = seen

    def read(self) -> Any:
        frame = self._source.read()
        self._seen(frame)
        return frame

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)


class TappedReader:
    """A tracker's reader that tells ``seen(raw_reading, error)`` of each read and is otherwise the reader itself:
    its other ways of reading (``read_changed``: only the squares that changed; ``turned``/``turn``: a board turned
    on the table; ``learn``: the user's board learnt from the game) and its state pass through, so a tapped tracker
    reads as an untapped one does."""

    def __init__(self, reader: Any, seen: Callable[[Any, BaseException | None], None]) -> None:
        self._inner = reader
        self._seen = seen

    def __call__(self, image: Any) -> Any:
        return self._tell(lambda: self._inner(image))

    def _tell(self, read: Callable[[], Any]) -> Any:
        try:
            raw = read()
        except BaseException as exc:
            self._seen(None, exc)
            raise
        self._seen(raw[0] if isinstance(raw, tuple) else raw, None)
        return raw

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if name == "read_changed":          # (reading, change signature): the reading is what the view shows
            return lambda image, wanted: self._tell(lambda: attr(image, wanted))
        return attr


def tap_reader(tracker: Any, seen: Callable[[Any, BaseException | None], None]) -> bool:
    """Wrap the tracker's vision reader (``MoveTracker._reader``; a :class:`StillsTracker`'s inner one) in a
    :class:`TappedReader` so that ``seen(raw_reading, error)`` hears each read. False when the tracker has no reader
    to tap (a stand-in, or no vision): the view then locates the board itself."""
    owner = getattr(tracker, "tracker", tracker)
    reader = getattr(owner, "_reader", None)
    if not callable(reader):
        return False
    owner._reader = TappedReader(reader, seen)
    return True


# ----------------------------------------------------------------------------------------------- the view


class CalibrationView:
    """Keeps the latest frame and reading; :meth:`tick` writes the calibration files at most every ``every_s``."""

    def __init__(self, data_dir: str | Path, *, every_s: float = 2.0, width: int = 960, quality: int = 70,
                 clock: Callable[[], float] = time.monotonic, size: int = 15) -> None:
        self.data_dir = Path(data_dir)
        self.size = size                      # the game's board, squares a side (21: Super Scrabble)
        self.every_s = every_s
        self.width = width
        self.quality = quality
        self._clock = clock
        self._frame: Any = None
        self._raw: Any = None                 # the reader's last reading (None: its last read failed)
        self._raw_error: str = ""
        self._raw_t: float | None = None
        self._last_write: float | None = None
        self._fps_mark: tuple[float, int] | None = None
        self.writes = 0
        self._problem = ""

    def frame_seen(self, frame: Any) -> None:
        self._frame = frame

    @property
    def frame(self) -> Any:
        """The newest frame seen (None before the first)."""
        return self._frame

    def reading_seen(self, raw: Any, error: BaseException | None = None) -> None:
        self._raw = raw
        self._raw_error = "" if error is None else str(error) or type(error).__name__
        self._raw_t = self._clock()

    def tick(self, status: dict[str, Any], tracker_status: str = "", *, force: bool = False) -> bool:
        """Write the files if ``every_s`` has passed (or ``force``) and a frame has been seen; True when written.
        Never raises: the calibration picture must not stop the scorekeeper."""
        now = self._clock()
        if self._frame is None or (not force and self._last_write is not None
                                   and now - self._last_write < self.every_s):
            return False
        self._last_write = now
        try:
            jpeg, info = self.render(status, tracker_status, now)
            write_calibration(self.data_dir, jpeg, info)
        except Exception as exc:  # noqa: BLE001 — a camera error, a full disk: logged (once), the game goes on
            problem = f"{type(exc).__name__}: {exc}"
            if problem != self._problem:
                log.warning("calibration picture not written: %s", problem)
            self._problem = problem
            return False
        self._problem = ""
        self.writes += 1
        return True

    def render(self, status: dict[str, Any], tracker_status: str, now: float) -> tuple[bytes, dict[str, Any]]:
        import cv2

        image = self._frame.full()
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        h, w = image.shape[:2]
        scale = min(1.0, self.width / w)
        small = image if scale == 1.0 else cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                                                      interpolation=cv2.INTER_AREA)
        location, source, problem = self._location(image)
        board: dict[str, Any] = {"found": location is not None, "from": source, "score": None, "corners": None,
                                 "problem": problem}
        if location is not None:
            from tilecam.vision.locate import draw_location

            corners = np.asarray(location.corners, np.float32).reshape(4, 2) * scale
            small = draw_location(small, dataclasses.replace(location, corners=corners),
                                  getattr(self._raw, "size", None) or self.size)
            board["score"] = round(float(getattr(location, "score", 0.0) or 0.0), 3)
            board["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in corners]
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, int(self.quality)])
        if not ok:
            raise ValueError("the calibration picture could not be encoded as JPEG")
        info = {
            "updated": round(time.time(), 3),
            "status": self._status(status, tracker_status, now),
            "board": board,
            "image": {"width": int(small.shape[1]), "height": int(small.shape[0])},
            "reading": self._reading(now),
        }
        return buf.tobytes(), info

    def _location(self, image: np.ndarray) -> tuple[Any, str | None, str]:
        """The reader's last location, else this frame located here; with where it came from, or the problem."""
        location = getattr(self._raw, "location", None)
        if location is not None and getattr(location, "corners", None) is not None:
            return location, "reader", ""
        try:
            from tilecam.vision.locate import LocateConfig, locate_board

            return locate_board(image, LocateConfig(size=self.size)), "locate", ""
        except ImportError as exc:
            return None, None, f"vision not installed ({exc.name})"
        except ValueError as exc:           # BoardNotFound: say why, as the page's status line
            return None, None, f"board not found: {exc}"

    def _reading(self, now: float) -> dict[str, Any] | None:
        raw = self._raw
        if raw is None:
            return None
        grid = getattr(raw, "grid", None)
        confidence = getattr(raw, "confidence", None)
        if grid is None or confidence is None:
            try:                             # a reader that returns plain rows (a stand-in): the tracker's form
                from tilecam.vision.infer import as_reading

                reading = as_reading(raw)
                grid, confidence = reading.grid, reading.confidence
            except (ImportError, ValueError, TypeError):
                return None
        conf = np.asarray(confidence, dtype=float)
        low = [[int(r), int(c)] for r, c in zip(*np.nonzero(conf < LOW_CONFIDENCE))]
        # the reader's own verdict on the whole board (its calibrated probabilities expect a square wrong or more)
        unsure = getattr(raw, "is_unsure", None)
        expected = getattr(raw, "expected_wrong", None)
        return {"grid": [str(row) for row in grid], "confidence": np.round(conf, 2).tolist(), "low": low,
                "low_below": LOW_CONFIDENCE, "age_s": round(now - (self._raw_t or now), 1),
                "unsure": None if unsure is None else bool(unsure),
                "expected_wrong": None if expected is None else round(float(expected), 2)}

    def _status(self, status: dict[str, Any], tracker_status: str, now: float) -> dict[str, Any]:
        frames = int(status.get("frames", 0) or 0)
        fps = None
        if self._fps_mark is not None and now > self._fps_mark[0]:
            fps = round((frames - self._fps_mark[1]) / (now - self._fps_mark[0]), 1)
        self._fps_mark = (now, frames)
        source, state = str(status.get("source", "")), str(status.get("state", ""))
        parts = [source, state, f"{fps:g} fps" if fps is not None else "fps –"]
        if tracker_status:
            parts.append(f"tracker: {tracker_status}")
        if self._raw_error:
            parts.append(f"last read: {self._raw_error}")
        return {"source": source, "state": state, "fps": fps, "tracker": tracker_status,
                "line": " · ".join(p for p in parts if p)}
