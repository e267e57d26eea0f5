"""The live stream: ``GET /api/events`` as Server-Sent Events.

Every message carries ``id: <seq>`` (the store's global event sequence number), so a browser that reconnects sends
``Last-Event-ID`` and is sent exactly the events it missed. A stream with nothing to say sends a comment line every
``SSE_HEARTBEAT_S`` seconds; that keeps proxies from closing it, and it is how a stream finds out its client has
gone: waitress raises on the write, closes the generator, and the thread is free again.

A message's data is JSON ``{"seq", "event", "state"}``: ``event`` as the store keeps it, and ``state`` the game's
state after it (the same for every viewer, so it is built once per sequence number, not once per viewer) — sent
only with the last message of a catch-up batch, since older states would be drawn and thrown away at once.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator

from flask import Blueprint, Response, abort, current_app, request

from tilecam.web.live import LiveState, event_seq, event_to_dict

bp = Blueprint("sse", __name__, url_prefix="/api")

RETRY_MS = 1000


class StreamCounter:
    """How many streams are open now, and how many were ever opened; shown by /health and used for a cap."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.open = 0
        self.opened = 0

    def __enter__(self) -> "StreamCounter":
        with self._lock:
            self.open += 1
            self.opened += 1
        return self

    def __exit__(self, *exc) -> None:
        with self._lock:
            self.open -= 1


def format_message(seq: int | None, data: dict, comment: str | None = None) -> str:
    """One SSE message; ``data`` is JSON on one line, so no newline escaping is needed."""
    lines = []
    if comment:
        lines.append(f": {comment}")
    if seq is not None:
        lines.append(f"id: {seq}")
    lines.append("data: " + json.dumps(data, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines) + "\n\n"


def event_stream(
    live: LiveState,
    after_seq: int | None,
    *,
    heartbeat_s: float,
    max_s: float | None,
    counter: StreamCounter,
    stopping: threading.Event,
    poll_s: float = 0.5,
    batch: int = 200,
) -> Iterator[str]:
    """Yield SSE text: a catch-up after ``after_seq`` (or the current state when None), then each new event.

    New events are found by waiting on the service's in-process notification, and at the latest every ``poll_s``
    by asking the store (another process, say ``tilecam serve`` beside the daemon, may have written them). Ends
    after ``max_s`` seconds (the browser reconnects by itself and loses nothing), when the server stops, or when
    the server closes the generator because the client went away.
    """
    service = live.service
    with counter:
        yield f"retry: {RETRY_MS}\n\n"
        if after_seq is None:
            seq, state = live.current()
            yield format_message(seq, {"seq": seq, "event": None, "state": state})
            after_seq = seq
        now = time.monotonic()
        deadline = None if max_s is None else now + max_s
        quiet_since = now
        last = after_seq
        while not stopping.is_set() and (deadline is None or time.monotonic() < deadline):
            events = live.events_after(last, batch)
            if not events:
                now = time.monotonic()
                if now - quiet_since >= heartbeat_s:
                    yield ": heartbeat\n\n"
                    quiet_since = now
                wait = min(poll_s, heartbeat_s)
                if deadline is not None:
                    wait = max(0.0, min(wait, deadline - now))
                service.wait_for_event(last, timeout=wait)
                continue
            for i, event in enumerate(events):
                seq = event_seq(event)
                data = {"seq": seq, "event": event_to_dict(event)}
                if i == len(events) - 1 and len(events) < batch:
                    data["state"] = live.state_after(seq)
                yield format_message(seq, data)
                last = seq
            quiet_since = time.monotonic()


def _after_seq() -> int | None:
    """Where to resume: the ``Last-Event-ID`` header (a reconnect), else ``?after=``; None = start from now."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        abort(400, description=f"Last-Event-ID / after must be an integer sequence number, not {raw[:20]!r}")
    if value < 0:
        abort(400, description="Last-Event-ID / after must not be negative")
    return value


@bp.get("/events")
def events():
    after = _after_seq()
    counter: StreamCounter = current_app.extensions["tilecam.streams"]
    if counter.open >= current_app.config["SSE_MAX_STREAMS"]:
        response = Response(
            json.dumps({"error": "too many open live streams; try again shortly", "status": 503}),
            status=503,
            mimetype="application/json",
        )
        response.headers["Retry-After"] = "5"
        return response
    stream = event_stream(
        current_app.extensions["tilecam.live"],
        after,
        heartbeat_s=float(current_app.config["SSE_HEARTBEAT_S"]),
        max_s=current_app.config["SSE_MAX_S"],
        counter=counter,
        stopping=current_app.extensions["tilecam.stopping"],
        poll_s=float(current_app.config["SSE_POLL_S"]),
    )
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response
