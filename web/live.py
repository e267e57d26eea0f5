"""The scoreboard's view of the current game, built once per event sequence number and shared by every viewer.

A hundred phones watching the same game must not make the service build a hundred identical states per move:
``LiveState`` keeps the last one (keyed by the sequence number it reflects) behind a lock.
"""

from __future__ import annotations

import dataclasses
import math
import sqlite3
import threading
import time
from collections import deque
from typing import Any

from tilecam.web.views import decorate_state


def event_seq(event: Any) -> int:
    """The global sequence number of a store event (a dict or an object with ``.seq``)."""
    if isinstance(event, dict):
        return int(event["seq"])
    return int(event.seq)


def event_to_dict(event: Any) -> dict:
    """A store event as JSON-ready data."""
    if isinstance(event, dict):
        return event
    if hasattr(event, "to_dict"):
        return event.to_dict()
    if dataclasses.is_dataclass(event):
        return dataclasses.asdict(event)
    raise TypeError(f"cannot turn {type(event).__name__} into JSON")


class LiveState:
    """The current game's view model, cached by the store's sequence number it reflects.

    Clocks keep running between events, so a cached state handed out later has its running clock moved on by the
    time since it was built (cheap), instead of being rebuilt (a full state rebuild re-scores the move list).
    """

    def __init__(self, service: Any, clock=time.monotonic, *, poll_s: float = 0.5,
                 stopping: threading.Event | None = None) -> None:
        self.service = service
        self.broadcaster = Broadcaster(service, poll_s=poll_s, stopping=stopping or threading.Event())
        self._clock = clock
        self._lock = threading.Lock()
        self._seq: int | None = None
        self._state: dict | None = None
        self._built = 0.0

    def _build(self) -> None:
        # The store's newest seq is read first: the state built after it reflects at least that event.
        seq = self.service.store.last_seq()
        self._state = decorate_state(self.service.state())
        self._seq = max(seq, int(self._state.get("seq") or 0))
        self._built = self._clock()

    def _fresh(self) -> dict:
        state = self._state
        assert state is not None
        elapsed = self._clock() - self._built
        if elapsed < 0.5 or not any(p.get("clock") and p["clock"]["running"] for p in state["players"]):
            return state
        state = dict(state)
        state["players"] = [dict(p) for p in state["players"]]
        for player in state["players"]:
            clock = player.get("clock")
            if clock and clock["running"]:
                left = clock["remaining_s"] - elapsed
                player["clock"] = {**clock, "remaining_s": round(left, 1),
                                   "penalty": math.ceil(-left / 60) * clock["penalty_per_minute"] if left < 0 else 0}
        return state

    def current_cached(self) -> tuple[int, dict]:
        """The newest state and its seq, rebuilt only when the store has moved on since the last build (a page
        load or ``/api/state`` from many phones at once costs one build, not one each)."""
        head = self.service.store.last_seq()
        with self._lock:
            if self._state is None or self._seq is None or self._seq < head:
                self._build()
            return self._seq, self._fresh()

    def state_after(self, seq: int) -> dict:
        """A state that reflects at least event ``seq``: the cached one if it is recent enough, else a new one."""
        with self._lock:
            if self._state is None or self._seq is None or self._seq < seq:
                self._build()
            return self._fresh()

    def events_after(self, seq: int, limit: int) -> list[Any]:
        """Committed events with a sequence number above ``seq``, oldest first (from memory when recent)."""
        return self.broadcaster.events_after(seq, limit)

    def wait(self, after_seq: int, timeout: float) -> bool:
        """Wait until an event newer than ``after_seq`` is known (or ``timeout``); True if there is one."""
        return self.broadcaster.wait(after_seq, timeout)

    def invalidate(self) -> None:
        with self._lock:
            self._seq = self._state = None


class Broadcaster:
    """One thread per app watches the service for new events and fans them out to every open stream.

    A hundred viewers then wait on one in-memory condition instead of each polling the store: an idle scoreboard
    costs one waiting thread, and a new event is read from SQLite once, not once per phone. The newest ``keep``
    events stay in memory; a stream further behind (a phone waking up after a long sleep) reads the store.
    The thread starts with the first stream and ends when the app stops or the store is closed.
    """

    def __init__(self, service: Any, *, poll_s: float, stopping: threading.Event, keep: int = 512) -> None:
        self.service = service
        self.poll_s = poll_s
        self.stopping = stopping
        self._cond = threading.Condition()
        self._recent: deque[Any] = deque(maxlen=keep)
        self._head: int | None = None
        self._thread: threading.Thread | None = None

    def _ensure_started(self) -> None:
        with self._cond:
            if self._thread is not None:
                return
            self._head = self.service.store.last_seq()
            self._thread = threading.Thread(target=self._run, name="tilecam-sse-broadcast", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                new = self.service.wait_for_event(self._head, timeout=self.poll_s)
            except (ValueError, sqlite3.Error):  # the store was closed under us (shut-down, tests): stop watching
                break
            if not new:
                continue
            with self._cond:
                for event in new:
                    if event_seq(event) > self._head:
                        self._recent.append(event)
                        self._head = event_seq(event)
                self._cond.notify_all()
        with self._cond:
            self._thread = None
            self._cond.notify_all()

    def wake(self) -> None:
        """Wake every waiting stream (to notice that the server is stopping)."""
        with self._cond:
            self._cond.notify_all()

    def events_after(self, seq: int, limit: int) -> list[Any]:
        self._ensure_started()
        with self._cond:
            head = self._head
            recent = self._recent
            if head is not None and seq >= head:
                return []
            if recent and event_seq(recent[0]) <= seq + 1:
                return [e for e in recent if event_seq(e) > seq][:limit]
        return self.service.store.events(after_seq=seq, limit=limit)

    def wait(self, after_seq: int, timeout: float) -> bool:
        self._ensure_started()
        with self._cond:
            return self._cond.wait_for(
                lambda: (self._head or 0) > after_seq or self.stopping.is_set() or self._thread is None, timeout
            ) and (self._head or 0) > after_seq
