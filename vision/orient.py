"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high probability, letters turned a quarter or half turn are
not (the board's crops are read again each turned: no second warp). The premium layout is symmetric under every
quarter turn, so the board's print cannot tell it; an empty board has no answer and keeps rotation 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED, TileClassifier, letter_mask
from tilecam.vision.context import references_from_board
from tilecam.vision.locate import BoardLocation, LocateConfig, locate_board
from tilecam.vision.warp import cut_cells, warp_board


SURE_LETTER = 0.9     # a letter read at least this surely is taken as upright
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
    #: the model's (logits, embedding) of each crop turned one, two and three quarters (crops in their squares'
    #: unturned order), so that the reading in the turn chosen need not be classified again
    turned: tuple = field(default=(), repr=False, compare=False)


def upright_turn(crops: np.ndarray, refs: np.ndarray, probs: np.ndarray, classifier: TileClassifier,
                 letters) -> Orientation:
    """The turn that stands the board's letters up, from its unturned reading (``probs`` of ``crops`` beside
    ``refs``): the board is read again with each crop turned a quarter, half and three quarters; the turn with the
    most letters read surely wins, then the one whose reading is the most probable (the sum over squares of the log
    of each square's best class: bare squares read alike in every turn, letters surely only upright), which must
    beat the unturned one by ``TURN_MARGIN``. An empty board keeps rotation 0."""
    classes = list(classifier.classes)
    not_tile = [classes.index(EMPTY), classes.index(OCCLUDED)]
    turned = tuple(classifier.run(np.ascontiguousarray(np.rot90(crops, k, axes=(1, 2))),
                                  np.ascontiguousarray(np.rot90(refs, k, axes=(1, 2)))) for k in (1, 2, 3))
    reads = [probs] + [classifier.calibrated(logits, letters) for logits, _ in turned]
    tile = np.zeros(len(probs), bool)
    for p in reads:
        tile |= p[:, not_tile].sum(axis=1) < 0.5
    letter = letter_mask(classes)
    scores = [float(np.log(p.max(axis=1) + 1e-9).sum()) for p in reads]
    sure = [int((p[tile][:, letter].max(axis=1) >= SURE_LETTER).sum()) for p in reads]
    # letters read surely decide (an upright letter is; one lying sideways seldom is, and may even read as a bare
    # square); between turns with as many, the more probable reading
    best = max(range(4), key=lambda k: (sure[k], scores[k]))
    rotation = best if best and (sure[best] > sure[0] or scores[best] > scores[0] + TURN_MARGIN) else 0
    return Orientation(rotation, tuple(scores), tuple(sure), int(tile.sum()), turned)


def find_orientation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                     location: BoardLocation | None = None, size: int = 15) -> Orientation:
    """``upright_turn`` of the board in ``image`` (located unless ``location`` is given; ``size`` squares a side)."""
    from tilecam.vision.read import letters_of

    location = location or locate_board(image, LocateConfig(size=size))
    crops = cut_cells(warp_board(image, location.corners, size), size)
    refs = references_from_board(crops)
    letters = letters_of(tileset)
    probs = classifier.probabilities(crops, refs, letters)
    return upright_turn(crops, refs, probs, classifier, letters)


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None, size: int = 15) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    return find_orientation(image, classifier, tileset, location, size).rotation
