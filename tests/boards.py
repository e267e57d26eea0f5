"""Boards for tests: the empty board's rows and rows with words laid on it."""

from __future__ import annotations

from tilecam.engine.board import Board
from tilecam.engine.move import Placement

EMPTY = ["." * 15] * 15


def rows_with(*words: tuple[str, str], base: list[str] | None = None) -> list[str]:
    """The rows of ``base`` (the empty board) with each (GCG position, word) laid on it (a ``.`` in the word leaves
    its square)."""
    grid = [list(r) for r in (base or EMPTY)]
    for coord, word in words:
        for r, c, t in Placement.from_gcg(coord, word).squares():
            if t is not None:
                grid[r][c] = str(t)
    return ["".join(r) for r in grid]


def committed(*plays: tuple[str, str]) -> tuple[Board, Placement]:
    """A board with these plays (GCG position, word) made in turn; the last one's placement."""
    board, last = Board(), None
    for coord, word in plays:
        last = Placement.from_gcg(coord, word)
        for r, c, t in last.new_tiles():
            board[r, c] = t
    return board, last
