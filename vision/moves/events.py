"""What the tracker reports: detected game events.

A :class:`DetectedEvent` has ``kind`` ``"play"`` (``placement``: an engine Placement, ``?`` for a blank not named
yet; ``phony``: words the lexicon rejects; ``pending_blanks``), ``"withdraw"`` (the last play taken back;
``placement`` = that play), ``"amend"`` (the last play recorded again as ``placement``, by the same player: it was
read short), ``"correct"`` (the tile on ``square`` is ``letter``, or ``.``: there is none, the square was read as
a tile; the play that put it there and the scores after it change), ``"pass"`` or ``"exchange"``.
``firmware/pipeline.record_event`` turns each into a game action.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilecam.engine.coords import square_name
from tilecam.engine.move import Placement


class TrackerError(ValueError):
    """Bad tracker configuration (an unknown commit policy, a board of the wrong size)."""


@dataclass(frozen=True, slots=True)
class DetectedEvent:
    """One thing the tracker saw happen (see the module doc for the kinds)."""

    kind: str
    placement: Placement | None = None
    t: float = 0.0
    player: int | None = None
    confidence: float = 1.0
    words: tuple[str, ...] = ()
    phony: tuple[str, ...] = ()
    pending_blanks: tuple[tuple[int, int], ...] = ()
    corrected: tuple[tuple[int, int, str, str], ...] = ()
    count: int = 0                 # tiles exchanged (an exchange; 0 = not known)
    note: str = ""
    square: tuple[int, int] | None = None   # a ``correct`` event: the committed tile read since as ``letter``
    letter: str = ""

    def __str__(self) -> str:
        if self.kind == "play" and self.placement is not None:
            extra = f" (phony? {', '.join(self.phony)})" if self.phony else ""
            return f"play {self.placement}{extra}"
        if self.kind == "withdraw" and self.placement is not None:
            return f"withdraw {self.placement}"
        if self.kind == "amend" and self.placement is not None:
            return f"amend the last play to {self.placement}"
        if self.kind == "correct" and self.square is not None:
            return f"correct {square_name(*self.square)} to {'bare' if self.letter == '.' else self.letter}"
        return self.kind
