"""Blank tiles against bare squares: a bare blank tile and a bare light square are both a plain face with nothing
printed on it, and the model, trained on blanks drawn 4x their share, calls some bare squares blanks on boards it
never saw. What tells them apart is the board itself: its bare squares and its letter tiles, read surely, around
the doubt. Each step takes the classifier's probabilities (squares x classes, row-major) with the board's
``cut_cells`` crops and returns new ones, or the same array when nothing changes."""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.vision.classify import BLANK, EMPTY, letter_mask
from tilecam.vision.locate import premium_kinds
from tilecam.vision.warp import CONTEXT_PX, CROP_PX

SIZE = 15
SURE = 0.9                  # squares read at least this surely make up the board's bare ground …
SURE_LETTER = 0.95          # … and its tiles' face
WHITE_BOARD_L = 225         # a board whose bare plain squares are this light (Lab L, 0–255) is a white board, …
WHITE_BOARD_BLANK = 4.0     # … where the model's odds of a blank tile are divided by this (its training boost)
#: A square read as a blank whose colour (Lab a, b) is this much nearer the bare squares' than the letter tiles'
#: is a bare square. On 250 held-out renders and the 107 real frames, real blanks came out at most 2.6 nearer the
#: bare squares (a cream tile on a cream board: both near), bare squares read as blanks at least 5.6.
BLANK_COLOUR_MARGIN = 6.0
#: A square read as bare, a blank in the model's doubt (at least ``BARE_IN_DOUBT``), whose colour is this much nearer
#: the letter tiles' than the bare squares' of its kind is a blank tile. Well above the other margin: a glare or a
#: shadow moves a bare square's colour a little, a tile over a square moves it a lot (17-58 measured: least for a
#: wooden blank on a white board in glare, most for a cream one on a red square).
TILE_COLOUR_MARGIN, BARE_IN_DOUBT = 15.0, 0.1
TILE_FACE_NEAR = 8.0        # … and which is this near the tiles' face (a/b): blanks 2-5, a glare-paled DW square 13
#: A blank all the models together read at least this surely keeps its blank against the colour: on 4,000 held-out
#: renders the real blanks the colour would have made bare were read 0.96 or more, the bare squares it put right
#: 0.56 or less; a white blank among cream letters on a white board in the move bench (seed 19109), 0.89.
BLANK_ALL_MODELS_SURE = 0.75


def _middles(crops: np.ndarray, squares, inset: int) -> np.ndarray:
    """Lab pixels (OpenCV 8-bit) of the squares' middles, ``inset`` px in from the square's edges: (n, k, 3)."""
    lo, hi = CONTEXT_PX + inset, CROP_PX - CONTEXT_PX - inset
    patches = np.ascontiguousarray(crops[np.asarray(squares, int), lo:hi, lo:hi])
    lab = cv2.cvtColor(patches.reshape(-1, hi - lo, 3), cv2.COLOR_BGR2LAB)
    return lab.reshape(len(patches), -1, 3).astype(np.float32)


def bare_squares(probs: np.ndarray, classes, kind: str = "") -> list[int]:
    """Squares (row-major index) of this premium ``kind`` ("" for plain ones) that are read surely empty; none
    without layout data."""
    kinds = premium_kinds(SIZE)
    if kinds is None:
        return []
    empty = list(classes).index(EMPTY)
    sure = np.flatnonzero((probs.argmax(axis=1) == empty) & (probs[:, empty] > SURE))
    return [int(i) for i in sure if kinds.flat[i] == kind]


def plain_square_lightness(crops: np.ndarray, probs: np.ndarray, classes, inset: int = 8) -> float | None:
    """Median lightness (OpenCV Lab L, 0–255) of the middles of the plain squares read surely empty; None without
    any (or without layout data)."""
    bare = bare_squares(probs, classes)
    if not bare:
        return None
    return float(np.median(_middles(crops, bare, inset)[..., 0]))


def blanks_on_a_white_board(crops: np.ndarray, probs: np.ndarray, classes, light: float = WHITE_BOARD_L,
                            odds: float = WHITE_BOARD_BLANK) -> np.ndarray:
    """The odds of a blank tile divided by ``odds`` when the board's bare plain squares are at least ``light``. On a
    white board the model calls doubtful white squares blanks (0.5–0.7 against 0.2–0.4 for empty); on a green or
    cream board its doubtful blanks are real ones (ScrabScrap's see-through blank reads 0.63 against 0.28), and are
    left alone. A blank read surely stays a blank here. Only a board with a square read as a blank is looked at."""
    blank = list(classes).index(BLANK)
    if not (probs.argmax(axis=1) == blank).any():
        return probs
    lightness = plain_square_lightness(crops, probs, classes)
    if lightness is None or lightness < light:
        return probs
    out = probs.copy()
    out[:, blank] /= odds
    return out / out.sum(axis=1, keepdims=True)


def tile_face_colour(crops: np.ndarray, squares) -> np.ndarray | None:
    """Median Lab colour of the faces of these letter tiles: the lighter 40 % of each middle (the letter and its
    value are the dark ink); None for no squares."""
    if not len(squares):
        return None
    faces = []
    for pixels in _middles(crops, squares, inset=3):
        light = pixels[:, 0] >= np.percentile(pixels[:, 0], 60)
        faces.append(np.median(pixels[light], axis=0))
    return np.median(faces, axis=0)


def bare_colour(crops: np.ndarray, probs: np.ndarray, classes, kind: str) -> np.ndarray | None:
    """Median Lab colour of the middles of the board's squares of this premium ``kind`` read surely empty."""
    bare = bare_squares(probs, classes, kind)
    return np.median(np.median(_middles(crops, bare, inset=8), axis=1), axis=0) if bare else None


def colour_distances(crops: np.ndarray, probs: np.ndarray, classes, squares) -> tuple[np.ndarray, np.ndarray]:
    """For each of ``squares``: the distance (Lab a, b) of the colour of its middle from the board's letter tiles'
    face (letters read at least ``SURE_LETTER``) and from its bare squares of the same kind (plain, DL, …, read
    surely empty); NaN where either is unknown. Colour here is a and b only, so light and shade falling on a square
    change it little."""
    squares = np.asarray(squares, int)
    to_face, to_ground = np.full(len(squares), np.nan), np.full(len(squares), np.nan)
    kinds = premium_kinds(SIZE)
    if not len(squares) or kinds is None:
        return to_face, to_ground
    read = probs.argmax(axis=1)
    letters = np.flatnonzero(letter_mask(classes)[read] & (probs.max(axis=1) >= SURE_LETTER))
    if not len(letters):
        return to_face, to_ground
    face = tile_face_colour(crops, letters)[1:]
    grounds = {k: bare_colour(crops, probs, classes, k) for k in {kinds.flat[i] for i in squares}}
    colours = np.median(_middles(crops, squares, inset=6), axis=1)[:, 1:]
    for n, (i, colour) in enumerate(zip(squares, colours)):
        ground = grounds[kinds.flat[i]]
        if ground is not None:
            to_face[n], to_ground[n] = np.linalg.norm(colour - face), np.linalg.norm(colour - ground[1:])
    return to_face, to_ground


def blanks_unlike_the_tiles(crops: np.ndarray, probs: np.ndarray, classes,
                            margin: float = BLANK_COLOUR_MARGIN, confirm=None) -> np.ndarray:
    """Squares read as a blank whose middle has the colour of the board's bare squares of their kind and not of
    its letter tiles (``colour_distances``: at least ``margin`` nearer the bare squares) are bare squares: their
    blank probability goes to empty. A blank is one of the set's tiles, made like its letters (a wooden blank on a
    white board is wood, not white); where tiles and board are alike in colour (ivory tiles on a cream board)
    nothing is decided here. Sure or not, the model's blank gives way to the colour — unless ``confirm`` (crops →
    probabilities; ``read_board`` passes the mean of all the models) reads the square a blank at
    ``BLANK_ALL_MODELS_SURE`` or more: a wooden blank on a cream board or an ivory one on a white board can be nearer
    the bare squares' colour than the letters' face (on 4,000 held-out renders six real blanks 0.5–5 of a/b from the
    ground and 10–17 from the face), and the models together read those surely, the bare squares not."""
    classes = list(classes)
    blank, empty = classes.index(BLANK), classes.index(EMPTY)
    blanks = np.flatnonzero(probs.argmax(axis=1) == blank)
    to_face, to_ground = colour_distances(crops, probs, classes, blanks)
    bare = blanks[to_face - to_ground >= margin]
    if len(bare) and confirm is not None:
        bare = bare[np.asarray(confirm(crops[bare]))[:, blank] < BLANK_ALL_MODELS_SURE]
    return _given_to(probs, bare, empty, blank)


def blanks_like_the_tiles(crops: np.ndarray, probs: np.ndarray, classes, margin: float = TILE_COLOUR_MARGIN,
                          doubt: float = BARE_IN_DOUBT) -> np.ndarray:
    """The converse: squares read as bare or as a blank, a blank tile among the model's thoughts (at least
    ``doubt``), whose middle has the colour of the letter tiles' face (within ``TILE_FACE_NEAR``) and is ``margin``
    nearer it than the bare squares of its kind are blanks: their empty probability goes to the blank, so that the
    white board's prior (``blanks_on_a_white_board``, after this) does not take them back. A cream blank on a red
    double-word square, or on a green board, is read bare where the model saw white squares with nothing on them as
    often; its colour is the tiles'. (Only near the face itself: glare pales a coloured square towards white, and
    so towards cream tiles, without making it theirs.)"""
    classes = list(classes)
    blank, empty = classes.index(BLANK), classes.index(EMPTY)
    read = probs.argmax(axis=1)
    doubtful = np.flatnonzero(((read == empty) | (read == blank)) & (probs[:, blank] >= doubt))
    to_face, to_ground = colour_distances(crops, probs, classes, doubtful)
    return _given_to(probs, doubtful[(to_ground - to_face >= margin) & (to_face <= TILE_FACE_NEAR)], blank, empty)


def _given_to(probs: np.ndarray, squares: np.ndarray, to: int, taken: int) -> np.ndarray:
    """``probs`` with the probability of class ``taken`` on ``squares`` added to class ``to``'s (the same array
    when there are none)."""
    if not len(squares):
        return probs
    out = probs.copy()
    out[squares, to] += out[squares, taken]
    out[squares, taken] = 0.0
    return out


__all__ = ["bare_squares", "bare_colour", "plain_square_lightness", "blanks_on_a_white_board", "tile_face_colour",
           "colour_distances", "blanks_unlike_the_tiles", "blanks_like_the_tiles"]
