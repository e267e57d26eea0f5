"""The board's own context for each square: what a bare square of its kind looks like on *this* board.

The tile model reads each square beside a reference crop of the same size: the bare look of a square of the same
premium kind (plain, DL, TL, DW, TW, the centre star) on the same board, in the same light. "A tile is here" is then
judged against this board, not against every board the model was trained on. Two sources of that reference:

- ``references_from_board``: from the frame itself, with no calibration. For each premium kind, the flattest
  squares of that kind (a bare square is one colour; a tile carries a letter) are taken pixel by pixel at their
  median. On a board half covered with tiles the flattest quarter of each kind is still bare.
- ``references_from_empty_board``: from a photo of the empty board (``tilecam calibrate``): each square's own bare
  look, its own light and print included.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tilecam.vision.median import distinct, median
from tilecam.vision.warp import CELL_PX, CONTEXT_PX

#: Share of a kind's squares, the flattest first, whose median is that kind's bare look: under a quarter of the
#: squares of any kind are ever tiles on a board of a real game's density, counted on the shared real photos.
FLATTEST_SHARE = 0.25
#: The texture of a square is measured this many pixels in from its edges (grid lines and neighbours stay out).
TEXTURE_INSET = 6


@lru_cache(maxsize=4)
def kind_of_square(size: int = 15) -> np.ndarray:
    """Each square's premium kind as a small integer (row-major): one per distinct premium in the layout. The
    centre star is counted with its premium (a double word): as a kind of its own, the first word's tile on it
    would be its own reference."""
    from tilecam.engine.layout import Layout

    layout = Layout.load("standard15" if size == 15 else "super21")
    if layout.size != size:
        raise ValueError(f"no board layout of {size} x {size}")
    names = [[layout.premium(r, c) or "" for c in range(size)] for r in range(size)]
    kinds = sorted({n for row in names for n in row})
    return np.array([kinds.index(n) for row in names for n in row], np.int32)


def texture(crops: np.ndarray) -> np.ndarray:
    """How much each crop's square varies inside (the grey level's standard deviation away from its edges)."""
    a, b = CONTEXT_PX + TEXTURE_INSET, CONTEXT_PX + CELL_PX - TEXTURE_INSET
    inner = crops[:, a:b, a:b].astype(np.float32).mean(axis=3)
    return inner.reshape(len(crops), -1).std(axis=1)


def references_from_board(crops: np.ndarray, kinds: np.ndarray | None = None) -> np.ndarray:
    """One reference crop per square (same shape as ``crops``): the bare look of its kind on this board."""
    kinds = kind_of_square(round(len(crops) ** 0.5)) if kinds is None else kinds
    flat = texture(crops)
    refs = np.empty_like(crops)
    for kind in distinct(kinds):
        members = np.flatnonzero(kinds == kind)
        keep = max(1, int(round(len(members) * FLATTEST_SHARE)))
        flattest = members[np.argsort(flat[members], kind="stable")[:keep]]
        refs[members] = median(crops[flattest], axis=0).astype(crops.dtype)
    return refs


def references_from_empty_board(empty_crops: np.ndarray) -> np.ndarray:
    """The reference of each square from a photo of the empty board: the square's own crop there."""
    return np.asarray(empty_crops).copy()
