"""The vision pipeline as the tracker's reader: ``read_board`` with the tile model, the board's turn learned once."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tilecam.vision.moves.reading import EMPTY

log = logging.getLogger(__name__)

Reader = Callable[[Any], Any]

ORIENT_MIN_TILES = 2      # tiles on the board (one a letter) before the reader decides which edge is row 1 …
ORIENT_MAX_UNSURE = 2     # … with at most this many squares read as occluded (more: a hand is over the board)
ORIENT_DOUBT = 0.9        # a square read empty less surely than this may be a tile lying sideways


def _may_show_tiles(reading: Any) -> bool:
    """Whether two or more squares are read as something, or as empty only doubtfully (a letter turned a quarter
    turn can look like neither): worth reading the board in its other turns. A bare board is not (it costs three
    more classifications a frame)."""
    probs = np.asarray(reading.probs)
    empty = list(reading.classes).index(EMPTY)
    return int((probs[:, empty] < ORIENT_DOUBT).sum()) >= ORIENT_MIN_TILES


def _one_line(grid: Sequence[str]) -> bool:
    """Whether the squares read as anything but empty lie in one row or one column."""
    squares = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != EMPTY]
    return bool(squares) and (len({r for r, _ in squares}) == 1 or len({c for _, c in squares}) == 1)


def default_reader(tileset: str, threads: int = 1, model: Any = None, rotation: int | None = None) -> Reader:
    """The vision pipeline as a reader: ``read_board`` with the tile model (``model``: a path, None = the shipped
    one; ``threads`` onnxruntime threads), the last location as the hint.

    ``rotation``: which edge of the board is row 1 (quarter turns), when the camera was calibrated; None = learn
    it once, from the first board with letters on it and no hand over it (``orient.best_rotation``: upright
    letters read surely), and keep it, as a calibration would. A board turned later is the tracker's business
    (it matches the committed tiles)."""
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.orient import find_orientation
    from tilecam.vision.read import read_board

    classifier = TileClassifier.load(model, threads=threads)
    state: dict[str, Any] = {"hint": None, "rotation": rotation}

    def read(image: np.ndarray) -> Any:
        # the last location is the hint: kept while it still fits the frame, found again when the board moved
        reading = read_board(image, classifier, tileset=tileset, hint=state["hint"], rotation=state["rotation"] or 0)
        state["hint"] = getattr(reading, "location", None)
        # A letter sideways or upside down may read as unsure (#) or even as an empty square read doubtfully: a
        # few unsure squares are allowed (the first word's L and B lying sideways read #, its O a letter), a hand's
        # worth is not — unless they all lie in one row or column: a first word, not a hand. The turn is then told
        # from all four readings (``orient.find_orientation``), and kept once one shows a letter among two tiles.
        if state["rotation"] is None and _may_show_tiles(reading) and (
                int(reading.occluded.sum()) <= ORIENT_MAX_UNSURE or _one_line(reading.grid)):
            found = find_orientation(image, classifier, tileset, reading.location)
            # a letter read surely in the turn chosen: glare on an empty board can read as a tile or two, and a
            # turn learned from that is kept for the whole game
            if found.sure[found.rotation] and found.tiles >= ORIENT_MIN_TILES:
                state["rotation"] = found.rotation
                log.info("the board's row 1 is %d quarter turns from the picture's top edge", found.rotation)
                if found.rotation:
                    reading = read_board(image, classifier, tileset=tileset, hint=reading.location,
                                         rotation=found.rotation)
        return reading

    return read
