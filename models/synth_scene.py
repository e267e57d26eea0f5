"""What a render is drawn from: a ``Scene`` (the look, the camera and the light: what stays the same over a video),
drawn at random by ``sample_scene``, and the sizes every drawing step shares: ``CELL`` pixels a square on the flat
board, the scene's frame around the grid and the flat board's side.

A scene of the tile reader's training pools is drawn in Spanish or Polish for a share of its boards
(``TRAINING_TILESET_MIX``, ``training_tileset``): its grid's letters are drawn anew when it is rendered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tilecam.models.synth_styles import TRAIN_STYLES, TRAINING_POOLS

CELL = 40                       # flat board: pixels per square
#: The classic board's side in squares (Super Scrabble's is 21: ``render_board(layout="super21")``).
SIZE = 15

#: The tile sets a training render (``sample_scene`` drawing from ``TRAINING_STYLES`` or ``VARIETY_STYLES``, as only
#: the reader's training does) is drawn in instead of the one it asks for, and the share of boards each takes: the
#: training asks for English and German boards, and the letters only these sets have (Spanish Ñ, CH, LL, RR;
#: Polish Ą … Ż) need boards of their own. Such a scene's tiles get their letters drawn anew (``Scene.reletter``).
TRAINING_TILESET_MIX = (("spanish", 1 / 8), ("polish", 1 / 8))
#: On such a board, this share of the tiles is drawn evenly among the set's own letters (those English lacks), the
#: rest from its bag: a bag holds one Ñ in a hundred tiles, which would give the rarest class a few dozen squares.
OWN_LETTERS_SHARE = 0.25
#: The seed stream (``default_rng([seed, RELETTER_STREAM])``) a render's letters are drawn anew from: its own, so
#: that a render's other draws stay what they were.
RELETTER_STREAM = 13


@dataclass(frozen=True)
class Scene:
    """What stays the same over a video: the look, the camera and the light."""

    style: str
    tilt_deg: float             # camera tilt from looking straight down
    tilt_dir_deg: float         # which way the camera leans
    roll_deg: float             # the board's turn in the picture
    fill: float                 # board side / shorter image side
    offset: tuple[float, float]  # board centre offset, fraction of the image
    frame_frac: float           # board frame width in squares
    k1: float                   # radial lens distortion
    light: tuple[float, float, float]    # colour temperature gains (B, G, R)
    gradient: tuple[float, float, float]  # brightness gradient: angle, strength, base
    glare: tuple[float, float, float, float]   # x, y (fractions), radius (fraction), strength
    shadow: tuple[float, float, float]   # band angle, position, darkness
    table: tuple[int, int, int]
    blur: float
    noise: float
    jpeg: int
    tileset: str = "english"
    distractors: int = 3
    distance: float = 2.6       # camera height in board sides: nearer is stronger perspective
    reletter: bool = False      # the grid's tiles get letters of ``tileset`` when rendered (``TRAINING_TILESET_MIX``)
    tile_lock: bool = False     # a Tile Lock board: tiles in the recesses of a raised grid (``raise_walls``)
    tile_height: float = 0.0    # a tile's thickness in squares (its face that far above the board: ``lifted``)


#: How thick the drawn tiles are, in squares: their faces stand that far above the board (``lifted``), as real
#: tiles' 4-5 mm do on squares of 19-22 mm, seen up the picture from their squares by a camera low over an edge.
#: The renders before 2026-11-27 evening drew them flat (0).
TILE_THICKNESS = 0.2


def sample_scene(rng: np.random.Generator, tileset: str = "english", styles=None) -> Scene:
    """A random scene in a style of ``styles`` (default ``TRAIN_STYLES``). A scene of the reader's training pools
    (``TRAINING_STYLES``, ``VARIETY_STYLES``) is drawn in Spanish or Polish instead of ``tileset`` for a share of
    its boards (``TRAINING_TILESET_MIX``), its grid's letters drawn anew when rendered; any other pool's scenes are
    what they always were."""
    pool = tuple(styles) if styles else TRAIN_STYLES
    scene = Scene(
        style=pool[int(rng.integers(len(pool)))],
        tilt_deg=float(rng.uniform(0, 35)), tilt_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(0, 360)) if rng.random() < 0.5 else float(rng.normal(0, 6)),
        fill=float(rng.uniform(0.62, 0.92)), offset=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.05, 0.05))),
        frame_frac=float(rng.uniform(0.25, 0.9)), k1=float(rng.uniform(-0.015, 0.01)),
        light=tuple(float(v) for v in (rng.uniform(0.85, 1.1), 1.0, rng.uniform(0.9, 1.15))),
        gradient=(float(rng.uniform(0, 2 * np.pi)), float(rng.uniform(0, 0.35)), float(rng.uniform(0.8, 1.1))),
        glare=(float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.2, 0.8)), float(rng.uniform(0.05, 0.2)),
               float(rng.uniform(0, 0.5)) if rng.random() < 0.5 else 0.0),
        shadow=(float(rng.uniform(0, np.pi)), float(rng.uniform(-0.5, 0.5)),
                float(rng.uniform(0.1, 0.4)) if rng.random() < 0.4 else 0.0),
        table=tuple(int(v) for v in rng.integers(30, 200, 3)),
        blur=float(rng.uniform(0, 1.1)), noise=float(rng.uniform(1, 6)), jpeg=int(rng.integers(60, 96)),
        tileset=tileset, distractors=int(rng.integers(0, 5)), distance=float(rng.uniform(1.6, 3.5)),
        tile_height=TILE_THICKNESS,
    )
    return training_tileset(scene, rng) if pool in TRAINING_POOLS else scene


def training_tileset(scene: Scene, rng: np.random.Generator) -> Scene:
    """``scene`` drawn in one of ``TRAINING_TILESET_MIX``'s tile sets for its share of boards (letters drawn anew
    when rendered), else as it is; one draw from ``rng`` either way."""
    draw = rng.random()
    for tileset, share in TRAINING_TILESET_MIX:
        if draw < share:
            return replace(scene, tileset=tileset, reletter=True)
        draw -= share
    return scene


def board_frame_px(scene: Scene) -> int:
    """The board's frame around the grid, in flat-board pixels."""
    return int(round(scene.frame_frac * CELL))


def flat_board_side(scene: Scene, grid_size: int) -> int:
    """The flat board's side in pixels: the grid and the frame on both sides."""
    return grid_size * CELL + 2 * board_frame_px(scene)
