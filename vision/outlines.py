"""Stage 1 of board localisation (:mod:`tilecam.vision.locate`): convex quadrilaterals that may be the board's outline.

The largest convex quadrilaterals in an edge map of a downscaled frame (its brightness, or its saturation: a white
board on a pale table), the frame's long straight lines intersected (a board on a turntable), the hull of its
premium squares (a glare over a white board), the lattices the grid's own lines give
(:mod:`tilecam.vision.gridlines`), and the whole frame. Each is only a candidate: the lattice search inside it
(:mod:`tilecam.vision.lattice`) decides.
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.gridlines import lattice_outlines
from tilecam.vision.locate_config import LocateConfig
from tilecam.vision.median import distinct
from tilecam.vision.premiums import box_ink, colour_apart_patches, hole_ink, premium_hull, saturated_patches


#: A board's edge is a straight line at least this share of the frame's shorter side (a board covering 8 % of the
#: frame has sides of ~28 %; half its length may be hidden by tiles overhanging it or a hand) …
LINE_MIN_LENGTH = 0.4
LINE_VOTES = 0.25        # … with edge pixels on it along at least this share (the Hough transform's votes), …
LINE_GAP = 0.03          # … whose breaks (a tile over the frame) are at most this share of that side, …
LINE_FAMILY_DEG = 12     # … and opposite edges lie within this many degrees of parallel (perspective splays them)
EDGE_APART = 0.05        # a line this share of the frame's side inside a family's outermost may be the board's edge
LINE_OUTLINES = 6        # outlines from lines tried at most (the largest, a few px apart)


def outline_candidates(gray: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """Convex quadrilaterals that may be the board, largest first, in full-frame pixels."""
    small, scale = downscaled(gray, cfg)
    quads = _outlines(small, scale, cfg)
    # The frame itself is the last resort: a board that fills the picture has no outline of its own (where three
    # outlines crowd it out here, ``locate_board`` still tries it when no grid is confirmed).
    quads.append((0.0, frame_outline(gray)))
    return _largest_apart(quads)


def frame_outline(image: np.ndarray) -> np.ndarray:
    """The whole frame as an outline (TL, TR, BR, BL, full-frame pixels)."""
    h, w = image.shape[:2]
    return np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)


def line_outlines(small: np.ndarray, scale: float, cfg: LocateConfig) -> list[np.ndarray]:
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


def saturation_outlines(image: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """Outlines as ``outline_candidates`` finds them, in the frame's saturation instead of its brightness: a
    white board on a tan or grey table differs from it more in colour than in light."""
    small, scale = downscaled(image, cfg)
    return _largest_apart(_outlines(cv2.cvtColor(small, cv2.COLOR_BGR2HSV)[..., 1], scale, cfg))


def premium_outlines(image: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """The grid's outline from the hull of its premium squares (``premiums.premium_hull``), as it is and a little
    grown (the lattice search wants the grid's edge lines inside the outline), the squares seen as saturated
    patches (a white board) and as patches of a colour apart from the board's (a coloured one); none where no
    premiums are seen."""
    small, scale = downscaled(image, cfg)
    min_side = np.sqrt(cfg.min_board_fraction * small.shape[0] * small.shape[1]) / cfg.size
    quads = []
    for mask, ink in ((saturated_patches(small), box_ink), (colour_apart_patches(small), hole_ink)):
        hull = premium_hull(small, min_side, mask, ink)
        quad = None if hull is None else _hull_to_quad(hull)
        if quad is not None:
            quads += [quad / scale, grow_quad(quad / scale, 0.03)]
    return quads


def gridline_outlines(gray: np.ndarray, cfg: LocateConfig) -> list[np.ndarray]:
    """The outlines of the lattices the grid's own lines give (``gridlines.lattice_outlines``), as found and a
    little grown (the lattice search wants the grid's edge lines inside the outline)."""
    quads = [order_corners(quad) for quad in lattice_outlines(gray, cfg.size)]
    return [q for quad in quads for q in (quad, grow_quad(quad, 0.03))]


def downscaled(image: np.ndarray, cfg: LocateConfig) -> tuple[np.ndarray, float]:
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


def grow_quad(quad: np.ndarray, fraction: float) -> np.ndarray:
    """The quad extended by ``fraction`` of its side on every side (through its own homography)."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.asarray(quad, np.float32))
    grown = np.array([[-fraction, -fraction], [1 + fraction, -fraction], [1 + fraction, 1 + fraction],
                      [-fraction, 1 + fraction]], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grown, h).reshape(4, 2)
