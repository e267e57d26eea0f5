"""The calibration files in the data folder: written by the device's calibration view
(:mod:`tilecam.firmware.calibration`), read by the web's calibration page. Here, in the core, so that neither of
them imports the other.

Files, not the SQLite store: a picture every 2 s all evening is no game data, and an fsync'd database write for each
would only wear the SD card.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

JPEG_NAME = "calibration.jpg"
JSON_NAME = "calibration.json"


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
