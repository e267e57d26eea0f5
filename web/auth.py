"""Who may change a game: a PIN becomes a signed session, and every change needs that session's header token.

Reading is open to everyone on the LAN; changing a game is for the players at the table. The flow:

1. ``POST /auth/pin`` with ``{"pin": "…"}`` → the session cookie (signed with the app's SECRET_KEY, HttpOnly,
   SameSite=Strict) is marked as authorised and holds a random CSRF token, which the reply also returns.
2. Every mutating request sends that token back in the ``X-CSRF-Token`` header. A cross-site page can make the
   browser send the cookie but cannot read the token nor set a custom header without a CORS preflight we never
   answer; on top of that, a request whose ``Origin`` (or ``Sec-Fetch-Site``) says it comes from another site is
   refused.

The SECRET_KEY and the PIN are generated on first start and kept in the data folder (mode 0600), never in code.
"""

from __future__ import annotations

import functools
import hmac
import os
import secrets
import threading
import time
from collections import deque
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, jsonify, request, session

bp = Blueprint("auth", __name__, url_prefix="/auth")

SECRET_FILE = "web_secret_key"
PIN_FILE = "web_pin"
CSRF_HEADER = "X-CSRF-Token"
PIN_DIGITS = 6
# Wrong PINs allowed per client address inside the window before it must wait.
MAX_FAILURES = 5
FAILURE_WINDOW_S = 60.0


def _read_or_create(path: Path, make) -> str:
    """The stripped content of ``path``; created (mode 0600, atomically) with ``make()`` if it does not exist."""
    try:
        text = path.read_text(encoding="utf-8").strip()
        if text:
            return text
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    value = make()
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(value + "\n")
    os.replace(tmp, path)
    return value


def load_or_create_secret_key(data_dir: Path) -> str:
    """The app's session-signing key, kept in ``data_dir`` so sessions survive a restart."""
    return _read_or_create(Path(data_dir) / SECRET_FILE, lambda: secrets.token_hex(32))


def load_or_create_pin(data_dir: Path) -> str:
    """The players' PIN: six random digits made on first start; change it by editing the file."""
    return _read_or_create(
        Path(data_dir) / PIN_FILE, lambda: "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
    )


class FailureLimiter:
    """Counts wrong PINs per client address in a sliding window, so six digits cannot be guessed quickly."""

    def __init__(self, max_failures: int = MAX_FAILURES, window_s: float = FAILURE_WINDOW_S, clock=time.monotonic):
        self.max_failures = max_failures
        self.window_s = window_s
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, who: str) -> deque[float]:
        now = self._clock()
        times = self._failures.setdefault(who, deque())
        while times and now - times[0] > self.window_s:
            times.popleft()
        return times

    def blocked(self, who: str) -> bool:
        with self._lock:
            return len(self._recent(who)) >= self.max_failures

    def fail(self, who: str) -> None:
        with self._lock:
            self._recent(who).append(self._clock())

    def clear(self, who: str) -> None:
        with self._lock:
            self._failures.pop(who, None)


def is_authorised() -> bool:
    return bool(session.get("authorised")) and bool(session.get("csrf"))


def same_origin() -> bool:
    """False when the browser tells us the request comes from another site; absent headers (scripts) pass."""
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("Origin")
    if origin is None or origin == "null":
        referer = request.headers.get("Referer")
        if referer is None:
            return origin is None
        origin = referer
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == request.host


def require_pin(view):
    """Decorator for every view that changes something: PIN session + matching header token + same origin."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if not same_origin():
            abort(403, description="cross-origin request refused")
        if not is_authorised():
            abort(401, description="enter the PIN first (POST /auth/pin)")
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode(), str(session["csrf"]).encode()):
            abort(403, description=f"missing or wrong {CSRF_HEADER} header")
        return view(*args, **kwargs)

    return wrapped


@bp.get("/status")
def status():
    """Whether this browser may change the game; hands the header token back to an authorised page."""
    if is_authorised():
        return jsonify(authorised=True, csrf=session["csrf"])
    return jsonify(authorised=False)


@bp.post("/pin")
def enter_pin():
    if not same_origin():
        abort(403, description="cross-origin request refused")
    body = request.get_json(silent=True)
    if body is None:
        body = request.form
    pin = body.get("pin") if hasattr(body, "get") else None
    if not isinstance(pin, str) or not pin:
        abort(400, description='send {"pin": "…"}')
    limiter: FailureLimiter = current_app.extensions["tilecam.pin_limiter"]
    who = request.remote_addr or "?"
    if limiter.blocked(who):
        abort(429, description="too many wrong PINs; wait a minute")
    if not hmac.compare_digest(pin.strip().encode(), current_app.config["PIN"].encode()):
        limiter.fail(who)
        abort(403, description="wrong PIN")
    limiter.clear(who)
    session.clear()
    session["authorised"] = True
    session["csrf"] = secrets.token_urlsafe(24)
    session.permanent = True
    return jsonify(authorised=True, csrf=session["csrf"])


@bp.post("/logout")
def logout():
    if not same_origin():
        abort(403, description="cross-origin request refused")
    session.clear()
    return jsonify(authorised=False)
