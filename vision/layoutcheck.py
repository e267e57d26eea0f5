"""Stage 3 of board localisation (:mod:`tilecam.vision.locate`): a grid checked against the board's layout.

A lattice is periodic, so a grid may be found a row or column off, or squares off where its lines were washed out;
the layout's premium squares are not. Here: the layout a board of each size is located with
(:func:`premium_kinds`), the whole-square shift its premium colours ask for (:func:`snap_to_layout`), the premium
squares' centres under a grid (:func:`premium_finder`, measured by :mod:`tilecam.vision.premiums`) and what they say
of it (on their cells, or clearly for one grid against another), and the grid the layout search
(:mod:`tilecam.vision.layoutsearch`) proposes where they are against the one found (:func:`rescue_by_layout`).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tilecam.vision.lattice import refine_grid
from tilecam.vision.layoutsearch import layout_fit, search_layout
from tilecam.vision.locate_config import BoardNotFound, LocateConfig
from tilecam.vision.median import distinct, median
from tilecam.vision.premiums import board_lab, misfit, premium_centres, square_colours


#: Premium squares this near their cells' centres on average (in squares) confirm a grid, … (a phone's lens and
#: premiums printed inset or as stars leave a right grid's up to a tenth of a square off; a grid a square off
#: finds few, and those half a square or more away)
ON_CELLS = 0.1
ENOUGH_PREMIUMS = 8      # … this many of them at least (fewer leave it in doubt: the grid may be squares off)
#: Premium squares this near their cells on average still say a grid is near right (a grid a square off puts them
#: half a square or more away): against a grid with too few to confirm it, the one with them is the board.
NEAR_CELLS = 0.15
#: Under a grid where the squares' colours follow the layout less than this (``layoutsearch.layout_fit``) the grid
#: is in doubt whatever the premiums say: right grids measured 0.1-2.2 on five real boards (0.04 under a glare),
#: grids a row off a dense board 0.01-0.04.
LAYOUT_DOUBT = 0.08
LAYOUT_BETTER = 3.0      # a grid the layout search proposes is taken where its colours follow the layout this much better


#: The premium layout a board of each size is located with: the classic board, Super Scrabble's 21x21.
LAYOUT_OF_SIZE = {15: "standard15", 21: "super21"}


def premium_kinds(size: int) -> np.ndarray | None:
    """The layout's premium of each square ("" plain, "TW", "DW", …), or None without layout data of this size."""
    from tilecam.engine.layout import Layout

    if size not in LAYOUT_OF_SIZE:
        return None
    try:
        layout = Layout.load(LAYOUT_OF_SIZE[size])
    except Exception:  # noqa: BLE001 — no layout data: no snapping, the lattice stands
        return None
    if layout.size != size:
        return None
    return np.array([[layout.premium(r, c) or "" for c in range(size)] for r in range(size)])


def _layout_agreement(cells: np.ndarray, kinds: np.ndarray, near: float = 14.0) -> float:
    """How well a window of square colours (Lab) matches the layout: each kind of square (plain, TW, DW, TL, DL)
    scores the share of its squares that have the kind's typical colour, times how far that colour is from every
    other kind's. A window one square off mixes the kinds, whose typical colours then run together; tiles, all
    alike, can stand in for at most one kind."""
    names = list(distinct(kinds))
    typical, shares = [], []
    for kind in names:
        colours = cells[kinds == kind]
        t = median(colours, axis=0)
        typical.append(t)
        shares.append(float(np.mean(np.linalg.norm(colours - t, axis=1) < near)))
    typical = np.array(typical)
    total = 0.0
    for i in range(len(names)):
        apart = min(float(np.linalg.norm(typical[i] - typical[j])) for j in range(len(names)) if j != i)
        total += shares[i] * min(1.0, apart / 20.0)
    return total


def snap_to_layout(image: np.ndarray, corners: np.ndarray, size: int = 15, cell: int = 12) -> np.ndarray:
    """The grid moved by a whole square where the board's premium squares say so.

    A lattice is periodic: on a board whose frame is nearly the colour of its squares, the fit can take the frame
    for a row or column and leave the last one out, and the grid lines cannot tell. The premium squares can: each
    shift by -1, 0, +1 square in each direction is scored by how well the squares' colours follow the layout
    (:func:`_layout_agreement`); the grid as found stands unless a shift is clearly better."""
    kinds = premium_kinds(size)
    if kinds is None:
        return corners
    lab, h = board_lab(image, corners, size, cell)
    cells = square_colours(lab, size, cell)
    scores = {(dx, dy): _layout_agreement(cells[1 + dy:1 + dy + size, 1 + dx:1 + dx + size], kinds)
              for dy in (-1, 0, 1) for dx in (-1, 0, 1)}
    best = max(scores, key=scores.get)
    if best == (0, 0) or scores[best] < 1.5 * scores[0, 0] + 0.3:
        return corners
    dx, dy = best
    shifted = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32) + (dx + 1, dy + 1)
    return cv2.perspectiveTransform((shifted * cell).reshape(-1, 1, 2), np.linalg.inv(h)).reshape(4, 2).astype(
        np.float32)


def premium_finder(image: np.ndarray, size: int
                   ) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None:
    """``premium_centres`` of this frame as a function of the grid's corners, each grid measured once (the
    refinement and the comparisons between grids ask for the same ones); None for a gray frame or no layout."""
    kinds = premium_kinds(size) if image.ndim == 3 else None
    if kinds is None:
        return None
    found: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}

    def centres(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        key = np.asarray(corners, np.float32).tobytes()
        if key not in found:
            found[key] = premium_centres(image, corners, kinds)
        return found[key]

    return centres


def premiums_on_cells(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], corners: np.ndarray,
                      size: int) -> bool:
    """Whether at least ``ENOUGH_PREMIUMS`` premium squares sit on their cells under ``corners`` (``ON_CELLS``)."""
    points, cells = premiums(corners)
    return len(points) >= ENOUGH_PREMIUMS and misfit(points, cells, corners, size) <= ON_CELLS


def premiums_prefer(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None, refined: np.ndarray,
                    corners: np.ndarray, size: int) -> bool:
    """Whether the premium squares clearly say ``refined`` is the better grid: their centres fall on their cells'
    centres under it (within 6/100 of a square on average, at least 8 found) and much better than under
    ``corners``, or too few are found under ``corners`` to confirm it. The lattice score alone can prefer a grid
    locked onto rows of tiles to the true one whose faint lines a glare washed out."""
    if premiums is None:
        return False
    points, cells = premiums(refined)
    fit = misfit(points, cells, refined, size)
    if len(points) < ENOUGH_PREMIUMS or fit > ON_CELLS:
        return False
    # A grid on which too few premiums are found to confirm it is no rival, however well those few sit (a grid
    # locked onto rows of tiles can have two premiums exactly on cells of its own).
    others = premiums(corners)
    return len(others[0]) < ENOUGH_PREMIUMS or fit < 0.6 * misfit(*others, corners, size)


def premiums_outnumber(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None, other: np.ndarray,
                       found: np.ndarray, size: int) -> bool:
    """Whether at least ``ENOUGH_PREMIUMS`` premium squares sit near their cells under ``other`` (within
    ``NEAR_CELLS``) where too few to confirm it are found under ``found`` at all: a strip over a rack or a lattice
    at half the pitch has next to none of the layout's squares on its cells."""
    if premiums is None:
        return False
    points, cells = premiums(other)
    return (len(points) >= ENOUGH_PREMIUMS and misfit(points, cells, other, size) <= NEAR_CELLS
            and len(premiums(found)[0]) < ENOUGH_PREMIUMS)


def rescue_by_layout(image: np.ndarray, gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig,
                     premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None) -> np.ndarray | None:
    """A grid far off put right, or None: when fewer than ``ENOUGH_PREMIUMS`` premium squares sit on their cells
    under ``corners`` (a white board on a white table, an arm across it: the lattice fit can be squares off) or the
    squares' colours hardly follow the layout (``LAYOUT_DOUBT``: a dense board a row off, where tiles sitting on
    cells pass for premiums), the layout search (``tilecam.vision.layoutsearch``) proposes another grid, refined as
    any; it is taken only if the premium squares then clearly say it is the better one (``premiums_prefer``) or
    the squares' colours follow the layout clearly better under it (``LAYOUT_BETTER``) and it is a grid that was
    seen: premiums on its cells, or all of it inside the frame (``_inside_frame``)."""
    if premiums is None:
        return None
    kinds = premium_kinds(cfg.size)
    fit = layout_fit(image, corners, kinds)
    if premiums_on_cells(premiums, corners, cfg.size) and fit >= LAYOUT_DOUBT:
        return None
    candidate = search_layout(image, corners, kinds)
    for _ in range(cfg.refinements):
        try:
            candidate = refine_grid(gray, candidate, cfg, premiums=premiums)
        except BoardNotFound:
            return None
    if premiums_prefer(premiums, candidate, corners, cfg.size):
        return candidate
    better = layout_fit(image, candidate, kinds)
    if better < LAYOUT_DOUBT or better < LAYOUT_BETTER * fit:
        return None
    # Taken on the layout's colours alone, the grid must lie where the picture was seen, unless its premiums sit
    # on their cells: squares past the frame are the warp's black border, whose colour can pass for a kind's.
    return candidate if premiums_on_cells(premiums, candidate, cfg.size) or _inside_frame(
        candidate, image.shape, cfg.size) else None


def _inside_frame(corners: np.ndarray, shape: tuple[int, ...], size: int) -> bool:
    """Whether every square of the grid ``corners`` has its middle inside a frame of ``shape``: the middles of
    its four corner squares are (a grid is convex, its squares' middles lie within theirs)."""
    unit = np.array([[0.5, 0.5], [size - 0.5, 0.5], [size - 0.5, size - 0.5], [0.5, size - 0.5]], np.float32)
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32),
                                    np.asarray(corners, np.float32))
    middles = cv2.perspectiveTransform(unit.reshape(-1, 1, 2), h).reshape(4, 2)
    return bool((middles >= 0).all() and (middles <= (shape[1] - 1, shape[0] - 1)).all())
