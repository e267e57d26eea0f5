"""Reading a board: localise → rectify → classify, one pure function with every intermediate kept."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from tilecam.vision.blanks import blanks_like_the_tiles, blanks_on_a_white_board, blanks_unlike_the_tiles
from tilecam.vision.classify import BLANK, EMPTY, OCCLUDED, TileClassifier, letter_mask
from tilecam.vision.locate import BoardLocation, LocateConfig, locate_board
from tilecam.vision.warp import cut_cell, cut_cells, homography_to_rectified, warp_board

SIZE = 15
LOOK_AGAIN_BELOW = 0.7     # a square read this doubtfully between empty and a tile is looked at again …
LOOK_AGAIN_SHIFT = 3       # … in crops moved this many pixels up, down, left and right; a tile read in one of them …
LOOK_AGAIN_SURE = 0.9      # … this surely is taken (a tile put down off its square's middle is seen whole there)
AVERAGE_BELOW = 0.9        # a square still read this doubtfully between two letters is read again …
AVERAGE_SHIFT = 2          # … from its crop and four crops moved this many pixels, their probabilities averaged
BY_ALL_BELOW = 0.9         # any other square read this doubtfully (but bare-or-hand) is read by all the models


@dataclass(frozen=True, eq=False)
class BoardReading:
    """What the camera saw: ``grid`` (15 strings: ``.`` empty, letters, ``?`` blank tile, ``#`` occluded/unsure),
    per-square ``labels``/``confidence``/``occluded``, the class probabilities ``probs`` (225 x classes, columns
    named by ``classes``), and the intermediates: ``corners``, ``homography``, ``warped``, ``timings`` (ms)."""

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

    def to_json(self) -> dict:
        """The ``tilecam read --json`` document."""
        cells = [[{"label": self.labels[r][c], "confidence": round(float(self.confidence[r, c]), 4)}
                  for c in range(SIZE)] for r in range(SIZE)]
        return {"grid": list(self.grid), "cells": cells, "corners": self.location.to_json()}


def letters_of(tileset) -> tuple[str, ...]:
    """The letters of a tile set given by name (``english``, ``german``) or as a ``TileSet``."""
    if isinstance(tileset, str):
        from tilecam.engine.tiles import TileSet

        tileset = TileSet.load(tileset)
    return tuple(tileset.letters)


def rotate_corners(corners: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The same grid with another edge as row 1: the board read turned ``quarter_turns`` times
    counter-clockwise (as ``np.rot90`` turns the rectified board)."""
    return np.roll(np.asarray(corners, np.float32).reshape(4, 2), -(quarter_turns % 4), axis=0)


def read_board(image: np.ndarray, classifier: TileClassifier, tileset="english", hint=None, rotation: int = 0,
               cfg: LocateConfig = LocateConfig()) -> BoardReading:
    """Read every square of the board in ``image``.

    ``hint``: the previous ``BoardLocation`` (or its corners) when the camera is fixed — reused when it still fits.
    ``rotation``: which edge is row 1, in quarter turns, as calibrated for a fixed camera (see ``orient``).
    Raises ``BoardNotFound`` when there is no board in the frame.
    """
    t0 = time.perf_counter()
    if hint is not None and not isinstance(hint, BoardLocation):
        corners = np.asarray(hint, np.float32).reshape(4, 2)
        hint = BoardLocation(corners, homography_to_rectified(corners), 0.0, "hint")
    location = locate_board(image, cfg, hint=hint)
    t1 = time.perf_counter()
    corners = rotate_corners(location.corners, rotation)
    warped = warp_board(image, corners)
    crops = cut_cells(warped)
    t2 = time.perf_counter()
    letters = letters_of(tileset)
    _, probs = classifier.classify(crops, letters=letters)

    def again(more_crops: np.ndarray) -> np.ndarray:
        return classifier.classify(more_crops, letters=letters)[1]

    def with_second_opinion(more_crops: np.ndarray) -> np.ndarray:
        return classifier.classify_again(more_crops, letters=letters)

    probs = look_again(warped, probs, classifier.classes, again, confirm=with_second_opinion)
    probs = read_doubtful_squares_again(warped, probs, classifier.classes, with_second_opinion)
    probs = read_by_all_models(crops, probs, classifier.classes, with_second_opinion)
    probs = blanks_like_the_tiles(crops, probs, classifier.classes)      # colour first: before the white board's
    probs = blanks_on_a_white_board(crops, probs, classifier.classes)    # prior takes a blank's odds down
    probs = blanks_unlike_the_tiles(crops, probs, classifier.classes, confirm=with_second_opinion)
    labels = [classifier.classes[i] for i in probs.argmax(axis=1)]
    t3 = time.perf_counter()
    conf = probs.max(axis=1).reshape(SIZE, SIZE)
    grid_labels = tuple(tuple(labels[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE))
    occluded = np.array([[lab == OCCLUDED for lab in row] for row in grid_labels])
    timings = {"localise": (t1 - t0) * 1000, "rectify": (t2 - t1) * 1000, "classify": (t3 - t2) * 1000,
               "total": (t3 - t0) * 1000}
    return BoardReading(tuple("".join(row) for row in grid_labels), grid_labels, conf, occluded, probs,
                        classifier.classes, corners, homography_to_rectified(corners), warped, timings, location,
                        rotation % 4)


def look_again(warped: np.ndarray, probs: np.ndarray, classes, classify, confirm=None) -> np.ndarray:
    """``probs`` (squares x classes, row-major) with a second look at the squares read doubtfully between empty and
    a tile: each is cut again moved ``LOOK_AGAIN_SHIFT`` px four ways and ``classify``-ed (crops → probabilities);
    where one of those crops reads a tile at ``LOOK_AGAIN_SURE`` or more, the surest such reading replaces the
    square's. A tile put down off its square's middle (a blank, which has only its edges to show) is then read
    whole. With ``confirm`` (crops → probabilities; ``read_board`` passes the mean of all the models) that crop must
    read the same tile at ``LOOK_AGAIN_SURE`` there too: a moved crop of a bare square takes in the next square's
    edge, which one model alone may call a blank (on 4,000 held-out renders 18 bare squares were turned into blanks
    that way; the models together read 17 of those crops under 0.9 a blank, the 4 blanks found so 0.96–0.98).
    Returns a new array; the others are untouched."""
    classes = list(classes)
    empty, occluded = classes.index(EMPTY), classes.index(OCCLUDED)
    not_tile = np.array([c in (EMPTY, OCCLUDED) for c in classes])
    top2 = np.argsort(-probs, axis=1)[:, :2]
    # the two best answers are "empty" and a tile (not the unsure "#": a hand is not looked under)
    doubtful = [i for i in range(len(probs)) if probs[i, top2[i, 0]] < LOOK_AGAIN_BELOW and empty in top2[i]
                and occluded not in top2[i]]
    if not doubtful:
        return probs
    s = LOOK_AGAIN_SHIFT
    shifts = ((-s, 0), (s, 0), (0, -s), (0, s))
    crops = np.stack([cut_cell(warped, *divmod(i, SIZE), dy, dx) for i in doubtful for dy, dx in shifts])
    read = np.asarray(classify(crops))                 # one row per moved crop, four crops a square
    found = []                                         # (square, its surest moved crop, the tile read there)
    for n, (i, looks) in enumerate(zip(doubtful, read.reshape(len(doubtful), len(shifts), -1))):
        tile = np.where(not_tile, 0.0, looks)          # each look's tile classes only
        view, label = np.unravel_index(int(tile.argmax()), tile.shape)
        if tile[view, label] >= LOOK_AGAIN_SURE:
            found.append((i, n * len(shifts) + view, label))
    if found and confirm is not None:
        sure = np.asarray(confirm(crops[[view for _, view, _ in found]]))
        found = [f for f, p in zip(found, sure) if p[f[2]] >= LOOK_AGAIN_SURE]
    out = probs.copy()
    for i, view, _ in found:
        out[i] = read[view]
    return out


def read_doubtful_squares_again(warped: np.ndarray, probs: np.ndarray, classes, classify,
                                below: float = AVERAGE_BELOW, shift: int = AVERAGE_SHIFT) -> np.ndarray:
    """``probs`` with each square read doubtfully between two letters (the best has less than ``below``) read
    again: its crop and four crops moved ``shift`` px up, down, left and right are ``classify``-ed and the five
    readings averaged. One crop of a letter the model finds ambiguous (R or K, F or E in an unseen font) can fall
    either way; a few views a pixel or two apart mostly agree on the right one, and more so with other models'
    views in (``read_board`` passes ``TileClassifier.classify_again``). Only a few squares a board are that
    doubtful, so this costs little. Returns a new array."""
    # between two letters only: a bare square or a blank is look_again's (a see-through blank is seen in one
    # moved crop, and averaging would wash it out)
    top2 = np.argsort(-probs, axis=1)[:, :2]
    letter = letter_mask(classes)
    doubtful = np.flatnonzero((probs.max(axis=1) < below) & letter[top2].all(axis=1))
    if not len(doubtful):
        return probs
    shifts = ((0, 0), (-shift, 0), (shift, 0), (0, -shift), (0, shift))
    crops = np.stack([cut_cell(warped, *divmod(int(i), SIZE), dy, dx) for i in doubtful for dy, dx in shifts])
    views = np.asarray(classify(crops)).reshape(len(doubtful), len(shifts), -1)
    out = probs.copy()
    out[doubtful] = views.mean(axis=1)
    return out


def read_by_all_models(crops: np.ndarray, probs: np.ndarray, classes, classify,
                       below: float = BY_ALL_BELOW) -> np.ndarray:
    """``probs`` with each square still read doubtfully (its best under ``below``) read again from its own crop by
    ``classify`` (``read_board`` passes the mean of the model and its second opinions): bare or a blank (a blank
    has only its edges and its shade to tell it from the square under it), bare or a letter, a letter or a hand, a
    blank or a letter. Models trained apart weigh those differently and seldom all err the same way. Two kinds of
    doubt are left alone: between two letters (``read_doubtful_squares_again``'s, from moved crops, which has
    already run) and between a bare square and a hand (``#``), where the first model is the one to trust: the
    second opinions, trained on a GPU with near-white sleeves among their hands, take washed-out white squares for
    a hand (leaving those to the first model: 3 more boards fully right of 4,000 held-out renders and 600 empty
    boards). The crop is not moved: a tile put down off its square's middle is ``look_again``'s. Returns a new
    array, or ``probs`` itself when no square is in doubt."""
    classes = list(classes)
    top2 = np.argsort(-probs, axis=1)[:, :2]
    two_letters = letter_mask(classes)[top2].all(axis=1)
    bare_or_hand = np.isin(top2, [classes.index(EMPTY), classes.index(OCCLUDED)]).all(axis=1)
    doubtful = np.flatnonzero((probs.max(axis=1) < below) & ~two_letters & ~bare_or_hand)
    if not len(doubtful):
        return probs
    out = probs.copy()
    out[doubtful] = np.asarray(classify(crops[doubtful]))
    return out


__all__ = ["BoardReading", "read_board", "look_again", "read_doubtful_squares_again", "read_by_all_models",
           "rotate_corners", "letters_of", "EMPTY", "BLANK", "OCCLUDED"]
