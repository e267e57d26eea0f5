"""Clock buttons on the Pi's GPIO: one per player, like a chess clock (gpiozero, optional).

Gestures on a player's button:

* a short press — "my turn is over": the board is read now and the move committed; the clock passes on;
* a double press — pass;
* a long press (held ``long_press_s``) — undo the last move.

:class:`GestureDecoder` is the timing logic, pure and clock-driven, so it is tested without hardware or sleeping;
:class:`ClockButtons` wires decoders to gpiozero ``Button`` objects (tests use gpiozero's ``MockFactory``).
gpiozero is imported only when buttons are configured (``[pi]`` extra or ``apt install python3-gpiozero``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

END_TURN, PASS, UNDO = "end_turn", "pass", "undo"


class ButtonsUnavailable(RuntimeError):
    """gpiozero is missing or the pins cannot be claimed (not a Pi, pin in use)."""


class GestureDecoder:
    """Turns press/release times into gestures. Call :meth:`poll` regularly (it emits what waits on a timeout)."""

    def __init__(self, long_press_s: float = 1.5, double_press_s: float = 0.4) -> None:
        if not 0 < double_press_s < long_press_s:
            raise ValueError(f"need 0 < double_press_s ({double_press_s}) < long_press_s ({long_press_s})")
        self.long_press_s = long_press_s
        self.double_press_s = double_press_s
        self._pressed_at: float | None = None
        self._held_fired = False
        self._second_press = False
        self._single_waiting_since: float | None = None

    def press(self, t: float) -> list[str]:
        out = self.poll(t)
        if self._single_waiting_since is not None and t - self._single_waiting_since <= self.double_press_s:
            self._second_press = True
            self._single_waiting_since = None
        self._pressed_at = t
        self._held_fired = False
        return out

    def release(self, t: float) -> list[str]:
        out = self.poll(t)
        if self._pressed_at is None:
            return out
        self._pressed_at = None
        if self._held_fired:
            self._held_fired = False
            self._second_press = False
        elif self._second_press:
            self._second_press = False
            out.append(PASS)
        else:
            self._single_waiting_since = t
        return out

    def poll(self, t: float) -> list[str]:
        out: list[str] = []
        if self._pressed_at is not None and not self._held_fired and t - self._pressed_at >= self.long_press_s:
            self._held_fired = True
            self._second_press = False
            out.append(UNDO)
        if self._single_waiting_since is not None and t - self._single_waiting_since > self.double_press_s:
            self._single_waiting_since = None
            out.append(END_TURN)
        return out


class ClockButtons:
    """One gpiozero ``Button`` per player (BCM pin numbers, wired to ground: pressed = low).

    ``on_gesture(seat, gesture)`` is called from a background thread with ``end_turn``, ``pass`` or ``undo``.
    ``pin_factory`` is for tests (``gpiozero.pins.mock.MockFactory()``).
    """

    def __init__(self, pins: Sequence[int], on_gesture: Callable[[int, str], None], *, long_press_s: float = 1.5,
                 double_press_s: float = 0.4, pin_factory: Any = None, poll_s: float = 0.02,
                 clock: Callable[[], float] = time.monotonic) -> None:
        try:
            from gpiozero import Button
            from gpiozero.exc import GPIOZeroError
        except ImportError as exc:
            raise ButtonsUnavailable("gpiozero is not installed (pip install 'tilecam[pi]' or apt install "
                                     "python3-gpiozero)") from exc
        self.on_gesture = on_gesture
        self._clock = clock
        self._poll_s = poll_s
        self._lock = threading.Lock()
        self.decoders = [GestureDecoder(long_press_s, double_press_s) for _ in pins]
        self.buttons: list[Any] = []
        try:
            for seat, pin in enumerate(pins):
                button = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                button.when_pressed = lambda _b=None, s=seat: self._edge(s, True)
                button.when_released = lambda _b=None, s=seat: self._edge(s, False)
                self.buttons.append(button)
        except (GPIOZeroError, OSError, RuntimeError) as exc:
            self.close()
            raise ButtonsUnavailable(f"cannot use GPIO pins {list(pins)}: {exc}") from exc
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll_loop, name="clock-buttons", daemon=True)
        self._thread.start()

    def _edge(self, seat: int, pressed: bool) -> None:
        t = self._clock()
        with self._lock:
            decoder = self.decoders[seat]
            gestures = decoder.press(t) if pressed else decoder.release(t)
        self._emit(seat, gestures)

    def _poll_loop(self) -> None:
        while not self._stop.wait(self._poll_s):
            t = self._clock()
            for seat, decoder in enumerate(self.decoders):
                with self._lock:
                    gestures = decoder.poll(t)
                self._emit(seat, gestures)

    def _emit(self, seat: int, gestures: list[str]) -> None:
        for gesture in gestures:
            self.on_gesture(seat, gesture)

    def close(self) -> None:
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()
            self._thread.join(1)
        for button in self.buttons:
            button.close()
        self.buttons = []
