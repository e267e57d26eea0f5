"""Stage 2 of board localisation (:mod:`tilecam.vision.locate`): the playing grid inside an outline.

The outline is warped to a square, where the 16 grid lines of each axis are a regular lattice; a 1-D search over
(first line, pitch) on the gradient profile of each axis finds them, once in the outline and once more on the grid
found. Then each line is measured on its own in strips across the square and one homography is fitted to all the
measurements (:mod:`tilecam.vision.gridfit`: least squares, disagreeing ones dropped), which takes out the turn,
shear and perspective the outline left; the premium squares' centres, where given, join the fit.
:func:`lattice_score` says how much a grid's lines stand out.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from tilecam.vision.gridfit import fit_grid, grid_corners
from tilecam.vision.locate_config import BoardNotFound, LocateConfig
from tilecam.vision.median import median
from tilecam.vision.outlines import grow_quad


#: Weight of a premium square's centre in the grid fit, per axis (a line measurement weighs 1.2-4 by its contrast).
PREMIUM_WEIGHT = 2.0


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


def lattice_in_outline(gray: np.ndarray, quad: np.ndarray, cfg: LocateConfig) -> tuple[float, np.ndarray]:
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


def refine_axes(gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig) -> np.ndarray:
    """The grid found so far, refined by one lattice (first line, pitch) per axis in the square it rectifies to:
    robust, and it takes out the outline's error of scale and shift (not turn or shear: see refine_grid)."""
    side = cfg.lattice_px
    grow = 0.5 / cfg.size
    square, h = _warp_square(gray, grow_quad(corners, grow), side)
    pad = side * grow / (1 + 2 * grow)
    col, row = _profiles(square)
    x0, px, _ = _fit_lattice_span(col, cfg.size, pad)
    y0, py, _ = _fit_lattice_span(row, cfg.size, pad)
    return _lattice_corners(h, x0, px, y0, py, cfg.size)


def _fit_lattice_span(profile: np.ndarray, size: int, pad: float) -> tuple[float, float, float]:
    n = len(profile)
    pitch0 = (n - 2 * pad) / size
    smooth = np.convolve(profile, np.ones(3) / 3, mode="same")
    start, pitch, _ = _lattice_search(smooth, size, np.arange(pad - 0.4 * pitch0, pad + 0.4 * pitch0, 0.5),
                                      np.linspace(pitch0 * 0.97, pitch0 * 1.03, 25), exact=False)
    return _lattice_search(smooth, size, start + np.linspace(-0.5, 0.5, 9), pitch + np.linspace(-0.05, 0.05, 9))


def refine_grid(gray: np.ndarray, corners: np.ndarray, cfg: LocateConfig, bands: int = 6,
                premiums: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]] | None = None) -> np.ndarray:
    """The grid found so far, refined line by line: in the square it rectifies to, each of the 16 lines of each
    axis is measured in ``bands`` strips across it (the strongest gradient near where the line should be), and
    one homography is fitted to all those points in the image (``tilecam.vision.gridfit``), dropping the ones that
    disagree (a tile edge taken for the line). It corrects what is left of turn, shear and perspective, which the
    outline alone cannot."""
    size, side = cfg.size, cfg.lattice_px
    grow = 0.5 / size          # look half a square beyond the grid so that its outer lines are inside the square
    square, h = _warp_square(gray, grow_quad(corners, grow), side)
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
