"""The flat board, drawn at ``CELL`` pixels a square before the camera sees it: the design's squares with their
premiums printed (Super Scrabble's quadruple squares in deeper shades of the triple ones), the star, the grid lines
and the frame (cached per design); then the tiles, each from its own seeded stream (its look, a small turn and
shift), standing up or in a Tile Lock board's recesses (``synth_relief``), and the arm (``synth_arm``).
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from tilecam.models.synth_arm import draw_arm
from tilecam.models.synth_camera import camera_over_board
from tilecam.models.synth_relief import TILE_LOCK_WALL, far_to_near, lifted, raise_walls
from tilecam.models.synth_scene import CELL, Scene, board_frame_px
from tilecam.models.synth_styles import BOARDS, PREMIUM_PRINT, WORDED_PREMIUMS
from tilecam.models.synth_tiles import TILE_VARIANTS, cached_tile, paste_rotated, tile_faces, tile_values

#: Super Scrabble's quadruple squares, drawn in a design as its triple ones this much darker (the board's
#: "stronger" premium a deeper shade of the same colour); the designs' dicts stay as they were.
QUADRUPLE_OF = {"QW": "TW", "QL": "TL"}
QUADRUPLE_SHADE = 0.6

#: What a design of ``WORDED_PREMIUMS`` prints on a premium square, a word a line.
PREMIUM_WORDS = {"TW": ("TRIPLE", "WORD", "SCORE"), "DW": ("DOUBLE", "WORD", "SCORE"),
                 "TL": ("TRIPLE", "LETTER", "SCORE"), "DL": ("DOUBLE", "LETTER", "SCORE"),
                 "QW": ("QUADRUPLE", "WORD", "SCORE"), "QL": ("QUADRUPLE", "LETTER", "SCORE")}


def premium_colour(design: str, premium: str) -> tuple[int, ...]:
    """The BGR colour of a square of ``premium`` ("plain", "TW", … "QW", "QL") on the board ``design``."""
    colours = BOARDS[design]
    if premium in QUADRUPLE_OF:
        return tuple(int(v * QUADRUPLE_SHADE) for v in colours[QUADRUPLE_OF[premium]])
    return colours[premium]


@functools.lru_cache(maxsize=16)
def _board_base(design: str, frame_px: int, layout_name: str = "standard15") -> np.ndarray:
    from tilecam.engine.layout import Layout

    colours = {**BOARDS[design], **{q: premium_colour(design, q) for q in QUADRUPLE_OF}}
    layout = Layout.load(layout_name)
    size = layout.size
    side = size * CELL + 2 * frame_px
    img = np.empty((side, side, 3), np.uint8)
    img[:] = colours["frame"]
    for r in range(size):
        for c in range(size):
            premium = layout.premium(r, c) or "plain"
            y, x = frame_px + r * CELL, frame_px + c * CELL
            img[y:y + CELL, x:x + CELL] = colours[premium]
            if premium != "plain" and design in WORDED_PREMIUMS:
                # the premium spelt out in three small lines, as on Hasbro and club boards
                scale, stroke, ink = PREMIUM_PRINT.get(design, (0.24, 1, 0.45))
                tint = tuple(int(v * ink) for v in colours[premium])
                for k, word in enumerate(PREMIUM_WORDS[premium]):
                    text, _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
                    cv2.putText(img, word, (x + (CELL - text[0]) // 2, y + 12 + 9 * k), cv2.FONT_HERSHEY_SIMPLEX,
                                scale, tint, stroke, cv2.LINE_AA)
            elif premium != "plain":
                label = premium
                scale, stroke, ink = PREMIUM_PRINT.get(design, (0.42, 1, 0.75))
                tint = tuple(int(v * ink) for v in colours[premium])
                text, _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, stroke)
                at = (x + 9, y + 26) if design not in PREMIUM_PRINT else (x + (CELL - text[0]) // 2,
                                                                          y + (CELL + text[1]) // 2)
                cv2.putText(img, label, at, cv2.FONT_HERSHEY_SIMPLEX, scale, tint, stroke, cv2.LINE_AA)
    cy, cx = frame_px + (layout.center[0] + 0.5) * CELL, frame_px + (layout.center[1] + 0.5) * CELL
    star = np.array([[cx + 12 * np.cos(a) * (1 if i % 2 == 0 else 0.45), cy + 12 * np.sin(a) * (1 if i % 2 == 0 else 0.45)]
                     for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False))], np.int32)
    cv2.fillPoly(img, [star], (30, 30, 30), cv2.LINE_AA)
    for i in range(size + 1):
        p = frame_px + i * CELL
        cv2.line(img, (frame_px, p), (frame_px + size * CELL, p), colours["line"], 2)
        cv2.line(img, (p, frame_px), (p, frame_px + size * CELL), colours["line"], 2)
    return img


def flat_board(scene: Scene, grid: tuple[str, ...], rng: np.random.Generator, hand,
               layout: str = "standard15") -> tuple[np.ndarray, int]:
    """The flat board of ``scene`` on ``layout`` with the tiles of ``grid`` and the arm ``hand`` (grid units) on it,
    and the width of its frame around the grid (pixels)."""
    design, tile_style, font = scene.style.split("/")
    frame_px = board_frame_px(scene)
    img = _board_base(design, frame_px, layout).copy()
    if scene.tile_lock:
        raise_walls(img, frame_px, len(grid))
    values, faces = tile_values(scene.tileset), tile_faces(scene.tileset)
    seed = int(rng.integers(2**31))
    # a Tile Lock board's tiles sit in their recesses, their faces about level with the walls, drawn flat
    camera = None if scene.tile_lock or not scene.tile_height else camera_over_board(scene, img.shape[0])
    for r, c in far_to_near(len(grid), frame_px, camera):
        ch = grid[r][c]
        if ch in ".#":
            continue
        blank = ch == "?" or ch.islower()
        letter = ch.upper()
        # Each square's own stream: in a video (same scene and seed) a tile keeps its look and place
        # when other tiles come and go.
        square_rng = np.random.default_rng([seed, r, c, ord(letter)])
        variant = int(square_rng.integers(TILE_VARIANTS))
        patch = cached_tile(faces.get(letter, letter), blank, values.get(letter, 1), tile_style, font, variant)
        angle = float(np.clip(square_rng.normal(0, 1.8), -4, 4))
        dx, dy = np.clip(square_rng.normal(0, 0.035 * CELL, 2), -0.08 * CELL, 0.08 * CELL)
        if scene.tile_lock:     # held by its recess: smaller than the square, barely turned or moved
            side = CELL - TILE_LOCK_WALL - 2
            patch = cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA)
            angle, dx, dy = angle / 4, dx / 4, dy / 4
        cx, cy = frame_px + (c + 0.5) * CELL + dx, frame_px + (r + 0.5) * CELL + dy
        paste_rotated(img, patch, cx, cy, angle)
        if camera is not None:
            lifted(img, patch, cx, cy, angle, camera, scene.tile_height * CELL)
    if hand:
        draw_arm(img, hand, frame_px, rng)
    return img, frame_px
