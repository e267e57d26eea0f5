"""The Flask application factory.

``create_app(config=None, service=None)`` builds the app around a ``GameService`` (core/service.py): the
daemon passes the one it drives; ``tilecam serve`` and tests let the factory open one on ``DATA_DIR``. Pages answer
errors in HTML, everything under ``/api/`` and ``/auth/`` in JSON — a bad request is a 4xx with a message, never a
500 with a traceback.
"""

from __future__ import annotations

import datetime as dt
import gzip
import threading
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from tilecam.web import api, auth, calibrate, openapi, review, scoreboard, sse
from tilecam.web.live import LiveState

DEFAULTS: dict[str, Any] = {
    # Seconds between heartbeat comments on an idle live stream.
    "SSE_HEARTBEAT_S": 15.0,
    # A stream ends after this many seconds and the browser reconnects (None = never); bounds a forgotten tab.
    "SSE_MAX_S": 3600.0,
    # The broadcaster asks the store for new events at least this often (events written by another process; the
    # service wakes it at once for its own commits).
    "SSE_POLL_S": 0.5,
    # Open streams beyond this are answered 503 so page and API requests always find a free server thread; None:
    # the server's threads less a reserve (set by tilecam.web.server.make_server), or no cap when not served.
    "SSE_MAX_STREAMS": None,
    # Largest request body (a GCG upload is a few KB).
    "MAX_CONTENT_LENGTH": 1 << 20,
    "SESSION_COOKIE_HTTPONLY": True,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "PERMANENT_SESSION_LIFETIME": dt.timedelta(days=2),
    # More checks for /health: a function of the data folder giving dicts (name, ok, detail, fix, essential). The
    # device and `tilecam serve` pass the doctor's cheap ones (tilecam.firmware.doctor.health_checks); the web
    # itself knows nothing of the device.
    "HEALTH_CHECKS": None,
}


def default_data_dir() -> Path:
    """The store's folder when none is configured: where the store keeps its database by default."""
    from tilecam.core.store import default_path

    return default_path().parent


def open_service(data_dir: Path) -> Any:
    """A GameService over the store in ``data_dir`` (created if missing), resuming its unfinished game; for
    serving without a camera. Each game is judged by the word list its settings name (core/lexicons.py)."""
    from tilecam.core.lexicons import lexicon_for_settings
    from tilecam.core.service import GameService
    from tilecam.core.store import GameStore

    Path(data_dir).mkdir(parents=True, exist_ok=True)  # a missing folder, not a database file by that name
    service = GameService(GameStore(Path(data_dir)), lexicon=lexicon_for_settings)
    service.resume()
    return service


def _wants_json() -> bool:
    return (
        request.path.startswith(("/api/", "/auth/", "/health"))
        or request.path.endswith(".json")
        or request.accept_mimetypes.best == "application/json"
    )


def _handle_http_error(exc: HTTPException):
    if _wants_json():
        response = jsonify(error=exc.description, status=exc.code)
        response.status_code = exc.code or 500
        return response
    return render_template("error.html", code=exc.code, name=exc.name, message=exc.description), exc.code


COMPRESSIBLE = {"text/html", "text/css", "text/javascript", "application/javascript", "application/json",
                "image/svg+xml", "text/plain"}
MIN_GZIP_BYTES = 1024


def gzip_response(response):
    """Gzip a whole (not streamed) text response when the browser accepts it: the scoreboard's HTML carries the
    board SVG, which shrinks about twentyfold — it matters on a busy Wi-Fi with many phones."""
    if (
        "gzip" not in request.headers.get("Accept-Encoding", "").lower()
        or response.status_code != 200
        or response.is_streamed and not response.direct_passthrough
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
    ):
        return response
    response.direct_passthrough = False
    data = response.get_data()
    if len(data) < MIN_GZIP_BYTES:
        return response
    response.set_data(gzip.compress(data, compresslevel=6, mtime=0))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    return response


def create_app(config: dict | None = None, service: Any = None) -> Flask:
    app = Flask(__name__)
    app.json.sort_keys = False
    app.config.from_mapping(DEFAULTS)
    if config:
        app.config.update(config)
    if not app.config.get("DATA_DIR"):
        app.config["DATA_DIR"] = str(default_data_dir())
    data_dir = Path(app.config["DATA_DIR"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = auth.load_or_create_secret_key(data_dir)
    if not app.config.get("PIN"):
        app.config["PIN"] = auth.load_or_create_pin(data_dir)
    app.config["PIN"] = str(app.config["PIN"]).strip()

    if service is None:
        service = open_service(data_dir)
    app.extensions["tilecam.service"] = service
    stopping = threading.Event()
    app.extensions["tilecam.stopping"] = stopping
    app.extensions["tilecam.live"] = LiveState(service, poll_s=float(app.config["SSE_POLL_S"]), stopping=stopping)
    app.extensions["tilecam.messages"] = sse.SharedMessages(app.extensions["tilecam.live"])
    app.extensions["tilecam.streams"] = sse.StreamCounter()
    app.extensions["tilecam.pin_limiter"] = auth.FailureLimiter()
    app.extensions["tilecam.imports"] = review.ImportedGames()

    for blueprint in (auth.bp, api.bp, openapi.bp, sse.bp, scoreboard.bp, review.bp, calibrate.bp):
        app.register_blueprint(blueprint)
    app.register_error_handler(HTTPException, _handle_http_error)

    @app.after_request
    def _security_headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if response.mimetype == "text/html":
            response.headers.setdefault(
                "Content-Security-Policy",
                "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                "script-src 'self'; connect-src 'self'; frame-ancestors 'none'",
            )
        return response

    @app.after_request
    def _compress(response):
        return gzip_response(response)

    @app.get("/health")
    def health():
        return jsonify(api.health_report())

    return app
