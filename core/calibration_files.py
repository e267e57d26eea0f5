"""The calibration files in the data folder: written by the device's calibration view
(:mod:`tilecam.firmware.calibration`), read by the web's calibration page. Here, in the core, so that neither of
them imports the other.

The web's "Learn my tiles" button talks to the daemon the same way (:mod:`tilecam.firmware.laidout`): the web asks
with a small request file (:func:`ask_laid_out`), the daemon answers from its camera with an outcome file
(:func:`write_laid_out_outcome`) and withdraws the request; :func:`laid_out_state` is what the page shows.

Files, not the SQLite store: a picture every 2 s all evening is no game data, and an fsync'd database write for each
would only wear the SD card.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from pathlib import Path
from typing import Any

JPEG_NAME = "calibration.jpg"
JSON_NAME = "calibration.json"
LAID_OUT_REQUEST_NAME = "laid-out-request.json"
LAID_OUT_NAME = "laid-out.json"

#: What the page says while a request waits for the daemon.
ASKED = "asked: the camera learns your tiles from its next still picture of the board"


class LaidOutRequestError(ValueError):
    """A request file that is not one: not JSON, or without the time it was asked or the tile set to lay."""


# ----------------------------------------------------------------------------------------------- files


def _write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path`` and rename it over: a reader sees the old or the new, never half."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_calibration(data_dir: str | Path, jpeg: bytes, info: dict[str, Any]) -> None:
    """Replace the calibration picture and its JSON (the picture first, so the JSON never describes an older one)."""
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(folder / JPEG_NAME, jpeg)
    _write_atomic(folder / JSON_NAME, json.dumps(info, separators=(",", ":")).encode("utf-8"))


def read_calibration(data_dir: str | Path) -> dict[str, Any] | None:
    """The last calibration JSON written into ``data_dir``, or None when there is none (or it cannot be read)."""
    try:
        return json.loads((Path(data_dir) / JSON_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return None


def read_calibration_jpeg(data_dir: str | Path) -> bytes | None:
    """The last calibration picture, or None."""
    try:
        return (Path(data_dir) / JPEG_NAME).read_bytes()
    except OSError:
        return None


# ----------------------------------------------------------------------------------------------- the set laid out


def ask_laid_out(data_dir: str | Path, tileset: str, now: float | None = None) -> dict[str, Any]:
    """Ask the daemon to learn the ``tileset`` laid out from its next still frame; the request written (atomically,
    replacing an unanswered one)."""
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    request = {"asked": round(time.time() if now is None else now, 3), "tileset": tileset}
    _write_atomic(folder / LAID_OUT_REQUEST_NAME, json.dumps(request).encode("utf-8"))
    return request


def laid_out_request(data_dir: str | Path) -> dict[str, Any] | None:
    """The unanswered request (``asked`` Unix time, ``tileset``), or None; ``LaidOutRequestError`` for a file that
    is not one."""
    path = Path(data_dir) / LAID_OUT_REQUEST_NAME
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LaidOutRequestError(f"the request {path} cannot be read: {exc}") from exc
    try:
        request = json.loads(text)
    except ValueError as exc:
        raise LaidOutRequestError(f"the request {path} is not JSON: {exc}") from exc
    if not (isinstance(request, dict) and _is_time(request.get("asked")) and isinstance(request.get("tileset"), str)
            and request["tileset"]):
        raise LaidOutRequestError(f"the request {path} lacks when it was asked or the tile set: {text[:80]!r}")
    return request


def withdraw_laid_out_request(data_dir: str | Path, asked: float | None) -> None:
    """Remove the request once answered: the one asked at ``asked`` (a newer one stays to be answered), or whatever
    is there when ``asked`` is None (a file that was no request)."""
    path = Path(data_dir) / LAID_OUT_REQUEST_NAME
    if asked is not None:
        try:
            if json.loads(path.read_text("utf-8")).get("asked") != asked:
                return
        except (OSError, ValueError, AttributeError):
            pass
    path.unlink(missing_ok=True)


def write_laid_out_outcome(data_dir: str | Path, outcome: dict[str, Any]) -> None:
    """Replace the last answer (``state`` ``learnt`` or ``refused``, ``message``, …; docs/API.md)."""
    folder = Path(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(folder / LAID_OUT_NAME, json.dumps(outcome, separators=(",", ":")).encode("utf-8"))


def laid_out_state(data_dir: str | Path) -> dict[str, Any] | None:
    """What the page shows of the set laid out: the request waiting (``state`` ``asked``), else the daemon's last
    answer, else None."""
    try:
        request = laid_out_request(data_dir)
    except LaidOutRequestError:
        request = None                  # the daemon answers it as refused; until then, the last answer
    if request is not None:
        return {"state": "asked", "tileset": request["tileset"], "asked": request["asked"], "message": ASKED}
    try:
        outcome = json.loads((Path(data_dir) / LAID_OUT_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return outcome if isinstance(outcome, dict) else None


def _is_time(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
