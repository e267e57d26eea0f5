"""Whether a tile lies on a square, by its face's colour against *this* board's tiles and bare squares.

The model reads a plain face — a blank tile, or a bare square — mostly by the print it lacks, and on a board it never
saw it reads a wooden blank on a grey board as bare with full confidence, while every letter tile of the same photo
tells what this board's tiles look like. So each photo is its own calibration: the squares the model reads surely
(``SURE_READ``) as tiles give the colour of this board's tile faces, those it reads surely bare give how far a bare
square's face strays from its kind's bare look (``context.references_from_board``: light across the board, print).
Each square's face then has a likelihood under either (a Student t in 8-bit Lab: a face that follows neither — a
hand, glare, a shadow's edge — says little either way), and the ratio is the colour's evidence that a tile lies
there, multiplied into the model's odds of every tile class against bare (Bayes, one weight, no threshold on a
colour). A board whose tiles are the colour of its squares gets two looks alike and a ratio near one: colour says
nothing there, and the model's reading stands.

>>> import numpy as np
>>> grey, wood = np.array([200.0, 128, 128]), np.array([170.0, 138, 155])
>>> faces = np.vstack([np.tile(grey, (30, 1)) + np.arange(30)[:, None] % 3,      # bare squares
...                    np.tile(wood, (8, 1)) + np.arange(8)[:, None] % 2, [wood]])   # letters, then a blank
>>> probs = np.array([[0.999, 0.001, 0.0]] * 30 + [[0.001, 0.999, 0.0]] * 8 + [[0.99, 0.0, 0.01]])
>>> ratio = face_evidence(probs, (".", "A", "?"), faces, np.tile(grey, (39, 1)))
>>> bool(ratio[-1] > 5), bool(with_face_evidence(probs, (".", "A", "?"), ratio)[-1].argmax() == 2)
(True, True)
"""

from __future__ import annotations

import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED

#: A square the model reads with at least this probability as a tile (or as bare) is one of this photo's examples
#: of its board's tile faces (or of its bare squares): one in a hundred of them wrong at most, the calibrated reader
#: says, and a median does not mind a few.
SURE_READ = 0.99
#: Fewer sure tiles than this (an empty board, a first word) tell too little of the tiles' colour: no evidence.
LEAST_TILES = 5
#: Fewer sure bare squares than this tell too little of how bare squares stray: no evidence.
LEAST_BARE = 20
#: Each look's spread is at least this many levels of 8-bit Lab in every direction: a camera's noise between two
#: crops of the same face, so that a board of one flat colour does not make every other face infinitely unlike it.
COLOUR_NOISE = 3.0
#: Degrees of freedom of the Student t each look is modelled with: heavy tails, so that a face far from both looks
#: (a hand, glare, a shadow's edge) weighs about as little for either, instead of the nearer look's Gaussian winning
#: by tens of nats.
TAILS = 3.0


def _log_t(deviation: np.ndarray, cov: np.ndarray) -> np.ndarray:
    """Log density (up to a constant shared by both looks) of a 3-D Student t with ``TAILS`` degrees of freedom."""
    inverse = np.linalg.inv(cov)
    distance = np.einsum("ni,ij,nj->n", deviation, inverse, deviation)
    return -0.5 * np.log(np.linalg.det(cov)) - (TAILS + 3) / 2 * np.log1p(distance / TAILS)


def tile_classes(classes) -> np.ndarray:
    """Which classes are tiles (letters and the blank): not bare, not covered."""
    return np.array([c not in (EMPTY, OCCLUDED) for c in classes])


def face_evidence(probs: np.ndarray, classes, faces: np.ndarray, reference_faces: np.ndarray) -> np.ndarray:
    """Per square (rows of ``probs``), log p(its face | a tile of this board) − log p(its face | a bare square of its
    kind here): ``faces`` its face colour, ``reference_faces`` its kind's bare look (``context.face_colours`` of the
    crops and of their references, 8-bit Lab). Zero everywhere when the photo has too few sure examples of either."""
    probs = np.asarray(probs, np.float64)
    faces, reference_faces = np.asarray(faces, np.float64), np.asarray(reference_faces, np.float64)
    is_tile = tile_classes(classes)
    best, sure = probs.argmax(axis=1), probs.max(axis=1) >= SURE_READ
    tiles = np.flatnonzero(sure & is_tile[best])           # a blank read surely shows the tiles' face too
    bare = np.flatnonzero(sure & (np.asarray(classes)[best] == EMPTY))
    if len(tiles) < LEAST_TILES or len(bare) < LEAST_BARE:
        return np.zeros(len(probs))
    noise = COLOUR_NOISE ** 2 * np.eye(3)
    tile_look = np.median(faces[tiles], axis=0)
    tile_spread = np.cov((faces[tiles] - tile_look).T) + noise
    bare_spread = np.cov((faces[bare] - reference_faces[bare]).T) + noise
    return _log_t(faces - tile_look, tile_spread) - _log_t(faces - reference_faces, bare_spread)


def with_face_evidence(probs: np.ndarray, classes, evidence: np.ndarray) -> np.ndarray:
    """``probs`` with each square's odds of every tile class against bare (and covered) multiplied by
    ``exp(evidence)`` (``face_evidence``); a class at probability 0 (a letter the tile set lacks) stays at 0."""
    probs = np.asarray(probs, np.float64)
    with np.errstate(divide="ignore"):
        logp = np.log(probs)
    logp[:, tile_classes(classes)] += np.asarray(evidence, np.float64)[:, None]
    top = logp.max(axis=1, keepdims=True)
    out = np.exp(logp - top)
    return (out / out.sum(axis=1, keepdims=True)).astype(np.float32)


def judged_by_faces(probs: np.ndarray, classes, faces: np.ndarray, reference_faces: np.ndarray,
                    rows: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A board's probabilities (one row a square) with the faces' colour evidence (``face_evidence``; ``faces`` and
    ``reference_faces`` as ``context.face_colours`` gives them for the squares and their references) multiplied in —
    only in ``rows`` where given (the squares read again in this frame; the others carry theirs from the frame they
    were read in) — and the evidence itself (one value a square)."""
    evidence = face_evidence(probs, classes, faces, reference_faces)
    out = np.array(probs, np.float32, copy=True)
    rows = np.arange(len(out)) if rows is None else np.asarray(rows, int)
    if len(rows):
        out[rows] = with_face_evidence(out[rows], classes, evidence[rows])
    return out, evidence


__all__ = ["SURE_READ", "LEAST_TILES", "LEAST_BARE", "COLOUR_NOISE", "TAILS", "tile_classes", "face_evidence",
           "with_face_evidence", "judged_by_faces"]
