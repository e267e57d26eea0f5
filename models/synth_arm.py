"""The player's arm: one reaching in over an edge of the board towards a square (grid units), drawn in a skin tone
with its shadow on the flat board, and the share of each square it covers (the truth's ``occluded`` and
``touched``).
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.synth_scene import CELL, SIZE

#: The skin tones (BGR) an arm is drawn in, one drawn for each arm.
SKIN = ((150, 180, 225), (120, 150, 205), (90, 120, 175), (60, 85, 130), (175, 195, 235))


def random_arm(rng: np.random.Generator, size: int = SIZE) -> list[tuple[float, float]]:
    """An arm reaching in over one edge of a ``size`` x ``size`` board towards a square (grid units)."""
    tx, ty = rng.uniform(1, size - 1, 2)
    side = int(rng.integers(4))
    ex, ey = [(tx, -6), (size + 6, ty), (tx, size + 6), (-6, ty)][side]
    d = np.array([tx - ex, ty - ey])
    d /= np.linalg.norm(d)
    n = np.array([-d[1], d[0]])
    w_arm, w_hand = rng.uniform(0.9, 1.4), rng.uniform(1.0, 1.5)
    tip = np.array([tx, ty])
    pts = [np.array([ex, ey]) + n * w_arm, tip - d * 0.8 + n * w_hand, tip + d * 0.6, tip - d * 0.8 - n * w_hand,
           np.array([ex, ey]) - n * w_arm]
    return [(float(x), float(y)) for x, y in pts]


def draw_arm(img: np.ndarray, hand, frame_px: int, rng: np.random.Generator) -> None:
    """Draw the arm ``hand`` (grid units) onto the flat board ``img`` (in place) in a skin tone drawn from ``rng``,
    its shadow falling to the bottom right."""
    pts = np.array([[frame_px + x * CELL, frame_px + y * CELL] for x, y in hand], np.float32)
    colour = np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float32)
    # Only the arm's bounding box (plus its shadow's reach) is touched: a full-board pass costs ~30 ms.
    h, w = img.shape[:2]
    x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 40, 0)
    x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 40, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    layer = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillPoly(layer, [(pts - (x0, y0)).astype(np.int32)], 255, cv2.LINE_AA)
    cast = np.zeros_like(layer)
    cast[14:, 10:] = layer[:-14, :-10]     # the shadow falls to the bottom right
    shadow = cv2.GaussianBlur(cast, (31, 31), 0).astype(np.float32) / 255 * 0.45
    roi[:] = (roi * (1 - shadow[..., None])).astype(np.uint8)
    a = cv2.GaussianBlur(layer, (5, 5), 0).astype(np.float32)[..., None] / 255
    dist = cv2.distanceTransform(layer, cv2.DIST_L2, 5)
    shade = 0.75 + 0.35 * np.clip(dist / 24.0, 0, 1)
    roi[:] = np.clip(roi * (1 - a) + (colour * shade[..., None]) * a, 0, 255).astype(np.uint8)


def arm_cover(hand, size: int = SIZE) -> np.ndarray:
    """The share (0..1) of each square of a ``size`` x ``size`` grid that lies under the polygon ``hand`` (grid
    units)."""
    if not hand:
        return np.zeros((size, size), np.float32)
    k = 8
    layer = np.zeros((size * k, size * k), np.uint8)
    cv2.fillPoly(layer, [np.round(np.array(hand, np.float32) * k).astype(np.int32)], 1)
    return layer.reshape(size, k, size, k).mean(axis=(1, 3)).astype(np.float32)


OCCLUDED_COVER = 0.3      # a square more than this under the arm is occluded: its content is not scored
TOUCHED_COVER = 0.02      # a square more than this under the arm is touched: read as occluded, it is not wrong
