"""Blank tiles made from bare squares: a plain square's face given a colour its board's bare squares do not have.

A blank is a plain face: what tells it from the bare board is only that its colour is not the board's. Measured on
the real sets, the reader read blanks bare even where their face was 50-65 levels of a*b* (8-bit Lab) away from the
reference beside them (jheidel's), while a bare square's face lies within 6-16 levels of its reference (95th-99th
percentile, shadows and glare included): it had learned "tile" from print, and a blank is 0.7 % of the examples.

Here each copied example is a plain bare square of a training board, its square's face (the cell, a pixel or two
inside its edges, feathered) moved in colour by at least ``MIN_CHROMA_SHIFT`` in a*b* and up to ``MAX_L_SHIFT`` in
lightness, labelled blank, **with its own reference unchanged**. The same crop stays in the data as bare with that
reference, so the pair can only be told apart by comparing the face with the reference: the signal the reader
lacked. The light, the camera's blur and noise and the square's own grain are the board's own: nothing but the
colour says "tile".
"""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.reader_data import BLANK, EMPTY, Examples
from tilecam.vision.context import face_colours, texture
from tilecam.vision.warp import CELL_PX, CONTEXT_PX

#: A bare square whose inside varies less than this (``context.texture``, grey levels) is plain, nothing printed on
#: it: a plain square measured 1-3 (median) on the real sets, lettered tiles 27-36 (1st percentile).
PLAIN_TEXTURE = 8.0
#: The face's shift in a*b* (8-bit Lab) is at least this: well over a bare square's own (≤ 16 at the 99th
#: percentile on the real sets) so that no bare look is labelled a tile; …
MIN_CHROMA_SHIFT = 25.0
MAX_CHROMA_SHIFT = 60.0     # … and at most this (the blanks measured: up to 65)
MAX_L_SHIFT = 40.0          # lightness moves by up to this either way (a blank lighter or darker than the board)
CLIPPED_SHORT = 0.8         # a face moved less than this share of the least shift (clipped by Lab's range) is left out
INSET_PX = (1, 3)           # the face ends this many pixels inside the square's edges (a tile a little smaller)


def plain_bare(examples: Examples) -> np.ndarray:
    """Indices of the bare squares with nothing printed on them (``PLAIN_TEXTURE``)."""
    bare = np.flatnonzero(examples.y == EMPTY)
    return bare[texture(examples.x[bare]) < PLAIN_TEXTURE] if len(bare) else bare


def recolour(crop: np.ndarray, shift: np.ndarray, inset: int) -> np.ndarray:
    """The crop (BGR uint8) with its square's face, ``inset`` px inside the square's edges and feathered over a
    pixel, moved by ``shift`` (dL, da, db in 8-bit Lab)."""
    mask = np.zeros(crop.shape[:2], np.float32)
    a, b = CONTEXT_PX + inset, CONTEXT_PX + CELL_PX - inset
    mask[a:b, a:b] = 1.0
    mask = cv2.GaussianBlur(mask, (0, 0), 0.8)[..., None]
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    moved = cv2.cvtColor(np.clip(lab + shift.astype(np.float32), 0, 255).astype(np.uint8), cv2.COLOR_LAB2BGR)
    # Blended in BGR: outside the face the crop stays exactly as it was (Lab's 8-bit round trip moves a level).
    return np.rint(crop * (1 - mask) + moved * mask).astype(np.uint8)


def blanks_from_bare(examples: Examples, share: float, rng: np.random.Generator) -> Examples:
    """Blanks made from a ``share`` of the plain bare squares among ``examples`` (``recolour``, a random shift
    each), each with its own square's reference and board, labelled blank (``?``)."""
    pool = plain_bare(examples)
    sources = pool[rng.random(len(pool)) < share]
    n = len(sources)
    if not n:
        return examples.take(sources)
    chroma = rng.uniform(MIN_CHROMA_SHIFT, MAX_CHROMA_SHIFT, n)
    angle = rng.uniform(0, 2 * np.pi, n)
    shifts = np.column_stack([rng.uniform(-MAX_L_SHIFT, MAX_L_SHIFT, n), chroma * np.cos(angle),
                              chroma * np.sin(angle)])
    insets = rng.integers(INSET_PX[0], INSET_PX[1] + 1, n)
    made = np.stack([recolour(examples.x[i], s, int(k)) for i, s, k in zip(sources, shifts, insets)])
    # A face already near the end of Lab's range (a saturated red square) is clipped short of its shift: left out.
    moved = face_colours(made)[:, 1:] - face_colours(examples.x[sources])[:, 1:]
    kept = np.hypot(moved[:, 0], moved[:, 1]) >= CLIPPED_SHORT * MIN_CHROMA_SHIFT
    return Examples(made[kept], examples.ref[sources][kept], np.full(int(kept.sum()), BLANK, np.int64),
                    examples.board[sources][kept])


__all__ = ["plain_bare", "recolour", "blanks_from_bare", "PLAIN_TEXTURE", "MIN_CHROMA_SHIFT"]
