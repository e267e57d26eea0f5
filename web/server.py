"""Serving the app with waitress — a production WSGI server — never Flask's development server.

Every open live stream holds one server thread for as long as the phone watches, so the thread pool is sized for
the viewers and the app caps its streams a few threads below it (``SSE_MAX_STREAMS``): pages and API calls always
find a free thread. ``ServerThread`` runs one in a background thread (the daemon, the browser tests, the benchmark).
"""

from __future__ import annotations

import threading
import time
from typing import Any

# The scoreboard's port when none is configured: the one `tilecam run`, `tilecam serve`, the Pi install and the docs use.
DEFAULT_PORT = 8000
# Server threads when none are configured: each open live page holds one (100 phones, plus pages and commands).
DEFAULT_THREADS = 128
# Threads kept free of live streams for pages, the API and corrections.
RESERVED_THREADS = 12


def make_server(app: Any, host: str = "0.0.0.0", port: int = DEFAULT_PORT, threads: int = DEFAULT_THREADS) -> Any:
    """A waitress server for ``app`` (not started); ``port=0`` picks a free port (see ``server.effective_port``)."""
    from waitress import create_server

    if threads <= RESERVED_THREADS:
        raise ValueError(f"threads must be more than {RESERVED_THREADS} (live streams each hold one)")
    cap = app.config.get("SSE_MAX_STREAMS")
    app.config["SSE_MAX_STREAMS"] = threads - RESERVED_THREADS if cap is None else min(cap, threads - RESERVED_THREADS)
    return create_server(
        app,
        host=host,
        port=port,
        threads=threads,
        # Each viewer holds a connection; waitress's default limit (100) would turn the 101st phone away.
        connection_limit=max(100, threads * 3),
        asyncore_use_poll=True,
        ident="tilecam",
        clear_untrusted_proxy_headers=True,
    )


class ServerThread:
    """A waitress server in a daemon thread: ``with ServerThread(app) as s: … s.url …``."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, threads: int = DEFAULT_THREADS) -> None:
        self.app = app
        self.server = make_server(app, host=host, port=port, threads=threads)
        self.host = host
        self.port = int(self.server.effective_port)
        self.url = f"http://{host}:{self.port}"
        self._thread = threading.Thread(target=self.server.run, name=f"waitress:{self.port}", daemon=True)

    def start(self) -> "ServerThread":
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """Tell live streams to end, stop accepting, and wait for the server loop to finish."""
        stopping = self.app.extensions.get("tilecam.stopping")
        if stopping is not None:
            stopping.set()
            self.app.extensions["tilecam.live"].broadcaster.wake()
            # Let the streams' generators finish their responses while the server can still write them.
            streams = self.app.extensions["tilecam.streams"]
            deadline = time.monotonic() + min(timeout, 2.0)
            while streams.open and time.monotonic() < deadline:
                time.sleep(0.02)
        # Closing every dispatcher in the loop's map (listener, connections, the trigger) empties the map, which
        # is what ends waitress's asyncore loop. It is done by the loop's own thread (a trigger thunk): closing
        # sockets under a running poll() from another thread races with it.
        def close_all() -> None:
            for dispatcher in list(self.server._map.values()):
                dispatcher.close()

        if self._thread.is_alive():
            self.server.trigger.pull_trigger(close_all)
            self._thread.join(timeout)
        else:
            close_all()
        self.server.task_dispatcher.shutdown(cancel_pending=True, timeout=timeout)

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
