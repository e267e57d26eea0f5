"""The camera calibration page: what the camera sees now, the grid vision found, the reading, the loop's status.

The daemon writes the picture and its JSON into the data folder at most every 2 s
(:mod:`tilecam.core.calibration_files`); these routes only read them — the web never opens the camera.

- ``GET /calibrate``: the page (refreshes itself every 2 s).
- ``GET /api/calibration``: the JSON (see docs/API.md), plus ``age_s`` (seconds since it was written) and
  ``image_url``; 404 with a message when the daemon has written none (not running, or no frame yet).
- ``GET /api/calibration.jpg``: the picture; 404 (JSON) when there is none.
- ``POST /api/calibration/laid-out`` (the players' PIN): "Learn my tiles" — ask the daemon to learn the tile set
  laid out on the board from its next still frame (:mod:`tilecam.core.calibration_files`); the JSON's and the
  page's ``laid_out`` say when it is asked, learnt or refused and why.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, render_template, request, url_for

from tilecam.core.calibration_files import (ask_laid_out, laid_out_state, read_calibration,
                                            read_calibration_jpeg)
from tilecam.web import data
from tilecam.web.auth import require_pin

bp = Blueprint("calibrate", __name__)

NONE_YET = ("no calibration picture yet: it is written by `tilecam run` while the camera runs "
            "(every 2 s); start it, or wait for its first frame")
NO_CAMERA = ("the camera is not running (no calibration picture yet): your tiles are learnt from the camera of "
             "`tilecam run`; start it, lay the set out, and press the button again")
DEFAULT_TILESET = "english"


def _info() -> dict[str, Any] | None:
    info = read_calibration(current_app.config["DATA_DIR"])
    if info is None:
        return None
    updated = float(info.get("updated") or 0.0)
    return {**info, "age_s": round(max(0.0, time.time() - updated), 1),
            "image_url": url_for("calibrate.picture", v=f"{updated:.3f}"),
            "laid_out": laid_out_state(current_app.config["DATA_DIR"])}


def game_tileset() -> str:
    """The tile set of the game in the store (the one last started), else English: the set the page asks for."""
    settings = data.service().state().get("settings") or {}
    return str(settings.get("tileset") or DEFAULT_TILESET)


def laid_out_order(tileset: str) -> list[str]:
    """The tiles to lay, in order, as the players see them: ``vision.laidout.order_of``'s letters by their faces
    (Spanish ``CH``), the blank as "blank"."""
    from tilecam.engine.tiles import TileSet
    from tilecam.vision.laidout import order_of

    tiles = TileSet.load(tileset)
    return [tiles.face(ch) if ch in tiles.letters else "blank" for ch in order_of(tiles)]


@bp.get("/calibrate")
def page():
    tileset = game_tileset()
    return render_template("calibrate.html", info=_info(), none_yet=NONE_YET, tileset=tileset,
                           order=laid_out_order(tileset), laid_out=laid_out_state(current_app.config["DATA_DIR"]))


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


@bp.post("/api/calibration/laid-out")
@require_pin
def learn_laid_out():
    """Ask the daemon to learn the set laid out (``{"tileset": …}``, default the game's); 202 with the request's
    state, 409 while no camera runs, 400 for a tile set that is not bundled."""
    from tilecam.engine.tiles import TileSet

    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        abort(400, description='the request body must be a JSON object: {"tileset": "english"} or {}')
    tileset = body.get("tileset") or game_tileset()
    if not isinstance(tileset, str) or tileset not in TileSet.bundled():
        abort(400, description=f"no bundled tile set {tileset!r}")
    data_dir = current_app.config["DATA_DIR"]
    if read_calibration(data_dir) is None:
        abort(409, description=NO_CAMERA)
    ask_laid_out(data_dir, tileset)
    response = jsonify({"message": f"asked: lay one tile of each letter of the {tileset} set in order; the camera "
                                   "learns them from its next still picture", "laid_out": laid_out_state(data_dir)})
    return response, 202
