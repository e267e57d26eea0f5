"""The unit is Type=notify with WatchdogSec=: `tilecam run` must say READY=1 and keep feeding the watchdog, or
systemd would kill it at start-up or restart it every watchdog period. Played here against a socket standing in for
systemd, with the bundled demo game as the camera."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tilecam.firmware import sdnotify

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "deploy" / "tilecam.service"


def _watchdog_sec() -> float:
    for line in UNIT.read_text().splitlines():
        if line.startswith("WatchdogSec="):
            return float(line.split("=", 1)[1])
    raise AssertionError("no WatchdogSec= in the unit")


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_run_says_ready_feeds_the_watchdog_and_says_stopping(tmp_path: Path) -> None:
    from tilecam.firmware import sources
    if not Path(sources.DEMO_CLIP).is_file():
        pytest.skip("the demo clip is not built yet")
    address = tmp_path / "notify"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(str(address))
    listener.settimeout(0.5)
    messages: list[str] = []
    done = threading.Event()

    def collect() -> None:
        while not done.is_set():
            try:
                messages.append(listener.recv(4096).decode())
            except TimeoutError:
                continue

    collector = threading.Thread(target=collect, daemon=True)
    collector.start()
    # A 1 s watchdog (pinged every 0.5 s) instead of the unit's 30 s, so a few seconds show several pings.
    env = dict(os.environ, NOTIFY_SOCKET=str(address), WATCHDOG_USEC="1000000")
    env.pop("WATCHDOG_PID", None)
    try:
        run = subprocess.run([sys.executable, "-m", "tilecam.firmware.cli", "run", "--source", "demo", "--no-web",
                              "--max-seconds", "4", "--data-dir", str(tmp_path / "data")],
                             capture_output=True, text=True, timeout=90, env=env)
    finally:
        done.set()
        collector.join(2)
        listener.close()
    assert run.returncode == 0, run.stdout + run.stderr
    firsts = [m.split("\n", 1)[0] for m in messages]
    assert "READY=1" in firsts, messages
    ready = firsts.index("READY=1")
    pings = firsts[ready:].count("WATCHDOG=1")
    assert pings >= 3, f"only {pings} watchdog pings in 4 s with a 1 s watchdog: {messages}"
    assert firsts[-1] == "STOPPING=1", messages


def test_watchdog_period_is_what_the_pinger_halves() -> None:
    period = _watchdog_sec()
    assert sdnotify.watchdog_period({"WATCHDOG_USEC": str(int(period * 1_000_000))}) == period
