"""Reading a board: localise → rectify → references → calibrated class probabilities, every intermediate kept.

One model reads every square beside the bare look of its kind on the same board (``tilecam.vision.context``), the
colour of each square's face judged against this photo's own tiles and bare squares is multiplied into its odds of
a tile (``tilecam.vision.presence``), and these probabilities are the reading: nothing is rewritten after them. The
labels are the most probable board the tile set allows (``tilecounts``: each square's most probable class, no more of
a tile than the set has); a square whose label has less than ``UNSURE_BELOW`` is flagged unsure, and a board with any
unsure square is an unsure board. Move inference decides with the probabilities themselves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

import numpy as np

from tilecam.vision.classify import BLANK, EMPTY, OCCLUDED, SURELY_BARE, TileClassifier
from tilecam.vision.context import face_colours, references_from_board
from tilecam.vision.locate import BoardLocation, LocateConfig, locate_board
from tilecam.vision.presence import judged_by_faces
from tilecam.vision.connected import hands_only, joined
from tilecam.vision.tilecounts import tile_caps, within_tile_counts
from tilecam.vision.raised import TILE_FACE_HEIGHT, faces_corners, which_tile_from_faces
from tilecam.vision.warp import cells_of, cut_cells, homography_to_rectified, warp_board
from tilecam.vision.words import as_words

SIZE = 15                   # the classic board's squares a side; Super Scrabble's board is read with size=21
#: A square whose label has less than this calibrated probability is flagged unsure: with the
#: model's probabilities calibrated on real boards, about one such reading in five is wrong.
UNSURE_BELOW = 0.8
#: A board is flagged unsure when the squares' probabilities together expect at least this many of its squares
#: to be read wrong (the sum over squares of one less the best class's probability): half a square, so that a
#: board flagged is more likely wrong than right.
UNSURE_BOARD_EXPECTS = 0.5


@dataclass(frozen=True, eq=False)
class BoardReading:
    """What the camera saw: ``grid`` (15 strings, 21 on a Super Scrabble board: ``.`` empty, letters, ``?`` blank
    tile, ``#`` occluded), per-square ``labels``/``confidence``/``occluded``/``unsure``, the calibrated class
    probabilities ``probs`` (225, or 441, x classes, columns named by ``classes``) and the model's ``embedding``
    of each square, and the intermediates: ``corners``, ``homography``, ``warped``, ``references`` (each square's
    bare look), ``timings`` (ms)."""

    grid: tuple[str, ...]
    labels: tuple[tuple[str, ...], ...]
    confidence: np.ndarray
    occluded: np.ndarray
    probs: np.ndarray = field(repr=False)
    classes: tuple[str, ...]
    corners: np.ndarray
    homography: np.ndarray = field(repr=False)
    warped: np.ndarray = field(repr=False)
    timings: dict[str, float]
    location: BoardLocation = field(repr=False)
    rotation: int = 0
    unsure: np.ndarray = field(default_factory=lambda: np.zeros((SIZE, SIZE), bool))
    embedding: np.ndarray | None = field(default=None, repr=False)
    references: np.ndarray | None = field(default=None, repr=False)
    logits: np.ndarray | None = field(default=None, repr=False)      # the model's own, before calibration

    @property
    def size(self) -> int:
        """Squares a side of the board read (15, or 21 for Super Scrabble)."""
        return len(self.grid)

    @property
    def expected_wrong(self) -> float:
        """How many squares the calibrated probabilities expect to be read wrong (Σ 1 − best probability)."""
        return float((1.0 - self.confidence).sum())

    @property
    def is_unsure(self) -> bool:
        """Whether the board as a whole is not to be trusted without a look (``UNSURE_BOARD_EXPECTS``)."""
        return self.expected_wrong >= UNSURE_BOARD_EXPECTS

    def to_json(self) -> dict:
        """The ``tilecam read --json`` document."""
        cells = [[{"label": self.labels[r][c], "confidence": round(float(self.confidence[r, c]), 4),
                   "unsure": bool(self.unsure[r, c])} for c in range(self.size)] for r in range(self.size)]
        return {"grid": list(self.grid), "cells": cells, "corners": self.location.to_json(),
                "rotation": self.rotation, "unsure": self.is_unsure, "unsure_squares": int(self.unsure.sum()),
                "expected_wrong": round(self.expected_wrong, 3)}


def letters_of(tileset) -> tuple[str, ...] | None:
    """The letters of a tile set given by name (``english``, ``german``) or as a ``TileSet``; None for None (every
    letter the model knows). A two-letter tile is its symbol (Spanish CH ``Ç``), as the model's class names it;
    a letter the model has no class for is never read (``TileClassifier.unreadable``)."""
    if tileset is None:
        return None
    if isinstance(tileset, str):
        from tilecam.engine.tiles import TileSet

        tileset = TileSet.load(tileset)
    return tuple(tileset.letters)


def rotate_corners(corners: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The same grid with another edge as row 1: the board read turned ``quarter_turns`` times
    counter-clockwise (as ``np.rot90`` turns the rectified board)."""
    return np.roll(np.asarray(corners, np.float32).reshape(4, 2), -(quarter_turns % 4), axis=0)


def squares_a_side(squares: np.ndarray) -> int:
    """The board's size from its squares' count (225 → 15, 441 → 21)."""
    return round(len(squares) ** 0.5)


def turned_places(squares: np.ndarray, k: int) -> np.ndarray:
    """A board's per-square rows (crops, probabilities, logits, embeddings; row-major) moved to where the squares lie
    on the board turned ``k`` quarter turns (``np.rot90``), each row as it is: a copy."""
    size = squares_a_side(squares)
    grid = np.asarray(squares).reshape((size, size) + squares.shape[1:])
    return np.ascontiguousarray(np.rot90(grid, k, axes=(0, 1))).reshape(squares.shape)


def turn_squares(squares: np.ndarray, k: int) -> np.ndarray:
    """A board's 225 (or 441) crops (or references) as they are cut from the rectified board turned ``k`` quarter
    turns (``np.rot90``): the squares change places and each crop turns with them."""
    return np.ascontiguousarray(np.rot90(turned_places(squares, k), k, axes=(1, 2)))


def read_board(image: np.ndarray, classifier: TileClassifier, tileset="english", hint=None,
               rotation: int | None = 0, cfg: LocateConfig = LocateConfig(),
               references: np.ndarray | None = None, adapter=None, size: int | None = None,
               settled: bool = True, lexicon=None, tile_height: float = TILE_FACE_HEIGHT) -> BoardReading:
    """Read every square of the board in ``image``.

    ``size``: the board's squares a side, 15 or 21 (Super Scrabble); None: ``cfg.size`` (15 by default). The same
    model reads both: its crops are the same pixels a square whatever the board's size.
    ``hint``: the previous ``BoardLocation`` (or its corners) when the camera is fixed — reused when it still fits.
    ``rotation``: which edge is row 1, in quarter turns, as calibrated for a fixed camera; None: told from the
    tiles of this photo (``orient.upright_turn``; the words they spell in ``lexicon`` where given, settled or not).
    ``references``: each square's bare look from a calibration (the empty board, in the same rotation); None: from
    this board (``context.references_from_board``).
    ``adapter``: a board profile's adaptation (embedding, logits → logits), learnt from this board's tiles.
    ``settled``: a photo of a game's board between turns, whose tiles all hang together (``connected.joined``);
    False for a board that may be seen mid-play (the tracker's frames). ``lexicon``: the game's word list, by which
    a settled board's runs of tiles are words (``words.as_words``); None: not judged. ``tile_height``: how far the
    tiles' faces stand above the board (squares; by default ``raised.TILE_FACE_HEIGHT``, real tiles' thickness):
    whether a square holds a tile is read on the board's plane, which tile on the plane of the faces
    (``tiles_read_on_their_faces``), which a camera low over an edge sees up the picture from the board's (a view
    near straight-on reads both on the board's plane); 0: everything on the board's plane.
    Raises ``BoardNotFound`` when there is no board in the frame.
    """
    from tilecam.vision.orient import reading_turned, upright_turn

    t0 = time.perf_counter()
    if size is not None and size != cfg.size:
        cfg = replace(cfg, size=size)
    size = cfg.size
    if hint is not None and not isinstance(hint, BoardLocation):
        corners = np.asarray(hint, np.float32).reshape(4, 2)
        hint = BoardLocation(corners, homography_to_rectified(corners, size), 0.0, "hint")
    location = locate_board(image, cfg, hint=hint)
    t1 = time.perf_counter()
    turn = rotation or 0
    corners = rotate_corners(location.corners, turn)
    warped = warp_board(image, corners, size)
    crops = cut_cells(warped, size)
    refs = references_from_board(crops) if references is None else references
    t2 = time.perf_counter()
    letters = letters_of(tileset)
    logits, embedding = classifier.run(crops, refs)
    probs = classifier.calibrated(logits if adapter is None else adapter(embedding, logits), letters)
    if rotation is None:
        found = upright_turn(crops, refs, probs, classifier, letters, lexicon)
        if found.rotation:
            turn = found.rotation
            # the squares upright_turn read turned are not read again (its readings are in unturned order)
            logits, embedding = (None if a is None else turned_places(a, turn)
                                 for a in reading_turned(found, turn, crops, refs, classifier))
            corners = rotate_corners(location.corners, turn)
            warped = np.ascontiguousarray(np.rot90(warped, turn))
            crops, refs = turn_squares(crops, turn), turn_squares(refs, turn)
    # the board's turn known, the squares not surely bare are read again in moved views (``in_views``)
    logits, embedding = classifier.in_views(crops, refs, logits, embedding)
    probs = classifier.calibrated(logits if adapter is None else adapter(embedding, logits), letters)
    probs = tiles_read_on_their_faces(image, corners, size, probs, refs, classifier, letters, tile_height,
                                      adapter=adapter)
    probs, _ = judged_by_faces(probs, classifier.classes, face_colours(crops), face_colours(refs))
    t3 = time.perf_counter()
    return reading_of(probs, classifier.classes, corners, warped, location, turn, embedding, refs, logits,
                      {"localise": (t1 - t0) * 1000, "rectify": (t2 - t1) * 1000, "classify": (t3 - t2) * 1000,
                       "total": (t3 - t0) * 1000}, tile_caps(classifier.classes, tileset), settled, lexicon)


def tiles_read_on_their_faces(image: np.ndarray, corners: np.ndarray, size: int, probs: np.ndarray,
                              refs: np.ndarray, classifier: TileClassifier, letters, tile_height: float,
                              rows=None, adapter=None) -> np.ndarray:
    """``probs`` (read on the board's plane) with the squares that may hold a tile (not surely bare or covered) read
    again on the plane of the tiles' faces, ``tile_height`` above the board (``raised``), and which tile taken from
    there; ``probs`` as they are where the camera is not told or ``tile_height`` is 0. ``rows``: only these squares
    (row-major indices; None: all). ``adapter``: the board profile's adaptation, as the board's plane was read."""
    lifted = faces_corners(corners, image.shape, size, tile_height)
    if lifted is None:
        return probs
    rows = np.arange(len(probs)) if rows is None else np.asarray(rows, int)
    ask = rows[classifier.bare_or_covered(probs[rows]) < SURELY_BARE] if len(rows) else rows
    if not len(ask):
        return probs
    faces = cells_of(image, lifted, ask, size)
    logits, embedding = classifier.run(faces, refs[ask])
    logits, embedding = classifier.in_views(faces, refs[ask], logits, embedding)   # as the board's plane was read
    if adapter is not None and embedding is not None:
        logits = adapter(embedding, logits)
    out = np.array(probs, copy=True)
    out[ask] = which_tile_from_faces(probs[ask], classifier.calibrated(logits, letters), classifier.classes)
    return out


def reading_of(probs: np.ndarray, classes, corners, warped, location, rotation, embedding, references, logits,
               timings, caps: dict[int, int] | None = None, settled: bool = False, lexicon=None) -> BoardReading:
    """The reading of a board's probabilities (one row a square, row-major; the board's size from their count):
    the most probable board within the tile set's counts (``caps``, ``tilecounts.tile_caps``; None: each square's
    most probable class) and, ``settled``, with its tiles joined (``connected.joined``) and its runs words of
    ``lexicon`` where that is likelier (``words.as_words``), each square's confidence that of its label, the unsure
    ones flagged."""
    size = squares_a_side(probs)
    choice = within_tile_counts(probs, caps or {})
    if settled:
        choice = joined(probs, hands_only(probs, choice, classes), classes, caps)
        choice = as_words(probs, choice, classes, lexicon, caps)
    labels = [classes[i] for i in choice]
    conf = probs[np.arange(len(probs)), choice].reshape(size, size)
    grid_labels = tuple(tuple(labels[r * size:(r + 1) * size]) for r in range(size))
    occluded = np.array([[lab == OCCLUDED for lab in row] for row in grid_labels])
    return BoardReading(tuple("".join(row) for row in grid_labels), grid_labels, conf, occluded, probs,
                        tuple(classes), corners, homography_to_rectified(corners, size), warped, timings, location,
                        rotation % 4, conf < UNSURE_BELOW, embedding, references, logits)


__all__ = ["BoardReading", "read_board", "reading_of", "rotate_corners", "turn_squares", "turned_places",
           "squares_a_side", "letters_of", "EMPTY", "BLANK", "OCCLUDED", "UNSURE_BELOW"]
