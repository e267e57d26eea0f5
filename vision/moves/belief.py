"""What the tracker believes lies on each square: read again only where the pixels changed since the last settle.

    reading + rectified image ──look──▶ Look: the new reading on the squares whose pixels changed, the settled
                                              belief on the others; a hand where covered squares touch
    a settled Look ──settle──▶ the belief and the reference picture for the next look

A square whose image did not change keeps what it was read as when the board last settled, whatever the reader says
of it now (a bare square read as covered in one frame stays bare), unless it was believed only doubtfully. A square that changed and reads as covered is
under a hand when enough such squares touch: the board is not settled. Fewer, scattered covered squares are the
reader's doubt: they keep their belief, and the board settles with them. Before the board first settles every square
is new, and a hand is what has moved from one frame to the next since the start: a glare spot read as covered that
lies still from the first frame keeps the board's belief (the committed board) and does not keep it from settling.

    each Look ──FirstChanges.note──▶ per square: when its pixels first changed with a tile on it since the board
                                     was last decided (which of two plays in one change went down first)
    a decided board ──BareLooks.note──▶ per square: its picture when a decided board last read it bare
    new squares ──BareLooks.still──▶ those whose picture is that bare look still (no tile was put down there)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tilecam.vision.connected import hand
from tilecam.vision.moves.change import Signature, changed_squares, signature, turned, with_squares
from tilecam.vision.moves.reading import EMPTY, OCCLUDED, Reading

DOUBTED = 0.9      # a square believed less surely than this is believed anew on every look, changed or not (a tile
                   # read doubtfully, or read empty, when the board settled gets another chance)


@dataclass(frozen=True, eq=False)
class Look:
    """One frame seen against the belief: ``reading`` (new where ``changed``, believed elsewhere; a hand's squares
    read ``#``), ``changed`` (n x n, as the reading: the pixels changed since the last settle; all before the
    first), ``hand`` (squares under a hand: not settled), ``kept`` (changed squares read as covered, not a hand:
    kept as believed)."""

    reading: Reading
    changed: np.ndarray
    hand: tuple[tuple[int, int], ...]
    kept: tuple[tuple[int, int], ...]
    signature: Signature
    lingering: tuple[tuple[int, int], ...] = ()     # of ``hand``: a few covered squares moving beside new tiles


class BoardMemory:
    """The settled belief and the picture it was seen in (see the module doc)."""

    def __init__(self) -> None:
        self.belief: Reading | None = None
        self.reference: Signature | None = None
        self.last_frame: Signature | None = None    # the picture of the frame looked at last
        self.moved: np.ndarray | None = None        # before a settle: squares that changed from a frame to the next

    def wanted(self, sig: Signature, doubted: bool = True) -> np.ndarray:
        """The squares a frame with signature ``sig`` must be read on (n x n, as ``sig``): those whose pixels changed
        since the last settle and (``doubted``) those believed only doubtfully (all before the first settle)."""
        if self.reference is None or self.belief is None:
            return np.ones((sig.size, sig.size), bool)
        changed = changed_squares(self.reference, sig)
        return changed | (self.belief.confidence < DOUBTED) if doubted else changed

    def look(self, reading: Reading, warped: np.ndarray, committed: Reading, sig: Signature | None = None) -> Look:
        """``reading`` of a frame whose rectified image is ``warped`` (its signature ``sig``, when already taken);
        ``committed``: the committed board as a reading in the same orientation, what a square is believed to hold
        before anything settled."""
        sig = signature(warped) if sig is None else sig
        n = reading.size
        changed = (np.ones((n, n), bool) if self.reference is None
                   else changed_squares(self.reference, sig))
        believed = self.belief or committed
        covered = np.array([[ch == OCCLUDED for ch in row] for row in reading.grid]) | reading.occluded
        # A bare square whose pixels changed but which still reads bare may have something over it that is no tile
        # (a hand hovering, part of its skin read as the board): joined to squares read as covered, it makes them a
        # hand where together they are ``connected.HAND_SQUARES`` (alone, it is the light or the board turned on
        # the table).
        bare_still = np.array([[a == EMPTY == b for a, b in zip(now, before)]
                               for now, before in zip(reading.grid, believed.grid)]) & (self.reference is not None)
        step = (changed_squares(self.last_frame, sig) if self.last_frame is not None
                and self.last_frame.size == sig.size else None)      # changed since the frame before (None: no such)
        self.last_frame = sig
        over = hand((covered | bare_still) & changed & self._moving(step, n), covered)
        # A hand leaving the play it has just made: a square or two still read covered, changed since the last frame,
        # beside a tile put down since the board settled. Too few to be a hand by their count, they are the hand at
        # the play: settling now would commit the play without the tile still under it (YAK as YA, then ..K as the
        # next player's). The tracker asks the capture loop for the next frame (``wants_another_read``): a hand has
        # gone by then, and a covered square lying still (glare beside a new tile) no longer holds the board.
        placed = np.array([[a not in (EMPTY, OCCLUDED) and b == EMPTY for a, b in zip(now, before)]
                           for now, before in zip(reading.grid, believed.grid)]) & changed & ~covered
        lingering = covered & changed & (True if step is None else step) & ~over & _beside(placed)
        over = over | lingering
        kept = covered & changed & ~over
        mixed = _mix(reading, believed, (changed & ~kept) | (~covered & (believed.confidence < DOUBTED)))
        return Look(_covered_by(mixed, over), changed, _squares(over), _squares(kept), sig, _squares(lingering))

    def _moving(self, step: np.ndarray | None, n: int) -> np.ndarray:
        """Where a hand may be on a board of ``n`` squares a side, ``step`` the squares changed since the frame
        before (None: no frame before): after a settle, every square (what changed since is judged by ``look``);
        before one — nothing to see change against, every square new — the squares whose pixels changed from one
        frame to the next since the tracker began (or forgot). Something lying still over the board since the first
        frame (a glare spot the reader reads as covered) is then no hand, and the board can settle: a hand is new and
        moving, and one that came after the first frame has moved."""
        if self.reference is not None:
            self.moved = None
            return np.ones((n, n), bool)
        if step is not None:
            self.moved = step if self.moved is None else self.moved | step
        return np.zeros((n, n), bool) if self.moved is None else self.moved

    def settle(self, look: Look) -> None:
        """The board settled as ``look`` shows it: its reading is the belief, its picture the reference."""
        self.belief, self.reference = look.reading, look.signature

    def doubt(self, squares: np.ndarray) -> None:
        """The belief in ``squares`` (n x n booleans) is doubted: the next look reads them again and believes
        what it reads there, changed in pixels or not."""
        b = self.belief
        if b is not None and b.size == squares.shape[0]:
            self.belief = Reading(b.grid, np.where(squares, 0.0, b.confidence), b.occluded, b.alternatives)

    def forget(self) -> None:
        """Nothing is believed any more (the board moved on the table: squares no longer line up)."""
        self.belief = self.reference = self.moved = self.last_frame = None


class FirstChanges:
    """When each square free on the committed board first changed in pixels with a tile read on it (not under a
    hand) since the tracker last decided what the board shows: the evidence of which of two plays made in one
    change went down first (:func:`~tilecam.vision.moves.order.seen_order`). Cheap: each look already knows
    which squares changed. Times are the frames' (seconds); a square under a hand is first seen when it leaves."""

    def __init__(self) -> None:
        self._at: np.ndarray | None = None      # (n, n) seconds, in the camera's orientation; NaN: not since

    def note(self, look: Look, committed: Reading, t: float) -> None:
        """The squares that changed in ``look`` (a frame at ``t``), free in ``committed`` (the committed board in
        the same orientation) and read as a tile, seen for the first time since the last :meth:`forget`."""
        n = look.reading.size
        if self._at is None or self._at.shape != (n, n):
            self._at = np.full((n, n), np.nan)
        labels = np.array([list(row) for row in look.reading.grid])
        free = np.array([list(row) for row in committed.grid]) == EMPTY
        covered = look.reading.occluded.copy()
        for r, c in look.kept:                  # read as covered and kept as believed: not seen now
            covered[r, c] = True
        tile = (labels != EMPTY) & (labels != OCCLUDED) & ~covered
        self._at[look.changed & free & tile & np.isnan(self._at)] = t

    def squares(self, rotation: int = 0) -> dict[tuple[int, int], float]:
        """Square -> the seconds it first changed, in the board's orientation (the camera's turned ``rotation``
        quarter turns counter-clockwise, as ``Reading.rotated``)."""
        if self._at is None:
            return {}
        at = np.rot90(self._at, rotation)
        return {(int(r), int(c)): float(at[r, c]) for r, c in np.argwhere(~np.isnan(at))}

    def forget(self) -> None:
        """The board was decided (or turned on the table): changes count from the next frame."""
        self._at = None


class BareLooks:
    """Each square's picture (``change.Signature``) when a decided board last read it bare, in the picture as the
    reader turns it (``reader_turn``: it learns row 1 from the first letters, after the empty board was decided).
    A tile put down changes its square's picture (``change.changed_squares``: a blank on a square of its own colour
    by its edges), so a new square read as a tile whose picture is still its bare look is still bare: a lamp's glare
    lying still, read as a tile on and off, or a doubtful square read again. (A tile read but left out when its
    board was decided — a word still going down — changed since it was last bare.)"""

    def __init__(self) -> None:
        self._picture: Signature | None = None
        self._seen: np.ndarray | None = None        # the squares it holds a bare look of
        self._turn = 0

    def note(self, picture: Signature, bare: np.ndarray, reader_turn: int) -> None:
        """A decided board's ``picture``, ``bare`` (n x n, the picture's squares) the squares it read bare."""
        self._in_turn(reader_turn)
        if self._seen is None or self._seen.shape != bare.shape:
            self._picture, self._seen = None, np.zeros_like(bare)
        self._picture = with_squares(self._picture, picture, bare)
        self._seen |= bare

    def still(self, picture: Signature, free: np.ndarray, reader_turn: int) -> np.ndarray:
        """Per square of ``picture`` (n x n): free on the committed board (``free``) and its picture its bare look.
        Only the free squares are compared: the others as they are now, so that the tiles put down since neither
        move the light's estimate nor the noise floor's (``changed_squares``)."""
        self._in_turn(reader_turn)
        if self._picture is None or self._seen is None or self._picture.size != picture.size:
            return np.zeros((picture.size, picture.size), bool)
        free = free & self._seen
        return ~changed_squares(with_squares(self._picture, picture, ~free), picture) & free

    def forget(self) -> None:
        """No bare look is known any more (the board was turned on the table; the game changed from outside)."""
        self._picture = self._seen = None

    def _in_turn(self, reader_turn: int) -> None:
        k = reader_turn - self._turn
        if k % 4 and self._picture is not None and self._seen is not None:
            self._picture, self._seen = turned(self._picture, k), np.rot90(self._seen, k)
        self._turn = reader_turn


def _covered_by(reading: Reading, hand: np.ndarray) -> Reading:
    """``reading`` with the squares under a hand read as covered (the tracker does not settle on a covered board)."""
    if not hand.any():
        return reading
    grid = tuple("".join(OCCLUDED if hand[r, c] else ch for c, ch in enumerate(row))
                 for r, row in enumerate(reading.grid))
    return Reading(grid, reading.confidence, reading.occluded | hand, reading.alternatives)


def _beside(mask: np.ndarray) -> np.ndarray:
    """The squares touching one of ``mask``'s (diagonals count), ``mask``'s own included."""
    return cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)


def _squares(mask: np.ndarray) -> tuple[tuple[int, int], ...]:
    return tuple((int(r), int(c)) for r, c in np.argwhere(mask))


def _mix(new: Reading, old: Reading, take: np.ndarray) -> Reading:
    """``new`` on the squares in ``take``, ``old`` on the others."""
    n = new.size
    grid = tuple("".join(new.grid[r][c] if take[r, c] else old.grid[r][c] for c in range(n)) for r in range(n))
    alts = {rc: v for rc, v in new.alternatives.items() if take[rc]}
    alts.update({rc: v for rc, v in old.alternatives.items() if not take[rc]})
    return Reading(grid, np.where(take, new.confidence, old.confidence), new.occluded & take, alts)
