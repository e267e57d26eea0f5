"""The scene's camera: where the flat board lands in the picture (a tilted pinhole camera and a mild radial lens
distortion, ONE remap for both, cached per scene), the playing grid's corners there (the truth's ``corners``), and
where the camera stands over the board (for tiles that stand up).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tilecam.models.synth_scene import CELL, SIZE, Scene, board_frame_px, flat_board_side


def _board_turns(scene: Scene) -> tuple[np.ndarray, np.ndarray]:
    """The board's turn in the picture (about the camera's axis) and the camera's tilt (about an axis in the board's
    plane, ``tilt_dir_deg`` round), as rotation matrices applied in that order."""
    roll = np.deg2rad(scene.roll_deg)
    rz = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
    tilt, direction = np.deg2rad(scene.tilt_deg), np.deg2rad(scene.tilt_dir_deg)
    axis = np.array([np.cos(direction), np.sin(direction), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return rz, np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * (k @ k)


def _camera_homography(scene: Scene, flat_side: int, size: tuple[int, int]) -> np.ndarray:
    """Flat board pixels → image pixels for a board on the table seen by the scene's camera."""
    w, h = size
    half = flat_side / 2
    pts = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]], np.float64)
    rz, rt = _board_turns(scene)
    world = pts @ rz.T @ rt.T
    distance = scene.distance * flat_side
    z = world[:, 2] + distance
    proj = world[:, :2] / z[:, None]
    span = np.ptp(proj, axis=0).max()
    scale = scene.fill * min(w, h) / span
    centre = np.array([w / 2 + scene.offset[0] * w, h / 2 + scene.offset[1] * h])
    # The whole board stays in the picture: centre its bounding box, then pull it in where it would cross an edge.
    mid = (proj.min(axis=0) + proj.max(axis=0)) / 2
    half_extent = (proj.max(axis=0) - proj.min(axis=0)) / 2 * scale
    room = np.maximum(np.array([w / 2, h / 2]) - half_extent - 0.01 * min(w, h), 0)
    centre = np.clip(centre, np.array([w / 2, h / 2]) - room, np.array([w / 2, h / 2]) + room)
    img_pts = (proj - mid) * scale + centre
    src = np.array([[0, 0], [flat_side, 0], [flat_side, flat_side], [0, flat_side]], np.float32)
    return cv2.getPerspectiveTransform(src, img_pts.astype(np.float32))


@functools.lru_cache(maxsize=8)
def camera_maps(scene: Scene, flat_side: int, size: tuple[int, int], grid_size: int = SIZE
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For every image pixel, where it looks on the flat board (perspective and lens distortion in ONE remap), the
    mask of pixels that see the board, and the grid's corners in the image. The same for every frame of a scene."""
    w, h = size
    h_cam = _camera_homography(scene, flat_side, size)
    c = np.array([w / 2, h / 2], np.float32)
    norm = max(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - c[0]) / norm, (yy - c[1]) / norm
    factor = 1 + scene.k1 * (dx * dx + dy * dy)
    undistorted = np.stack([c[0] + dx * factor * norm, c[1] + dy * factor * norm], axis=-1)
    flat = cv2.perspectiveTransform(undistorted.reshape(-1, 1, 2), np.linalg.inv(h_cam)).reshape(h, w, 2)
    map1, map2 = cv2.convertMaps(flat[..., 0], flat[..., 1], cv2.CV_16SC2)
    mask = cv2.remap(np.full((flat_side, flat_side), 255, np.uint8), map1, map2, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return map1, map2, mask > 127, _grid_corners(scene, h_cam, size, grid_size)


def grid_corners(scene: Scene, size: tuple[int, int] = (960, 720), grid_size: int = SIZE) -> np.ndarray:
    """The playing grid's corners in a frame of ``size`` seen by the scene's camera, as ``Render.corners`` holds
    them (grid order: row 1 / column A first), without rendering anything."""
    return _grid_corners(scene, _camera_homography(scene, flat_board_side(scene, grid_size), size), size, grid_size)


def _grid_corners(scene: Scene, h_cam: np.ndarray, size: tuple[int, int], grid_size: int) -> np.ndarray:
    frame_px = board_frame_px(scene)
    g0, g1 = frame_px, frame_px + grid_size * CELL
    grid_flat = np.array([[g0, g0], [g1, g0], [g1, g1], [g0, g1]], np.float32)
    corners = cv2.perspectiveTransform(grid_flat.reshape(-1, 1, 2), h_cam).reshape(4, 2)
    return _distorted_corners(corners, scene.k1, size)


def _distorted_corners(corners: np.ndarray, k1: float, size: tuple[int, int]) -> np.ndarray:
    """Where points of the undistorted picture land under the lens distortion of :func:`camera_maps`."""
    if abs(k1) < 1e-4:
        return corners
    w, h = size
    c = np.array([w / 2, h / 2], np.float32)
    norm = max(w, h) / 2
    # Output point q shows source point q * (1 + k1 |q|^2): invert by fixed-point iteration.
    src = (corners - c) / norm
    q = src.copy()
    for _ in range(20):
        q = src / (1 + k1 * (q ** 2).sum(axis=1, keepdims=True))
    return (q * norm + c).astype(np.float32)


def camera_over_board(scene: Scene, flat_side: int) -> tuple[np.ndarray, float]:
    """Where the scene's camera stands over the flat board (``_camera_homography``'s camera): the board point
    straight below it (flat-board pixels; may lie off the board) and its height above the board (pixels)."""
    rz, rt = _board_turns(scene)
    rotation = rt @ rz
    # the camera sits at depth 0, the board's centre at depth ``distance``: in the board's frame it is at
    # -distance times the rotation's last row (the board's +z points away from the camera)
    at = -scene.distance * flat_side * rotation[2]
    return at[:2] + flat_side / 2, float(-at[2])
