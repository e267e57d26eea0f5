"""Blank tiles against bare squares (tilecam.vision.blanks), on boards drawn square by square."""

from __future__ import annotations

import numpy as np

from tilecam.vision.blanks import (blanks_like_the_tiles, blanks_on_a_white_board, blanks_unlike_the_tiles,
                                   plain_square_lightness, tile_face_colour)
from tilecam.vision.warp import CELL_PX, MARGIN_PX, board_px, cut_cells

CLASSES = (".", "A", "?", "#")
WHITE, WOOD, IVORY = (240, 240, 240), (130, 180, 215), (225, 232, 236)     # BGR


def _board(ground, tiles: dict, face) -> np.ndarray:
    """The ``cut_cells`` crops of a flat board of colour ``ground`` with a tile of colour ``face`` on each square of
    ``tiles`` (square → "A": a dark letter on it, "?": bare)."""
    side = board_px()
    warped = np.zeros((side, side, 3), np.uint8)
    warped[:] = ground
    for (r, c), label in tiles.items():
        y, x = MARGIN_PX + r * CELL_PX, MARGIN_PX + c * CELL_PX
        warped[y + 2:y + CELL_PX - 2, x + 2:x + CELL_PX - 2] = face
        if label == "A":
            warped[y + 8:y + CELL_PX - 8, x + 12:x + CELL_PX - 12] = (30, 30, 30)
    return cut_cells(warped)


def _probs(read: dict) -> np.ndarray:
    probs = np.tile([0.99, 0.005, 0.004, 0.001], (225, 1))
    for (r, c), row in read.items():
        probs[r * 15 + c] = row
    return probs


LETTER = [0.0, 0.98, 0.01, 0.01]


def test_a_white_square_read_as_a_blank_on_a_board_of_wooden_tiles_is_a_bare_square():
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, {**letters, (9, 9): "?"}, WOOD)           # a real wooden blank at (9, 9)
    probs = _probs({**{sq: LETTER for sq in letters}, (9, 9): [0.05, 0.0, 0.94, 0.01],
                    (3, 1): [0.04, 0.0, 0.95, 0.01]})               # (3, 1): a bare white square read surely a blank
    out = blanks_unlike_the_tiles(crops, probs, CLASSES)
    assert CLASSES[out[3 * 15 + 1].argmax()] == "." and out[3 * 15 + 1, 2] == 0.0
    assert CLASSES[out[9 * 15 + 9].argmax()] == "?"
    np.testing.assert_allclose(out.sum(axis=1), probs.sum(axis=1))
    np.testing.assert_allclose(tile_face_colour(crops, [7 * 15 + c for c in range(4, 9)]),
                               tile_face_colour(_board(WHITE, {(0, 0): "?"}, WOOD), [0]), atol=1)
    assert (np.delete(out, [3 * 15 + 1], axis=0) == np.delete(probs, [3 * 15 + 1], axis=0)).all()


def test_a_blank_all_the_models_read_surely_keeps_its_blank_against_the_colour():
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, letters, WOOD)
    probs = _probs({**{sq: LETTER for sq in letters}, (3, 1): [0.04, 0.0, 0.95, 0.01],
                    (5, 5): [0.3, 0.0, 0.65, 0.05]})                # two white squares read as blanks
    asked = []

    def all_models(batch):     # the models together: (3, 1) surely a blank, (5, 5) in doubt
        asked.extend(len(batch) * [None])
        return np.array([[0.02, 0.0, 0.97, 0.01], [0.5, 0.0, 0.45, 0.05]])

    out = blanks_unlike_the_tiles(crops, probs, CLASSES, confirm=all_models)
    assert len(asked) == 2
    assert CLASSES[out[3 * 15 + 1].argmax()] == "?" and CLASSES[out[5 * 15 + 5].argmax()] == "."
    assert CLASSES[blanks_unlike_the_tiles(crops, probs, CLASSES)[3 * 15 + 1].argmax()] == "."   # colour alone


def test_a_premium_square_read_as_a_blank_is_judged_against_bare_squares_of_its_own_kind():
    from tilecam.vision.locate import premium_kinds

    kinds = premium_kinds(15)
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, letters, WOOD)
    light_blue = np.array([230, 200, 150], np.uint8)                # BGR: the double-letter squares
    for r, c in zip(*np.nonzero(kinds == "DL")):
        crops[r * 15 + c, 6:-6, 6:-6] = light_blue
    assert kinds[0, 3] == "DL"
    probs = _probs({**{sq: LETTER for sq in letters}, (0, 3): [0.04, 0.0, 0.95, 0.01]})
    out = blanks_unlike_the_tiles(crops, probs, CLASSES)
    assert CLASSES[out[3].argmax()] == "."
    # with no bare double-letter square read surely, there is nothing to hold it against: the model's blank stays
    for r, c in zip(*np.nonzero(kinds == "DL")):
        probs[r * 15 + c] = [0.5, 0.0, 0.45, 0.05]
    probs[3] = [0.04, 0.0, 0.95, 0.01]
    assert blanks_unlike_the_tiles(crops, probs, CLASSES) is probs


def test_where_tiles_and_board_are_alike_in_colour_the_model_decides():
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, letters, IVORY)                             # ivory tiles on a white board
    probs = _probs({**{sq: LETTER for sq in letters}, (3, 1): [0.04, 0.0, 0.95, 0.01]})
    assert blanks_unlike_the_tiles(crops, probs, CLASSES) is probs


def test_without_a_letter_read_surely_or_a_blank_read_nothing_changes():
    crops = _board(WHITE, {(7, 7): "A"}, WOOD)
    doubtful_letter = _probs({(7, 7): [0.0, 0.8, 0.1, 0.1], (3, 1): [0.04, 0.0, 0.95, 0.01]})
    assert blanks_unlike_the_tiles(crops, doubtful_letter, CLASSES) is doubtful_letter
    no_blank = _probs({(7, 7): LETTER})
    assert blanks_unlike_the_tiles(crops, no_blank, CLASSES) is no_blank
    assert tile_face_colour(crops, []) is None


def test_a_doubtful_blank_on_a_white_board_is_a_bare_square_but_not_on_a_green_one():
    classes = (".", "A", "?", "#")
    probs = np.tile([0.99, 0.005, 0.004, 0.001], (225, 1))
    probs[4 * 15 + 4] = [0.35, 0.0, 0.62, 0.03]         # a square read doubtfully as a blank
    probs[6 * 15 + 5] = [0.02, 0.0, 0.97, 0.01]         # a blank read surely
    side = board_px()
    white = np.full((side, side, 3), 240, np.uint8)
    green = np.zeros((side, side, 3), np.uint8)
    green[:] = (60, 125, 20)                             # BGR: ScrabScrap's board
    white, green = cut_cells(white), cut_cells(green)
    assert plain_square_lightness(white, probs, classes) > 225 > plain_square_lightness(green, probs, classes)
    on_white = blanks_on_a_white_board(white, probs, classes)
    assert classes[on_white[4 * 15 + 4].argmax()] == "." and classes[on_white[6 * 15 + 5].argmax()] == "?"
    np.testing.assert_allclose(on_white.sum(axis=1), 1.0)
    assert blanks_on_a_white_board(green, probs, classes) is probs


def test_a_square_read_bare_in_the_tiles_colour_far_from_its_kinds_is_a_blank():
    """A cream blank on a red double-word square is read bare (0.6 against 0.3 for a blank): its colour is the
    letter tiles', far from the bare double-word squares'. A bare double-word square in the same doubt stays bare,
    and so does a square in the tiles' colour with no blank in the model's doubt."""
    from tilecam.vision.locate import premium_kinds

    kinds = premium_kinds(15)
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, {**letters, (1, 1): "?"}, IVORY)
    red = np.array([90, 90, 220], np.uint8)                         # BGR: the double-word squares
    for r, c in zip(*np.nonzero(kinds == "DW")):
        if (r, c) != (1, 1) and (r, c) != (7, 7):
            crops[r * 15 + c, 6:-6, 6:-6] = red
    assert kinds[1, 1] == kinds[2, 2] == "DW"
    pale = np.array([191, 196, 232], np.uint8)                       # a DW square paled by glare: 12 from ivory
    crops[3 * 15 + 3, 6:-6, 6:-6] = pale
    in_doubt = [0.6, 0.0, 0.3, 0.1]
    probs = _probs({**{sq: LETTER for sq in letters}, (1, 1): in_doubt, (2, 2): in_doubt, (3, 3): in_doubt})
    out = blanks_like_the_tiles(crops, probs, CLASSES)
    assert CLASSES[out[1 * 15 + 1].argmax()] == "?" and out[1 * 15 + 1, 0] == 0.0
    assert CLASSES[out[2 * 15 + 2].argmax()] == "." and CLASSES[out[3 * 15 + 3].argmax()] == "."
    assert (np.delete(out, [16], axis=0) == np.delete(probs, [16], axis=0)).all()
    np.testing.assert_allclose(out.sum(axis=1), probs.sum(axis=1))
    probs[16] = [0.93, 0.0, 0.05, 0.02]                              # no blank in the model's doubt
    assert blanks_like_the_tiles(crops, probs, CLASSES) is probs


def test_a_blank_in_the_tiles_colour_keeps_its_odds_on_a_white_board():
    """A wooden blank on a white board read a blank by a little (0.45 against 0.38): the white board's prior alone
    would make it a bare square; its colour, asked first (as ``read_board`` does), keeps it a blank."""
    letters = {(7, c): "A" for c in range(4, 9)}
    crops = _board(WHITE, {**letters, (9, 9): "?"}, WOOD)
    probs = _probs({**{sq: LETTER for sq in letters}, (9, 9): [0.38, 0.0, 0.45, 0.17]})
    assert CLASSES[blanks_on_a_white_board(crops, probs, CLASSES)[9 * 15 + 9].argmax()] == "."
    kept = blanks_on_a_white_board(crops, blanks_like_the_tiles(crops, probs, CLASSES), CLASSES)
    assert CLASSES[kept[9 * 15 + 9].argmax()] == "?"
