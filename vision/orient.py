"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high confidence, letters turned a quarter or half turn are
not. The premium layout is symmetric under every quarter turn, so the board's print cannot tell it; an empty board
has no answer and keeps rotation 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED, TileClassifier, letter_mask
from tilecam.vision.locate import BoardLocation, locate_board
from tilecam.vision.read import letters_of, rotate_corners
from tilecam.vision.warp import cut_cells, warp_board


SURE_LETTER = 0.9     # a letter read at least this surely is taken as upright


@dataclass(frozen=True)
class Orientation:
    """The quarter turns that bring row 1 to the top, with what they were told from."""
    rotation: int
    scores: tuple[float, ...]     # per turn: mean tile-class confidence on the tile squares (higher: more upright)
    sure: tuple[int, ...]         # per turn: squares read as a letter at SURE_LETTER or more
    tiles: int                    # squares read as a tile (a letter or a blank) in at least one of the turns


def find_orientation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                     location: BoardLocation | None = None, margin: float = 0.02) -> Orientation:
    """Read the board in all four turns and keep the one with the most letters read surely (then: whose tiles read
    most surely as tiles); 0 unless another turn is better. An empty board has no answer: rotation 0, ``tiles``
    0."""
    location = location or locate_board(image)
    letters = letters_of(tileset)
    reads = []
    for k in range(4):
        labels, probs = classifier.classify(cut_cells(warp_board(image, rotate_corners(location.corners, k))),
                                            letters=letters)
        reads.append((np.array(labels).reshape(15, 15), probs))
    # The tile squares are those any turn reads as a tile (a letter or a blank), taken back to the unturned board:
    # a letter lying sideways is often read as unsure (#) or even as an empty square, so one turn alone would miss
    # some; a square read unsure in every turn is under a hand and tells nothing.
    classes = list(classifier.classes)
    tile_class = np.array([c not in (EMPTY, OCCLUDED) for c in classes])
    tiles = np.zeros((15, 15), bool)
    for k, (labels, _) in enumerate(reads):
        tiles |= np.rot90((labels != EMPTY) & (labels != OCCLUDED), -k)
    if not tiles.any():
        return Orientation(0, (1.0, 0.0, 0.0, 0.0), (0, 0, 0, 0), 0)
    letter = letter_mask(classes)
    scores, sure = [], []
    for k, (_, probs) in enumerate(reads):
        mask = np.rot90(tiles, k).reshape(-1)           # the same squares, wherever they land after the turn
        scores.append(float(probs[mask][:, tile_class].max(axis=1).mean()))
        sure.append(int((probs[:, letter].max(axis=1) >= SURE_LETTER).sum()))
    # Letters read surely decide (an upright letter is; one lying sideways seldom is), the mean confidence only
    # between turns with as many: a hand over most of the tiles drags every turn's mean down alike.
    best = max(range(4), key=lambda k: (sure[k], scores[k]))
    better = sure[best] > sure[0] or scores[best] > scores[0] + margin
    rotation = best if better else 0
    return Orientation(rotation, tuple(scores), tuple(sure), int(tiles.sum()))


def rotation_scores(image: np.ndarray, classifier: TileClassifier, tileset="english",
                    location: BoardLocation | None = None) -> list[float]:
    """Mean tile-class confidence on the tile squares for each of the four quarter turns (higher: more upright)."""
    return list(find_orientation(image, classifier, tileset, location).scores)


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None, margin: float = 0.02) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    return find_orientation(image, classifier, tileset, location, margin).rotation
