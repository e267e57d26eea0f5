"""Tiles stand above the board: the plane of their faces, as the camera sees it.

    the grid's corners (image pixels) ──camera_of──▶ the camera (focal length, pose) its homography implies
        ──faces_corners──▶ the corners of the plane a tile's thickness above the board (None: straight on)

A tile is about a fifth of a square thick. Seen from straight above its face lies over its square; seen from low over
one edge of the board its face lies up the picture from the square it stands on, farther towards the far edge (a
camera at 45° read a column of tiles one square off: BENCHMARKS, Vision). The board's grid gives its plane's
homography; with square pixels and the principal point at the picture's centre, that homography also gives the focal
length and the camera's pose (two constraints, one unknown: Zhang's calibration from a single plane), and the plane of
the tiles' faces is one more homography. Where the view is too near straight-on for the focal length to show (no
perspective to speak of), the faces lie over their squares anyway: the corners are kept.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED

#: How far a tile's face stands above the board, in squares: tiles are 4-5 mm thick on squares of 19-22 mm.
TILE_FACE_HEIGHT = 0.2
#: Below this the homography's perspective terms (its bottom row, per square of board) are too weak to tell the
#: focal length: the view is within a few degrees of straight on, and the faces lie over their squares.
LEAST_PERSPECTIVE = 1e-4
#: The focal lengths of the cameras that photograph boards, in multiples of the picture's larger side: a phone's main
#: camera (24-28 mm equivalent: 0.67-0.78), a webcam (60-78 degrees across: 0.6-0.87), the Pi Camera Module 3 (66
#: degrees: 0.77), a phone's 2-3x camera (to about 2.3). A fit outside is no such camera but a view too near straight
#: on for one homography to tell its focal length (photos of a turntable at 8-20 degrees fitted as 12-25 mm lenses,
#: their faces lifted a quarter to half a square): the faces are taken to lie over their squares.
FOCAL_RANGE = (0.5, 2.5)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera, square pixels, principal point ``centre``: focal length ``f`` (pixels), the board's axes
    ``r1``, ``r2`` (a square along its columns, along its rows) and normal ``r3`` (towards the camera) in the
    camera's frame, and ``t``, the board's corner (0, 0) there; lengths in squares."""

    f: float
    centre: np.ndarray
    r1: np.ndarray
    r2: np.ndarray
    r3: np.ndarray
    t: np.ndarray

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels of board points (x along a row, y down the columns, z up towards the camera; squares)."""
        p = np.asarray(points, np.float64).reshape(-1, 3)
        cam = p[:, :1] * self.r1 + p[:, 1:2] * self.r2 + p[:, 2:3] * self.r3 + self.t
        return cam[:, :2] / cam[:, 2:3] * self.f + self.centre


def _board_square(size: int) -> np.ndarray:
    return np.float64([[0, 0], [size, 0], [size, size], [0, size]])      # CORNER_ORDER, in squares


def camera_of(corners: np.ndarray, image_shape: tuple[int, ...], size: int = 15) -> Camera | None:
    """The camera that sees the grid's ``corners`` (image pixels, ``CORNER_ORDER``) in a picture of
    ``image_shape``; None where the view is too near straight-on to tell (or the fit is no camera)."""
    import cv2

    centre = np.float64([image_shape[1] / 2, image_shape[0] / 2])
    image = np.asarray(corners, np.float64).reshape(4, 2) - centre
    h = cv2.getPerspectiveTransform(_board_square(size).astype(np.float32), image.astype(np.float32))
    h = h / np.linalg.norm(h[:, 0])
    (a, b, _), (c, d, _), (g, k, _) = h
    if abs(g) < LEAST_PERSPECTIVE and abs(k) < LEAST_PERSPECTIVE:
        return None
    # r1 ⟂ r2 and |r1| = |r2| with K = diag(f, f, 1): two equations in w = 1/f², solved together
    rows = np.float64([[a * b + c * d, g * k], [a * a + c * c - b * b - d * d, g * g - k * k]])
    w = -(rows[:, 0] @ rows[:, 1]) / (rows[:, 0] @ rows[:, 0])
    largest = max(image_shape[:2])
    if not w > 0 or not FOCAL_RANGE[0] * largest <= 1 / np.sqrt(w) <= FOCAL_RANGE[1] * largest:
        return None
    f = 1 / np.sqrt(w)
    m = np.diag([1 / f, 1 / f, 1.0]) @ h
    scale = 2 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0:             # the board lies in front of the camera
        scale = -scale
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    r3 = np.cross(r1, r2)
    r3 /= np.linalg.norm(r3)
    if r3 @ t > 0:                      # the normal points at the camera (the camera at the origin)
        r3 = -r3
    return Camera(f, centre, r1, r2, r3, t)


def faces_corners(corners: np.ndarray, image_shape: tuple[int, ...], size: int = 15,
                  height: float = TILE_FACE_HEIGHT) -> np.ndarray | None:
    """The grid's ``corners`` lifted ``height`` squares towards the camera: the corners of the plane of the tiles'
    faces, to rectify and cut the squares from (``warp.warp_board``); None where the faces lie over their squares
    (``height`` 0, or a view too near straight-on for the camera to be told: ``camera_of``)."""
    corners = np.asarray(corners, np.float32).reshape(4, 2)
    if not height:
        return None
    lifted = _lifted(corners.tobytes(), tuple(image_shape[:2]), size, float(height))
    return None if lifted is None else lifted.copy()


@functools.lru_cache(maxsize=8)
def _lifted(corners: bytes, image_shape: tuple[int, int], size: int, height: float) -> np.ndarray | None:
    # kept by the grid's corners: a fixed camera's frames share their corners (the tracker's location hint), and
    # telling the camera again is most of a read of five changed squares' faces
    camera = camera_of(np.frombuffer(corners, np.float32).reshape(4, 2), image_shape, size)
    if camera is None:
        return None
    points = np.hstack([_board_square(size), np.full((4, 1), height)])
    return camera.project(points).astype(np.float32)


def which_tile_from_faces(board: np.ndarray, faces: np.ndarray, classes: tuple[str, ...]) -> np.ndarray:
    """Each square's class probabilities (rows) with *whether* a tile lies there read on the board's plane
    (``board``: bare ``.`` and covered ``#`` as read there) and *which* tile read on the plane of the faces
    (``faces``: its tile classes, renormalised): a bare square lies on the board, where the plane of the faces would
    show the square beyond it (at the far edge, the board's margin, read covered), and a tile's letter on its face,
    which the board's plane shows across the square's edge."""
    board, faces = np.asarray(board, np.float64), np.asarray(faces, np.float64)
    not_tile = np.isin(np.asarray(classes), [EMPTY, OCCLUDED])
    tile_share = faces[:, ~not_tile].sum(axis=1, keepdims=True)
    out = board.copy()
    ok = tile_share[:, 0] > 0
    out[np.ix_(ok, ~not_tile)] = (1 - board[ok][:, not_tile].sum(axis=1, keepdims=True)) * \
        faces[ok][:, ~not_tile] / tile_share[ok]
    return out
