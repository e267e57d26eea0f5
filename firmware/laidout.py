"""The set laid out, learnt when the web asks: the calibration page's "Learn my tiles" button (issue 23), for a
player with only a phone.

The web writes a request into the data folder (:func:`tilecam.core.calibration_files.ask_laid_out`); at each tick
of its loop the daemon hands a :class:`LaidOutTeacher` the newest camera frame and whether the board is still. The
teacher learns from the first still frame that came after it noticed the request — the camera's own view of the
tiles, as the reader will see them in play — through ``learn(image, tileset)`` (the daemon's: the reader's tile
model, ``tile-looks.npz`` saved, the tracker rebuilt to read with it), writes the outcome where the page reads it
(:func:`tilecam.core.calibration_files.write_laid_out_outcome`) and withdraws the request. A request that no still
frame answers within ``WAIT_S`` of being asked is answered "no camera frame". It never raises: a refused layout is
reported with what to lay, and the looks learnt before are kept.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tilecam.core.calibration_files import (LaidOutRequestError, laid_out_request, withdraw_laid_out_request,
                                            write_laid_out_outcome)

log = logging.getLogger(__name__)

#: Seconds a request waits for a still frame, from when it was asked: enough for a hand to leave the board; a request
#: left from before the daemon started (the tiles long put away) is refused rather than learnt from today's board.
WAIT_S = 30.0


class NoCameraFrame(RuntimeError):
    """No still camera frame came within ``WAIT_S`` of the request (the camera lost, hands over the board)."""


@dataclass(frozen=True)
class _Pending:
    """A request noticed: when it was asked, the tile set to learn, and the frame in hand when it was noticed (the
    one learnt from must come after it)."""

    asked: float
    tileset: str
    frame: Any


class LaidOutTeacher:
    """``tick(frame, still)`` once per loop tick answers the web's request (see the module doc); ``learn(image,
    tileset)`` returns the ``TileLooks`` learnt (kept and read with by then) or raises why not. ``clock``: Unix
    time, as the request's ``asked``."""

    def __init__(self, data_dir: str | Path, learn: Callable[[Any, str], Any], *,
                 clock: Callable[[], float] = time.time, wait_s: float = WAIT_S) -> None:
        self.data_dir = Path(data_dir)
        self._learn = learn
        self._clock = clock
        self.wait_s = wait_s
        self._pending: _Pending | None = None

    def tick(self, frame: Any, still: bool) -> dict[str, Any] | None:
        """The outcome once the request is answered (written, the request withdrawn), else None."""
        try:
            request = laid_out_request(self.data_dir)
        except LaidOutRequestError as exc:
            return self._answer(refusal(exc), None, "")
        if request is None:
            self._pending = None
            return None
        pending = self._pending
        if pending is None or pending.asked != request["asked"]:
            self._pending = _Pending(request["asked"], request["tileset"], frame)
            return None
        waited = self._clock() - pending.asked
        if waited > self.wait_s:           # first: a request left from before the daemon started is not answered
            outcome = refusal(NoCameraFrame(f"none still came in {waited:.0f} s (at most {self.wait_s:g}): keep "
                                            "hands off the board and check the camera, then press the button again"))
        elif frame is not None and frame is not pending.frame and still:
            outcome = self._learnt_from(frame.full(), pending.tileset)
        else:
            return None
        return self._answer(outcome, pending.asked, pending.tileset)

    def _learnt_from(self, image: Any, tileset: str) -> dict[str, Any]:
        """The outcome of learning the set laid out in ``image``: learnt, or refused and why."""
        from tilecam.vision.locate import BoardNotFound

        try:
            looks = self._learn(image, tileset)
        # LayoutError is a ValueError; RuntimeError: the model's runtime failing on this frame
        except (BoardNotFound, ValueError, OSError, ImportError, RuntimeError) as exc:
            return refusal(exc)
        alike = "" if looks.read_alike is None else f"; {looks.read_alike} of them read as their place's letter"
        return {"state": "learnt", "tiles": looks.tiles, "read_alike": looks.read_alike,
                "message": f"{looks.tiles} tiles learnt{alike}: the camera reads your tiles with them from now on"}

    def _answer(self, outcome: dict[str, Any], asked: float | None, tileset: str) -> dict[str, Any]:
        outcome = {**outcome, "tileset": tileset, "asked": asked, "answered": round(self._clock(), 3)}
        try:
            write_laid_out_outcome(self.data_dir, outcome)
            withdraw_laid_out_request(self.data_dir, asked)
        except OSError as exc:          # a full disk: said in the log, tried again at the next tick
            log.warning("the answer to the set laid out was not written: %s", exc)
        self._pending = None
        return outcome


def refusal(exc: BaseException) -> dict[str, Any]:
    """A refused outcome for ``exc``, with its ``cause``: ``layout`` (not the set laid out in order: the message
    says what to lay), ``no-board``, ``no-frame``, ``bad-request``, or ``unusable`` (no model, a file not written)."""
    from tilecam.vision.laidout import LayoutError
    from tilecam.vision.locate import BoardNotFound

    if isinstance(exc, LayoutError):
        cause, message = "layout", str(exc)
    elif isinstance(exc, BoardNotFound):
        cause, message = "no-board", f"board not found: {exc}"
    elif isinstance(exc, NoCameraFrame):
        cause, message = "no-frame", f"no camera frame: {exc}"
    elif isinstance(exc, LaidOutRequestError):
        cause, message = "bad-request", str(exc)
    else:
        cause, message = "unusable", f"{type(exc).__name__}: {exc}"
    return {"state": "refused", "cause": cause, "message": message}
