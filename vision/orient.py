"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high probability, letters turned a quarter or half turn are
not (only the squares read as tiles are read again, each crop turned: no second warp); where that leaves turns even (one tile in sight), the tiles' point values, which sit bottom right. The premium
layout is symmetric under every quarter turn, so the board's print cannot tell it; an empty board has no answer and
keeps rotation 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED, TileClassifier, letter_mask
from tilecam.vision.context import references_from_board
from tilecam.vision.locate import BoardLocation, locate_board
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, cut_cells, warp_board


SURE_LETTER = 0.9     # a letter read at least this surely is taken as upright
#: The point value's window: from this share of the square to that one in from its bottom-right corner (the letter
#: stands a little up and left of the middle, the value in the corner below it on every set we know), …
VALUE_WINDOW = (0.10, 0.27)
#: … which holds this many times the ink of each other corner's window where the value is seen (held-out renders:
#: 89 % of upright letters, 0.5 % put in another corner; ScrabScrap's photos: 70 % and 3 %).
VALUE_RATIO = 1.5
#: Another turn is taken only when its letters are this much more likely on average (log-probability, nats).
TURN_MARGIN = 0.05


@dataclass(frozen=True)
class Orientation:
    """The quarter turns that bring row 1 to the top, with what they were told from."""
    rotation: int
    scores: tuple[float, ...]     # per turn: mean log-probability of the best letter on the tile squares
    sure: tuple[int, ...]         # per turn: tile squares read as a letter at SURE_LETTER or more
    tiles: int                    # squares read as a tile (a letter or a blank) unturned
    values: tuple[int, ...] = (0, 0, 0, 0)   # per turn: tile squares whose point value is seen bottom right


def upright_turn(crops: np.ndarray, refs: np.ndarray, probs: np.ndarray, classifier: TileClassifier,
                 letters) -> Orientation:
    """The turn that stands the board's letters up, from its unturned reading (``probs`` of ``crops`` beside
    ``refs``): the squares read as tiles are read again with each crop turned a quarter, half and three quarters,
    and the turn whose letters are most likely wins (then: most point values bottom right). An empty board keeps
    rotation 0."""
    classes = list(classifier.classes)
    tile = (probs[:, classes.index(EMPTY)] + probs[:, classes.index(OCCLUDED)]) < 0.5
    if not tile.any():
        return Orientation(0, (0.0, 0.0, 0.0, 0.0), (0, 0, 0, 0), 0)
    letter = letter_mask(classes)
    scores, sure, values = [], [], []
    for k in range(4):
        c = np.ascontiguousarray(np.rot90(crops[tile], k, axes=(1, 2)))
        p = probs[tile] if k == 0 else classifier.probabilities(
            c, np.ascontiguousarray(np.rot90(refs[tile], k, axes=(1, 2))), letters)
        best = p[:, letter].max(axis=1)
        scores.append(float(np.log(best + 1e-6).mean()))
        sure.append(int((best >= SURE_LETTER).sum()))
        values.append(int(values_bottom_right(c).sum()))
    best_k = max(range(4), key=lambda k: (round(scores[k], 2), values[k]))
    rotation = best_k if best_k and (scores[best_k] > scores[0] + TURN_MARGIN or
                                     (scores[best_k] >= scores[0] and values[best_k] > values[0])) else 0
    return Orientation(rotation, tuple(scores), tuple(sure), int(tile.sum()), tuple(values))


def find_orientation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                     location: BoardLocation | None = None) -> Orientation:
    """``upright_turn`` of the board in ``image`` (located unless ``location`` is given)."""
    from tilecam.vision.read import letters_of

    location = location or locate_board(image)
    crops = cut_cells(warp_board(image, location.corners))
    refs = references_from_board(crops)
    letters = letters_of(tileset)
    probs = classifier.probabilities(crops, refs, letters)
    return upright_turn(crops, refs, probs, classifier, letters)


def values_bottom_right(crops: np.ndarray) -> np.ndarray:
    """For each tile crop (``cut_cells``'), whether its point value is seen in the bottom-right corner: that corner's
    window (``VALUE_WINDOW``) holds ``VALUE_RATIO`` times the ink of each other corner's and a fiftieth of the
    square's. Ink is darkness below the face (the square's 75th percentile of light)."""
    if not len(crops):
        return np.zeros(0, bool)
    c = CONTEXT_PX
    cells = crops[:, c:c + CELL_PX, c:c + CELL_PX].astype(np.float32) @ np.float32([0.114, 0.587, 0.299])
    face = np.percentile(cells.reshape(len(cells), -1), 75, axis=1)
    dark = np.clip(face[:, None, None] - cells, 0, None)
    a, b = (round(share * CELL_PX) for share in VALUE_WINDOW)
    near, far = slice(a, b), slice(CELL_PX - b, CELL_PX - a)
    ink = np.stack([dark[:, far, far].sum((1, 2)), dark[:, far, near].sum((1, 2)),
                    dark[:, near, near].sum((1, 2)), dark[:, near, far].sum((1, 2))], axis=1)
    return (ink[:, 0] >= VALUE_RATIO * ink[:, 1:].max(axis=1)) & (ink[:, 0] > 0.02 * dark.sum((1, 2)))


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    return find_orientation(image, classifier, tileset, location).rotation
