"""What stands up from the flat board: tiles as thick as real ones (``Scene.tile_height``: each face drawn where the
camera sees it, its sides swept down to its square, the farthest tile first) and a Tile Lock board's raised grid
(``Scene.tile_lock``: walls of dark plastic between the recesses its tiles sit in).
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.synth_scene import CELL
from tilecam.models.synth_tiles import paste_rotated


def far_to_near(size: int, frame_px: int, camera) -> list[tuple[int, int]]:
    """The squares in the order tiles are drawn: row by row on a flat board; farthest from the camera first where
    tiles stand up (``lifted``), so that a nearer tile's sides hide the foot of the one behind it."""
    squares = [(r, c) for r in range(size) for c in range(size)]
    if camera is None:
        return squares
    below = camera[0]
    return sorted(squares, key=lambda rc: -np.hypot(frame_px + (rc[1] + 0.5) * CELL - below[0],
                                                     frame_px + (rc[0] + 0.5) * CELL - below[1]))


#: The share of the light a tile's sides get, against its face's (they face sideways, the light comes from above).
TILE_SIDE_SHADE = 0.72


def lifted(img: np.ndarray, patch: np.ndarray, cx: float, cy: float, angle: float, camera, height: float) -> None:
    """Stand the tile whose foot is drawn at (``cx``, ``cy``) ``height`` pixels tall (in place): its face moved to
    where the camera sees it on the flat board (away from the point below the camera, by height / (camera height -
    height) of the distance from it), and its sides, swept from foot to face, in the tile's colour a little shaded."""
    below, above = camera
    grow = height / (above - height)
    fx, fy = cx + (cx - below[0]) * grow, cy + (cy - below[1]) * grow
    p = patch.shape[0]
    corners = cv2.boxPoints(((0.0, 0.0), (p, p), -angle))
    hull = cv2.convexHull(np.vstack([corners + (cx, cy), corners + (fx, fy)]).astype(np.float32))
    edge = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]]).astype(np.float32)
    side = tuple(float(v) for v in np.median(edge, axis=0) * TILE_SIDE_SHADE)
    cv2.fillConvexPoly(img, np.round(hull * 16).astype(np.int32), side, cv2.LINE_AA, 4)
    paste_rotated(img, patch, fx, fy, angle)


#: A Tile Lock board's wall between two recesses, in pixels of a flat board's ``CELL``-pixel square (about 2 of a
#: square's 12 mm), and the shadow it casts into the recess on its far side from the light.
TILE_LOCK_WALL, TILE_LOCK_SHADOW = 7, 4


def raise_walls(img: np.ndarray, frame_px: int, size: int) -> None:
    """Draw a Tile Lock board's raised grid over the flat board ``img`` (in place): walls of dark plastic, lit on
    their top and left faces, each casting a shadow into the recesses below and right of it (the light from the
    top left), the squares' prints at the bottom of the recesses."""
    wall, shade = TILE_LOCK_WALL, TILE_LOCK_SHADOW
    plastic = np.array((58, 58, 62), np.float32)
    for i in range(size + 1):
        p = frame_px + i * CELL
        lo, hi = max(p - wall // 2, 0), p + (wall + 1) // 2
        for axis in (0, 1):
            span = (slice(lo, hi), slice(frame_px - wall // 2, frame_px + size * CELL + wall // 2))
            box = span if axis == 0 else span[::-1]
            shadow = (slice(hi, hi + shade), span[1]) if axis == 0 else (span[1], slice(hi, hi + shade))
            img[shadow] = (img[shadow].astype(np.float32) * 0.55).astype(np.uint8)
            img[box] = plastic.astype(np.uint8)
            lit = (slice(lo, lo + 2), span[1]) if axis == 0 else (span[1], slice(lo, lo + 2))
            img[lit] = np.clip(plastic * 1.9, 0, 255).astype(np.uint8)
