"""The JSON API under ``/api/`` (documented in docs/API.md).

Reading needs nothing; every ``POST /api/game/<action>`` needs the players' PIN session and its header token
(:func:`tilecam.web.auth.require_pin`). A request the service refuses (not that player's turn, nothing to undo, an
illegal play) is answered ``409`` with the service's reason; a malformed request ``400``; never a 500.
"""

from __future__ import annotations

import re
import time
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request

from tilecam.web import data
from tilecam.web.auth import require_pin
from tilecam.web.live import event_to_dict

bp = Blueprint("api", __name__, url_prefix="/api")

MAX_SEQ = 2**63 - 1  # SQLite's largest integer
_ROW = re.compile(r"^(?:[^\W\d_]|[.?])+$")  # board text: letters of any tile set, '.' empty, '?' blank


def _int_arg(name: str, default: int | None = None, minimum: int = 0, maximum: int | None = None) -> int | None:
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        abort(400, description=f"{name} must be an integer, not {raw[:20]!r}")
    maximum = MAX_SEQ if maximum is None else maximum
    if value < minimum or value > maximum:
        abort(400, description=f"{name} must be between {minimum} and {maximum}")
    return value


# ------------------------------------------------------------------------------------------------ reading


@bp.get("/state")
def state():
    """The current game as the scoreboard shows it: players, scores, turn, board rows and SVG, moves, bag."""
    _seq, current = current_app.extensions["tilecam.live"].current_cached()
    return jsonify(current)


@bp.get("/device")
def device():
    """What the camera's loop and move tracker are doing now (``state``, ``tracker``, …; empty without a camera):
    the daemon's status, never stored, read afresh on every request (the scoreboard's status line polls it)."""
    response = jsonify(dict(current_app.extensions["tilecam.service"].device))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/events.json")
def events_json():
    """Events after ``?after=`` (default 0), at most ``?limit=`` (default 500): the stream's content, for polling."""
    after = _int_arg("after", 0)
    limit = _int_arg("limit", 500, minimum=1, maximum=5000)
    events = data.events_after(after, limit)
    return jsonify(events=[event_to_dict(e) for e in events],
                   last_seq=max([after] + [int(event_to_dict(e)["seq"]) for e in events]))


@bp.get("/moves")
def moves():
    """The current game's move list (empty when there is no game)."""
    _seq, current = current_app.extensions["tilecam.live"].current_cached()
    return jsonify(moves=current.get("moves", []), game_id=current.get("game_id"))


@bp.get("/games")
def games():
    return jsonify(games=data.list_games())


@bp.get("/games/<int:game_id>")
def game(game_id: int):
    info = data.game_info(game_id)
    info["moves"] = data.game_moves(game_id)
    return jsonify(info)


@bp.get("/games/<int:game_id>/events")
def game_events(game_id: int):
    after = _int_arg("after", 0)
    data.game_info(game_id)  # 404 for an unknown game
    return jsonify(events=[event_to_dict(e) for e in data.game_store_events(game_id, after)])


@bp.get("/games/<int:game_id>/review")
def game_review(game_id: int):
    return jsonify(data.game_review(game_id))


@bp.get("/games/<int:game_id>/game.gcg")
def game_gcg(game_id: int):
    text = data.game_gcg(game_id)
    return Response(text, mimetype="text/plain",
                    headers={"Content-Disposition": f'attachment; filename="tilecam-game-{game_id}.gcg"'})


@bp.get("/games/<int:game_id>/game.json")
def game_json(game_id: int):
    body = data.game_info(game_id)
    body["moves"] = data.game_moves(game_id)
    body["events"] = [event_to_dict(e) for e in data.game_store_events(game_id, 0)]
    response = jsonify(body)
    response.headers["Content-Disposition"] = f'attachment; filename="tilecam-game-{game_id}.json"'
    return response


@bp.get("/games/<int:game_id>/snapshots/<int:move_index>.jpg")
def snapshot(game_id: int, move_index: int):
    jpeg = data.snapshot(game_id, move_index)
    if jpeg is None:
        abort(404, description=f"no photo for move {move_index} of game {game_id}")
    response = Response(jpeg, mimetype="image/jpeg")
    response.headers["Cache-Control"] = "max-age=3600"
    return response


@bp.get("/board.svg")
def board_svg():
    """Any board drawn by the engine: ``?rows=`` board-text rows joined by ``/`` (15, or 21 with
    ``layout=super21``); ``position`` + ``word`` highlight a play; ``tileset`` names whose faces the tiles show
    (Spanish CH). Used by the review page, which knows every frame's rows."""
    raw = request.args.get("rows", "")
    rows = raw.split("/") if raw else []
    if not rows or any(not _ROW.match(r) for r in rows):
        abort(400, description="rows must be board-text rows (letters, '.', '?') joined by '/'")
    position = request.args.get("position") or None
    word = request.args.get("word") or None
    layout = request.args.get("layout") or "standard15"
    tileset = request.args.get("tileset") or "english"
    try:
        svg = data.render_board(rows, position, word, layout, tileset)
    except ValueError as exc:
        abort(400, description=str(exc))
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "max-age=86400"
    return response


# ------------------------------------------------------------------------------------------------ changing


@bp.post("/game/<action>")
@require_pin
def game_action(action: str):
    body = request.get_json(silent=True)
    if body is None:
        body = {}
    if not isinstance(body, dict):
        abort(400, description="the request body must be a JSON object")
    result = data.perform(action, body, actor=f"web:{request.remote_addr or '?'}")
    current_app.extensions["tilecam.live"].invalidate()
    return jsonify(result)


# ------------------------------------------------------------------------------------------------ health


def health_report() -> dict[str, Any]:
    """What ``GET /health`` answers: the checks the program serving the app gave (``HEALTH_CHECKS``: the device's
    cheap doctor checks under ``run`` and ``serve``) and the game service's own."""
    started = time.perf_counter()
    more = current_app.config.get("HEALTH_CHECKS")
    checks: list[dict[str, Any]] = list(more(current_app.config["DATA_DIR"])) if more else []
    checks.append(data.service_check())
    streams = current_app.extensions["tilecam.streams"]
    ok = all(c.get("ok") for c in checks if c.get("essential", True))
    return {
        "ok": ok,
        "checks": checks,
        "live_streams": {"open": streams.open, "opened": streams.opened},
        "elapsed_ms": round((time.perf_counter() - started) * 1000, 1),
    }
