"""The sd_notify helper speaks systemd's datagram protocol over a real Unix socket."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tilecam.firmware import sdnotify


@pytest.fixture()
def listener(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A datagram socket standing in for systemd, with $NOTIFY_SOCKET pointing at it."""
    path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(2)
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    yield sock
    sock.close()


def test_ready_sends_ready_and_status(listener: socket.socket) -> None:
    assert sdnotify.ready("reading\nthe board")
    assert listener.recv(4096) == b"READY=1\nSTATUS=reading the board"


def test_watchdog_status_and_stopping(listener: socket.socket) -> None:
    assert sdnotify.watchdog()
    assert listener.recv(4096) == b"WATCHDOG=1"
    assert sdnotify.status("game 3, move 12")
    assert listener.recv(4096) == b"STATUS=game 3, move 12"
    assert sdnotify.stopping()
    assert listener.recv(4096) == b"STOPPING=1"


def test_abstract_socket_address(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"tilecam-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert sdnotify.watchdog()
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not sdnotify.ready()
    # A socket that has gone away is not an error either.
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert not sdnotify.watchdog()


def test_watchdog_period_reads_usec_and_pid() -> None:
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 30.0
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": "0"}) is None
    assert sdnotify.watchdog_period({}) is None


def test_pinger_pings_at_most_every_half_period() -> None:
    now = [100.0]
    sent: list[float] = []

    def send() -> bool:
        sent.append(now[0])
        return True

    pinger = sdnotify.WatchdogPinger(period=10.0, clock=lambda: now[0], send=send)
    for step in range(25):  # 0.0 … 12.0 s in half-second frames
        now[0] = 100.0 + step * 0.5
        pinger.ping()
    assert sent == [100.0, 105.0, 110.0]


def test_pinger_without_watchdog_is_a_no_op() -> None:
    pinger = sdnotify.WatchdogPinger(period=0, send=lambda: pytest.fail("sent without a watchdog"))
    assert not pinger.ping()


def test_a_receiver_that_never_reads_does_not_block_the_sender(listener: socket.socket) -> None:
    """systemd busy (its queue full): each notify returns at once, dropping the datagram, and never raises."""
    import time

    sent = []
    started = time.monotonic()
    for _ in range(2000):               # far more than a Unix datagram queue holds (max_dgram_qlen is ~512)
        sent.append(sdnotify.status("x" * 200))
    assert time.monotonic() - started < 5.0
    assert sent[0] is True and sent[-1] is False      # the queue filled up: later ones were dropped, not waited on
    assert listener.recv(4096) == b"STATUS=" + b"x" * 200
