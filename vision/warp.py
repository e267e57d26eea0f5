"""The canonical rectified board and its 225 cell crops (441 on Super Scrabble's 21x21 board: every function takes
the board's ``size``, 15 by default; a crop is the same pixels whatever the size, so one model reads both).

Training (``tilecam.models``) and inference (``tilecam.vision``) both go through these two functions, so the crops a
model is trained on are cut exactly as the crops it reads.

The rectified board is a square image: the playing grid occupies ``CELL_PX`` pixels a square, with ``MARGIN_PX`` of
the surroundings kept on every side so that a crop of an edge cell has context too.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL_PX = 32            # one square of the playing grid in the rectified board
MARGIN_PX = 16          # surroundings kept around the grid
CONTEXT_PX = 4          # each crop reaches this far into the neighbouring squares
CROP_PX = CELL_PX + 2 * CONTEXT_PX

#: The grid's corners in image pixels are given in this order everywhere in tilecam.
CORNER_ORDER = ("top-left", "top-right", "bottom-right", "bottom-left")


def board_px(size: int = 15) -> int:
    """Side of the rectified board image for a ``size`` x ``size`` grid."""
    return size * CELL_PX + 2 * MARGIN_PX


def grid_corners_rectified(size: int = 15) -> np.ndarray:
    """Where the grid's four corners land in the rectified board, in ``CORNER_ORDER``."""
    lo, hi = MARGIN_PX, MARGIN_PX + size * CELL_PX
    return np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], dtype=np.float32)


def homography_to_rectified(corners: np.ndarray, size: int = 15) -> np.ndarray:
    """The 3x3 homography taking image pixels to rectified-board pixels, from the grid's corners in the image."""
    src = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    return cv2.getPerspectiveTransform(src, grid_corners_rectified(size))


def warp_board(image: np.ndarray, corners: np.ndarray, size: int = 15) -> np.ndarray:
    """Rectify ``image`` so that the grid with these corners (image pixels, ``CORNER_ORDER``) is axis-aligned."""
    side = board_px(size)
    h = homography_to_rectified(corners, size)
    return cv2.warpPerspective(image, h, (side, side), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def cut_cell(warped: np.ndarray, row: int, col: int, dy: int = 0, dx: int = 0) -> np.ndarray:
    """One square's crop as ``cut_cells`` cuts it, moved ``dy``/``dx`` pixels (at most ``CONTEXT_PX``)."""
    y0 = MARGIN_PX + row * CELL_PX - CONTEXT_PX + dy
    x0 = MARGIN_PX + col * CELL_PX - CONTEXT_PX + dx
    return warped[y0:y0 + CROP_PX, x0:x0 + CROP_PX]


def cut_cells(warped: np.ndarray, size: int = 15) -> np.ndarray:
    """The ``size*size`` crops of a rectified board, row-major, each ``CROP_PX`` square with ``CONTEXT_PX`` of context.

    Returns an array of shape ``(size*size, CROP_PX, CROP_PX, channels)`` (a view-free copy, dtype of ``warped``).
    """
    if warped.shape[0] != board_px(size) or warped.shape[1] != board_px(size):
        raise ValueError(f"expected a rectified board of {board_px(size)} px, got {warped.shape[:2]}")
    out = np.empty((size * size, CROP_PX, CROP_PX) + warped.shape[2:], dtype=warped.dtype)
    for r in range(size):
        for c in range(size):
            out[r * size + c] = cut_cell(warped, r, c)
    return out
