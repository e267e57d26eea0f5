"""The grid's outline from its own lines (``tilecam.vision.gridlines``): a clear grid on a turntable."""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.gridlines import (families, lattice_outlines, lattices, rectifying_homography, segments,
                                      vanishing_point)
from tilecam.vision.locate import locate_board, order_corners, premium_kinds


def _clear_grid_on_a_turntable() -> tuple[np.ndarray, np.ndarray]:
    """A clear grid (thin light lines, no frame) over a wooden disc, purple tiles on some cells, its premium squares
    tinted, a dark rack lying straight beside it, seen at an angle. Returns the picture and the grid's corners."""
    rng = np.random.default_rng(5)
    flat = np.full((1000, 1000, 3), (70, 90, 100), np.uint8)                    # a grey table
    cv2.circle(flat, (500, 500), 470, (120, 170, 215), -1)                     # the wooden disc
    x0, cell = 200, 40
    kinds = premium_kinds(15)
    tint = {"TW": (60, 60, 200), "DW": (170, 150, 230), "TL": (200, 120, 60), "DL": (230, 200, 150)}
    for r in range(15):
        for c in range(15):
            x, y = x0 + c * cell, x0 + r * cell
            if kinds[r, c]:
                cv2.rectangle(flat, (x + 2, y + 2), (x + cell - 2, y + cell - 2), tint[kinds[r, c]], -1)
            elif (r * 7 + c * 3) % 5 == 0:                                       # a tile, its letter a stroke
                cv2.rectangle(flat, (x + 3, y + 3), (x + cell - 3, y + cell - 3), (110, 30, 70), -1)
                cv2.line(flat, (x + 14, y + 12), (x + 20, y + 28), (235, 235, 235), 3)
    for k in range(16):
        cv2.line(flat, (x0 + k * cell, x0), (x0 + k * cell, x0 + 15 * cell), (215, 225, 230), 4)
        cv2.line(flat, (x0, x0 + k * cell), (x0 + 15 * cell, x0 + k * cell), (215, 225, 230), 4)
    cv2.rectangle(flat, (250, 870), (750, 905), (90, 80, 20), -1)               # a rack, a long straight edge
    flat = np.clip(flat + rng.normal(0, 4, flat.shape), 0, 255).astype(np.uint8)
    grid = np.array([[x0, x0], [x0 + 600, x0], [x0 + 600, x0 + 600], [x0, x0 + 600]], np.float32)
    # Seen from a chair: the far side narrower, a little turned.
    view = cv2.getPerspectiveTransform(np.array([[0, 0], [1000, 0], [1000, 1000], [0, 1000]], np.float32),
                                       np.array([[230, 120], [930, 160], [1060, 900], [90, 860]], np.float32))
    image = cv2.warpPerspective(flat, view, (1152, 1000), borderValue=(70, 90, 100))
    return image, cv2.perspectiveTransform(grid.reshape(-1, 1, 2), view).reshape(4, 2)


def _off(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance, in squares, under the best of the four turns."""
    side = np.linalg.norm(truth[1] - truth[0]) / 15
    return min(np.abs(np.roll(found, k, 0) - truth).max() for k in range(4)) / side


def test_segments_fall_into_two_families_each_through_its_vanishing_point():
    image, corners = _clear_grid_on_a_turntable()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    lines = families(segments(gray))
    assert len(lines) == 2
    truth = np.column_stack([corners, np.ones(4)])
    true_points = [np.cross(np.cross(truth[0], truth[1]), np.cross(truth[3], truth[2])),
                   np.cross(np.cross(truth[0], truth[3]), np.cross(truth[1], truth[2]))]
    for family in lines:
        point, through = vanishing_point(family)
        assert through.sum() >= 10
        # The point found is one of the grid's two: the same direction seen from the board's middle.
        middle = corners.mean(axis=0)
        turn = [np.degrees(np.arccos(min(1.0, abs(np.dot(_towards(point, middle), _towards(p, middle))))))
                for p in true_points]
        assert min(turn) < 1.0


def _towards(point: np.ndarray, middle: np.ndarray) -> np.ndarray:
    d = point[:2] - middle * point[2]
    return d / np.linalg.norm(d)


def test_the_vanishing_points_rectify_the_grid_to_rows_and_columns():
    image, corners = _clear_grid_on_a_turntable()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    lines = families(segments(gray))
    found = [vanishing_point(f) for f in lines]
    ends = np.concatenate([f[through] for f, (_, through) in zip(lines, found)]).reshape(-1, 2)
    h = rectifying_homography(found[0][0], found[1][0], ends, gray.shape)
    flat = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), h).reshape(4, 2)
    # Opposite sides parallel to the axes (within a degree): each side runs along x or along y.
    for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
        d = flat[b] - flat[a]
        assert min(abs(np.degrees(np.arctan2(d[1], d[0]))) % 90, 90 - abs(np.degrees(np.arctan2(d[1], d[0]))) % 90) < 1


def test_a_long_edge_beside_the_lines_does_not_pull_the_lattice_off():
    """Sixteen evenly spaced lines and, beside them, one far stronger (a rack): the lattice is the sixteen."""
    profile = np.zeros(640)
    for k in range(16):
        profile[100 + k * 20] = 10.0
    profile[30] = 80.0
    profile = cv2.GaussianBlur(profile.reshape(1, -1), (0, 0), 1.5).ravel()
    start, pitch, _ = lattices(np.minimum(profile, np.percentile(profile[profile > 1], 75)), 15)[0]
    assert abs(start - 100) < 1 and abs(pitch - 20) < 0.1


def test_a_clear_grid_on_a_turntable_is_outlined_by_its_own_lines_and_located():
    image, corners = _clear_grid_on_a_turntable()
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    assert min(_off(order_corners(quad), corners) for quad in lattice_outlines(gray)) < 0.5
    assert _off(np.asarray(locate_board(image).corners), corners) < 0.1


def test_the_debug_drawing_shows_both_families_and_the_lattice():
    from tilecam.vision.gridlines import draw_lines

    image, _ = _clear_grid_on_a_turntable()
    drawn = draw_lines(image)
    assert drawn.shape == image.shape
    for colour in ((0, 0, 255), (255, 0, 0), (0, 255, 255)):            # red, blue, yellow
        assert (drawn == colour).all(axis=2).sum() > 100


def test_the_locators_debug_writes_the_line_families_found_or_not(tmp_path):
    from tilecam.vision.locate import main

    image, _ = _clear_grid_on_a_turntable()
    cv2.imwrite(str(tmp_path / "turntable.png"), image)
    cv2.imwrite(str(tmp_path / "table.png"), np.full((480, 640, 3), 120, np.uint8))
    assert main([str(tmp_path / "turntable.png"), "--debug", str(tmp_path / "out")]) == 0
    assert main([str(tmp_path / "table.png"), "--debug", str(tmp_path / "out")]) == 1      # no board …
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"turntable-lines.png", "turntable-grid.png",
                                                             "table-lines.png"}           # … its lines drawn
