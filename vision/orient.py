"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high probability, letters turned a quarter or half turn are
not (the board's crops are read again each turned: no second warp); where that leaves turns even (one tile in sight), the tiles' point values, which sit bottom right. The premium
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
#: With as many letters read surely, another turn is taken only when its whole reading is this much more probable
#: (log-probability, nats): half a nat, so that a board with no letter in sight keeps the camera's turn.
TURN_MARGIN = 0.5


@dataclass(frozen=True)
class Orientation:
    """The quarter turns that bring row 1 to the top, with what they were told from."""
    rotation: int
    scores: tuple[float, ...]     # per turn: log-probability of the reading (each square's best class)
    sure: tuple[int, ...]         # per turn: tile squares read as a letter at SURE_LETTER or more
    tiles: int                    # squares read as a tile (a letter or a blank) unturned
    values: tuple[int, ...] = (0, 0, 0, 0)   # per turn: tile squares whose point value is seen bottom right


def upright_turn(crops: np.ndarray, refs: np.ndarray, probs: np.ndarray, classifier: TileClassifier,
                 letters) -> Orientation:
    """The turn that stands the board's letters up, from its unturned reading (``probs`` of ``crops`` beside
    ``refs``): the board is read again with each crop turned a quarter, half and three quarters; the turn with the
    most letters read surely wins, then the one whose reading is the most probable (the sum over squares of the log
    of each square's best class: bare squares read alike in every turn, letters surely only upright), which must
    beat the unturned one by ``TURN_MARGIN``. An empty board keeps rotation 0."""
    classes = list(classifier.classes)
    not_tile = [classes.index(EMPTY), classes.index(OCCLUDED)]
    reads = [probs] + [classifier.probabilities(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))),
                                                np.ascontiguousarray(np.rot90(refs, k, axes=(1, 2))), letters)
                       for k in (1, 2, 3)]
    tile = np.zeros(len(probs), bool)
    for p in reads:
        tile |= p[:, not_tile].sum(axis=1) < 0.5
    letter = letter_mask(classes)
    scores = [float(np.log(p.max(axis=1) + 1e-9).sum()) for p in reads]
    sure = [int((p[tile][:, letter].max(axis=1) >= SURE_LETTER).sum()) for p in reads]
    values = [int(values_bottom_right(np.rot90(crops[tile], k, axes=(1, 2))).sum()) for k in range(4)]
    # letters read surely decide (an upright letter is; one lying sideways seldom is, and may even read as a bare
    # square); between turns with as many, the more probable reading
    best = max(range(4), key=lambda k: (sure[k], scores[k]))
    rotation = best if best and (sure[best] > sure[0] or scores[best] > scores[0] + TURN_MARGIN) else 0
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
