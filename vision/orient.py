"""Which edge of the board is row 1.

A fixed camera learns it once at calibration (the rotation is kept in the configuration). From a single photo it is
told from the tiles: letters read upright are read with high confidence, letters turned a quarter or half turn are
not. The premium layout is symmetric under every quarter turn, so the board's print cannot tell it; an empty board
has no answer and keeps rotation 0.
"""

from __future__ import annotations

import numpy as np

from tilecam.vision.classify import EMPTY, TileClassifier
from tilecam.vision.locate import BoardLocation, locate_board
from tilecam.vision.read import letters_of, rotate_corners
from tilecam.vision.warp import cut_cells, warp_board


def rotation_scores(image: np.ndarray, classifier: TileClassifier, tileset="english",
                    location: BoardLocation | None = None) -> list[float]:
    """Mean letter confidence on the tile squares for each of the four quarter turns (higher: more upright)."""
    location = location or locate_board(image)
    letters = letters_of(tileset)
    warped = warp_board(image, location.corners)
    crops = cut_cells(warped)
    labels, probs = classifier.classify(crops, letters=letters)
    # A letter lying sideways is often read as unsure (#), not as a letter: those squares count as tiles too
    # (the caller makes sure no hand is over the board), or the turn would be judged on the round letters alone.
    tiles = np.array([lab != EMPTY for lab in labels])
    if tiles.sum() == 0:
        return [1.0, 0.0, 0.0, 0.0]
    scores = []
    for k in range(4):
        if k == 0:
            p = probs      # the unturned board was classified above
        else:
            _, p = classifier.classify(cut_cells(warp_board(image, rotate_corners(location.corners, k))),
                                       letters=letters)
        # Only the crops that hold tiles, wherever they land after the turn.
        mask = np.rot90(tiles.reshape(15, 15), k).reshape(-1)
        scores.append(float(p[mask].max(axis=1).mean()))
    return scores


def best_rotation(image: np.ndarray, classifier: TileClassifier, tileset="english",
                  location: BoardLocation | None = None, margin: float = 0.02) -> int:
    """The quarter turns that bring row 1 to the top; 0 unless another turn is clearly better."""
    scores = rotation_scores(image, classifier, tileset, location)
    best = int(np.argmax(scores))
    return best if scores[best] > scores[0] + margin else 0
