"""The premium squares' centres as grid points, and the grids they correct."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tilecam.vision.locate import _premium_kinds, locate_board
from tilecam.vision.premiums import premium_centres, premium_misfit

synth = pytest.importorskip("tilecam.models.synth")


def _to_grid(corners: np.ndarray, points: np.ndarray) -> np.ndarray:
    unit = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    h = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), unit)
    return cv2.perspectiveTransform(np.asarray(points, np.float32).reshape(-1, 1, 2), h).reshape(-1, 2)


def _off(corners: np.ndarray, grid_points) -> np.ndarray:
    unit = np.array([[0, 0], [15, 0], [15, 15], [0, 15]], np.float32)
    h = cv2.getPerspectiveTransform(unit, np.asarray(corners, np.float32))
    return cv2.perspectiveTransform(np.asarray(grid_points, np.float32).reshape(-1, 1, 2), h).reshape(4, 2)


def test_centres_are_found_on_their_cells_from_a_grid_a_quarter_square_off():
    # The washed-out white Hasbro board: faint grid lines, premium squares drawn inset from them.
    render = synth.render_board(None, seed=900_056, styles=synth.HELDOUT_STYLES)
    truth = np.asarray(render.corners, np.float32)
    off = _off(truth, [[0.25, -0.2], [15.2, 0.25], [14.75, 15.25], [-0.2, 14.8]])
    points, cells = premium_centres(render.image, off, _premium_kinds(15))
    assert len(points) >= 20
    miss = np.linalg.norm(_to_grid(truth, points) - cells, axis=1)     # measured against the TRUE grid
    # A stray one (a patch grown into its neighbour's colour) is left for the grid fit to drop.
    assert np.median(miss) < 0.03 and np.mean(miss < 0.08) >= 0.9, miss.round(3)
    found, misfit = premium_misfit(render.image, off, _premium_kinds(15))
    assert found >= 20 and misfit > 0.15          # the grid they were measured for is visibly off
    assert premium_misfit(render.image, truth, _premium_kinds(15))[1] < 0.04


def test_a_tile_hides_its_premium_square():
    rows = ["." * 15 for _ in range(15)]
    rows[0] = "Q" + "." * 14                    # on the triple word square at the top left
    rows[7] = "." * 7 + "A" + "." * 7           # on the centre star
    render = synth.render_board(rows, seed=42, style="classic/cream/sans", hand=[])
    _, cells = premium_centres(render.image, np.asarray(render.corners), _premium_kinds(15))
    found = {tuple(c) for c in cells.tolist()}
    assert (0.5, 0.5) not in found and (7.5, 7.5) not in found
    assert {(14.5, 0.5), (0.5, 14.5), (14.5, 14.5)} <= found        # the other corners' premiums are seen


def test_a_glare_washed_board_is_located_by_its_premiums_not_by_rows_of_tiles():
    """Held-out render 900099: glare wipes out the right-hand grid lines, and the lattice scores a grid locked onto
    rows of tiles higher than the true one; the premium squares' centres say which is right."""
    render = synth.render_board(None, seed=900_099, styles=synth.HELDOUT_STYLES)
    truth = np.asarray(render.corners, np.float32)
    found = np.asarray(locate_board(render.image).corners, np.float32)
    square = float(np.linalg.norm(truth[1] - truth[0])) / 15
    error = min(float(np.linalg.norm(np.roll(found, k, 0) - truth, axis=1).max()) for k in range(4)) / square
    assert error < 0.1
