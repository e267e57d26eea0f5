"""The scoreboard's view of the current game, built once per event sequence number and shared by every viewer.

A hundred phones watching the same game must not make the service build a hundred identical states per move:
``LiveState`` keeps the last one (keyed by the sequence number it reflects) behind a lock.
"""

from __future__ import annotations

import dataclasses
import math
import threading
import time
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

    def __init__(self, service: Any, clock=time.monotonic) -> None:
        self.service = service
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

    def current(self) -> tuple[int, dict]:
        """The state now (always rebuilt), and the sequence number it reflects."""
        with self._lock:
            self._build()
            return self._seq, self._state

    def state_after(self, seq: int) -> dict:
        """A state that reflects at least event ``seq``: the cached one if it is recent enough, else a new one."""
        with self._lock:
            if self._state is None or self._seq is None or self._seq < seq:
                self._build()
            return self._fresh()

    def events_after(self, seq: int, limit: int) -> list[Any]:
        """Committed events with a sequence number above ``seq``, oldest first, from the store."""
        return self.service.store.events(after_seq=seq, limit=limit)

    def invalidate(self) -> None:
        with self._lock:
            self._seq = self._state = None
