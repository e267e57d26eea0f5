"""The premium squares' centres, measured in a frame: points of the grid that do not need its lines.

Some boards print their grid lines so faintly that glare or over-exposure wipes them out (the white Hasbro board),
and some draw their premium squares inset from the lines, so the squares' edges are not the lines either. The
*centre* of a coloured premium square is the centre of its cell on every board, however it is drawn. Given a grid
close to right (within about a third of a square), the board is rectified small, the pixels of each premium kind's
typical colour (the median of that kind's squares) are grouped into connected patches, and each premium cell of the
layout takes the patch nearest its middle — kept only when the patch lies whole within the cell widened by
``REACH`` (one that runs further has joined something else, and a cut one has a biased centroid) and is about a
cell's size. A tile or a hand on the square hides it; it is skipped.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tilecam.vision.colour import bgr_to_lab8
from tilecam.vision.median import distinct, median

CELL_PX = 12            # a cell's side in the rectified board the colours are measured in
REACH = 0.4             # the window reaches this far (in squares) beyond the cell on each side
MIN_APART = 24.0        # L1 Lab distance a kind's typical colour must keep from the plain squares' to be measured
#: Without a grid: pixels this saturated and bright (HSV, 0-255) may be a premium square's print, …
BLOB_SATURATION, BLOB_VALUE = 50, 90
#: … a patch with more ink than this (``box_ink``: pixels in its box outside it and much darker than it) is a tile,
#: not a premium: a wooden tile is as saturated as a premium square but carries its letter (0.34-1.0 measured on
#: racks, 0.0-0.08 on a white board's premiums).
BLOB_INK = 0.2
BLOB_LINK = 5.5         # premiums within this many squares of each other are one board's (the layout's gaps: ≤ 4)
#: A coloured board's premium square differs from the median colour around it (``LOCAL_SQUARES`` of the frame's
#: longer side: about three of a board's squares where the board fills half of it) by this much in a* + b*
#: (8-bit Lab); a plain square, a shadow or a grey frame by far less (measured 0-15).
APART_CHROMA = 30
LOCAL_SQUARES = 20
BLOB_DARK = 60          # … and is not this dark (HSV value): a dark print's colour cast is no premium square


def premium_centres(image: np.ndarray, corners: np.ndarray, kinds: np.ndarray
                    ) -> tuple[np.ndarray, np.ndarray]:
    """``(points, cells)``: centroids of the premium squares found (N x 2 image pixels) and where they should
    be in grid units (N x 2, ``(column + 0.5, row + 0.5)``), for the grid ``corners`` (TL, TR, BR, BL) and the
    layout's premium ``kinds`` (size x size strings, "" for a plain square)."""
    size = kinds.shape[0]
    c = CELL_PX
    lab, h = board_lab(image, corners, size, c)
    middles = square_colours(lab, size, c)[1:-1, 1:-1]
    plain = median(middles[kinds == ""], axis=0)
    reach = REACH * c
    from_plain = _distance(lab, plain)
    found_px, found_cells = [], []
    for kind in distinct(kinds):
        if kind == "":
            continue
        typical = median(middles[kinds == kind], axis=0)
        apart = float(np.abs(typical - plain).sum())
        if apart < MIN_APART:
            continue                    # this kind looks like the plain squares here (or tiles cover most)
        near = _distance(lab, typical)
        mask = ((near < apart / 2) & (near < from_plain)).astype(np.uint8)
        _, _, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
        stats, centroids = stats[1:], centroids[1:]
        for row, col in zip(*np.nonzero(kinds == kind)):
            if np.abs(middles[row, col] - typical).sum() > apart / 2 or not len(stats):
                continue                # the square's middle is not its colour: a tile or a hand on it
            centre = _whole_patch(stats, centroids, ((col + 1.5) * c, (row + 1.5) * c), c, reach)
            if centre is not None:
                found_px.append(centre)
                found_cells.append((col + 0.5, row + 0.5))
    if not found_px:
        return np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32)
    rectified = np.array(found_px, np.float32).reshape(-1, 1, 2)
    points = cv2.perspectiveTransform(rectified, np.linalg.inv(h)).reshape(-1, 2)
    return points, np.array(found_cells, np.float32)


def saturated_patches(small: np.ndarray) -> np.ndarray:
    """Pixels saturated and bright enough to be a premium square's print on a white or pale board (0/1 mask)."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    return ((hsv[..., 1] > BLOB_SATURATION) & (hsv[..., 2] > BLOB_VALUE)).astype(np.uint8)


def colour_apart_patches(small: np.ndarray) -> np.ndarray:
    """Pixels whose colour stands apart from their surroundings' (0/1 mask): on a coloured board (green, blue, a
    club's yellow) every square is saturated, so :func:`saturated_patches` joins them all into one; its premium
    squares are still islands of another colour among plain squares of the board's own (``APART_CHROMA`` from the
    median of ``LOCAL_SQUARES`` squares around)."""
    lab = bgr_to_lab8(small)
    window = int(max(small.shape[:2]) / LOCAL_SQUARES) | 1
    apart = cv2.absdiff(lab, cv2.medianBlur(lab, window))
    chroma = apart[..., 1].astype(np.int16) + apart[..., 2]
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    return ((chroma > APART_CHROMA) & (hsv[..., 1] > BLOB_SATURATION) & (hsv[..., 2] > BLOB_DARK)).astype(np.uint8)


def premium_hull(small: np.ndarray, min_side: float, mask: np.ndarray | None = None,
                 ink: Callable[[np.ndarray, np.ndarray], float] | None = None) -> np.ndarray | None:
    """Convex hull (image px of ``small``, a downscaled BGR frame) of the premium squares seen without a grid, or
    None. The layout puts premiums on every edge of the board from corner to corner, so their hull is the playing
    grid (a corner hidden by a hand cuts one corner of it). Patches of ``mask`` (default
    :func:`saturated_patches`) about a square's size (``min_side`` px at least), solid, without ink inside, and
    linked to each other within ``BLOB_LINK`` squares; the largest such group is the board's. For a white board on
    a pale table under glare, whose outline and grid lines are gone but whose coloured squares are not, and (with
    :func:`colour_apart_patches` and ``ink=``:func:`hole_ink`) a coloured board whose outline is lost among the
    things around it. ``ink`` (default :func:`box_ink`) measures a patch's ink (``BLOB_INK``)."""
    mask = saturated_patches(small) if mask is None else mask
    ink = box_ink if ink is None else ink
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=4)
    largest = (max(small.shape[:2]) / 10) ** 2
    patches = []
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if not 0.3 * min_side ** 2 <= area <= largest or area < 0.45 * w * h or max(w, h) > 2.5 * min(w, h):
            continue
        if ink(gray[y:y + h, x:x + w], labels[y:y + h, x:x + w] == i) > BLOB_INK:
            continue
        patches.append(i)
    if len(patches) < 8:
        return None
    areas = stats[patches, 4].astype(np.float64)
    typical = float(median(areas))
    patches = [i for i, a in zip(patches, areas) if 0.3 * typical <= a <= 3 * typical]
    group = _largest_group(centroids[patches], BLOB_LINK * np.sqrt(typical))
    if len(group) < 8:
        return None
    ys, xs = np.nonzero(np.isin(labels, [patches[k] for k in group]))
    return cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32))


def box_ink(box: np.ndarray, inside: np.ndarray) -> float:
    """Share of the pixels in a patch's box, outside the patch, much darker than it: on a pale board only a tile's
    letter is."""
    outside = ~inside
    return float((box[outside] < median(box[inside]) - 40).mean()) if outside.any() else 0.0


def hole_ink(box: np.ndarray, inside: np.ndarray) -> float:
    """Share of a patch's outline (its holes filled) taken by holes much darker than the patch: a tile's letter. The
    holes, not the whole box: round a premium on a dark board the board itself is darker."""
    contours, _ = cv2.findContours(inside.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(inside.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, -1)
    holes = (filled > 0) & ~inside
    return float((box[holes] < median(box[inside]) - 40).sum() / max(int(filled.sum()), 1))


def _largest_group(points: np.ndarray, link: float) -> list[int]:
    """Indices of the largest set of ``points`` chained to each other by steps shorter than ``link``."""
    parent = list(range(len(points)))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    near = np.linalg.norm(points[:, None] - points[None], axis=2) < link
    for a, b in zip(*np.nonzero(near)):
        parent[root(int(a))] = root(int(b))
    roots = np.array([root(a) for a in range(len(points))])
    return [int(k) for k in np.flatnonzero(roots == np.bincount(roots).argmax())]


def board_lab(image: np.ndarray, corners: np.ndarray, size: int, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """``(lab, h)``: the board rectified small in 8-bit Lab, ``cell`` px a square with one square of margin all
    round (``(size + 2) * cell`` px a side), and the homography from the image to it."""
    span = size + 2
    dst = np.array([[cell, cell], [(size + 1) * cell, cell], [(size + 1) * cell, (size + 1) * cell],
                    [cell, (size + 1) * cell]], np.float32)
    h = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
    board = cv2.warpPerspective(image, h, (span * cell, span * cell), flags=cv2.INTER_AREA)
    return bgr_to_lab8(board), h


def square_colours(lab: np.ndarray, size: int, cell: int) -> np.ndarray:
    """Each square's colour in a :func:`board_lab` picture ((size + 2) x (size + 2) x 3, margin included): the mean
    of its middle half, clear of grid lines and a neighbour's tile."""
    span, q = size + 2, cell // 4
    return lab.reshape(span, cell, span, cell, 3)[:, q:cell - q, :, q:cell - q].mean(axis=(1, 3))


def misfit(points: np.ndarray, cells: np.ndarray, corners: np.ndarray, size: int) -> float:
    """Mean distance (in squares) of premium centres ``points`` from their ``cells`` under the grid ``corners``
    (``inf`` for none). The mean, not the median: a grid right on one side and a third of a square off on the
    other is off on few."""
    if not len(points):
        return float("inf")
    unit = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    to_grid = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), unit)
    in_grid = cv2.perspectiveTransform(np.asarray(points, np.float32).reshape(-1, 1, 2), to_grid).reshape(-1, 2)
    return float(np.mean(np.linalg.norm(in_grid - cells, axis=1)))


def _distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Each pixel's L1 distance from ``colour`` (8-bit Lab), in OpenCV: ten times as fast as numpy's norm."""
    l_, a_, b_ = cv2.split(cv2.absdiff(lab, tuple(float(v) for v in colour) + (0.0,)))
    return cv2.add(cv2.add(l_, a_, dtype=cv2.CV_16U), b_, dtype=cv2.CV_16U)


def _whole_patch(stats: np.ndarray, centroids: np.ndarray, middle: tuple[float, float], cell: int, reach: float
                 ) -> tuple[float, float] | None:
    """Centroid of the patch nearest the cell's ``middle`` (rectified px), if the whole patch lies within the cell
    widened by ``reach`` (one that runs past it joins other squares, or is not a square) and its area is between
    half a cell and a cell and a quarter."""
    best = int(np.argmin(np.abs(centroids - middle).sum(axis=1)))
    x, y, w, h, area = stats[best]
    lo_x, lo_y = middle[0] - cell / 2 - reach, middle[1] - cell / 2 - reach
    hi_x, hi_y = middle[0] + cell / 2 + reach, middle[1] + cell / 2 + reach
    if x <= lo_x or y <= lo_y or x + w >= hi_x or y + h >= hi_y:
        return None
    if not 0.5 * cell * cell <= area <= 1.25 * cell * cell:
        return None
    return float(centroids[best][0]), float(centroids[best][1])

