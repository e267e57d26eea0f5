"""A board turned on the table (a turntable board, a quarter or half turn between turns) told from its reading.

    committed board + the settled board read in each of its four turns ──board_turn──▶ BoardTurn (0 = not turned)

The camera is fixed and the board turns under it, so a settled reading taken the old way round shows the committed
tiles on other squares, their letters lying sideways or upside down (read poorly, even as bare squares). Read again
turned the right way, the committed letters are back on their squares and read surely. Which turn it is, is told
from the letters, not only from which squares hold tiles: a centred word turned a half turn covers the same squares.
The turns are quarter turns counter-clockwise, as ``np.rot90`` and :meth:`Reading.rotated` turn a board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tilecam.vision.moves.reading import EMPTY, OCCLUDED, Reading

#: A turn is taken when the board read that way gives the committed tiles' labels a mean log-probability this many
#: nats above the board read as it is: each committed letter, on average, e² ≈ 7 times more probable turned than in
#: place. A settled board of the game goes on (a play, a withdrawal, a misread letter or two) leaves most committed
#: letters read where they were and scores a turn far below; a turned board scores its true turn near 0 and its
#: reading in place near ``log(FLOOR)`` on every letter that moved.
TURNED_EVIDENCE = 2.0
#: The probability given to a label the reading left out (a reader keeps only its few best labels): a letter read
#: as nothing like it counts as this, so that one tile cannot outweigh all the others.
FLOOR = 1e-4
#: Committed tiles needed before a turn is looked for (a first word of two letters is enough to tell one).
MIN_TILES = 2

#: Each turn as the players saw it, from above: a reading that a counter-clockwise quarter turn brings back was
#: taken of a board turned a quarter clockwise.
TURN_NAMES = ("not turned", "a quarter turn clockwise", "a half turn", "a quarter turn anticlockwise")


@dataclass(frozen=True, slots=True)
class BoardTurn:
    """What the settled board says of its turn: ``turn`` quarter turns (counter-clockwise, as ``np.rot90``) bring
    the reading back onto the committed board (0: not turned); ``fits``: per turn 0-3, the mean log-probability the
    board read so turned gives the committed tiles' labels; ``tiles``: committed tiles they were judged on."""

    turn: int
    fits: tuple[float, ...]
    tiles: int

    @property
    def turned(self) -> bool:
        return self.turn != 0

    def describe(self) -> str:
        """How the board was turned, as the players saw it (``TURN_NAMES``): ``a quarter turn clockwise`` …"""
        return TURN_NAMES[self.turn]


class TurnError(ValueError):
    """Readings that cannot be matched against the committed board (wrong shape, a missing turn)."""


def committed_squares(committed: Sequence[str]) -> list[tuple[int, int, str]]:
    """The committed board's tiles as ``(row, col, label)`` (``?`` a blank, named or not)."""
    return [(r, c, ch) for r, row in enumerate(committed) for c, ch in enumerate(row) if ch not in (EMPTY, OCCLUDED)]


def fit(committed: Sequence[str], probs: np.ndarray, classes: Sequence[str]) -> float:
    """How well a reading explains the committed tiles: the mean over them of the log of the probability the
    reading (``probs``: n x n x classes, columns named by ``classes``) gives each its committed label, at least
    ``FLOOR``. 0: every committed letter read surely where it lies; ``log(FLOOR)``: none of them."""
    tiles = committed_squares(committed)
    n = len(committed)
    if probs.shape[:2] != (n, n) or probs.shape[2] != len(classes):
        raise TurnError(f"probabilities of shape {probs.shape} for a {n}x{n} board and {len(classes)} classes")
    if not tiles:
        return 0.0
    column = {label: i for i, label in enumerate(classes)}
    p = [probs[r, c, column[label]] if label in column else 0.0 for r, c, label in tiles]
    return float(np.mean(np.log(np.maximum(p, FLOOR))))


def board_turn(committed: Sequence[str], turned: Sequence[np.ndarray], classes: Sequence[str]) -> BoardTurn:
    """The turn of the board: ``turned[k]`` are the class probabilities (n x n x classes) of the settled board read
    turned ``k`` quarter turns from the way it is read now (``turned[0]``: as read now). The best of turns 1-3 is
    taken when it beats the board as read now by ``TURNED_EVIDENCE`` (see there); otherwise 0. Fewer than
    ``MIN_TILES`` committed tiles tell nothing: 0."""
    if len(turned) != 4:
        raise TurnError(f"the board read in its four turns, got {len(turned)} readings")
    tiles = len(committed_squares(committed))
    if tiles < MIN_TILES:
        return BoardTurn(0, (0.0,) * 4, tiles)
    fits = tuple(fit(committed, p, classes) for p in turned)
    best = max((1, 2, 3), key=lambda k: fits[k])
    turn = best if fits[best] >= fits[0] + TURNED_EVIDENCE else 0
    return BoardTurn(turn, fits, tiles)


def could_be_turned(committed: Sequence[str], probs: np.ndarray, classes: Sequence[str]) -> bool:
    """Whether a turn could beat the board as read now (``probs``): not when the committed tiles already read within
    ``TURNED_EVIDENCE`` of sure, as no turn can do better than sure. The cheap check before the board is read in
    its other three turns."""
    return len(committed_squares(committed)) >= MIN_TILES and fit(committed, probs, classes) < -TURNED_EVIDENCE


def committed_labels(committed: Sequence[str]) -> tuple[str, ...]:
    """The labels the committed tiles carry, each once (the classes a fit needs)."""
    return tuple(sorted({label for _, _, label in committed_squares(committed)}))


def probabilities_of(reading: Reading, classes: Sequence[str]) -> np.ndarray:
    """A :class:`Reading` as class probabilities (n x n x classes): each square's options (its label and the
    model's alternatives), 0 for a class it does not list."""
    n = reading.size
    column = {label: i for i, label in enumerate(classes)}
    probs = np.zeros((n, n, len(classes)))
    for r in range(n):
        for c in range(n):
            for label, p in reading.options(r, c):
                if label in column:
                    probs[r, c, column[label]] += p
    return probs
