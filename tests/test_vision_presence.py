"""A tile judged by its face's colour against this board's own tiles and bare squares (``tilecam.vision.presence``)."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.vision.context import face_colours, square_faces
from tilecam.vision.presence import LEAST_TILES, face_evidence, judged_by_faces, with_face_evidence
from tilecam.vision.warp import CROP_PX

CLASSES = (".", "A", "E", "?", "#")
GREY, WOOD = (200, 200, 196), (150, 190, 220)           # BGR: a pale grey board, light wooden tiles


def _crop(colour, rng, letter: bool = False) -> np.ndarray:
    crop = np.clip(np.array(colour, float) + rng.normal(0, 3, (CROP_PX, CROP_PX, 3)), 0, 255).astype(np.uint8)
    if letter:
        crop[12:28, 18:22] = (40, 40, 40)                 # a letter's stroke: less than half the face
    return crop


def _board(tile_colour=WOOD, tiles: int = 30, seed: int = 3):
    """225 crops: ``tiles`` lettered tiles read surely, one plain tile (square 200) the model reads bare at 0.98,
    every other square bare and read so; the references the bare look. Returns crops, references, probabilities."""
    rng = np.random.default_rng(seed)
    crops = np.stack([_crop(GREY, rng) for _ in range(225)])
    probs = np.tile(np.array([0.999, 0.0002, 0.0002, 0.0002, 0.0004]), (225, 1))
    for i in range(tiles):
        crops[i] = _crop(tile_colour, rng, letter=True)
        probs[i] = (0.0005, 0.999, 0.0003, 0.0001, 0.0001)
    crops[200] = _crop(tile_colour, rng)
    probs[200] = (0.98, 0.0, 0.001, 0.015, 0.004)
    references = np.stack([_crop(GREY, np.random.default_rng(99))] * 225)
    return crops, references, probs


def test_a_plain_tile_of_this_boards_tiles_colour_reads_as_a_blank():
    crops, refs, probs = _board()
    out, evidence = judged_by_faces(probs, CLASSES, face_colours(crops), face_colours(refs))
    assert evidence[200] > 5                       # like the letters' faces, unlike the bare squares'
    assert CLASSES[out[200].argmax()] == "?"
    assert (evidence[40:200] < 0).all()            # every bare square: more surely bare
    assert (out[40:200].argmax(axis=1) == 0).all()
    assert np.allclose(out.sum(axis=1), 1, atol=1e-5)


def test_tiles_the_colour_of_the_board_leave_the_reading_as_it_is():
    crops, refs, probs = _board(tile_colour=GREY)
    out, evidence = judged_by_faces(probs, CLASSES, face_colours(crops), face_colours(refs))
    assert abs(evidence[200]) < 2                  # colour cannot tell: little either way
    assert CLASSES[out[200].argmax()] == "."


def test_too_few_sure_tiles_give_no_evidence():
    crops, refs, probs = _board(tiles=LEAST_TILES - 1)
    out, evidence = judged_by_faces(probs, CLASSES, face_colours(crops), face_colours(refs))
    assert not evidence.any()
    assert np.allclose(out, probs, atol=1e-6)


def test_glare_on_a_bare_square_does_not_make_it_a_tile():
    crops, refs, probs = _board()
    crops[210] = _crop((250, 250, 250), np.random.default_rng(1))     # washed toward white, away from the wood
    probs[210] = (0.9, 0.01, 0.01, 0.05, 0.03)
    out, evidence = judged_by_faces(probs, CLASSES, face_colours(crops), face_colours(refs))
    assert evidence[210] < 0
    assert CLASSES[out[210].argmax()] == "."


def test_only_the_rows_read_again_take_the_evidence():
    crops, refs, probs = _board()
    out, evidence = judged_by_faces(probs, CLASSES, face_colours(crops), face_colours(refs), rows=[200])
    assert CLASSES[out[200].argmax()] == "?"
    assert np.allclose(np.delete(out, 200, axis=0), np.delete(probs, 200, axis=0), atol=1e-6)


def test_the_odds_of_tiles_against_bare_and_covered_move_and_a_letter_the_set_lacks_stays_out():
    probs = np.array([[0.5, 0.2, 0.0, 0.1, 0.2]])
    out = with_face_evidence(probs, CLASSES, np.array([np.log(4.0)]))
    assert out[0, 2] == 0.0
    assert out[0, 1] / out[0, 0] == pytest.approx(4 * 0.2 / 0.5, rel=1e-5)
    assert out[0, 4] / out[0, 0] == pytest.approx(0.2 / 0.5, rel=1e-5)          # covered: not a tile's face
    assert out[0, 3] / out[0, 1] == pytest.approx(0.1 / 0.2, rel=1e-5)          # among tiles: the model's odds


def test_evidence_is_a_log_likelihood_ratio_of_faces_not_of_the_model():
    """The same faces give the same evidence whatever the model thinks of the square judged."""
    crops, refs, probs = _board()
    a = face_evidence(probs, CLASSES, face_colours(crops), face_colours(refs))
    probs[200] = (0.01, 0.0, 0.0, 0.98, 0.01)
    b = face_evidence(probs, CLASSES, face_colours(crops), face_colours(refs))
    assert a[200] == pytest.approx(b[200], rel=1e-3)


def test_the_faces_of_a_rectified_board_are_its_crops_faces():
    from tilecam.vision.warp import board_px, cut_cells

    warped = np.random.default_rng(4).integers(0, 256, (board_px(), board_px(), 3), dtype=np.uint8)
    assert np.array_equal(square_faces(warped), face_colours(cut_cells(warped)))
