"""The scoreboard's view of the current game, built once per event sequence number and shared by every viewer.

A hundred phones watching the same game must not make the service build a hundred identical states per move:
``LiveState`` keeps the last one (keyed by the sequence number it reflects) behind a lock.
"""

from __future__ import annotations

import dataclasses
import threading
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
    """The current game's state as the scoreboard shows it (service state + board SVG), cached by sequence number."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._seq: int | None = None
        self._state: dict | None = None

    def _build(self) -> tuple[int, dict]:
        state = decorate_state(self.service.state())
        return int(state.get("seq") or 0), state

    def current(self) -> tuple[int, dict]:
        """The state now, and the sequence number it reflects."""
        with self._lock:
            seq, state = self._build()
            self._seq, self._state = seq, state
            return seq, state

    def state_after(self, seq: int) -> dict:
        """A state that reflects at least event ``seq``: the cached one if it is recent enough, else a new one."""
        with self._lock:
            if self._state is None or self._seq is None or self._seq < seq:
                self._seq, self._state = self._build()
            return self._state

    def events_after(self, seq: int, limit: int) -> list[Any]:
        """Committed events with a sequence number above ``seq``, oldest first, from the store."""
        return self.service.store.events(after_seq=seq, limit=limit)

    def invalidate(self) -> None:
        with self._lock:
            self._seq = self._state = None
