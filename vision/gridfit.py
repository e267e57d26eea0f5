"""The playing grid fitted to measured points of its lines: one homography by a line-constraint DLT.

Each measured point lies on a known grid line (``u = k`` or ``v = k`` in grid units, 0..15). The map ``G`` from
the image to grid units makes that linear — a point ``p`` on the vertical line ``k`` satisfies
``G₁·p − k G₃·p = 0`` — so all points together give ``G`` by one SVD; points far from their line (a tile edge
taken for the line) are dropped and the fit repeated.

Tried and left out: a radial lens term (k1) searched with the fit. On renders with the lens of
``tilecam.models.synth`` (|k1| ≤ 0.015, at most ~1.5 px at the grid's corners) the estimate followed tile
shading more than the lens and made corners worse; a lens strong enough to matter wants a calibration instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecam.vision.median import median

CAP = 0.1                   # squares: a point further from its line than this is not on it
MIN_POINTS = 12


@dataclass(frozen=True)
class GridFit:
    """``homography``: grid units → image pixels; ``residual``: mean distance of the points from their lines, in
    squares, each counted at most ``CAP``; ``kept``: how many points the fit used."""

    homography: np.ndarray
    residual: float
    kept: int


def _normaliser(points: np.ndarray) -> np.ndarray:
    """Hartley's normalisation: centroid to the origin, mean distance √2 (keeps the DLT well conditioned)."""
    m = points.mean(axis=0)
    s = np.sqrt(2) / max(float(np.linalg.norm(points - m, axis=1).mean()), 1e-9)
    return np.array([[s, 0, -s * m[0]], [0, s, -s * m[1]], [0, 0, 1]])


def _fit_homography(points: np.ndarray, axis: np.ndarray, index: np.ndarray, weights: np.ndarray,
                    grid_size: int) -> np.ndarray:
    """Image → grid map ``G`` (3x3) from points on known lines (line-constraint DLT, normalised)."""
    t_img = _normaliser(points)
    half = grid_size / 2
    t_grid = np.array([[1 / half, 0, -1], [0, 1 / half, -1], [0, 0, 1]])   # grid units → -1..1
    p = np.c_[points, np.ones(len(points))] @ t_img.T
    k = (index - half) / half
    rows = np.zeros((len(points), 9))
    for a in (0, 1):
        sel = axis == a
        rows[sel, 3 * a:3 * a + 3] = p[sel]
        rows[sel, 6:9] = -k[sel, None] * p[sel]
    _, _, vt = np.linalg.svd(rows * weights[:, None], full_matrices=False)
    g = np.linalg.inv(t_grid) @ vt[-1].reshape(3, 3) @ t_img
    return g / g[2, 2]


def _line_distances(g: np.ndarray, points: np.ndarray, axis: np.ndarray, index: np.ndarray) -> np.ndarray:
    """How far (in squares) each point is from its line under the image → grid map ``g``."""
    q = np.c_[points, np.ones(len(points))] @ g.T
    return np.abs(q[np.arange(len(q)), axis] / q[:, 2] - index)


def fit_grid(points: np.ndarray, axis: np.ndarray, index: np.ndarray, weights: np.ndarray,
             grid_size: int = 15) -> GridFit:
    """Fit the grid to ``points`` (N x 2 image pixels), each on line ``index[i]`` of ``axis[i]`` (0: a vertical
    line, ``u = index``; 1: a horizontal one, ``v = index``), weighted by ``weights``."""
    points = np.asarray(points, np.float64).reshape(-1, 2)
    axis, index = np.asarray(axis, np.intp), np.asarray(index, np.float64)
    weights = np.asarray(weights, np.float64)
    if len(points) < MIN_POINTS or len(set(axis.tolist())) < 2:
        raise ValueError("too few points on grid lines to fit the grid")
    keep = np.ones(len(points), bool)
    for _ in range(3):
        g = _fit_homography(points[keep], axis[keep], index[keep], weights[keep], grid_size)
        dist = _line_distances(g, points, axis, index)
        new_keep = dist < max(0.04, 3 * float(median(dist[keep])))
        if new_keep.sum() < MIN_POINTS or (new_keep == keep).all():
            break
        keep = new_keep
    residual = float(np.average(np.minimum(dist, CAP), weights=weights))
    return GridFit(np.linalg.inv(g), residual, int(keep.sum()))


def grid_corners(fit: GridFit, grid_size: int = 15) -> np.ndarray:
    """The grid's four corners (TL, TR, BR, BL in grid order) in the image."""
    unit = np.array([[0, 0], [grid_size, 0], [grid_size, grid_size], [0, grid_size]], np.float64)
    q = np.c_[unit, np.ones(4)] @ fit.homography.T
    return (q[:, :2] / q[:, 2:]).astype(np.float32)
