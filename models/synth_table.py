"""The table around the board: wood or cloth, with a rack and loose tiles beside the board (``Scene.distractors``),
drawn once for a scene and seed (cached): every frame of a video lies on the same table.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tilecam.models.synth_camera import camera_maps
from tilecam.models.synth_scene import CELL, SIZE, Scene, flat_board_side
from tilecam.models.synth_tiles import paste_rotated, tile_faces, tile_patch, tile_values

#: The tables' base colours (BGR: woods, greys, cloths): a scene's ``table`` picks one and how bright it is.
TABLE_COLOURS = ((60, 90, 130), (40, 60, 95), (90, 130, 170), (120, 120, 120), (200, 205, 210), (50, 50, 55),
                 (70, 110, 90), (140, 160, 190))


def _table(scene: Scene, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Wood or cloth: a base colour with grain stripes and blotches, drawn small and scaled up."""
    w, h = size
    sw, sh = w // 4, h // 4
    base = np.asarray(TABLE_COLOURS[scene.table[0] % len(TABLE_COLOURS)], np.float32) * (0.8 + scene.table[1] / 500)
    yy = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
    stripes = 1 + 0.08 * np.sin(yy * rng.uniform(20, 80) + np.linspace(0, rng.uniform(1, 6), sw)[None, :])
    low = cv2.resize(rng.normal(1, 0.08, (9, 12)).astype(np.float32), (sw, sh), interpolation=cv2.INTER_CUBIC)
    small = np.clip(base * (stripes * low)[..., None], 0, 255).astype(np.uint8)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _clear_of(keep_out: np.ndarray | None, poly: np.ndarray) -> bool:
    """Whether the polygon (image px) lies inside the picture and off the ``keep_out`` mask."""
    if keep_out is None:
        return True
    h, w = keep_out.shape
    x0, y0 = np.floor(poly.min(axis=0)).astype(int)
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 1
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return False
    footprint = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(footprint, [(poly - (x0, y0)).astype(np.int32)], 1)
    return not (footprint.astype(bool) & keep_out[y0:y1, x0:x1]).any()


def _distractors(img: np.ndarray, scene: Scene, rng: np.random.Generator, keep_out: np.ndarray | None = None
                 ) -> None:
    """A rack with tiles and loose tiles on the table, beside the board (off ``keep_out``, the board's
    picture grown by a few pixels: a rack half under a board is not a real scene)."""
    h, w = img.shape[:2]
    _, tile_style, font = scene.style.split("/")
    values, faces = tile_values(scene.tileset), tile_faces(scene.tileset)
    letters = list(values)
    for _ in range(scene.distractors):
        rack = rng.random() < 0.4
        length, angle = rng.uniform(120, 260), rng.uniform(0, 180)
        s = int(rng.uniform(0.6, 1.2) * CELL)
        for _try in range(12):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            if rack:
                box = cv2.boxPoints(((cx, cy), (length, 30), angle))
            else:
                box = np.array([[cx, cy], [cx + s, cy], [cx + s, cy + s], [cx, cy + s]], np.float32)
            if _clear_of(keep_out, box):
                break
        else:
            continue
        if rack:   # a dark bar with tiles standing on it, turned with it
            cv2.fillPoly(img, [box.astype(np.int32)], tuple(int(v) for v in rng.integers(20, 90, 3)))
            ux, uy = np.cos(np.deg2rad(angle)), np.sin(np.deg2rad(angle))
            n = int(length // (0.8 * CELL))
            for k in range(n):
                t = (k - (n - 1) / 2) * 0.8 * CELL
                letter = letters[int(rng.integers(len(letters)))]
                patch = cv2.resize(tile_patch(faces[letter], False, values[letter], tile_style, font, rng),
                                   (int(0.7 * CELL), int(0.7 * CELL)))
                paste_rotated(img, patch, cx + ux * t, cy + uy * t, -angle)
        else:
            letter = letters[int(rng.integers(len(letters)))]
            patch = cv2.resize(tile_patch(faces[letter], False, values[letter], tile_style, font, rng), (s, s))
            x0, y0 = int(cx), int(cy)
            img[y0:y0 + s, x0:x0 + s] = patch


@functools.lru_cache(maxsize=8)
def table_with_distractors(scene: Scene, size: tuple[int, int], seed: int, grid_size: int = SIZE) -> np.ndarray:
    """The table and what lies on it: the same for every frame of a scene with this seed."""
    rng = np.random.default_rng([seed, 1])
    table = _table(scene, size, rng)
    board = camera_maps(scene, flat_board_side(scene, grid_size), size, grid_size)[2].astype(np.uint8)
    keep_out = cv2.dilate(board, np.ones((25, 25), np.uint8)).astype(bool)
    _distractors(table, scene, rng, keep_out)
    return table
