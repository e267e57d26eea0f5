"""Tell systemd how the service is doing: ``READY=1``, ``WATCHDOG=1``, ``STATUS=…`` over ``$NOTIFY_SOCKET``.

The unit in ``deploy/tilecam.service`` is ``Type=notify`` with ``WatchdogSec=``: systemd waits for ``READY=1``
before it counts the service as started, and restarts it when no ``WATCHDOG=1`` arrives within the watchdog period.
The frame loop pings the watchdog, so a hung camera or a stuck vision call restarts the scorekeeper instead of
leaving a frozen scoreboard.

This is the protocol of ``sd_notify(3)`` written with the ``socket`` module, so there is no dependency on
libsystemd or a Python binding. Outside systemd (``$NOTIFY_SOCKET`` unset: a terminal, tests, ``make run``) every
call does nothing and returns ``False``.

Typical use in a loop::

    from tilecam.firmware import sdnotify

    pinger = sdnotify.WatchdogPinger()
    sdnotify.ready("reading the board")
    while running:
        frame = source.read()
        ...
        pinger.ping()              # sends WATCHDOG=1 at most every half watchdog period

    sdnotify.stopping()
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Callable, Mapping


def _socket_address(env: Mapping[str, str]) -> str | None:
    """The address systemd listens on; a leading ``@`` means Linux's abstract namespace (a NUL byte)."""
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return None
    if address.startswith("@"):
        return "\0" + address[1:]
    if address.startswith("/"):
        return address
    return None  # vsock addresses (``vsock:…``) are for VMs; not ours to speak


def notify(message: str, env: Mapping[str, str] | None = None) -> bool:
    """Send one ``sd_notify`` datagram (``"KEY=value"`` lines); ``True`` when it was sent.

    Never raises for a missing or vanished socket, and never blocks: a datagram that cannot be queued at once (the
    receiver is not reading and its queue is full) is dropped — the frame loop calls this and must not hang on
    systemd, and a lost ``STATUS=`` or ``WATCHDOG=1`` is followed by the next one.
    """
    address = _socket_address(os.environ if env is None else env)
    if address is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.setblocking(False)
            sock.send(message.encode("utf-8"), socket.MSG_DONTWAIT)
    except OSError:  # no socket, refused, or BlockingIOError (a full queue)
        return False
    return True


def _one_line(text: str) -> str:
    # A newline would start a new KEY=value assignment inside the datagram.
    return " ".join(text.split())


def ready(status: str | None = None) -> bool:
    """The service has started (``READY=1``), optionally with a status line for ``systemctl status``."""
    message = "READY=1" if status is None else f"READY=1\nSTATUS={_one_line(status)}"
    return notify(message)


def status(text: str) -> bool:
    """A free-form status line shown by ``systemctl status tilecam``."""
    return notify(f"STATUS={_one_line(text)}")


def watchdog() -> bool:
    """Feed the watchdog (``WATCHDOG=1``)."""
    return notify("WATCHDOG=1")


def stopping(status: str | None = None) -> bool:
    """The service is shutting down on purpose (``STOPPING=1``)."""
    message = "STOPPING=1" if status is None else f"STOPPING=1\nSTATUS={_one_line(status)}"
    return notify(message)


def watchdog_period(env: Mapping[str, str] | None = None) -> float | None:
    """The watchdog period in seconds that systemd asked for, or ``None`` when there is no watchdog for us.

    ``$WATCHDOG_PID``, when set, names the process the watchdog is meant for; a child process is not it.
    """
    env = os.environ if env is None else env
    usec = env.get("WATCHDOG_USEC", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 1_000_000


class WatchdogPinger:
    """Sends ``WATCHDOG=1`` at most every half watchdog period, so a 10 fps loop can call :meth:`ping` each frame.

    Without a watchdog (not under systemd, or no ``WatchdogSec=``) :meth:`ping` is a cheap no-op.
    """

    def __init__(
        self,
        period: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        send: Callable[[], bool] = watchdog,
    ) -> None:
        self.period = watchdog_period() if period is None else period
        self._clock = clock
        self._send = send
        self._last: float | None = None

    def ping(self) -> bool:
        """Feed the watchdog if half a period has passed since the last ping; ``True`` when a ping went out."""
        if not self.period:
            return False
        now = self._clock()
        if self._last is not None and now - self._last < self.period / 2:
            return False
        self._last = now
        return self._send()
