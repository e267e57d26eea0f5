"""Optional marker mode for hard set-ups (a busy table, a low camera angle): four printed ArUco markers.

Markers ``0``–``3`` (dictionary 4x4_50) lie at the grid's top-left, top-right, bottom-right and bottom-left corners,
each touching the grid with its corner nearest the board's centre. The grid corners are those inner corners, and
the marker ids also fix which edge is row 1, so no orientation guess is needed.
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.locate import BoardLocation, BoardNotFound
from tilecam.vision.warp import homography_to_rectified

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)   # top-left, top-right, bottom-right, bottom-left


def _dictionary():
    return cv2.aruco.getPredefinedDictionary(DICTIONARY)


def marker_image(marker_id: int, px: int = 200) -> np.ndarray:
    """One marker with a white quiet zone, ``px`` square (gray uint8)."""
    inner = cv2.aruco.generateImageMarker(_dictionary(), marker_id, px * 3 // 4)
    out = np.full((px, px), 255, np.uint8)
    o = (px - inner.shape[0]) // 2
    out[o:o + inner.shape[0], o:o + inner.shape[1]] = inner
    return out


def marker_sheet(px: int = 300) -> np.ndarray:
    """A printable sheet with the four markers, labelled with the board corner each belongs on."""
    names = ("top-left", "top-right", "bottom-right", "bottom-left")
    sheet = np.full((2 * px + 80, 2 * px + 40), 255, np.uint8)
    for i, (mid, name) in enumerate(zip(MARKER_IDS, names)):
        r, c = divmod(i if i < 2 else 5 - i, 2)
        y, x = 20 + r * (px + 40), 20 + c * px
        sheet[y:y + px, x:x + px] = marker_image(mid, px)
        cv2.putText(sheet, f"{mid}: {name} corner", (x + 10, y + px + 25), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 1)
    return sheet


def locate_with_markers(image: np.ndarray, size: int = 15) -> BoardLocation:
    """The grid corners from the four markers; ``BoardNotFound`` names the markers that are missing."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    found, ids, _ = detector.detectMarkers(gray)
    seen = {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), found)} if ids is not None else {}
    missing = [m for m in MARKER_IDS if m not in seen]
    if missing:
        raise BoardNotFound(f"ArUco markers not found: {missing} (of {list(MARKER_IDS)})")
    centre = np.mean([seen[m].mean(axis=0) for m in MARKER_IDS], axis=0)
    corners = np.array([min(seen[m], key=lambda p: np.linalg.norm(p - centre)) for m in MARKER_IDS], np.float32)
    return BoardLocation(corners, homography_to_rectified(corners, size), 1.0, "aruco")
