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
import struct
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

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


def deflate_block(text: bytes) -> bytes:
    """``text`` as raw deflate data ending on a byte boundary with no final block (a sync flush of a fresh
    compressor). Such pieces can be concatenated into one valid deflate stream, so a message is compressed once
    and the same bytes are sent to every viewer."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -15)
    return compressor.compress(text) + compressor.flush(zlib.Z_SYNC_FLUSH)


class SharedMessages:
    """Each event's SSE message, encoded (JSON, UTF-8, deflated) once for all viewers; the newest few kept."""

    def __init__(self, live: LiveState, size: int = 256) -> None:
        self.live = live
        self.size = size
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()
        self._cache: OrderedDict[tuple, tuple[bytes, bytes]] = OrderedDict()

    def _put(self, key: tuple, text: str) -> tuple[bytes, bytes]:
        raw = text.encode("utf-8")
        value = (raw, deflate_block(raw))
        with self._lock:
            self._cache[key] = value
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return value

    def _get(self, key: tuple) -> tuple[bytes, bytes] | None:
        with self._lock:
            value = self._cache.get(key)
            if value is not None:
                self._cache.move_to_end(key)
            return value

    def event(self, event: Any, with_state: bool) -> tuple[bytes, bytes]:
        seq = event_seq(event)
        key = ("event", seq, with_state)
        found = self._get(key)
        if found is not None:
            return found
        # Every viewer wakes for the same event at once: one builds the message, the others wait and reuse it.
        with self._build_lock:
            found = self._get(key)
            if found is not None:
                return found
            data = {"seq": seq, "event": event_to_dict(event)}
            if with_state:
                data["state"] = self.live.state_after(seq)
            return self._put(key, format_message(seq, data))

    def current(self) -> tuple[int, tuple[bytes, bytes]]:
        """The opening message of a fresh stream (the current state) and the seq it reflects. Shared by the
        viewers that connect until the next event; clocks are moved on by the page itself."""
        with self._build_lock:
            seq, state = self.live.current_cached()
            key = ("current", seq)
            found = self._get(key)
            if found is None:
                found = self._put(key, format_message(seq, {"seq": seq, "event": None, "state": state}))
            return seq, found

    def constant(self, text: str) -> tuple[bytes, bytes]:
        found = self._get(("constant", text))
        return found if found is not None else self._put(("constant", text), text)


class GzipStream:
    """A gzip body assembled from shared deflate pieces: the header, the pieces, and (if the stream ends
    normally) the final block and trailer; only the CRC is computed per viewer."""

    HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

    def __init__(self) -> None:
        self.crc = 0
        self.size = 0
        self.started = False

    def piece(self, raw: bytes, deflated: bytes) -> bytes:
        self.crc = zlib.crc32(raw, self.crc)
        self.size += len(raw)
        if not self.started:
            self.started = True
            return self.HEADER + deflated
        return deflated

    def end(self) -> bytes:
        # An empty final fixed-Huffman block, then CRC-32 and length of the uncompressed data.
        return (b"" if self.started else self.HEADER) + b"\x03\x00" + struct.pack("<II", self.crc,
                                                                                  self.size & 0xFFFFFFFF)


def event_stream(
    live: LiveState,
    after_seq: int | None,
    *,
    heartbeat_s: float,
    max_s: float | None,
    counter: StreamCounter,
    stopping: threading.Event,
    batch: int = 200,
    messages: SharedMessages | None = None,
    gzip: bool = False,
) -> Iterator[bytes]:
    """Yield the SSE body: a catch-up after ``after_seq`` (or the current state when None), then each new event.

    New events come from the app's one broadcaster (:class:`tilecam.web.live.Broadcaster`), which is woken by the
    service right after a commit and also polls the store (another process may write it). Ends
    after ``max_s`` seconds (the browser reconnects by itself and loses nothing), when the server stops, or when
    the server closes the generator because the client went away. ``gzip`` encodes the body (Content-Encoding:
    gzip) from pieces compressed once for all viewers.
    """
    messages = messages or SharedMessages(live)
    encoder = GzipStream() if gzip else None

    def out(piece: tuple[bytes, bytes]) -> bytes:
        return encoder.piece(*piece) if encoder else piece[0]

    with counter:
        yield out(messages.constant(f"retry: {RETRY_MS}\n\n"))
        if after_seq is None:
            seq, piece = messages.current()
            yield out(piece)
            after_seq = seq
        now = time.monotonic()
        deadline = None if max_s is None else now + max_s
        quiet_since = now
        last = after_seq
        owe_state = False  # a full catch-up batch went out without a state
        while not stopping.is_set() and (deadline is None or time.monotonic() < deadline):
            events = live.events_after(last, batch)
            if not events and owe_state:
                seq, piece = messages.current()
                yield out(piece)
                last, owe_state = max(last, seq), False
                continue
            if not events:
                now = time.monotonic()
                if now - quiet_since >= heartbeat_s:
                    yield out(messages.constant(": heartbeat\n\n"))
                    quiet_since = now
                wait = max(0.0, heartbeat_s - (now - quiet_since))
                if deadline is not None:
                    wait = max(0.0, min(wait, deadline - now))
                live.wait(last, timeout=wait)
                continue
            full = len(events) >= batch
            for i, event in enumerate(events):
                yield out(messages.event(event, with_state=i == len(events) - 1 and not full))
                last = event_seq(event)
            owe_state = full
            quiet_since = time.monotonic()
        if encoder:
            yield encoder.end()


def _after_seq() -> int | None:
    """Where to resume: the ``Last-Event-ID`` header (a reconnect), else ``?after=``; None = start from now."""
    raw = request.headers.get("Last-Event-ID") or request.args.get("after")
    if raw is None or raw == "":
        return None
    try:
        value = int(raw)
    except ValueError:
        abort(400, description=f"Last-Event-ID / after must be an integer sequence number, not {raw[:20]!r}")
    if not 0 <= value < 2**63:
        abort(400, description="Last-Event-ID / after must be a sequence number (0 or more)")
    return value


@bp.get("/events")
def events():
    after = _after_seq()
    counter: StreamCounter = current_app.extensions["tilecam.streams"]
    cap = current_app.config["SSE_MAX_STREAMS"]
    if cap is not None and counter.open >= cap:
        response = Response(
            json.dumps({"error": "too many open live streams; try again shortly", "status": 503}),
            status=503,
            mimetype="application/json",
        )
        response.headers["Retry-After"] = "5"
        return response
    gzip = "gzip" in request.headers.get("Accept-Encoding", "").lower()
    stream = event_stream(
        current_app.extensions["tilecam.live"],
        after,
        heartbeat_s=float(current_app.config["SSE_HEARTBEAT_S"]),
        max_s=current_app.config["SSE_MAX_S"],
        counter=counter,
        stopping=current_app.extensions["tilecam.stopping"],
        messages=current_app.extensions["tilecam.messages"],
        gzip=gzip,
    )
    response = Response(stream, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    response.headers["Vary"] = "Accept-Encoding"
    if gzip:
        response.headers["Content-Encoding"] = "gzip"
    return response
