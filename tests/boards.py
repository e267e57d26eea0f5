"""Boards for tests: the empty board's rows and rows with words laid on it."""

from __future__ import annotations

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
