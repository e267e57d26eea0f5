"""The live stream: ids are event sequence numbers, Last-Event-ID catches up, heartbeats, and streams end."""

from __future__ import annotations

import gzip
import json
import zlib
import threading
import time

import pytest

from tilecam.core.service import GameService
from tilecam.core.store import GameStore
from tilecam.web.app import create_app
from tilecam.web.live import LiveState
from tilecam.web.sse import StreamCounter, event_stream, format_message


@pytest.fixture()
def service(tmp_path):
    store = GameStore(tmp_path)
    svc = GameService(store)
    svc.new_game(["Ann", "Ben"], actor="test")
    yield svc
    store.close()


@pytest.fixture()
def app(tmp_path, service):
    return create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "PIN": "1234", "SSE_HEARTBEAT_S": 0.1,
                       "SSE_MAX_S": 0.6, "SSE_POLL_S": 0.05}, service=service)


def parse(chunks: list) -> list[dict]:
    """SSE body (bytes or text pieces) → messages as dicts with ``id``, ``data`` (parsed), ``comment``, ``retry``."""
    text = "".join(c.decode() if isinstance(c, bytes) else c for c in chunks)
    messages = []
    for block in text.split("\n\n"):
        if not block:
            continue
        msg: dict = {}
        for line in block.split("\n"):
            field, _, value = line.partition(": " if not line.startswith("retry:") else ":")
            if line.startswith(":"):
                msg["comment"] = line[1:].strip()
            elif field == "id":
                msg["id"] = int(value)
            elif field == "data":
                msg["data"] = json.loads(value)
            elif field == "retry":
                msg["retry"] = int(value)
        messages.append(msg)
    return messages


def stream(service, after, **kw):
    options = {"heartbeat_s": 0.1, "max_s": 0.5, "counter": StreamCounter(), "stopping": threading.Event()}
    options.update(kw)
    return event_stream(LiveState(service, poll_s=0.05), after, **options)


def test_format_message_is_one_data_line_per_message():
    text = format_message(7, {"a": "line\nbreak", "b": "ü"})
    assert text.startswith("id: 7\ndata: ") and text.endswith("\n\n") and text.count("\n") == 3
    assert json.loads(text.split("data: ", 1)[1]) == {"a": "line\nbreak", "b": "ü"}


def test_fresh_stream_starts_with_the_current_state(service):
    service.play("8D QUANT", actor="camera")
    gen = stream(service, None)
    messages = parse([next(gen), next(gen)])
    assert messages[0]["retry"] == 1000
    first = messages[1]
    assert first["id"] == service.store.last_seq() and first["data"]["event"] is None
    assert first["data"]["state"]["players"][0]["score"] == 48
    gen.close()


def test_catch_up_sends_every_missed_event_with_its_seq_and_the_state_once(service):
    start = service.store.last_seq()
    service.play("8D QUANT", actor="camera")
    service.pass_turn(actor="camera")
    service.pass_turn(actor="camera")
    messages = [m for m in parse(list(stream(service, start, max_s=0.2))) if "id" in m]
    assert [m["id"] for m in messages] == [start + 1, start + 2, start + 3]
    assert [m["data"]["event"]["kind"] for m in messages] == ["play", "pass", "pass"]
    assert ["state" in m["data"] for m in messages] == [False, False, True]
    assert messages[-1]["data"]["state"]["seq"] == start + 3


def test_idle_stream_sends_heartbeats_and_ends_at_max_s(service):
    t0 = time.monotonic()
    messages = parse(list(stream(service, service.store.last_seq(), heartbeat_s=0.1, max_s=0.45)))
    elapsed = time.monotonic() - t0
    assert 0.4 <= elapsed < 2.0
    assert sum(1 for m in messages if m.get("comment") == "heartbeat") >= 3


def test_a_new_event_reaches_an_open_stream_quickly(service):
    gen = stream(service, service.store.last_seq(), max_s=5.0, heartbeat_s=10.0)
    assert b"retry" in next(gen)
    committed = {}

    def commit():
        time.sleep(0.2)
        committed["t"] = time.monotonic()
        service.play("8D QUANT", actor="camera")

    threading.Thread(target=commit).start()
    message = parse([next(gen)])[0]
    latency = time.monotonic() - committed["t"]
    assert message["data"]["event"]["kind"] == "play" and message["data"]["state"]["players"][0]["score"] == 48
    assert latency < 1.0
    gen.close()


def test_closing_the_generator_frees_the_stream(service):
    counter = StreamCounter()
    gen = stream(service, service.store.last_seq(), counter=counter, max_s=5.0)
    next(gen)
    assert counter.open == 1 and counter.opened == 1
    gen.close()  # what waitress does when the client has gone
    assert counter.open == 0


def test_stopping_the_server_ends_streams(service):
    stopping = threading.Event()
    gen = stream(service, service.store.last_seq(), stopping=stopping, max_s=30.0)
    next(gen)
    stopping.set()
    t0 = time.monotonic()
    list(gen)
    assert time.monotonic() - t0 < 1.0


def test_events_route_honours_last_event_id(app, service):
    start = service.store.last_seq()
    service.play("8D QUANT", actor="camera")
    client = app.test_client()
    r = client.get("/api/events", headers={"Last-Event-ID": str(start)}, buffered=False)
    assert r.mimetype == "text/event-stream" and r.headers["Cache-Control"] == "no-cache"
    messages = parse(list(r.response))
    ids = [m["id"] for m in messages if "id" in m]
    assert ids == [start + 1]
    assert app.extensions["tilecam.streams"].open == 0


def test_events_route_after_query_and_bad_values(app, service):
    start = service.store.last_seq()
    service.pass_turn(actor="camera")
    client = app.test_client()
    body = client.get(f"/api/events?after={start}").data.decode()
    assert f"id: {start + 1}\n" in body
    for bad in ("abc", "-1", "99999999999999999999999"):
        r = client.get("/api/events", headers={"Last-Event-ID": bad})
        assert r.status_code == 400 and "Last-Event-ID" in r.get_json()["error"]


def test_too_many_streams_get_503(app):
    app.config["SSE_MAX_STREAMS"] = 0
    r = app.test_client().get("/api/events")
    assert r.status_code == 503 and r.headers["Retry-After"] == "5"


def test_gzip_stream_is_one_valid_gzip_body_made_of_shared_pieces(app, service):
    start = service.store.last_seq()
    service.play("8D QUANT", actor="camera")
    service.pass_turn(actor="camera")
    client = app.test_client()
    r = client.get(f"/api/events?after={start}", headers={"Accept-Encoding": "gzip, deflate"})
    assert r.headers["Content-Encoding"] == "gzip"
    body = r.data
    assert gzip.decompress(body) == client.get(f"/api/events?after={start}").data  # CRC and length check too
    messages = parse([gzip.decompress(body)])
    assert [m["id"] for m in messages if "id" in m] == [start + 1, start + 2]
    # A second viewer is sent the very same compressed bytes for each event (compressed once).
    again = client.get(f"/api/events?after={start}", headers={"Accept-Encoding": "gzip"}).data
    assert again[:200] == body[:200]


def test_gzip_pieces_decode_incrementally(service):
    """What a browser sees: each message is readable as soon as its piece arrives (sync-flushed)."""
    start = service.store.last_seq()
    service.play("8D QUANT", actor="camera")
    gen = stream(service, start, gzip=True, max_s=5.0)
    decoder = zlib.decompressobj(31)
    assert decoder.decompress(next(gen)).startswith(b"retry: 1000")
    assert decoder.decompress(next(gen)).startswith(f"id: {start + 1}\n".encode())
    gen.close()


def test_events_written_by_another_process_reach_the_stream(tmp_path, service):
    """`tilecam serve` beside the daemon: a second service on the same store file commits; the stream sees it."""
    other = GameService(GameStore(tmp_path))
    other.resume()
    gen = stream(service, service.store.last_seq(), max_s=5.0, heartbeat_s=10.0)
    next(gen)
    threading.Timer(0.2, lambda: other.play("8D QUANT", actor="daemon")).start()
    t0 = time.monotonic()
    message = parse([next(gen)])[0]
    assert message["data"]["event"]["actor"] == "daemon" and time.monotonic() - t0 < 2.0
    gen.close()
    other.store.close()


def test_broadcaster_serves_recent_events_from_memory_and_old_ones_from_the_store(service):
    from tilecam.web.live import Broadcaster

    start = service.store.last_seq()
    caster = Broadcaster(service, poll_s=0.05, stopping=threading.Event(), keep=2)
    assert caster.events_after(start, 10) == []  # starts watching at the head
    for _ in range(3):
        service.pass_turn(actor="test")
    assert caster.wait(start + 2, timeout=2.0)
    time.sleep(0.1)
    assert [e.seq for e in caster.events_after(start + 1, 10)] == [start + 2, start + 3]  # memory
    assert [e.seq for e in caster.events_after(start, 10)] == [start + 1, start + 2, start + 3]  # store
    assert caster.events_after(start + 3, 10) == [] and not caster.wait(start + 3, timeout=0.05)
    caster.stopping.set()


def test_waitress_ends_the_stream_when_the_client_goes(app):
    """A real server: a phone that closes the page frees its stream (and thread) at the next heartbeat."""
    import socket

    from tilecam.web.server import ServerThread

    app.config["SSE_MAX_S"] = 30.0
    counter = app.extensions["tilecam.streams"]
    with ServerThread(app, threads=16) as server:
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n")
        assert b"200 OK" in sock.recv(4096)
        deadline = time.monotonic() + 3
        while counter.open != 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert counter.open == 1
        sock.close()
        deadline = time.monotonic() + 3
        while counter.open != 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert counter.open == 0 and counter.opened == 1


def test_a_long_catch_up_comes_in_batches_and_ends_with_the_state(service):
    start = service.store.last_seq()
    for _ in range(4):
        service.pass_turn(actor="camera")
    messages = [m for m in parse(list(stream(service, start, max_s=0.3, batch=2))) if "id" in m]
    assert [m["id"] for m in messages] == [start + 1, start + 2, start + 3, start + 4, start + 4]
    assert ["state" in m["data"] for m in messages] == [False, False, False, False, True]
    assert messages[-1]["data"]["event"] is None and messages[-1]["data"]["state"]["seq"] == start + 4
