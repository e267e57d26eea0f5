"""Board localisation: the four corners of the playing grid in a camera frame, without markers.

Three stages, each cheap:

1. the board's outline — the largest convex quadrilateral in an edge map of a downscaled frame (its brightness;
   where the grid found there is in doubt, the frame's long straight lines too: a board on a turntable; and its
   saturation: a white board on a pale table; the hull of its premium squares; the grid's own lines, rectified by
   their vanishing points (:mod:`tilecam.vision.gridlines`: a clear grid on a turntable, a corner out of the
   frame); where no grid is confirmed yet, the whole frame: every outline may be a piece of something else);
2. the grid inside it — the outline is warped to a square, where the 16 grid lines of each axis are a regular
   lattice; a 1-D search over (first line, pitch) on the gradient profile of each axis finds them, once in the
   outline and once more on the grid found. Then each line is measured on its own in strips across the square and
   one homography is fitted to all the measurements (least squares, disagreeing ones dropped), twice: that takes
   out the turn, shear and perspective the outline left, which one lattice per axis cannot. The premium squares'
   centres (:mod:`tilecam.vision.premiums`) join the fit, and where the lattice score would keep a grid locked onto
   rows of tiles they decide (a glare can wash a board's faint lines out, never its coloured squares);
3. the premium squares — a lattice is periodic, so on a board whose frame looks like its squares the grid may be
   found one row or column off; the layout's premium colours put it back (:func:`snap_to_layout`).

The result carries its score (how much stronger the gradient is on the lattice than between its lines), so a
caller can see how sure the localisation is; a frame without a board raises :class:`BoardNotFound`.
``python -m tilecam.vision.locate IMAGE --debug OUT/`` draws what was found over the frame.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from tilecam.vision.gridfit import fit_grid, grid_corners
from tilecam.vision.gridlines import draw_lines, lattice_outlines
from tilecam.vision.layoutsearch import layout_fit, search_layout
from tilecam.vision.median import distinct, median
from tilecam.vision.premiums import (board_lab, box_ink, colour_apart_patches, hole_ink, misfit, premium_centres,
                                     premium_hull, saturated_patches, square_colours)
from tilecam.vision.warp import homography_to_rectified


#: Weight of a premium square's centre in the grid fit, per axis (a line measurement weighs 1.2-4 by its contrast).
PREMIUM_WEIGHT = 2.0
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


class BoardNotFound(ValueError):
    """No Scrabble grid could be found in the frame."""


#: A board's edge is a straight line at least this share of the frame's shorter side (a board covering 8 % of the
#: frame has sides of ~28 %; half its length may be hidden by tiles overhanging it or a hand) …
LINE_MIN_LENGTH = 0.4
LINE_VOTES = 0.25        # … with edge pixels on it along at least this share (the Hough transform's votes), …
LINE_GAP = 0.03          # … whose breaks (a tile over the frame) are at most this share of that side, …
LINE_FAMILY_DEG = 12     # … and opposite edges lie within this many degrees of parallel (perspective splays them)
EDGE_APART = 0.05        # a line this share of the frame's side inside a family's outermost may be the board's edge
LINE_OUTLINES = 6        # outlines from lines tried at most (the largest, a few px apart)


#: Where no board covering ``LocateConfig.min_board_fraction`` of the frame is found, outlines down to this share
#: are tried: a travel board turned on the table covers 4-8 % of a 16:9 frame at a full-size board's camera height.
SMALL_BOARD_FRACTION = 0.04


@dataclass(frozen=True)
class LocateConfig:
    work_px: int = 512            # the outline is searched on a frame downscaled to this longer side
    lattice_px: int = 480         # side of the square the outline is warped to for the lattice search
    min_board_fraction: float = 0.08   # the outline must cover at least this share of the frame
    min_score: float = 1.6        # lattice response / off-lattice response below this: no board
    hint_min_score: float = 1.8   # a previous location is kept only if it still scores this well
    size: int = 15
    refinements: int = 2         # line-by-line passes on the grid found so far


@dataclass(frozen=True)
class BoardLocation:
    """Where the grid is: ``corners`` (4x2, image px, top-left, top-right, bottom-right, bottom-left)."""

    corners: np.ndarray
    homography: np.ndarray = field(repr=False)
    score: float
    method: str = "lattice"

    def to_json(self) -> list[list[float]]:
        return [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners]


def locate_board(image: np.ndarray, cfg: LocateConfig = LocateConfig(), hint: BoardLocation | None = None
                 ) -> BoardLocation:
    """Find the playing grid in ``image`` (BGR or gray). With ``hint``, reuse it when it still fits."""
    if image is None or image.size == 0:
        raise BoardNotFound("empty image")
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if hint is not None:
        score = lattice_score(gray, hint.corners, cfg)
        if score >= cfg.hint_min_score:
            return BoardLocation(hint.corners, hint.homography, score, "hint")
    premiums = _premium_finder(image, cfg.size)
    found = _grid_in_outlines(image, gray, _outline_candidates(gray, cfg), cfg, premiums)
    if not _confirmed(found, premiums, cfg):
        # A board on a turntable, or among things touching it, has no closed outline of its own; its frame's
        # straight edges are still there. Asked only when the grid found is in doubt (the Hough costs ~20 ms).
        other = _grid_in_outlines(image, gray, _line_outlines(*_downscaled(gray, cfg), cfg), cfg, premiums)
        if other is not None and (found is None or (found[0] < cfg.min_score and other[0] > found[0])
                                  or _premiums_prefer(premiums, other[1], found[1], cfg.size)
                                  or (image.ndim == 3 and _stronger(image, other, found, cfg.size))):
            found = other
    if image.ndim == 3 and not _confirmed(found, premiums, cfg):
        # A white board on a pale table as bright as its frame has no outline in brightness; its saturation has
        # one. Asked only when the grid found is in doubt: on a board found well it moves nothing.
        other = _grid_in_outlines(image, gray, _saturation_outlines(image, cfg), cfg, premiums)
        if other is not None and (found is None or (found[0] < cfg.min_score and other[0] > found[0])
                                  or _premiums_prefer(premiums, other[1], found[1], cfg.size)
                                  or _stronger(image, other, found, cfg.size)):
            found = other
    if image.ndim == 3 and not _confirmed(found, premiums, cfg):
        # Glare over a white board on a white table: no outline in light or colour, faint grid lines — but its
        # coloured premium squares still outline the grid. Taken only where they then sit on their cells.
        other = _grid_in_outlines(image, gray, _premium_outlines(image, cfg), cfg, premiums)
        if other is not None and _premiums_on_cells(premiums, other[1], cfg.size) and (
                found is None or found[0] < cfg.min_score or _premiums_prefer(premiums, other[1], found[1], cfg.size)
                or _stronger(image, other, found, cfg.size)):
            found = other
    if not _confirmed(found, premiums, cfg):
        # A clear grid on a turntable, or a board whose outline is cut or merged with what lies around it: the
        # grid's own lines, rectified by their vanishing points (``gridlines``), outline it. The slowest stage
        # (~0.3 s), asked last.
        other = _grid_in_outlines(image, gray, _gridline_outlines(gray, cfg), cfg, premiums)
        if other is not None and _lines_grid_taken(image, other, found, premiums, cfg):
            found = other
    if (found is None or found[0] < cfg.min_score) and cfg.min_board_fraction > SMALL_BOARD_FRACTION:
        # No board of the usual size: a small one (a travel board in a wide frame) is looked for only now, as a
        # smaller outline admitted beside a board's own may win over it (a region inside the board).
        try:
            return locate_board(image, replace(cfg, min_board_fraction=SMALL_BOARD_FRACTION))
        except BoardNotFound:
            pass        # (that pass looked at the whole frame too)
    elif premiums is not None and not _confirmed(found, premiums, cfg):
        # Every outline found may be a piece of something else (of a turntable the board lies on): the whole
        # frame is the outline left. Looked at last, and its grid taken only where premiums confirm it.
        other = _grid_in_outlines(image, gray, [_frame_outline(gray)], cfg, premiums)
        if other is not None and other[0] >= cfg.min_score and _premiums_on_cells(premiums, other[1], cfg.size):
            found = other
    if found is None:
        raise BoardNotFound(f"no Scrabble grid found in the frame (no outline holds a {cfg.size}x{cfg.size} "
                            "lattice)")
    score, corners = found
    if score < cfg.min_score:
        raise BoardNotFound(f"no Scrabble grid found in the frame (best lattice score {score:.2f} < {cfg.min_score})")
    return BoardLocation(corners, homography_to_rectified(corners, cfg.size), score)


def _grid_in_outlines(image: np.ndarray, gray: np.ndarray, outlines: list[np.ndarray], cfg: LocateConfig,
                      premiums) -> tuple[float, np.ndarray] | None:
    """(lattice score, corners) of the best grid inside ``outlines``, refined and checked against the layout; None
    when no outline holds a lattice."""
    coarse: list[tuple[float, np.ndarray]] = []
    for quad in outlines:
        try:
            coarse.append(_fit_grid(gray, quad, cfg))
        except BoardNotFound:
            continue
    if not coarse:
        return None
    best: tuple[float, np.ndarray] | None = None
    for _, corners in sorted(coarse, key=lambda item: -item[0])[:2]:
        corners = _refine_axes(gray, corners, cfg)
        score = lattice_score(gray, corners, cfg)
        for _ in range(cfg.refinements):   # each pass removes most of the perspective the last one left
            try:
                refined = _refine_grid(gray, corners, cfg, premiums=premiums)
            except BoardNotFound:
                break
            refined_score = lattice_score(gray, refined, cfg)
            if refined_score < 0.9 * score and not _premiums_prefer(premiums, refined, corners, cfg.size):
                break       # locked onto tile edges or the frame: keep the lattice fit
            corners, score = refined, refined_score
        if best is None or _premiums_prefer(premiums, corners, best[1], cfg.size) or (
                score > best[0] and not _premiums_prefer(premiums, best[1], corners, cfg.size)):
            best = (score, corners)
    score, corners = best
    if image.ndim == 3:
        corners = snap_to_layout(image, corners, cfg.size)
        rescued = _rescue_by_layout(image, gray, corners, cfg, premiums)
        if rescued is not None:
            corners, score = rescued, lattice_score(gray, rescued, cfg)
    return score, corners


def _confirmed(found: tuple[float, np.ndarray] | None, premiums, cfg: LocateConfig) -> bool:
    """Whether a grid was found that scores as a lattice and on which the premium squares sit on their cells."""
    if found is None or found[0] < cfg.min_score:
        return False
    return premiums is None or _premiums_on_cells(premiums, found[1], cfg.size)


def _stronger(image: np.ndarray, other: tuple[float, np.ndarray], found: tuple[float, np.ndarray], size: int
              ) -> bool:
    """Whether the grid ``other`` (lattice score, corners) beats ``found`` on both counts: its lines stand out more
    and its squares' colours follow the layout better (``layoutsearch.layout_fit``). Where neither grid is
    confirmed by its premium squares (a dense coloured board), the two measures agreeing is the evidence left."""
    kinds = premium_kinds(size)
    if kinds is None:
        return False
    return other[0] > found[0] and layout_fit(image, other[1], kinds) > layout_fit(image, found[1], kinds)


def _lines_grid_taken(image: np.ndarray, other: tuple[float, np.ndarray], found: tuple[float, np.ndarray] | None,
                      premiums, cfg: LocateConfig) -> bool:
    """Whether the grid the grid's own lines gave (``other``: lattice score, corners) replaces ``found``. Lines alone
    can be anything ruled (a page of coloured squares has its lattice too): it must score as a lattice and be
    confirmed by its premiums or have its squares' colours follow the layout; and it replaces a grid found that is
    no lattice, or that its premiums are clearly against (``_premiums_prefer``, ``_premiums_outnumber``)."""
    if other[0] < cfg.min_score:
        return False
    confirmed = _confirmed(other, premiums, cfg)
    if not confirmed and not (image.ndim == 3 and layout_fit(image, other[1], premium_kinds(cfg.size))
                              >= LAYOUT_DOUBT):
        return False
    return (found is None or found[0] < cfg.min_score or confirmed
            or _premiums_prefer(premiums, other[1], found[1], cfg.size)
            or _premiums_outnumber(premiums, other[1], found[1], cfg.size))


def _premiums_outnumber(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None, other: np.ndarray,
                        found: np.ndarray, size: int) -> bool:
    """Whether at least ``ENOUGH_PREMIUMS`` premium squares sit near their cells under ``other`` (within
    ``NEAR_CELLS``) where too few to confirm it are found under ``found`` at all: a strip over a rack or a lattice
    at half the pitch has next to none of the layout's squares on its cells."""
    if premiums is None:
        return False
    points, cells = premiums(other)
    return (len(points) >= ENOUGH_PREMIUMS and misfit(points, cells, other, size) <= NEAR_CELLS
            and len(premiums(found)[0]) < ENOUGH_PREMIUMS)


def _premiums_on_cells(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], corners: np.ndarray,
                       size: int) -> bool:
    """Whether at least ``ENOUGH_PREMIUMS`` premium squares sit on their cells under ``corners`` (``ON_CELLS``)."""
    points, cells = premiums(corners)
    return len(points) >= ENOUGH_PREMIUMS and misfit(points, cells, corners, size) <= ON_CELLS


# --- stage 1: the board's outline -------------------------------------------------------------------------------

def _outline_candidates(gray: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """Convex quadrilaterals that may be the board, largest first, in full-frame pixels."""
    small, scale = _downscaled(gray, cfg)
    quads = _outlines(small, scale, cfg)
    # The frame itself is the last resort: a board that fills the picture has no outline of its own (where three
    # outlines crowd it out here, ``locate_board`` still tries it when no grid is confirmed).
    quads.append((0.0, _frame_outline(gray)))
    return _largest_apart(quads)


def _frame_outline(image: np.ndarray) -> np.ndarray:
    """The whole frame as an outline (TL, TR, BR, BL, full-frame pixels)."""
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def _line_outlines(small: np.ndarray, scale: float, cfg: LocateConfig) -> list[np.ndarray]:
    """The board's outline from the long straight lines of the downscaled ``small``: for each family of lines near
    one direction, with the family near its perpendicular, the outermost two of each, intersected. A board on a
    turntable or among things touching it has no closed outline of its own (its edge joins the turntable's circle,
    whose hull is no board), but its frame's four edges are still the frame's longest straight lines."""
    side = min(small.shape[:2])
    edges = cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 30, 90)
    found = cv2.HoughLinesP(edges, 1, np.pi / 360, threshold=int(side * LINE_VOTES),
                            minLineLength=side * LINE_MIN_LENGTH, maxLineGap=side * LINE_GAP)
    if found is None:
        return []
    lines = found.reshape(-1, 4).astype(np.float64)
    angle = np.degrees(np.arctan2(lines[:, 3] - lines[:, 1], lines[:, 2] - lines[:, 0])) % 180
    min_area = cfg.min_board_fraction * small.shape[0] * small.shape[1]
    quads = []
    for base in distinct(np.round(angle / 5) * 5):
        along = lines[np.abs((angle - base + 90) % 180 - 90) < LINE_FAMILY_DEG]
        across = lines[np.abs((angle - base) % 180 - 90) < LINE_FAMILY_DEG]
        if len(along) < 2 or len(across) < 2:
            continue
        t = np.radians(base)
        for pair_a in _edge_pairs(along, t + np.pi / 2, side):
            for pair_b in _edge_pairs(across, t, side):
                corners = [_intersect(a[:2], a[2:], b[:2], b[2:]) for a in pair_a for b in pair_b]
                if any(c is None for c in corners):
                    continue
                quad = order_corners(np.array(corners, np.float32))
                if cv2.contourArea(quad) >= min_area:
                    quads.append((cv2.contourArea(quad), quad / scale))
    return _largest_apart(quads, keep=LINE_OUTLINES)


def _edge_pairs(lines: np.ndarray, normal: float, side: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Pairs of lines (x1, y1, x2, y2) of a family that may be the board's two opposite edges along the direction
    ``normal`` (radians): at each end the outermost line, and the next one inwards at least ``EDGE_APART`` of the
    frame's shorter side ``side`` away (a rack, a ruler or a score sheet lying straight beside the board has a long
    edge of its own, outside the board's)."""
    offset = ((lines[:, :2] + lines[:, 2:]) / 2) @ np.array([np.cos(normal), np.sin(normal)])
    order = np.argsort(offset)
    lows, highs = [order[0]], [order[-1]]
    inner = [i for i in order if offset[i] - offset[order[0]] >= EDGE_APART * side]
    if inner:
        lows.append(inner[0])
    inner = [i for i in order[::-1] if offset[order[-1]] - offset[i] >= EDGE_APART * side]
    if inner:
        highs.append(inner[0])
    return [(lines[lo], lines[hi]) for lo in lows for hi in highs if offset[hi] > offset[lo]]


def _saturation_outlines(image: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """Outlines as ``_outline_candidates`` finds them, in the frame's saturation instead of its brightness: a
    white board on a tan or grey table differs from it more in colour than in light."""
    small, scale = _downscaled(image, cfg)
    return _largest_apart(_outlines(cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1], scale, cfg))


def _premium_outlines(image: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """The grid's outline from the hull of its premium squares (``premiums.premium_hull``), as it is and a little
    grown (the lattice search wants the grid's edge lines inside the outline), the squares seen as saturated
    patches (a white board) and as patches of a colour apart from the board's (a coloured one); none where no
    premiums are seen."""
    small, scale = _downscaled(image, cfg)
    min_side = np.sqrt(cfg.min_board_fraction * small.shape[0] * small.shape[1]) / cfg.size
    quads = []
    for mask, ink in ((saturated_patches(small), box_ink), (colour_apart_patches(small), hole_ink)):
        hull = premium_hull(small, min_side, mask, ink)
        quad = None if hull is None else _hull_to_quad(hull)
        if quad is not None:
            quads += [quad / scale, _grow_quad(quad / scale, 0.03)]
    return quads


def _gridline_outlines(gray: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """The outlines of the lattices the grid's own lines give (``gridlines.lattice_outlines``), as found and a
    little grown (the lattice search wants the grid's edge lines inside the outline)."""
    quads = [order_corners(quad) for quad in lattice_outlines(gray, cfg.size)]
    return [q for quad in quads for q in (quad, _grow_quad(quad, 0.03))]


def _downscaled(image: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, float]:
    """The frame shrunk to ``cfg.work_px`` on its longer side, and the scale it was shrunk by."""
    h, w = image.shape[:2]
    scale = cfg.work_px / max(h, w)
    return cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA), scale


def _largest_apart(quads: list[tuple[float, np.ndarray]], keep: int = 3) -> list[np.ndarray]:
    """The ``keep`` largest of (area, quad), a quad within 4 px of a larger one dropped."""
    unique: list[np.ndarray] = []
    for _, quad in sorted(quads, key=lambda item: -item[0]):
        if all(np.abs(quad - other).max() > 4 for other in unique):
            unique.append(quad)
    return unique[:keep]


def _outlines(small: np.ndarray, scale: float, cfg: LocateConfig) -> list[tuple[float, np.ndarray]]:
    """(area, quad in full-frame pixels) of the largest closed edge contours of the downscaled ``small``."""
    small = cv2.GaussianBlur(small, (5, 5), 0)
    quads: list[tuple[float, np.ndarray]] = []
    min_area = cfg.min_board_fraction * small.shape[0] * small.shape[1]
    for lo, hi in ((30, 90), (60, 160)):
        edges = cv2.Canny(small, lo, hi)
        edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:6]:
            hull = cv2.convexHull(contour)
            area = cv2.contourArea(hull)
            if area < min_area:
                break
            quad = _hull_to_quad(hull)
            if quad is not None:
                quads.append((area, quad / scale))
    return quads


def _hull_to_quad(hull: np.ndarray) -> np.ndarray | None:
    """The board's four sides from its convex hull: the four longest sides of a simplified hull, intersected
    (a rack or a hand touching the board adds short sides, which are dropped); for a hull without four straight
    sides, its four corners (``_rounded_quad``)."""
    perimeter = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.012 * perimeter, True).reshape(-1, 2).astype(np.float64)
    n = len(approx)
    if n < 4:
        return None
    if n == 4:
        return order_corners(approx.astype(np.float32))
    lengths = [np.linalg.norm(approx[(i + 1) % n] - approx[i]) for i in range(n)]
    sides = sorted(sorted(range(n), key=lambda i: -lengths[i])[:4])
    corners = []
    for a, b in zip(sides, sides[1:] + sides[:1]):
        p = _intersect(approx[a], approx[(a + 1) % n], approx[b], approx[(b + 1) % n])
        if p is None:
            return _rounded_quad(hull)
        corners.append(p)
    quad = np.array(corners, np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return _rounded_quad(hull)
    return order_corners(quad)


#: Largest simplification tried for a hull without four straight sides, as a share of its perimeter: a board's
#: moulded frame with rounded corners and bowed sides comes down to four corners well before this (a disc comes
#: down to a square inside it at about 0.05: a candidate like any, taken only where a lattice is found in it).
ROUNDED_EPSILON = 0.08


def _rounded_quad(hull: np.ndarray) -> np.ndarray | None:
    """The four corners of a hull whose sides are not straight (a moulded board's frame, rounded at its corners
    and bowed along its sides): the hull simplified more and more until four points are left; None where it skips
    from more to fewer. The grid search inside then looks for the lattice as in any outline."""
    perimeter = cv2.arcLength(hull, True)
    for epsilon in np.arange(0.015, ROUNDED_EPSILON, 0.005):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True).reshape(-1, 2)
        if len(approx) == 4:
            quad = approx.astype(np.float32)
            return order_corners(quad) if cv2.isContourConvex(quad.reshape(-1, 1, 2)) else None
        if len(approx) < 4:
            return None
    return None


def _intersect(p1, p2, p3, p4) -> np.ndarray | None:
    d1, d2 = p2 - p1, p4 - p3
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-6:
        return None
    t = ((p3[0] - p1[0]) * d2[1] - (p3[1] - p1[1]) * d2[0]) / denom
    return p1 + t * d1


def order_corners(points: np.ndarray) -> np.ndarray:
    """Four points ordered top-left, top-right, bottom-right, bottom-left as they lie in the image."""
    pts = np.asarray(points, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]          # clockwise in image coordinates, starting near the left
    start = int(np.argmin(pts.sum(axis=1)))  # top-left: smallest x + y
    return np.roll(pts, -start, axis=0)


# --- stage 2: the lattice inside the outline ---------------------------------------------------------------------

def _warp_square(gray: np.ndarray, quad: np.ndarray, side: int) -> tuple[np.ndarray, np.ndarray]:
    dst = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    h = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(gray, h, (side, side), flags=cv2.INTER_AREA), h


def _profiles(square: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Gradient energy per column (vertical lines) and per row (horizontal lines)."""
    f = square.astype(np.float32)
    gx = np.abs(cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3))
    # Use the median across the perpendicular direction: tiles and letters are local, grid lines run the whole way.
    col = median(gx[::8], axis=0) + 0.5 * gx.mean(axis=0)
    row = median(gy[:, ::8], axis=1) + 0.5 * gy.mean(axis=1)
    return col, row


def _lattice_search(profile: np.ndarray, size: int, starts: np.ndarray, pitches: np.ndarray, exact: bool = True
                    ) -> tuple[float, float, float]:
    """Best (first line, pitch, on/off ratio) over the grid of candidates, all evaluated at once
    (``exact=False``: nearest samples instead of interpolation, for the coarse pass)."""
    n = len(profile)
    xs = np.arange(n, dtype=np.float32)
    k = np.arange(size + 1, dtype=np.float32)
    s, p = np.meshgrid(starts, pitches, indexing="ij")
    s, p = s.ravel(), p.ravel()
    inside = (s >= 0) & (s + size * p <= n - 1)
    if not inside.any():
        raise BoardNotFound("no lattice fits the outline")
    s, p = s[inside], p[inside]
    pos = s[:, None] + p[:, None] * k[None, :]
    mid = pos[:, :-1] + p[:, None] / 2
    if exact:
        on = np.interp(pos, xs, profile).mean(axis=1)
        off = np.interp(mid, xs, profile).mean(axis=1)
    else:
        on = profile[np.rint(pos).astype(np.intp)].mean(axis=1)
        off = profile[np.rint(mid).astype(np.intp)].mean(axis=1)
    ratio = on / (off + 1e-3)
    i = int(np.argmax(ratio))
    return float(s[i]), float(p[i]), float(ratio[i])


def _fit_lattice(profile: np.ndarray, size: int) -> tuple[float, float, float]:
    """Best (first line, pitch, score) for ``size + 1`` evenly spaced lines along ``profile``."""
    n = len(profile)
    smooth = np.convolve(profile, np.ones(3) / 3, mode="same")
    # The square is the board with its frame: the grid fills 68-100 % of it.
    start, pitch, score = _lattice_search(smooth, size, np.linspace(0, 0.16 * n, 49),
                                          np.linspace(n * 0.68 / size, n / size, 40), exact=False)
    # Finer steps around the coarse optimum.
    start, pitch, score = _lattice_search(smooth, size, start + np.linspace(-2, 2, 17),
                                          pitch + np.linspace(-0.3, 0.3, 13))
    return start, pitch, score


def _fit_grid(gray: np.ndarray, quad: np.ndarray, cfg: LocateConfig) -> tuple[float, np.ndarray]:
    """(lattice ratio, grid corners in the image) for the lattice found inside the outline ``quad``."""
    side = cfg.lattice_px
    square, h = _warp_square(gray, quad, side)
    col, row = _profiles(square)
    x0, px, sx = _fit_lattice(col, cfg.size)
    y0, py, sy = _fit_lattice(row, cfg.size)
    return min(sx, sy), _lattice_corners(h, x0, px, y0, py, cfg.size)


def _lattice_corners(h: np.ndarray, x0: float, px: float, y0: float, py: float, size: int) -> np.ndarray:
    """The image corners of the lattice (first line, pitch per axis) found in the square ``h`` warps to."""
    x1, y1 = x0 + size * px, y0 + size * py
    grid = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grid, np.linalg.inv(h)).reshape(4, 2).astype(np.float32)


def _refine_axes(gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The grid found so far, refined by one lattice (first line, pitch) per axis in the square it rectifies to:
    robust, and it takes out the outline's error of scale and shift (not turn or shear: see _refine_grid)."""
    side = cfg.lattice_px
    grow = 0.5 / cfg.size
    square, h = _warp_square(gray, _grow_quad(corners, grow), side)
    pad = side * grow / (1 + 2 * grow)
    col, row = _profiles(square)
    x0, px, _ = _fit_lattice_span(col, cfg.size, pad)
    y0, py, _ = _fit_lattice_span(row, cfg.size, pad)
    return _lattice_corners(h, x0, px, y0, py, cfg.size)


def _refine_grid(gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig, bands: int = 6,
                 premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None) -> np.ndarray:
    """The grid found so far, refined line by line: in the square it rectifies to, each of the 16 lines of each
    axis is measured in ``bands`` strips across it (the strongest gradient near where the line should be), and
    one homography is fitted to all those points in the image (``tilecam.vision.gridfit``), dropping the ones that
    disagree (a tile edge taken for the line). It corrects what is left of turn, shear and perspective, which the
    outline alone cannot."""
    size, side = cfg.size, cfg.lattice_px
    grow = 0.5 / size          # look half a square beyond the grid so that its outer lines are inside the square
    square, h = _warp_square(gray, _grow_quad(corners, grow), side)
    pad = side * grow / (1 + 2 * grow)
    pitch = (side - 2 * pad) / size
    f = square.astype(np.float32)
    gradients = (np.abs(cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)),         # vertical lines: along x
                 np.abs(cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)).T)       # horizontal lines: along y
    edges = np.linspace(pad, side - pad, bands + 1)
    reach = int(pitch / 3)
    kernel = np.array([1, 2, 3, 2, 1], np.float32) / 9
    points, axes, lines, weights = [], [], [], []
    expect = np.rint(pad + np.arange(size + 1) * pitch).astype(np.intp)
    # Each line's window, [expect - reach, expect + reach]: inside the square, as it reaches half a square past
    # the grid (the clip only guards other settings).
    window = np.clip(expect[:, None] + np.arange(-reach, reach + 1)[None, :], 0, side - 1)
    for axis, g in enumerate(gradients):
        for b in range(bands):
            lo, hi = int(edges[b]), int(edges[b + 1])
            profile = np.convolve(median(g[lo:hi:2], axis=0), kernel, mode="same")
            across = (lo + hi) / 2              # where the strip lies in the square, across the lines
            values = profile[window]
            peak = np.argmax(values, axis=1)
            strength = values[np.arange(size + 1), peak] / (median(values, axis=1) + 1e-3)
            for k in np.nonzero((peak > 0) & (peak < 2 * reach) & (strength >= 1.2))[0]:
                # (a peak at the window's edge is not this line; a weak one is no line: under a tile)
                i = int(window[k, peak[k]])
                y0, y1, y2 = profile[i - 1:i + 2]
                den = y0 - 2 * y1 + y2
                pos = i + (0.5 * (y0 - y2) / den if den < 0 else 0.0)
                points.append((pos, across) if axis == 0 else (across, pos))
                axes.append(axis)
                lines.append(int(k))
                weights.append(min(float(strength[k]), 4.0))
    in_image = cv2.perspectiveTransform(np.array(points, np.float32).reshape(-1, 1, 2),
                                        np.linalg.inv(h)).reshape(-1, 2) if points else np.zeros((0, 2), np.float32)
    if premiums is not None:   # the premium squares' centres: on both a vertical and a horizontal half-line each
        centres, cells = premiums(corners)
        for axis in (0, 1):
            in_image = np.concatenate([in_image, centres])
            axes += [axis] * len(centres)
            lines += cells[:, axis].tolist()
            weights += [PREMIUM_WEIGHT] * len(centres)
    if len(in_image) < 24:
        raise BoardNotFound("too few grid lines visible to refine the grid")
    try:
        fit = fit_grid(in_image, np.array(axes), np.array(lines), np.array(weights), size)
    except ValueError as exc:
        raise BoardNotFound(str(exc)) from exc
    return grid_corners(fit, size)


def _premium_finder(image: np.ndarray, size: int
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


def _premiums_prefer(premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None, refined: np.ndarray,
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


def _rescue_by_layout(image: np.ndarray, gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig,
                      premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None) -> np.ndarray | None:
    """A grid far off put right, or None: when fewer than ``ENOUGH_PREMIUMS`` premium squares sit on their cells
    under ``corners`` (a white board on a white table, an arm across it: the lattice fit can be squares off) or the
    squares' colours hardly follow the layout (``LAYOUT_DOUBT``: a dense board a row off, where tiles sitting on
    cells pass for premiums), the layout search (``tilecam.vision.layoutsearch``) proposes another grid, refined as
    any; it is taken only if the premium squares then clearly say it is the better one (``_premiums_prefer``) or
    the squares' colours follow the layout clearly better under it (``LAYOUT_BETTER``) and it is a grid that was
    seen: premiums on its cells, or all of it inside the frame (``_inside_frame``)."""
    if premiums is None:
        return None
    kinds = premium_kinds(cfg.size)
    fit = layout_fit(image, corners, kinds)
    if _premiums_on_cells(premiums, corners, cfg.size) and fit >= LAYOUT_DOUBT:
        return None
    candidate = search_layout(image, corners, kinds)
    for _ in range(cfg.refinements):
        try:
            candidate = _refine_grid(gray, candidate, cfg, premiums=premiums)
        except BoardNotFound:
            return None
    if _premiums_prefer(premiums, candidate, corners, cfg.size):
        return candidate
    better = layout_fit(image, candidate, kinds)
    if better < LAYOUT_DOUBT or better < LAYOUT_BETTER * fit:
        return None
    # Taken on the layout's colours alone, the grid must lie where the picture was seen, unless its premiums sit
    # on their cells: squares past the frame are the warp's black border, whose colour can pass for a kind's.
    return candidate if _premiums_on_cells(premiums, candidate, cfg.size) or _inside_frame(
        candidate, image.shape, cfg.size) else None


def _inside_frame(corners: np.ndarray, shape: tuple[int, ...], size: int) -> bool:
    """Whether every square of the grid ``corners`` has its middle inside a frame of ``shape``: the middles of
    its four corner squares are (a grid is convex, its squares' middles lie within theirs)."""
    unit = np.array([[0.5, 0.5], [size - 0.5, 0.5], [size - 0.5, size - 0.5], [0.5, size - 0.5]], np.float32)
    h = cv2.getPerspectiveTransform(np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32),
                                    np.asarray(corners, np.float32))
    middles = cv2.perspectiveTransform(unit.reshape(-1, 1, 2), h).reshape(4, 2)
    return bool((middles >= 0).all() and (middles <= (shape[1] - 1, shape[0] - 1)).all())


def _fit_lattice_span(profile: np.ndarray, size: int, pad: float) -> tuple[float, float, float]:
    n = len(profile)
    pitch0 = (n - 2 * pad) / size
    smooth = np.convolve(profile, np.ones(3) / 3, mode="same")
    start, pitch, _ = _lattice_search(smooth, size, np.arange(pad - 0.4 * pitch0, pad + 0.4 * pitch0, 0.5),
                                      np.linspace(pitch0 * 0.97, pitch0 * 1.03, 25), exact=False)
    return _lattice_search(smooth, size, start + np.linspace(-0.5, 0.5, 9), pitch + np.linspace(-0.05, 0.05, 9))


def _grow_quad(quad: np.ndarray, fraction: float) -> np.ndarray:
    """The quad extended by ``fraction`` of its side on every side (through its own homography)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    grown = np.array([[-fraction, -fraction], [1 + fraction, -fraction], [1 + fraction, 1 + fraction],
                      [-fraction, 1 + fraction]], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grown, h).reshape(4, 2)


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


def lattice_score(gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig = LocateConfig()) -> float:
    """How much stronger the gradient is on the grid lines these corners imply than halfway between them."""
    side = cfg.lattice_px
    square, _ = _warp_square(gray, corners, side)
    col, row = _profiles(square)
    k = np.arange(cfg.size + 1, dtype=np.float32)
    pitch = (side - 1) / cfg.size
    xs = np.arange(side, dtype=np.float32)
    scores = []
    for profile in (col, row):
        pos = np.clip(k * pitch, 1, side - 2)
        on = np.interp(pos[1:-1], xs, profile).mean()   # inner lines: the outer ones border the frame
        off = np.interp(pos[:-1] + pitch / 2, xs, profile).mean()
        scores.append(on / (off + 1e-3))
    return float(min(scores))


def draw_location(image: np.ndarray, location: BoardLocation, size: int = 15) -> np.ndarray:
    """The frame with the grid these corners imply drawn over it (for people to look at)."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, location.corners.astype(np.float32))
    for i in range(size + 1):
        t = i / size
        for a, b in (((t, 0), (t, 1)), ((0, t), (1, t))):
            pts = cv2.perspectiveTransform(np.array([[a, b]], np.float32), h).reshape(2, 2)
            cv2.line(out, tuple(np.round(pts[0]).astype(int)), tuple(np.round(pts[1]).astype(int)),
                     (0, 255, 255), 1, cv2.LINE_AA)
    for (x, y), name in zip(location.corners, ("TL", "TR", "BR", "BL")):
        cv2.circle(out, (round(float(x)), round(float(y))), 6, (0, 0, 255), 2)
        cv2.putText(out, name, (round(float(x)) + 8, round(float(y)) + 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    (0, 0, 255), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilecam.vision.locate", description=__doc__.splitlines()[0])
    parser.add_argument("image", type=Path)
    parser.add_argument("--debug", type=Path, help="folder for overlay pictures")
    parser.add_argument("--size", type=int, choices=sorted(LAYOUT_OF_SIZE), default=15,
                        help="squares a side: 15, or 21 for Super Scrabble (default 15)")
    args = parser.parse_args(argv)
    image = cv2.imread(str(args.image))
    if image is None:
        print(f"error: cannot read an image from {args.image}", file=sys.stderr)
        return 2
    if args.debug:      # what the grid's own lines give, drawn whether a board is found or not
        args.debug.mkdir(parents=True, exist_ok=True)
        out = args.debug / f"{args.image.stem}-lines.png"
        cv2.imwrite(str(out), draw_lines(image, args.size))
        print(f"line families and their lattices written to {out}")
    try:
        location = locate_board(image, LocateConfig(size=args.size))
    except BoardNotFound as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"corners {location.to_json()} score {location.score:.2f}")
    if args.debug:
        out = args.debug / f"{args.image.stem}-grid.png"
        cv2.imwrite(str(out), draw_location(image, location, args.size))
        print(f"overlay written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
