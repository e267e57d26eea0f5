"""A grid found far off (more than a square), put right by the board's premium squares.

The lattice fit inside the board's outline can be off by a few squares where the outline is not the board's (a
white board on a white table, an arm across it): too far for the line-by-line refinement and for the premium
finder, which both look near where the grid puts things. Here the picture around the grid is rectified with a
margin of ``REACH`` squares, and every grid whose edges lie up to that far in or out of the ones found is scored
by how well the squares' colours follow the layout: the squares of each premium kind alike, the kinds apart
(a Fisher ratio). Only a candidate the caller then confirms (refined, with the premium squares on their cells)
should replace the grid found.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from tilecam.vision.colour import bgr_to_lab8
from tilecam.vision.median import distinct

#: Squares the edges may move in or out: an outline much larger than the board (the whole frame, or the board
#: merged with a bag or a score sheet touching it) leaves the lattice found in it up to 4.5 squares off.
REACH = 5
CELL = 8            # px a square in the rectified picture searched


def _candidates(around: np.ndarray, offsets: np.ndarray, size: int) -> np.ndarray:
    """(left, top, right, bottom) edges, in squares of the grid found, of every grid whose edges are those of
    ``around`` moved by the given ``offsets``, and which is within ``REACH`` squares of ``size`` wide and high."""
    out = np.array(list(itertools.product(offsets, repeat=4)), np.float32) + around
    span = out[:, 2:] - out[:, :2]
    return out[((span >= size - REACH) & (span <= size + REACH)).all(axis=1)]


def _scores(lab: np.ndarray, edges: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Fisher ratio of the layout's kinds over the squares' colours, for each candidate grid (``edges`` in squares
    of the grid found, the rectified picture starting ``REACH`` squares before it)."""
    size = kinds.shape[0]
    centre = (np.arange(size, dtype=np.float32) + 0.5) / size
    xs = edges[:, 0:1] + (edges[:, 2:3] - edges[:, 0:1]) * centre          # (n, size) column centres
    ys = edges[:, 1:2] + (edges[:, 3:4] - edges[:, 1:2]) * centre
    px = np.clip(np.rint((xs + REACH) * CELL).astype(np.intp), 0, lab.shape[1] - 1)
    py = np.clip(np.rint((ys + REACH) * CELL).astype(np.intp), 0, lab.shape[0] - 1)
    # In float64: the sums of squares below are differences of large sums, which float32 would round off.
    colours = lab.astype(np.float64)[py[:, :, None], px[:, None, :]].reshape(len(edges), size * size, 3)
    member = np.stack([(kinds == k).reshape(-1) for k in distinct(kinds)]).astype(np.float64)   # (kinds, squares)
    counts = member.sum(axis=1)
    # The spread of the colours about their mean splits into between the kinds and within them: both follow from
    # each kind's sum of colours and the sum of squares, without the (candidates, squares) array of fitted means.
    sums = np.matmul(member, colours)                                          # (n, kinds, 3)
    explained = ((sums ** 2).sum(axis=2) / counts).sum(axis=1)                 # Σ count·|kind mean|²
    overall = (sums.sum(axis=1) ** 2).sum(axis=1) / (size * size)              # squares·|overall mean|²
    between = explained - overall
    within = np.einsum("nsc,nsc->n", colours, colours) - explained + 1e-3
    return between / within


def _rectified_lab(image: np.ndarray, corners: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(lab, h)``: the picture around the grid ``corners`` rectified with a margin of ``REACH`` squares, ``CELL``
    px a square, blurred over about half a square (so one sample stands for a square's middle), and the
    homography from the image to it."""
    span = size + 2 * REACH
    dst = (np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32) + REACH) * CELL
    h = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    picture = cv2.warpPerspective(image, h, (span * CELL, span * CELL), flags=cv2.INTER_AREA)
    return cv2.GaussianBlur(bgr_to_lab8(picture), (0, 0), CELL / 4).astype(np.float32), h


def layout_fit(image: np.ndarray, corners: np.ndarray, kinds: np.ndarray) -> float:
    """How well the squares' colours under the grid ``corners`` follow the layout ``kinds`` (the Fisher ratio of
    :func:`search_layout`): near 0 for a grid a row off, where every kind mixes the colours of several."""
    size = kinds.shape[0]
    lab, _ = _rectified_lab(image, corners, size)
    return float(_scores(lab, np.array([[0, 0, size, size]], np.float32), kinds)[0])


def search_layout(image: np.ndarray, corners: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """The grid (TL, TR, BR, BL image corners) whose squares follow the layout ``kinds`` best, among those whose
    edges lie up to ``REACH`` squares in or out of ``corners``: whole squares first, then quarter squares around
    the best."""
    size = kinds.shape[0]
    lab, h = _rectified_lab(image, corners, size)
    best = np.array([0, 0, size, size], np.float32)
    for offsets in (np.arange(-REACH, REACH + 1), np.arange(-0.5, 0.75, 0.25)):   # whole squares, then quarters
        edges = _candidates(best, offsets.astype(np.float32), size)
        best = edges[int(np.argmax(_scores(lab, edges, kinds)))]
    x0, y0, x1, y1 = best
    grid = (np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32) + REACH) * CELL
    return cv2.perspectiveTransform(grid.reshape(-1, 1, 2), np.linalg.inv(h)).reshape(4, 2).astype(np.float32)


__all__ = ["layout_fit", "search_layout", "REACH"]
