"""The optional ArUco marker mode on a synthetic picture with known corners."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tilecam.vision.aruco import locate_with_markers, marker_image, marker_sheet
from tilecam.vision.locate import BoardNotFound


def scene_with_markers(drop: int | None = None):
    side, m = 600, 80
    flat = np.full((side + 2 * m, side + 2 * m), 200, np.uint8)
    grid = np.array([[m, m], [m + side, m], [m + side, m + side], [m, m + side]], np.float32)
    for i, (x, y) in enumerate(grid):
        if i == drop:
            continue
        # The marker sits outside the grid, touching the corner with its inner corner.
        x0 = int(x) - m if i in (0, 3) else int(x)
        y0 = int(y) - m if i in (0, 1) else int(y)
        flat[y0:y0 + m, x0:x0 + m] = cv2.resize(marker_image(i, 100)[12:88, 12:88], (m, m),
                                                interpolation=cv2.INTER_NEAREST)
    src = np.array([[0, 0], [flat.shape[1], 0], [flat.shape[1], flat.shape[0]], [0, flat.shape[0]]], np.float32)
    dst = np.array([[60, 40], [700, 80], [660, 560], [90, 520]], np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    image = cv2.warpPerspective(flat, h, (760, 600), borderValue=120)
    truth = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h).reshape(4, 2)
    return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), truth


def test_markers_give_the_grid_corners():
    image, truth = scene_with_markers()
    location = locate_with_markers(image)
    assert location.method == "aruco"
    assert np.abs(location.corners - truth).max() < 3


def test_a_missing_marker_is_named():
    image, _ = scene_with_markers(drop=2)
    with pytest.raises(BoardNotFound, match=r"\[2\]"):
        locate_with_markers(image)


def test_printable_sheet_holds_all_four():
    sheet = marker_sheet(200)
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                       cv2.aruco.DetectorParameters())
    _, ids, _ = detector.detectMarkers(sheet)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
