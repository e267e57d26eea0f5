"""Blanks made from lettered tiles (``models.erased``): the print goes, the tile's face and rim stay, and the copy is
labelled a blank with the reference of the square it came from."""

from __future__ import annotations

import cv2
import numpy as np

from tilecam.models.erased import EDGE_PX, PRINT_DISTANCE, blanks_from_letters, erase_print, print_mask
from tilecam.models.reader_data import BLANK, EMPTY, Examples
from tilecam.models.dataset import CLASS_INDEX


def tile(letter: str | None, face=(120, 170, 205), seed: int = 0) -> np.ndarray:
    """A 40 px crop: a grey square's edge, a wooden face with a little grain, a dark letter and value."""
    rng = np.random.default_rng(seed)
    crop = np.full((40, 40, 3), 150, np.float32)
    crop[4:36, 4:36] = face
    crop[4:36, 4:36] += rng.normal(0, 4, (32, 32, 1))
    crop = np.clip(crop, 0, 255).astype(np.uint8)
    if letter:
        cv2.putText(crop, letter, (11, 29), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (30, 30, 30), 2)
        cv2.putText(crop, "1", (26, 33), cv2.FONT_HERSHEY_SIMPLEX, 0.25, (30, 30, 30), 1)
    return crop


def far_from_face(crop: np.ndarray) -> int:
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)[EDGE_PX:-EDGE_PX, EDGE_PX:-EDGE_PX]
    face = np.median(lab.reshape(-1, 3), axis=0)
    return int((np.linalg.norm(lab - face, axis=2) > PRINT_DISTANCE).sum())


def test_a_letter_and_its_value_are_painted_over_and_the_rim_is_left():
    a = tile("A")
    assert far_from_face(a) > 40
    blank = erase_print(a)
    assert blank is not None and far_from_face(blank) == 0
    assert np.array_equal(blank[:3], a[:3]) and np.array_equal(blank[:, :3], a[:, :3])      # the square's edge


def test_a_crop_with_nothing_printed_or_all_print_is_not_used():
    assert print_mask(tile(None)) is None
    dark = tile(None, face=(30, 30, 30))
    dark[12:28, 12:28] = 240                      # mostly "print": no plain face left to paint from
    dark[8:32, 8:32] = 240
    assert print_mask(dark) is None


def test_blanks_are_copies_of_lettered_tiles_with_their_references_and_boards():
    crops = np.stack([tile("A", seed=1), tile(None, face=(150, 150, 150)), tile("B", seed=2)])
    refs = np.stack([np.full((40, 40, 3), k, np.uint8) for k in (10, 20, 30)])
    labels = np.array([CLASS_INDEX["A"], EMPTY, CLASS_INDEX["B"]])
    made = blanks_from_letters(Examples(crops, refs, labels, np.array([5, 6, 7], np.int32)), 1.0,
                               np.random.default_rng(0))
    assert len(made) == 2 and (made.y == BLANK).all()
    assert [int(r[0, 0, 0]) for r in made.ref] == [10, 30] and made.board.tolist() == [5, 7]
    assert all(far_from_face(x) == 0 for x in made.x)
