"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high confidence, letters turned a quarter or half turn are
not; where that leaves turns even (one tile in sight), the tiles' point values, which sit bottom right. The premium
layout is symmetric under every quarter turn, so the board's print cannot tell it; an empty board has no answer and
keeps rotation 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED, TileClassifier, letter_mask
from tilecam.vision.locate import BoardLocation, locate_board
from tilecam.vision.read import letters_of, rotate_corners
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, cut_cells, warp_board


SURE_LETTER = 0.9     # a letter read at least this surely is taken as upright
#: The point value's window: from this share of the square to that one in from its bottom-right corner (the letter
#: stands a little up and left of the middle, the value in the corner below it on every set we know), …
VALUE_WINDOW = (0.10, 0.27)
#: … which holds this many times the ink of each other corner's window where the value is seen (held-out renders:
#: 89 % of upright letters, 0.5 % put in another corner; ScrabScrap's photos: 70 % and 3 %).
VALUE_RATIO = 1.5


@dataclass(frozen=True)
class Orientation:
    """The quarter turns that bring row 1 to the top, with what they were told from."""
    rotation: int
    scores: tuple[float, ...]     # per turn: mean tile-class confidence on the tile squares (higher: more upright)
    sure: tuple[int, ...]         # per turn: squares read as a letter at SURE_LETTER or more
    tiles: int                    # squares read as a tile (a letter or a blank) in at least one of the turns
    values: tuple[int, ...] = (0, 0, 0, 0)   # per turn: tile squares whose point value is seen bottom right


def find_orientation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                     location: BoardLocation | None = None, margin: float = 0.02) -> Orientation:
    """Read the board in all four turns and keep the one with the most letters read surely (then: with the most
    point values bottom right, then: whose tiles read most surely as tiles); 0 unless another turn is better. An
    empty board has no answer: rotation 0, ``tiles`` 0."""
    location = location or locate_board(image)
    letters = letters_of(tileset)
    reads, cuts = [], []
    for k in range(4):
        cuts.append(cut_cells(warp_board(image, rotate_corners(location.corners, k))))
        labels, probs = classifier.classify(cuts[-1], letters=letters)
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
    # Letters read surely decide (an upright letter is; one lying sideways seldom is); between turns with as many,
    # the tiles whose point value sits bottom right (a lone N is a Z a quarter turn on, an S the same upside down),
    # and the mean confidence only then: a hand over most of the tiles drags every turn's mean down alike.
    values = [int(values_bottom_right(crops[np.rot90(tiles, k).reshape(-1)]).sum()) for k, crops in enumerate(cuts)]
    best = max(range(4), key=lambda k: (sure[k], values[k], scores[k]))
    better = (sure[best], values[best]) > (sure[0], values[0]) or scores[best] > scores[0] + margin
    rotation = best if better else 0
    return Orientation(rotation, tuple(scores), tuple(sure), int(tiles.sum()), tuple(values))


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


def rotation_scores(image: np.ndarray, classifier: TileClassifier, tileset="english",
                    location: BoardLocation | None = None) -> list[float]:
    """Mean tile-class confidence on the tile squares for each of the four quarter turns (higher: more upright)."""
    return list(find_orientation(image, classifier, tileset, location).scores)


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None, margin: float = 0.02) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    return find_orientation(image, classifier, tileset, location, margin).rotation
