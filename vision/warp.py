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

#: A photo with at least this many image pixels for each pixel of the rectified board is halved (``cv2.pyrDown``: a
#: Gaussian blur, then every other pixel) before the warp, again while it still has as many. OpenCV's perspective warp
#: samples bilinearly whatever it is asked (it has no area interpolation), so a board photographed at 130 px a square
#: and read at ``CELL_PX`` would otherwise fold its print and the wood's grain into speckle; halved to between one and
#: two pixels for each, bilinear sampling loses nothing a square's crop shows.
HALVE_FROM = 2.0
#: Pixels of the photo kept around what the rectified board shows when it is cut out to be halved, per halving: the
#: blur's reach (``pyrDown``'s 5-tap kernel) and the bilinear warp's.
HALVE_PAD = 4

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


def square_px(corners: np.ndarray, grid_size: int = 15) -> float:
    """A square's mean width in pixels on a grid with these ``corners`` (its four edges' mean length / squares)."""
    edges = np.roll(corners, -1, axis=0) - corners
    return float(np.linalg.norm(edges, axis=1).mean() / grid_size)


def halvings(corners: np.ndarray, size: int = 15) -> int:
    """How many times ``warp_board`` halves a photo with this grid before warping it (``HALVE_FROM``): the image
    pixels a square spends on each of the rectified board's ``CELL_PX``."""
    scale, n = square_px(np.asarray(corners).reshape(4, 2), size) / CELL_PX, 0
    while scale >= HALVE_FROM:
        scale, n = scale / 2, n + 1
    return n


def _board_region(image: np.ndarray, corners: np.ndarray, size: int, pad: int) -> tuple[int, int, int, int]:
    """The part of ``image`` (x0, y0, x1, y1) the rectified board shows, ``pad`` pixels wider, within the image."""
    h, w = image.shape[:2]
    side = board_px(size)
    edge = np.float32([[[0, 0], [side, 0], [side, side], [0, side]]])
    seen = cv2.perspectiveTransform(edge, np.linalg.inv(homography_to_rectified(corners, size)))[0]
    if not np.isfinite(seen).all():         # the margin reaches past the horizon: keep the whole photo
        return 0, 0, w, h
    x0, y0 = np.floor(seen.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(seen.max(axis=0)).astype(int) + pad
    return max(0, x0), max(0, y0), min(w, max(x1, 1)), min(h, max(y1, 1))


def warp_board(image: np.ndarray, corners: np.ndarray, size: int = 15) -> np.ndarray:
    """Rectify ``image`` so that the grid with these corners (image pixels, ``CORNER_ORDER``) is axis-aligned.

    A photo of many pixels a square is halved first (``HALVE_FROM``), only the part the rectified board shows."""
    side = board_px(size)
    image, corners = _halved(image, corners, size)
    h = homography_to_rectified(corners, size)
    return cv2.warpPerspective(image, h, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _halved(image: np.ndarray, corners: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``image`` the rectified board shows, halved as ``warp_board`` halves it, and the grid's corners
    in it; the image and corners as they are where no halving is due."""
    corners = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    n = halvings(corners, size)
    if n:
        x0, y0, x1, y1 = _board_region(image, corners, size, HALVE_PAD * 2 ** n)
        # cut on a multiple of the halving's step: the pixels kept are halved as the whole photo's would be
        x0, y0 = x0 - x0 % 2 ** n, y0 - y0 % 2 ** n
        if x1 > x0 and y1 > y0:
            image, corners = image[y0:y1, x0:x1], corners - np.float32([x0, y0])
        for _ in range(n):
            image = cv2.pyrDown(image)
            corners = (corners + 0.5) / 2 - 0.5        # pixel centres: pixel 2k and 2k+1 become k
    return image, corners


#: Up to this many squares, ``cells_of`` warps each crop alone: a crop is 1/164 of the rectified board's pixels, but
#: each warp has its own set-up (about a tenth of a millisecond), so past a few dozen squares one warp of the whole
#: board is cheaper.
CROP_BY_CROP_UP_TO = 24


def cells_of(image: np.ndarray, corners: np.ndarray, squares, size: int = 15) -> np.ndarray:
    """The crops ``cut_cells(warp_board(image, corners, size))`` holds for ``squares`` (row-major indices), in that
    order: each crop warped alone where there are few (``CROP_BY_CROP_UP_TO``) — the tracker's squares that changed —,
    else cut from the whole rectified board."""
    squares = [int(i) for i in squares]
    if len(squares) > CROP_BY_CROP_UP_TO:
        warped = warp_board(image, corners, size)
        return np.stack([cut_cell(warped, i // size, i % size) for i in squares])
    image, corners = _halved(image, corners, size)
    h = homography_to_rectified(corners, size)
    crops = np.empty((len(squares), CROP_PX, CROP_PX) + image.shape[2:], image.dtype)
    for k, i in enumerate(squares):
        y0, x0 = _crop_origin(i // size, i % size)
        shift = np.float64([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]])
        crops[k] = cv2.warpPerspective(image, shift @ h, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
    return crops


def cut_cell(warped: np.ndarray, row: int, col: int, dy: int = 0, dx: int = 0) -> np.ndarray:
    """One square's crop as ``cut_cells`` cuts it, moved ``dy``/``dx`` pixels (at most ``CONTEXT_PX``)."""
    y0, x0 = _crop_origin(row, col)
    return warped[y0 + dy:y0 + dy + CROP_PX, x0 + dx:x0 + dx + CROP_PX]


def _crop_origin(row: int, col: int) -> tuple[int, int]:
    """Where a square's crop starts in the rectified board (y, x): ``CONTEXT_PX`` before the square."""
    return MARGIN_PX + row * CELL_PX - CONTEXT_PX, MARGIN_PX + col * CELL_PX - CONTEXT_PX


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
