"""The JSON API's own description: an OpenAPI 3.1 document, served at ``GET /api/openapi.json`` (docs/API.md).

Built here from the routes' parameters and the players' commands (:data:`tilecam.web.data.ACTIONS`), so a command
added there is described at once. ``tests/test_web_openapi.py`` checks that every JSON route of the app is in it and
fuzzes each one with schemathesis: no 5xx, every refusal a 4xx with a message.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify

from tilecam.web import data

bp = Blueprint("openapi", __name__)

MAX_SEQ = 2**63 - 1  # SQLite's largest integer: the highest sequence number or id a store can hold

_ERROR = {"$ref": "#/components/schemas/Error"}
_SEQ = {"type": "integer", "minimum": 0, "maximum": MAX_SEQ}
_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0},
            "example": 1}
_ROWS_EXAMPLE = "/".join(["." * 15] * 7 + ["...QUANT......."] + ["." * 15] * 7)
_AFTER = {"name": "after", "in": "query", "required": False, "schema": _SEQ,
          "description": "only events with a sequence number above this (default 0)"}


def _json(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema or {"type": "object"}}}}


def _refusals(*codes: int) -> dict[str, Any]:
    reasons = {400: "a malformed request", 401: "no PIN session", 403: "wrong PIN, header token or origin",
               404: "nothing there", 409: "the game refuses the command now (its reason in `error`)",
               413: "the body is too large", 429: "too many wrong PINs", 503: "too many open live streams"}
    return {str(code): _json(reasons[code], _ERROR) for code in codes}


def _get(summary: str, ok: dict[str, Any], *codes: int, parameters: list[dict[str, Any]] | None = None
         ) -> dict[str, Any]:
    return {"get": {"summary": summary, "parameters": parameters or [], "responses": {"200": ok, **_refusals(*codes)}}}


def _command_body() -> dict[str, Any]:
    """What the commands read from their JSON body; each uses only its own fields (docs/API.md)."""
    return {"type": "object", "properties": {
        "players": {"type": "array", "items": {"type": "string"}, "description": "new: names in turn order"},
        "variant": {"type": "string", "description": "new: a variant of the engine's registry"},
        "tileset": {"type": "string", "description": "new: a tile set of the registry (default: the variant's)"},
        "layout": {"type": "string", "description": "new: a board layout (default: the variant's)"},
        "level": {"type": "string", "description": "new, Finish Line: beginner, intermediate or expert"},
        "target": {"type": ["integer", "string"], "description": "new, Finish Line: the target score itself"},
        "name": {"type": "string", "description": "card: the Harry Potter card's name"},
        "multiplier": {"type": ["integer", "string", "null"], "description": "card: re-multiplies the play's score"},
        "points": {"type": ["integer", "string", "null"], "description": "card: points it adds"},
        "lexicon": {"type": "string"}, "challenge_rule": {"type": "string"},
        "challenge_points": {"type": "integer"}, "clock_seconds": {"type": "integer"},
        "overtime_penalty": {"type": "integer"},
        "position": {"type": "string", "description": "play: 8D across, D8 down"},
        "word": {"type": ["string", "null"], "description": "play: the tiles, '.' played through, lower case a "
                 "blank, [CH] a two-letter tile; magical_word: a word of the play (left out: its main word)"},
        "tiles": {"type": ["string", "integer"], "description": "exchange: the letters or how many"},
        "valid": {"type": ["boolean", "null"], "description": "challenge: left out, the game's lexicon decides"},
        "square": {"type": "string", "description": "set_blank, correct_tile: e.g. H8"},
        "row": {"type": "integer"}, "col": {"type": "integer"},
        "letter": {"type": "string", "description": "set_blank, correct_tile: one letter (correct_tile: . = no tile)"},
        "racks": {"type": "object", "additionalProperties": {"type": "string"},
                  "description": "end: seat → tiles left on that rack"},
        "paused": {"type": "boolean", "description": "pause: true to pause, false to go on"},
    }}


def document() -> dict[str, Any]:
    """The OpenAPI document of the JSON API (pages, static files and the live stream's events are not in it)."""
    game = {"type": "object", "properties": {"id": {"type": "integer"}, "status": {"type": "string"},
                                             "players": {"type": "array", "items": {"type": "string"}}}}
    events = {"type": "object", "required": ["events"], "properties": {"events": {"type": "array"}}}
    actions = sorted(set(data.ACTIONS) | set(data.ALIASES))
    paths: dict[str, Any] = {
        "/health": _get("The device's cheap checks and the game service's", _json("the checks", {
            "type": "object", "required": ["ok", "checks"],
            "properties": {"ok": {"type": "boolean"}, "checks": {"type": "array"}}})),
        "/api/openapi.json": _get("This document", _json("an OpenAPI 3.1 document")),
        "/api/state": _get("The current game as the scoreboard shows it", _json("the state", {
            "type": "object", "required": ["status"], "properties": {"status": {"type": "string"}}})),
        "/api/device": _get("What the camera's loop and move tracker are doing now (never stored)", _json(
            "the device status (empty without a camera)", {"type": "object",
                                                           "properties": {"tracker": {"type": "string"}}})),
        "/api/events.json": _get("Events after a sequence number, for polling", _json("events", {
            "type": "object", "required": ["events", "last_seq"],
            "properties": {"events": {"type": "array"}, "last_seq": {"type": "integer"}}}), 400, parameters=[
            _AFTER, {"name": "limit", "in": "query", "required": False,
                     "schema": {"type": "integer", "minimum": 1, "maximum": 5000}}]),
        "/api/moves": _get("The current game's move list", _json("moves", {
            "type": "object", "required": ["moves"], "properties": {"moves": {"type": "array"}}})),
        "/api/games": _get("Every stored game, newest first", _json("games", {
            "type": "object", "required": ["games"], "properties": {"games": {"type": "array", "items": game}}})),
        "/api/games/{game_id}": _get("One stored game with its moves", _json("the game", game), 404,
                                     parameters=[_GAME_ID]),
        "/api/games/{game_id}/events": _get("A stored game's events", _json("events", events), 400, 404,
                                            parameters=[_GAME_ID, _AFTER]),
        "/api/games/{game_id}/review": _get("A stored game move by move, for the review page", _json("frames"), 404,
                                            parameters=[_GAME_ID]),
        "/api/games/{game_id}/game.gcg": _get("A stored game as GCG", {"description": "GCG text", "content": {
            "text/plain": {"schema": {"type": "string"}}}}, 404, parameters=[_GAME_ID]),
        "/api/games/{game_id}/game.json": _get("A stored game with moves and events", _json("the game", game), 404,
                                               parameters=[_GAME_ID]),
        "/api/games/{game_id}/snapshots/{move_index}.jpg": _get(
            "The photo kept with a move", {"description": "JPEG", "content": {"image/jpeg": {}}}, 404,
            parameters=[_GAME_ID, {"name": "move_index", "in": "path", "required": True,
                                   "schema": {"type": "integer", "minimum": 0}}]),
        "/api/calibration.jpg": _get("The camera's latest picture with the grid (written by `tilecam run`)",
                                     {"description": "JPEG", "content": {"image/jpeg": {}}}, 404),
        "/api/board.svg": _get("A board drawn by the engine", {"description": "SVG", "content": {
            "image/svg+xml": {"schema": {"type": "string"}}}}, 400, parameters=[
            {"name": "rows", "in": "query", "required": True, "schema": {"type": "string"},
             "description": "board-text rows joined by '/' (as many as the layout's size)",
             "example": _ROWS_EXAMPLE},
            {"name": "layout", "in": "query", "required": False, "schema": {"type": "string"},
             "example": "standard15", "description": "a bundled layout (super21: 21 rows)"},
            {"name": "tileset", "in": "query", "required": False, "schema": {"type": "string"},
             "example": "english", "description": "a bundled tile set, whose faces the tiles show"},
            {"name": "position", "in": "query", "required": False, "schema": {"type": "string"}, "example": "8D"},
            {"name": "word", "in": "query", "required": False, "schema": {"type": "string"}, "example": "QUANT"}]),
        "/api/calibration": _get("What the camera sees now (written by `tilecam run`)", _json("the calibration"),
                                 404),
        "/api/calibration/laid-out": {"post": {
            "summary": "Learn my tiles: the running `tilecam run` learns the tile set laid out on the board from its "
                       "next still frame (PIN session and the X-CSRF-Token header); the outcome is the calibration "
                       "JSON's `laid_out`",
            "requestBody": {"required": False, "content": {"application/json": {"schema": {
                "type": "object", "properties": {"tileset": {
                    "type": "string", "description": "the set laid out (default: the game's tile set)"}}}}}},
            "responses": {"202": _json("asked", {"type": "object", "required": ["message", "laid_out"],
                                                 "properties": {"message": {"type": "string"},
                                                                "laid_out": {"type": "object"}}}),
                          **_refusals(400, 401, 403, 409, 413)},
            "security": [{"pinSession": [], "csrfToken": []}]}},
        "/auth/status": _get("Whether this browser may change the game", _json("status", {
            "type": "object", "required": ["authorised"], "properties": {"authorised": {"type": "boolean"}}})),
        "/auth/pin": {"post": {
            "summary": "Enter the players' PIN: a session cookie and the header token for changes",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["pin"], "properties": {"pin": {"type": "string"}}}}}},
            "responses": {"200": _json("authorised", {"type": "object", "required": ["authorised"], "properties": {
                "authorised": {"type": "boolean"}, "csrf": {"type": "string"}}}), **_refusals(400, 403, 429)}}},
        "/auth/logout": {"post": {"summary": "Forget this browser's PIN session", "responses": {
            "200": _json("logged out"), **_refusals(403)}}},
        "/api/game/{action}": {"post": {
            "summary": "A players' command (PIN session and the X-CSRF-Token header)",
            "parameters": [{"name": "action", "in": "path", "required": True,
                            "schema": {"type": "string", "enum": actions}}],
            "requestBody": {"required": False, "content": {"application/json": {"schema": _command_body()}}},
            "responses": {"200": _json("done", {"type": "object", "required": ["message"],
                                                "properties": {"message": {"type": "string"}}}),
                          **_refusals(400, 401, 403, 404, 409, 413)},
            "security": [{"pinSession": [], "csrfToken": []}]}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "tilecam", "version": "1",
                 "description": "The scoreboard's JSON API. Reading is open; changes need the players' PIN "
                                "session (POST /auth/pin) and its header token. Every refusal is a 4xx with "
                                "{error, status}. The live stream is GET /api/events (Server-Sent Events)."},
        "paths": paths,
        "components": {
            "schemas": {"Error": {"type": "object", "required": ["error", "status"], "properties": {
                "error": {"type": "string", "minLength": 1}, "status": {"type": "integer"}}}},
            "securitySchemes": {
                "pinSession": {"type": "apiKey", "in": "cookie", "name": "session"},
                "csrfToken": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"}},
        },
    }


@bp.get("/api/openapi.json")
def openapi_json():
    return jsonify(document())
