"""Which squares changed in pixels since the board last settled, whatever the light did meanwhile.

    rectified board ──signature──▶ per square: colour (log of the mean, per channel) and pattern (the gray crop,
                                   blurred, its mean taken out)
    two signatures ──changed_squares──▶ 15 x 15 booleans (21 x 21 on a Super Scrabble board)

The light over a board changes slowly across it (a lamp switched on, the daylight, a broad shadow), so it is
estimated per square as the median colour change of the squares around it and divided out: a square changed when its
own colour moved away from its neighbourhood's, or when its pattern (a letter, a tile's edge) changed beyond what a
pixel of misregistration does. A tile put down or taken away changes both; a lamp that brightens the whole board
changes neither. A hard shadow's edge does change the squares it crosses, and so does a light that drives a tile
to white (the camera's limit): they are only read again.

>>> import numpy as np
>>> board = np.full((512, 512, 3), 90, np.uint8)
>>> tile = board.copy(); tile[16 + 7 * 32:16 + 8 * 32, 16 + 7 * 32:16 + 8 * 32] = 220
>>> lamp = (board * 1.4).astype(np.uint8)
>>> [tuple(map(int, rc)) for rc in np.argwhere(changed_squares(signature(board), signature(tile)))]
[(7, 7)]
>>> bool(changed_squares(signature(board), signature(lamp)).any())
False
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from tilecam.vision.median import median

CELL = 16             # pixels a square is compared at: half the reader's 32, enough for a letter's strokes
BLUR_SIGMA = 1.0      # pixels (at CELL): a pattern moved by a pixel of misregistration stays the same pattern
LIGHT_WINDOW = 5      # squares a side of the neighbourhood whose median colour change is the light's change
COLOUR_CHANGE = 0.15  # log units (about 16 %) a square's colour moves from its neighbourhood's to count as changed
PATTERN_LEVELS = 4.0   # gray levels (RMS) a square's pattern must change by, at least (a camera's noise, blurred) …
NOISE_TIMES = 4.0      # … and this many times the board's typical square's change (noise and misregistration lift
                       # them all; most squares of a board do not change between two settles) …
PATTERN_SHARE = 0.5    # … and this share of the stronger of its two patterns (a letter's strokes jitter more).
                       # A bare blank put on a square of its own colour changes its pattern by ~9 levels (its edges)
EPSILON = 1.0          # gray levels added before the log: a black square is not infinitely dark


@dataclass(frozen=True, eq=False)
class Signature:
    """What a board looked like, square by square: ``colour`` (n, n, 3) log mean per channel; ``pattern``
    (n, n, CELL, CELL) gray, blurred square by square, mean removed; ``spread`` (n, n) the pattern's RMS; n the
    board's squares a side (15, or 21 on a Super Scrabble board)."""

    colour: np.ndarray
    pattern: np.ndarray
    spread: np.ndarray

    @property
    def size(self) -> int:
        """Squares a side of the board it is the signature of."""
        return self.colour.shape[0]


def signature(warped: np.ndarray, margin: int | None = None, size: int | None = None) -> Signature:
    """The signature of a rectified board image (``tilecam.vision.warp``'s layout: the grid inside ``margin``).
    ``size``: the board's squares a side; None: told from the image (``warp.CELL_PX`` pixels a square, so a
    rectified 21x21 board gives a 21x21 signature)."""
    from tilecam.vision.warp import CELL_PX, MARGIN_PX

    margin = MARGIN_PX if margin is None else margin
    grid = warped[margin:warped.shape[0] - margin, margin:warped.shape[1] - margin]
    n = max(1, round(grid.shape[0] / CELL_PX)) if size is None else size
    small = cv2.resize(grid, (n * CELL, n * CELL), interpolation=cv2.INTER_AREA).astype(np.float32)
    if small.ndim == 2:
        small = np.repeat(small[:, :, None], 3, axis=2)
    colour = np.log(cv2.resize(small, (n, n), interpolation=cv2.INTER_AREA) + EPSILON)   # block means
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).reshape(n, CELL, n, CELL).transpose(0, 2, 1, 3)
    pattern = _blur_each(gray)
    pattern = pattern - pattern.mean(axis=(2, 3), keepdims=True)
    spread = np.sqrt((pattern ** 2).mean(axis=(2, 3)))
    return Signature(colour, pattern, spread)


def _blur_matrix() -> np.ndarray:
    """The (CELL, CELL) matrix of the 1-D Gaussian ``cv2.GaussianBlur`` uses for ``BLUR_SIGMA``, with its mirrored
    border: ``M @ v`` blurs a column of one square."""
    kernel = cv2.getGaussianKernel(int(round(BLUR_SIGMA * 8 + 1)) | 1, BLUR_SIGMA).ravel()
    half = len(kernel) // 2
    padded = np.pad(np.eye(CELL), ((half, half), (0, 0)), mode="reflect")
    return sum(k * padded[i:i + CELL] for i, k in enumerate(kernel)).astype(np.float32)


_BLUR = _blur_matrix()


def _blur_each(cells: np.ndarray) -> np.ndarray:
    """Each square (..., CELL, CELL) blurred on its own, a neighbour's new tile not bleeding into it (rows, then
    columns, all squares in one product)."""
    return _BLUR @ cells @ _BLUR.T


def light_change(before: Signature, after: Signature) -> np.ndarray:
    """The light's change over each square (n, n, 3; log units): the median colour change around it."""
    delta = (after.colour - before.colour).astype(np.float32)
    return cv2.medianBlur(np.ascontiguousarray(delta), LIGHT_WINDOW)


def with_squares(base: Signature | None, now: Signature, take: np.ndarray) -> Signature:
    """``base`` with the squares ``take`` (n x n booleans) as ``now`` shows them (``now`` itself where ``base`` is
    None or of another size): each square's look as last seen in some state (the tracker: bare, when decided)."""
    if base is None or base.size != now.size:
        return now
    colour, pattern, spread = base.colour.copy(), base.pattern.copy(), base.spread.copy()
    colour[take], pattern[take], spread[take] = now.colour[take], now.pattern[take], now.spread[take]
    return Signature(colour, pattern, spread)


def turned(sig: Signature, quarter_turns: int) -> Signature:
    """``sig`` of the board's picture turned ``quarter_turns`` counter-clockwise (as ``np.rot90``): the squares and
    each square's pattern turned alike (a reader that learnt which edge is row 1 turns its rectified picture so)."""
    k = quarter_turns % 4
    if not k:
        return sig
    return Signature(np.ascontiguousarray(np.rot90(sig.colour, k)),
                     np.ascontiguousarray(np.rot90(np.rot90(sig.pattern, k, axes=(0, 1)), k, axes=(2, 3))),
                     np.ascontiguousarray(np.rot90(sig.spread, k)))


def changed_squares(before: Signature, after: Signature) -> np.ndarray:
    """Per square: did its content change between the two signatures (see the module doc)?"""
    light = light_change(before, after)
    colour = np.abs(after.colour - before.colour - light).max(axis=2) > COLOUR_CHANGE
    gain = np.exp(light.mean(axis=2))[:, :, None, None]            # the gray pattern scales with the light
    diff = np.sqrt(((after.pattern - before.pattern * gain) ** 2).mean(axis=(2, 3)))
    stronger = np.maximum(after.spread, before.spread * gain[:, :, 0, 0])
    floor = max(PATTERN_LEVELS, NOISE_TIMES * float(median(diff)))
    pattern = diff > np.maximum(floor, PATTERN_SHARE * stronger)
    return colour | pattern
