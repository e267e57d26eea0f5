"""Blanks made from bare squares (``tilecam.models.recoloured``)."""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.reader_data import BLANK, EMPTY, CLASS_INDEX, Examples
from tilecam.models.recoloured import MIN_CHROMA_SHIFT, blanks_from_bare, plain_bare, recolour
from tilecam.vision.context import face_colours
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, CROP_PX


def _square(bgr: tuple[int, int, int], letter: bool = False) -> np.ndarray:
    crop = np.full((CROP_PX, CROP_PX, 3), bgr, np.uint8)
    crop[:CONTEXT_PX] = crop[-CONTEXT_PX:] = 90                      # the grid line and the neighbours' edge
    if letter:
        cv2.putText(crop, "A", (11, 31), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (20, 20, 20), 3)
    return crop


def _examples() -> Examples:
    plain = [_square((150, 190, 210)) for _ in range(40)]
    lettered = [_square((150, 190, 210), letter=True) for _ in range(10)]
    x = np.stack(plain + lettered)
    y = np.array([EMPTY] * 40 + [CLASS_INDEX["A"]] * 10, np.int64)
    return Examples(x, x.copy(), y, np.arange(50, dtype=np.int32))


def test_recolouring_moves_the_squares_face_and_leaves_its_context():
    crop = _square((150, 190, 210))
    out = recolour(crop, np.array([0.0, 30.0, -20.0]), inset=2)
    a, b = CONTEXT_PX + 4, CONTEXT_PX + CELL_PX - 4
    lab_in, lab_out = (cv2.cvtColor(c, cv2.COLOR_BGR2LAB).astype(int) for c in (crop, out))
    moved = (lab_out[a:b, a:b] - lab_in[a:b, a:b]).reshape(-1, 3).mean(axis=0)
    assert abs(moved[1] - 30) < 3 and abs(moved[2] + 20) < 3
    assert np.array_equal(out[:CONTEXT_PX], crop[:CONTEXT_PX])        # the line and the neighbours: as they were


def test_blanks_come_from_plain_bare_squares_with_their_own_reference_and_a_colour_apart():
    data = _examples()
    assert set(plain_bare(data)) == set(range(40))                   # the lettered tiles are not bare
    made = blanks_from_bare(data, 0.5, np.random.default_rng(0))
    assert 10 <= len(made) <= 30
    assert (made.y == BLANK).all()
    assert set(made.board) <= set(range(40))
    assert np.array_equal(made.ref, data.ref[made.board])            # each with its own square's reference
    apart = face_colours(made.x)[:, 1:] - face_colours(made.ref)[:, 1:]
    assert (np.hypot(apart[:, 0], apart[:, 1]) >= 0.8 * MIN_CHROMA_SHIFT).all()
