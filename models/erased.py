"""Blank tiles made from lettered ones: a real tile's letter and value erased, its own face painted over them.

A blank is a tile of the set's make with nothing printed on it. Real boards hold two blanks in a hundred tiles, so
the reader saw few and read a plain wooden or plastic tile as the bare board (DeclanFinerty's wooden blanks on a
grey board, ScrabScrap's and jheidel's, the protiles club blanks): "no letter" had come to mean "no tile". Every
lettered tile of a real board is a blank of that board's make once its print is gone::

    lettered crop ──print_mask──▶ the pixels far from the face's colour, inside the tile, a little grown
                  ──cv2.inpaint──▶ the face continued over them: a blank of the same make, in the same light

``blanks_from_letters`` copies a share of a training set's lettered tiles so, labelled blank, each with the
reference of the square it came from (what the board's bare squares look like there).
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.reader_data import BLANK, EMPTY, OCCLUDED, Examples

#: Pixels this far (CIELAB distance, 8-bit scale) from the face's median colour are print (a letter's strokes, its
#: value): a face's grain and shading stay well under it, a letter's ink or paint is far over it.
PRINT_DISTANCE = 40.0
#: The band at the crop's edge left alone, in pixels: the square's context and the tile's rim and shadow, which a
#: blank has too (the reader's crops are the 32 px square with 4 px of context around it).
EDGE_PX = 8
#: A crop whose print covers less than this share of its inside has no letter to erase (a blank already, a tile
#: read from the wrong square): it is not used.
MIN_PRINT = 0.02
#: … or more than this share: no plain face is left to paint from (a hand, a tile half off its square).
MAX_PRINT = 0.45


def print_mask(crop: np.ndarray) -> np.ndarray | None:
    """The print on a lettered tile's crop (BGR, uint8) as a mask, grown by a pixel; None where the crop holds too
    little or too much of it (``MIN_PRINT``, ``MAX_PRINT``)."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    inside = np.zeros(crop.shape[:2], bool)
    inside[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX] = True
    face = np.median(lab[inside], axis=0)
    far = np.linalg.norm(lab - face, axis=2) > PRINT_DISTANCE
    mask = far & inside
    share = mask.sum() / inside.sum()
    if not MIN_PRINT <= share <= MAX_PRINT:
        return None
    return cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0


def erase_print(crop: np.ndarray) -> np.ndarray | None:
    """The crop with its print painted over by the face around it (``cv2.inpaint``); None as ``print_mask``."""
    mask = print_mask(crop)
    if mask is None:
        return None
    return cv2.inpaint(crop, mask.astype(np.uint8), 3, cv2.INPAINT_TELEA)


def blanks_from_letters(examples: Examples, share: float, rng: np.random.Generator) -> Examples:
    """Blanks made from a ``share`` of the lettered tiles among ``examples``, each with the reference and board of the
    tile it was made from, labelled blank (``?``)."""
    lettered = np.flatnonzero(~np.isin(examples.y, [EMPTY, OCCLUDED, BLANK]))
    made, sources = [], []
    for i in lettered[rng.random(len(lettered)) < share]:
        erased = erase_print(examples.x[i])
        if erased is not None:
            made.append(erased)
            sources.append(i)
    sources = np.array(sources, np.int64)
    if not made:
        return examples.take(sources)
    return Examples(np.stack(made), examples.ref[sources], np.full(len(made), BLANK, np.int64), examples.board[sources])
