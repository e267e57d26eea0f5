"""The board's own context: each square's reference is the bare look of its kind on the same board."""

from __future__ import annotations

import numpy as np

from tilecam.vision.context import kind_of_square, references_from_board, references_from_empty_board
from tilecam.vision.warp import CROP_PX


def _board(colours: dict[int, tuple[int, int, int]]) -> np.ndarray:
    kinds = kind_of_square(15)
    crops = np.zeros((225, CROP_PX, CROP_PX, 3), np.uint8)
    for i, k in enumerate(kinds):
        crops[i] = colours[int(k)]
    return crops


def test_every_square_gets_its_own_kinds_bare_look_even_with_a_third_of_the_board_covered():
    kinds = kind_of_square(15)
    assert len(set(kinds.tolist())) == 5 and kinds[7 * 15 + 7] == kinds[1 * 15 + 1]   # the star is a double word
    colours = {k: (30 * k + 20, 100, 200 - 20 * k) for k in range(5)}
    crops = _board(colours)
    rng = np.random.default_rng(0)
    tiles = np.append(rng.choice(np.delete(np.arange(225), 112), 74, replace=False), 112)   # the star covered
    for i in tiles:                      # a light tile with a dark letter: flat face, inked middle
        crops[i] = (230, 230, 230)
        crops[i, 14:26, 16:24] = 20
    refs = references_from_board(crops)
    for i, k in enumerate(kinds):
        assert tuple(refs[i, 20, 20]) == colours[int(k)]


def test_an_empty_boards_photo_gives_each_square_its_own_look():
    crops = np.random.default_rng(1).integers(0, 255, (225, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    refs = references_from_empty_board(crops)
    assert (refs == crops).all() and refs is not crops


def test_a_premium_printed_in_words_keeps_its_bare_look_beside_the_flatter_tiles_on_it():
    # A white Hasbro board with wooden tiles: its premium squares carry three lines of words ("DOUBLE LETTER
    # SCORE"), more ink than a tile's one letter, so the flattest squares of a premium kind are its tiles.
    kinds = kind_of_square(15)
    colours = {0: (235, 235, 235), 1: (200, 140, 40), 2: (60, 60, 210), 3: (40, 150, 60), 4: (30, 120, 240)}
    crops = _board(colours)
    for i, k in enumerate(kinds):
        if k:
            crops[i, 10:12, 8:32] = crops[i, 18:20, 8:32] = crops[i, 26:28, 8:32] = 255    # the words' lines
    tiles = np.concatenate([np.flatnonzero(kinds == k)[1::3] for k in range(5)])   # a third of every kind
    for i in tiles:                      # wood with a dark letter
        crops[i] = (110, 160, 200)
        crops[i, 14:26, 16:24] = 30
    refs = references_from_board(crops)
    for i, k in enumerate(kinds):
        assert tuple(refs[i, 20, 20]) == colours[int(k)], (i, int(k))


def test_a_premium_in_the_plain_squares_colour_falls_back_on_its_flattest_squares():
    kinds = kind_of_square(15)
    colours = {0: (200, 220, 230), 1: (200, 220, 230), 2: (60, 60, 210), 3: (40, 150, 60), 4: (30, 120, 240)}
    crops = _board(colours)
    for i in np.concatenate([np.flatnonzero(kinds == k)[1::3] for k in range(5)]):
        crops[i] = (110, 160, 200)
        crops[i, 14:26, 16:24] = 30
    refs = references_from_board(crops)
    for i, k in enumerate(kinds):
        assert tuple(refs[i, 20, 20]) == colours[int(k)], (i, int(k))
