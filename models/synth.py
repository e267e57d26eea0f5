"""Synthetic photos of Scrabble boards, seeded and deterministic, with their truth.

A frame is drawn in two steps: the flat board (squares, premiums, grid lines, frame, tiles with letters and values —
each standing ``TILE_THICKNESS`` tall, its face where the camera sees it, its sides between — and an optional arm) at
``CELL`` pixels a square, then ONE remap (perspective of a tilted camera and a mild radial lens
distortion together) onto a table with a rack and loose tiles beside the board, with lighting, blur, noise and JPEG
artefacts on top.

A ``Scene`` fixes all that stays the same over a video; the camera maps, light maps and the table are cached per
scene, and each square's tile draws its look and its small turn and shift from its own seeded stream, so frames of
one scene and seed differ only where tiles or the arm differ (and in the sensor noise). The truth comes with it: the playing grid's corners
in the image (``corners``, in grid order: row 1 / column A first), the grid text and the squares under the arm.

The board is the classic 15x15 unless ``render_board(layout="super21")`` asks for Super Scrabble's 21x21 (its
quadruple squares in deeper shades of the design's triple ones); the 15x15 renders are what they always were.

Tiles show their tile set's faces with its values: a two-letter tile (Spanish CH, LL, RR; a grid holds its
symbol, ``Ç``) prints both letters narrowed on one tile, as real Spanish tiles do; a letter a font lacks (``cm`` has
no Ä, Ñ, Ł …) is drawn in the font ``ASCII_ONLY`` names. The reader's training renders draw a share of their boards
in Spanish and Polish (``TRAINING_TILESET_MIX``), whatever tile set they ask for.

Styles combine a board design, a tile look and a font. Some combinations are held out of training
(``HELDOUT_STYLES``), as are the seeds in ``HELDOUT_SEEDS``, so evaluation runs on looks the model never saw.

This module draws a frame (``render_board``) and says what it holds (``Render``); the steps are modules of their
own: the looks and style pools (``synth_styles``), the scene and its random drawing (``synth_scene``), tiles and
their letters (``synth_tiles``), the flat board (``synth_board``), standing tiles and Tile Lock walls
(``synth_relief``), the arm (``synth_arm``), random positions (``synth_positions``), the camera (``synth_camera``),
the table (``synth_table``) and the light (``synth_light``). The names callers use are all importable from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from tilecam.models.synth_arm import OCCLUDED_COVER, TOUCHED_COVER, arm_cover, random_arm
from tilecam.models.synth_board import flat_board, premium_colour
from tilecam.models.synth_camera import camera_maps, grid_corners
from tilecam.models.synth_light import light_and_noise
from tilecam.models.synth_positions import own_letters, random_grid, reletter
from tilecam.models.synth_scene import (CELL, OWN_LETTERS_SHARE, RELETTER_STREAM, SIZE, TILE_THICKNESS,
                                        TRAINING_TILESET_MIX, Scene, sample_scene, training_tileset)
from tilecam.models.synth_styles import (ALL_STYLES, ASCII_ONLY, BOARDS, EXTRA_TRAINING_FONTS, FONT_DIR, FONTS,
                                         HELDOUT_SEEDS, HELDOUT_STYLES, PREMIUM_PRINT, TILES, TRAIN_SEEDS, TRAIN_STYLES,
                                         TRAINING_STYLES, VARIETY_BOARDS, VARIETY_STYLES, VARIETY_TILES,
                                         WORDED_PREMIUMS)
from tilecam.models.synth_table import table_with_distractors
from tilecam.models.synth_tiles import DIGRAPH_MAX_WIDTH

# TILE_THICKNESS is here to be read: sample_scene looks it up in synth_scene, so a test wanting flat tiles patches it
# there (tests/conftest.py).
__all__ = ["ALL_STYLES", "ASCII_ONLY", "BOARDS", "CELL", "DIGRAPH_MAX_WIDTH", "EXTRA_TRAINING_FONTS", "FONT_DIR",
           "FONTS", "GridError", "HELDOUT_SEEDS", "HELDOUT_STYLES", "OCCLUDED_COVER", "OWN_LETTERS_SHARE",
           "PREMIUM_PRINT", "RELETTER_STREAM", "Render", "SIZE", "Scene", "SynthError", "TILES", "TILE_THICKNESS",
           "TOUCHED_COVER", "TRAINING_STYLES", "TRAINING_TILESET_MIX", "TRAIN_SEEDS", "TRAIN_STYLES",
           "VARIETY_BOARDS", "VARIETY_STYLES", "VARIETY_TILES", "WORDED_PREMIUMS", "arm_cover", "grid_corners",
           "own_letters", "premium_colour", "random_arm", "random_grid", "reletter", "render_board",
           "sample_scene", "training_tileset"]


class SynthError(ValueError):
    """Bad arguments to the renderer."""


class GridError(SynthError):
    """A grid that is not 15 strings of 15 squares (21 of 21 on Super Scrabble's board) of ``.``, ``?`` and
    letters."""


@dataclass(frozen=True, eq=False)
class Render:
    image: np.ndarray = field(repr=False)
    corners: np.ndarray
    grid: tuple[str, ...]
    occluded: np.ndarray = field(repr=False)
    style: str
    #: Squares the arm covers in part (a little, up to ``occluded``): their content is still the truth, and a
    #: reader that calls them occluded (``#``, the unsure signal) is not wrong either.
    touched: np.ndarray = field(repr=False, default_factory=lambda: np.zeros((SIZE, SIZE), bool))


def render_board(grid=None, *, seed: int, styles=None, style: str | None = None, tileset: str = "english",
                 scene: Scene | None = None, hand=None, size: tuple[int, int] = (960, 720),
                 layout: str = "standard15") -> Render:
    """One synthetic camera frame and its truth. ``grid``: 15 strings (``.``, letters, ``?`` or a lower-case letter
    for a blank tile) or None for a random position; ``hand``: an arm polygon in grid units (x = column, y = row),
    or None (a random arm over some random boards). ``layout``: the board's premium layout (``engine`` data: the
    classic ``standard15``, Super Scrabble's ``super21`` with grids of 21 strings of 21). A scene with ``reletter``
    (a training scene drawn in Spanish or Polish) gives the grid's tiles letters of its tile set: the truth's
    ``grid`` holds them."""
    from tilecam.engine.layout import Layout

    grid_size = Layout.load(layout).size
    rng = np.random.default_rng(seed)
    if scene is None:
        scene = sample_scene(rng, tileset, styles)
    if style is not None:
        scene = Scene(**{**scene.__dict__, "style": style})
    if grid is None:
        grid = random_grid(rng, scene.tileset, size=grid_size)
        if hand is None and rng.random() < 0.3:
            hand = random_arm(rng, grid_size)
    grid = tuple(str(row) for row in grid)
    if scene.reletter:
        # (a training scene's: its rare letters as often as OWN_LETTERS_SHARE asks, beyond the set's counts)
        grid = reletter(grid, scene.tileset, np.random.default_rng([int(seed), RELETTER_STREAM]),
                        own_letters(scene.tileset), OWN_LETTERS_SHARE, within_counts=False)
    if len(grid) != grid_size or any(len(row) != grid_size for row in grid):
        raise GridError(f"a grid is {grid_size} strings of {grid_size} squares, got {[len(row) for row in grid]}")
    bad = sorted({ch for row in grid for ch in row if not (ch in ".?" or ch.isalpha())})
    if bad:
        raise GridError(f"unknown squares {bad} in the grid (want '.', '?' or letters)")
    size = (int(size[0]), int(size[1]))
    flat, frame_px = flat_board(scene, grid, rng, hand, layout)
    map1, map2, mask, corners = camera_maps(scene, flat.shape[0], size, grid_size)
    board = cv2.remap(flat, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    image = table_with_distractors(scene, size, int(seed), grid_size).copy()
    np.copyto(image, board, where=mask[..., None])
    image = light_and_noise(image, scene, np.random.default_rng([int(seed), 3]))
    if scene.blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), scene.blur)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg])
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    truth = tuple("".join("?" if (ch == "?" or ch.islower()) else ch for ch in row) for row in grid)
    cover = arm_cover(hand, grid_size)
    return Render(image, corners.astype(np.float32), truth, cover > OCCLUDED_COVER, scene.style,
                  cover > TOUCHED_COVER)
