"""The grid's outline from its own lines: for a board with no outline of its own.

A clear acrylic grid on a wooden turntable, a board merged with the table's pattern or a corner out of the frame
has no edge contour and no four long straight sides to find — but its sixteen grid lines a side, and the edges of
the tiles lying on its cells, are still there: two families of many short segments, each family meeting at its
vanishing point. The two vanishing points give the horizon; sending it to infinity and the two directions to the
axes makes the grid a lattice of rows and columns again (up to a scale per axis), where a 1-D search per axis finds
its ``size + 1`` evenly spaced lines. The corners of that lattice, mapped back, are an outline that the locator
then fits and refines like any other (``tilecam.vision.locate``): this stage only has to land near the grid.

Each step is a pure function with its result to look at: :func:`segments`, :func:`families`,
:func:`vanishing_point`, :func:`rectifying_homography`, :func:`line_profile`, :func:`lattices`,
:func:`lattice_outlines`; :func:`draw_lines` draws them.
"""

from __future__ import annotations

import cv2
import numpy as np

WORK_PX = 768               # the frame is searched downscaled to this longer side (a square stays ≥ 20 px wide)
#: A segment shorter than this share of the frame's longer side is left out (a letter's stroke, a print's dots). The
#: line segment detector breaks a grid line at every line crossing it, into pieces a square long: a square is 1.5-3 %
#: of the frame's longer side where the board fills a third to two thirds of it (0.03 lost most of a grid's lines).
MIN_SEGMENT = 0.015
FAMILY_DEG = 20             # a family holds segments within this many degrees of its direction (perspective splays)
FAMILIES_APART_DEG = 35     # the two families' directions lie at least this far apart (a steep view shears them)
#: A segment belongs to a vanishing point when the line from its middle to the point turns from it by less than its
#: own direction's error: ``VP_TOLERANCE_PX`` of the downscaled frame across its length, or this many degrees.
VP_TOLERANCE_PX = 1.5
VP_TOLERANCE_DEG = 0.5
VP_TRIALS = 300             # RANSAC samples per family (pairs of segments)
CANVAS_PX = 640             # the rectified picture's longer side
CANVAS_MARGIN = 0.1         # share of the segments' extent added on each side (the grid's outer lines lie within)
#: The segments must lie on the board's side of the horizon, at least this far from it (in the frame's longer side,
#: normalised), …
HORIZON_CLEAR = 0.02
ON_ONE_SIDE = 0.95          # … this share of their ends (a few may be noise beyond it)
#: A position's segment length counts up to this percentile of the profile's peaks (the grid lines' typical one).
PEAK_CAP_PERCENTILE = 75
JOINT_KEEP = 2              # the best this many (rows, columns) lattices become outlines
PROFILE_SIGMA = 1.5         # px of the rectified picture a segment's position is smeared over
#: The lattice spans at least this share of the rectified picture's side (a board covering less of the frame than
#: ``LocateConfig.min_board_fraction`` is not looked for here either).
MIN_SPAN = 0.25


def segments(gray: np.ndarray) -> np.ndarray:
    """Line segments (N x 4: x1, y1, x2, y2, in ``gray``'s pixels) long enough to be grid lines or tile edges."""
    scale = WORK_PX / max(gray.shape[:2])
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD).detect(small)[0]
    if found is None:
        return np.zeros((0, 4), np.float64)
    lines = found.reshape(-1, 4).astype(np.float64)
    return lines[_lengths(lines) >= MIN_SEGMENT * WORK_PX] / scale


def _angles(lines: np.ndarray) -> np.ndarray:
    return np.degrees(np.arctan2(lines[:, 3] - lines[:, 1], lines[:, 2] - lines[:, 0])) % 180


def _lengths(lines: np.ndarray) -> np.ndarray:
    return np.hypot(lines[:, 2] - lines[:, 0], lines[:, 3] - lines[:, 1])


def families(lines: np.ndarray) -> list[np.ndarray]:
    """The two directions most segment length runs along, and the segments near each (at most two arrays)."""
    if len(lines) < 4:
        return []
    angle, length = _angles(lines), _lengths(lines)
    hist = np.bincount(np.round(angle).astype(int) % 180, weights=length, minlength=180)
    hist = np.convolve(np.concatenate([hist[-5:], hist, hist[:5]]), np.ones(5) / 5, mode="same")[5:-5]
    first = int(np.argmax(hist))
    apart = np.abs((np.arange(180) - first + 90) % 180 - 90) >= FAMILIES_APART_DEG
    second = int(np.argmax(np.where(apart, hist, -1)))
    out = []
    for peak in (first, second):
        near = np.abs((angle - peak + 90) % 180 - 90) < FAMILY_DEG
        out.append(lines[near])
    return out


def _homogeneous(lines: np.ndarray) -> np.ndarray:
    """Each segment's line as a unit homogeneous 3-vector."""
    ones = np.ones(len(lines))
    l = np.cross(np.column_stack([lines[:, :2], ones]), np.column_stack([lines[:, 2:], ones]))
    return l / np.linalg.norm(l[:, :2], axis=1, keepdims=True)


def _tolerance(lines: np.ndarray, scale: float) -> np.ndarray:
    """Each segment's angular tolerance (degrees) for belonging to a vanishing point."""
    return np.maximum(VP_TOLERANCE_DEG, np.degrees(np.arctan(VP_TOLERANCE_PX / (_lengths(lines) * scale))))


def _turn_to(lines: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Degrees between each segment and the line from its middle to each homogeneous point of ``points`` (K x 3,
    or one 3-vector; a point at infinity is its direction): K x N, or N for one point."""
    middle = (lines[:, :2] + lines[:, 2:]) / 2
    pts = np.atleast_2d(points)
    to = pts[:, None, :2] - middle[None] * pts[:, None, 2:3]
    along = lines[:, 2:] - lines[:, :2]
    cos = np.abs((to * along).sum(axis=2)) / (np.linalg.norm(to, axis=2) * np.linalg.norm(along, axis=1) + 1e-12)
    turn = np.degrees(np.arccos(np.clip(cos, 0, 1)))
    return turn if np.ndim(points) == 2 else turn[0]


def vanishing_point(lines: np.ndarray, scale: float = 1.0, seed: int = 0) -> tuple[np.ndarray, np.ndarray] | None:
    """(homogeneous vanishing point, mask of the segments through it) of one family: RANSAC over pairs of segments,
    the most segment length within each segment's tolerance (``_tolerance``: ``scale`` is the downscaled frame's
    over the segments' pixels), then least squares over those. None for too few."""
    if len(lines) < 6:
        return None
    rng = np.random.default_rng(seed)
    homo, length, tolerance = _homogeneous(lines), _lengths(lines), _tolerance(lines, scale)
    pick = length / length.sum()
    first = rng.choice(len(lines), VP_TRIALS, p=pick)
    second = rng.choice(len(lines), VP_TRIALS, p=pick)
    points = np.cross(homo[first[first != second]], homo[second[first != second]])
    points = points[np.isfinite(points).all(axis=1) & (np.abs(points).max(axis=1) > 0)]
    if not len(points):
        return None
    support = ((_turn_to(lines, points) < tolerance) * length).sum(axis=1)
    best = points[int(np.argmax(support))]
    inliers = _turn_to(lines, best) < tolerance
    weighted = homo[inliers] * np.sqrt(length[inliers])[:, None]
    point = np.linalg.svd(weighted)[2][-1]
    inliers = _turn_to(lines, point) < tolerance
    return point, inliers


def rectifying_homography(vp_a: np.ndarray, vp_b: np.ndarray, points: np.ndarray, shape: tuple[int, ...]
                          ) -> np.ndarray | None:
    """The homography from the frame to a picture where family ``a`` runs along x and family ``b`` along y: the
    horizon through both vanishing points sent to infinity, then each family's direction to its axis, and the
    ``points`` (N x 2 frame pixels: the ends of the segments through them) scaled to fill ``CANVAS_PX`` with a
    margin of ``CANVAS_MARGIN`` (not the whole frame: in a steep view the far table stretches without end and would
    leave the board a few pixels). None where the points do not lie on one side of the horizon (no plane's
    picture)."""
    h, w = shape[:2]
    s = 1.0 / max(h, w)
    norm = np.array([[s, 0, -0.5 * w * s], [0, s, -0.5 * h * s], [0, 0, 1]])
    a, b = norm @ vp_a, norm @ vp_b
    horizon = np.cross(a, b)
    if not np.linalg.norm(horizon):
        return None         # one vanishing point for both families: no plane
    at = np.column_stack([points, np.ones(len(points))]) @ norm.T
    horizon = horizon * np.sign(np.median(at @ horizon)) / np.linalg.norm(horizon)
    side = at @ horizon
    if np.mean(side > HORIZON_CLEAR * np.linalg.norm(horizon[:2])) < ON_ONE_SIDE:
        return None
    projective = np.array([[1, 0, 0], [0, 1, 0], horizon])
    da, db = projective @ a, projective @ b          # directions at infinity now (third coordinate ~0)
    axes = np.linalg.inv(np.column_stack([da[:2] / np.linalg.norm(da[:2]), db[:2] / np.linalg.norm(db[:2])]))
    affine = np.eye(3)
    affine[:2, :2] = axes
    out = affine @ projective @ norm
    flat = cv2.perspectiveTransform(points[side > 0].reshape(-1, 1, 2).astype(np.float64), out).reshape(-1, 2)
    lo, hi = np.percentile(flat, 1, axis=0), np.percentile(flat, 99, axis=0)
    lo, hi = lo - CANVAS_MARGIN * (hi - lo), hi + CANVAS_MARGIN * (hi - lo)
    fit = CANVAS_PX / max(hi - lo)
    place = np.array([[fit, 0, -lo[0] * fit], [0, fit, -lo[1] * fit], [0, 0, 1]])
    return place @ out


def line_profile(ends: np.ndarray, axis: int, span: tuple[float, float] = (0, CANVAS_PX)) -> np.ndarray:
    """Segment length per pixel of the rectified picture along ``axis`` (0: x, for segments that run along y there;
    1: y), each segment (``ends`` in the rectified picture) counted at its middle if that lies within ``span`` on
    the other axis, smoothed over ``PROFILE_SIGMA`` px."""
    position = (ends[:, axis] + ends[:, axis + 2]) / 2
    across = (ends[:, 1 - axis] + ends[:, 3 - axis]) / 2
    length = _lengths(ends)
    keep = (position >= 0) & (position < CANVAS_PX) & (across >= span[0]) & (across <= span[1])
    profile = np.bincount(position[keep].astype(int), weights=length[keep], minlength=CANVAS_PX)[:CANVAS_PX]
    profile = cv2.GaussianBlur(profile.reshape(1, -1), (0, 0), PROFILE_SIGMA).ravel()
    # One long straight thing beside the board (a rack, the table's edge) must not outweigh several grid lines: a
    # line counts at most as much as a typical strong one.
    peaks = profile[(profile > np.roll(profile, 1)) & (profile >= np.roll(profile, -1)) & (profile > 0)]
    return np.minimum(profile, np.percentile(peaks, PEAK_CAP_PERCENTILE)) if len(peaks) else profile


def _lattice_scores(profile: np.ndarray, size: int, starts: np.ndarray, pitch: float, exact: bool = True
                    ) -> np.ndarray:
    """Segment length on the ``size + 1`` lines from each of ``starts`` at ``pitch``, less that between them (a
    difference, not a ratio: a profile of segments is empty between the lines, and by a ratio a lattice at half the
    pitch would score as well as the true one); ``exact=False``: at the nearest samples (the coarse pass)."""
    k = np.arange(size + 1)
    on_at = starts[:, None] + pitch * k
    off_at = starts[:, None] + pitch * (k[:-1] + 0.5)
    if not exact:
        on, off = profile[np.rint(on_at).astype(np.intp)], profile[np.rint(off_at).astype(np.intp)]
        return on.mean(axis=1) - off.mean(axis=1)
    xs = np.arange(len(profile))
    return np.interp(on_at, xs, profile).mean(axis=1) - np.interp(off_at, xs, profile).mean(axis=1)


def lattices(profile: np.ndarray, size: int, keep: int = 3) -> list[tuple[float, float, float]]:
    """The ``keep`` best (first line, pitch, score) of ``size + 1`` evenly spaced lines along ``profile``, each
    at least two of its squares from a better one (a rack or the table's edge beside the board can make a lattice
    of its own over part of it: the locator judges the candidates)."""
    n = len(profile)
    starts, pitches, scores = [], [], []
    for pitch in np.arange(n * MIN_SPAN / size, (n - 1) / size, 0.5):
        at = np.arange(0, n - 1 - size * pitch, 1.0)
        if len(at):
            starts.append(at)
            pitches.append(np.full(len(at), pitch))
            scores.append(_lattice_scores(profile, size, at, pitch, exact=False))
    if not starts:
        return []
    starts, pitches, scores = np.concatenate(starts), np.concatenate(pitches), np.concatenate(scores)
    chosen: list[tuple[float, float, float]] = []
    for i in np.argsort(-scores):
        start, pitch, score = float(starts[i]), float(pitches[i]), float(scores[i])
        if len(chosen) == keep or score <= 0:
            break
        if all(abs(start - s0) > 2 * p0 or abs(start + size * pitch - s0 - size * p0) > 2 * p0
               for s0, p0, _ in chosen):
            chosen.append((start, pitch, score))
    out = []
    for start, pitch, _ in chosen:       # finer steps around each
        around = start + np.linspace(-1, 1, 11)
        fine = [(float(st), float(pt), float(sc)) for pt in pitch + np.linspace(-0.5, 0.5, 11)
                for st, sc in zip(around, _lattice_scores(profile, size, around, pt))]
        out.append(max(fine, key=lambda c: c[2]))
    return out


def _span(lattice: tuple[float, float, float], size: int) -> tuple[float, float]:
    start, pitch, _ = lattice
    return start - pitch, start + (size + 1) * pitch


def _joint_lattices(rows_ends: np.ndarray, columns_ends: np.ndarray, size: int
                    ) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
    """(rows, columns) lattices, best first: from each of the best lattices of one axis over the whole picture,
    the other axis searched among the segments across it only, and the first searched again among those across
    that (a rack's or the table's edge lies beside the board, not across its columns). Scored by the product."""
    found = []
    for start_with_rows in (True, False):
        first_ends, other_ends = (rows_ends, columns_ends) if start_with_rows else (columns_ends, rows_ends)
        first_axis, other_axis = (1, 0) if start_with_rows else (0, 1)
        for first in lattices(line_profile(first_ends, first_axis), size):
            other = lattices(line_profile(other_ends, other_axis, _span(first, size)), size, keep=1)
            if not other:
                continue
            again = lattices(line_profile(first_ends, first_axis, _span(other[0], size)), size, keep=1)
            if not again:
                continue
            pair = (again[0], other[0]) if start_with_rows else (other[0], again[0])
            found.append(pair)
    return sorted(found, key=lambda rc: -rc[0][2] * rc[1][2])


def families_through(gray: np.ndarray) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Each family's segments (``families``) with its ``vanishing_point`` (None where too few)."""
    scale = WORK_PX / max(gray.shape[:2])
    return [(family, vanishing_point(family, scale)) for family in families(segments(gray))]


def lattice_outlines(gray: np.ndarray, size: int = 15,
                     found: list[tuple[np.ndarray, np.ndarray | None]] | None = None) -> list[np.ndarray]:
    """Outlines (4 x 2 frame pixels, in the lattice's own order: the locator orders them) of the best lattices
    found in the picture the grid's own lines rectify; none where two families of lines are not found. ``found``:
    ``families_through(gray)``, when already at hand."""
    found = families_through(gray) if found is None else found
    if len(found) < 2 or any(vp is None for _, vp in found):
        return []
    through = [family[vp[1]] for family, vp in found]
    h = rectifying_homography(found[0][1][0], found[1][1][0], np.concatenate(through).reshape(-1, 2), gray.shape)
    if h is None:
        return []
    # Family a runs along x in the rectified picture: its lines are the rows, measured along y.
    ends = [cv2.perspectiveTransform(t.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 4) for t in through]
    quads = []
    joint = _joint_lattices(ends[0], ends[1], size)
    distinct = [pair for i, pair in enumerate(joint) if pair not in joint[:i]]   # both starts often agree
    for (y0, py, _), (x0, px, _) in distinct[:JOINT_KEEP]:
        x1, y1 = x0 + size * px, y0 + size * py
        grid = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64).reshape(-1, 1, 2)
        quads.append(cv2.perspectiveTransform(grid, np.linalg.inv(h)).reshape(4, 2).astype(np.float32))
    return quads


def draw_lines(image: np.ndarray, size: int = 15) -> np.ndarray:
    """The frame with what this stage saw: each family's segments through its vanishing point (red, blue), the
    others grey, and the lattices' outlines (yellow)."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    width = max(1, round(max(gray.shape) / 800))
    found = families_through(gray)
    for (family, vp), colour in zip(found, ((0, 0, 255), (255, 0, 0))):
        through = vp[1] if vp is not None else np.zeros(len(family), bool)
        for line, on in zip(family, through):
            cv2.line(out, tuple(np.rint(line[:2]).astype(int)), tuple(np.rint(line[2:]).astype(int)),
                     colour if on else (128, 128, 128), width)
    for quad in lattice_outlines(gray, size, found):
        cv2.polylines(out, [np.rint(quad).astype(np.int32)], True, (0, 255, 255), 2 * width)
    return out


__all__ = ["segments", "families", "vanishing_point", "families_through", "rectifying_homography", "line_profile",
           "lattices", "lattice_outlines", "draw_lines"]
