"""The board's own context for each square: what a bare square of its kind looks like on *this* board.

The tile model reads each square beside a reference crop of the same size: the bare look of a square of the same
premium kind (plain, DL, TL, DW, TW, the centre star) on the same board, in the same light. "A tile is here" is then
judged against this board, not against every board the model was trained on. Two sources of that reference:

- ``references_from_board``: from the frame itself, with no calibration. For each premium kind, the squares that
  look most like their own kind and least like any other kind's squares (``bare_members``) are taken pixel by
  pixel at their median: a tile looks the same on every kind of square, a bare square like the others of its kind.
- ``references_from_empty_board``: from a photo of the empty board (``tilecam calibrate``): each square's own bare
  look, its own light and print included.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from tilecam.vision.colour import bgr_to_lab8
from tilecam.vision.median import distinct, median
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, MARGIN_PX

#: Largest share of a kind's squares whose median is that kind's bare look: a quarter of its squares, the most
#: likely bare first, so that a few tiles among the likeliest still fall outside the median.
REFERENCE_SHARE = 0.25
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


def face_colours(crops: np.ndarray) -> np.ndarray:
    """Each crop's face colour in 8-bit Lab (float): the per-channel middle value of its square away from its edges
    (every other pixel) — the tile's face or the bare square's colour, not the letter's or the print's strokes,
    which cover less of it."""
    a, b = CONTEXT_PX + TEXTURE_INSET, CONTEXT_PX + CELL_PX - TEXTURE_INSET
    return _middle_lab(crops[:, a:b:2, a:b:2].transpose(0, 3, 1, 2))


def square_faces(warped: np.ndarray, size: int = 15) -> np.ndarray:
    """``face_colours`` of every square of a rectified board (row-major), taken from the picture itself: the same
    values as ``face_colours(cut_cells(warped, size))`` without cutting the crops (the tracker's frames)."""
    grid = warped[MARGIN_PX:MARGIN_PX + size * CELL_PX, MARGIN_PX:MARGIN_PX + size * CELL_PX]
    a, b = TEXTURE_INSET, CELL_PX - TEXTURE_INSET
    cells = grid.reshape(size, CELL_PX, size, CELL_PX, -1)[:, a:b:2, :, a:b:2]
    return _middle_lab(cells.transpose(0, 2, 4, 1, 3).reshape(size * size, grid.shape[-1], -1))


def _middle_lab(inner: np.ndarray) -> np.ndarray:
    """The per-channel middle value of each square's pixels (``inner``: squares x channels x pixels…, BGR bytes) in
    8-bit Lab, float."""
    inner = np.ascontiguousarray(inner).reshape(inner.shape[0], inner.shape[1], -1)
    # bytes sorted by a radix sort (numpy's stable sort of 8-bit values): the same middle value as partitioning,
    # about twice as fast on a board's squares
    faces = np.sort(inner, axis=2, kind="stable")[:, :, inner.shape[2] // 2][None]
    return bgr_to_lab8(faces)[0].astype(np.float32)


def bare_members(crops: np.ndarray, kinds: np.ndarray) -> dict[int, np.ndarray]:
    """For each premium kind, its squares most likely bare, the likeliest first (at most ``REFERENCE_SHARE`` of them).

    A tile looks the same whatever square it lies on, so a tile on a square of one kind has a square of *another*
    kind as like it as any of its own kind (the tiles lying there); a bare square is more like another bare square
    of its own kind than like any square of another kind. Each square is scored by how much further its nearest
    square of another kind is than its nearest of its own (face colours, ``face_colours``), and the squares scoring
    above nought are taken, the highest first. Where no square of a kind scores above nought (its colour is another
    kind's: a board with premiums printed on the plain squares' colour), colour cannot tell, and the flattest
    squares are taken (a bare square is one colour; a tile carries a letter).

    The flattest alone was the rule before: on a board whose premiums are printed in words ("DOUBLE LETTER SCORE"),
    a tile with its one letter is flatter than the bare squares of its kind, and a dense game's tiles became the
    bare look of its premium kinds — the tiles there were then read bare (a white Hasbro board with wooden tiles).
    """
    colours = face_colours(crops)
    apart = np.sqrt(((colours[:, None] - colours[None]) ** 2).sum(axis=2))
    flat = None
    picks = {}
    for kind in distinct(kinds):
        members, others = np.flatnonzero(kinds == kind), np.flatnonzero(kinds != kind)
        keep = max(1, int(round(len(members) * REFERENCE_SHARE)))
        score = np.zeros(len(members))
        if len(members) > 1 and len(others):
            own = np.partition(apart[np.ix_(members, members)], 1, axis=1)[:, 1]     # [:, 0] is the square itself
            score = apart[np.ix_(members, others)].min(axis=1) - own
        if (score > 0).any():
            picks[int(kind)] = members[np.argsort(-score, kind="stable")[:min(keep, int((score > 0).sum()))]]
        else:
            flat = texture(crops) if flat is None else flat
            picks[int(kind)] = members[np.argsort(flat[members], kind="stable")[:keep]]
    return picks


def references_from_board(crops: np.ndarray, kinds: np.ndarray | None = None) -> np.ndarray:
    """One reference crop per square (same shape as ``crops``): the bare look of its kind on this board, the median
    of its ``bare_members``."""
    kinds = kind_of_square(round(len(crops) ** 0.5)) if kinds is None else kinds
    refs = np.empty_like(crops)
    for kind, bare in bare_members(crops, kinds).items():
        refs[kinds == kind] = median(crops[bare], axis=0).astype(crops.dtype)
    return refs


def references_from_empty_board(empty_crops: np.ndarray) -> np.ndarray:
    """The reference of each square from a photo of the empty board: the square's own crop there."""
    return np.asarray(empty_crops).copy()
