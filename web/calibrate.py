"""The camera calibration page: what the camera sees now, the grid vision found, the reading, the loop's status.

The daemon writes the picture and its JSON into the data folder at most every 2 s
(:mod:`tilecam.core.calibration_files`); these routes only read them — the web never opens the camera.

- ``GET /calibrate``: the page (refreshes itself every 2 s).
- ``GET /api/calibration``: the JSON (see docs/API.md), plus ``age_s`` (seconds since it was written) and
  ``image_url``; 404 with a message when the daemon has written none (not running, or no frame yet).
- ``GET /api/calibration.jpg``: the picture; 404 (JSON) when there is none.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, url_for

from tilecam.core.calibration_files import read_calibration, read_calibration_jpeg

bp = Blueprint("calibrate", __name__)

NONE_YET = ("no calibration picture yet: it is written by `tilecam run` while the camera runs "
            "(every 2 s); start it, or wait for its first frame")


def _info() -> dict[str, Any] | None:
    info = read_calibration(current_app.config["DATA_DIR"])
    if info is None:
        return None
    updated = float(info.get("updated") or 0.0)
    return {**info, "age_s": round(max(0.0, time.time() - updated), 1),
            "image_url": url_for("calibrate.picture", v=f"{updated:.3f}")}


@bp.get("/calibrate")
def page():
    return render_template("calibrate.html", info=_info(), none_yet=NONE_YET)


@bp.get("/api/calibration")
def calibration():
    info = _info()
    if info is None:
        abort(404, description=NONE_YET)
    response = jsonify(info)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/api/calibration.jpg")
def picture():
    jpeg = read_calibration_jpeg(current_app.config["DATA_DIR"])
    if jpeg is None:
        abort(404, description=NONE_YET)
    response = Response(jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "no-store"
    return response
