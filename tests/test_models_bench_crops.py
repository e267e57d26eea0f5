"""``tilecam bench crops``: tile faces in LETTER/ folders read as the board reader reads a square."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tilecam.models import bench_crops


@pytest.fixture(scope="module")
def faces_folder(tmp_path_factory):
    """Faces of a held-out render's tiles (the square inside its context), in LETTER/ folders, and a rack tile's
    oblique crop: the face squeezed to 46 x 30."""
    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels
    from tilecam.vision.warp import CELL_PX, CONTEXT_PX

    rows = ["." * 15] * 7 + ["......QUIZ....."] + ["." * 15] * 7
    render = synth.render_board(rows, seed=900_001, styles=synth.HELDOUT_STYLES)
    crops, _ = crops_and_labels(render.image, render.corners, rows)
    folder = tmp_path_factory.mktemp("faces")
    for k, letter in enumerate("QUIZ"):
        face = crops[7 * 15 + 6 + k][CONTEXT_PX:CONTEXT_PX + CELL_PX, CONTEXT_PX:CONTEXT_PX + CELL_PX]
        (folder / letter).mkdir()
        cv2.imwrite(str(folder / letter / "face.png"), face)
    cv2.imwrite(str(folder / "Q" / "rack.png"), cv2.resize(face, (30, 46)))
    (folder / "NOISE").mkdir()                     # not a tile: skipped
    cv2.imwrite(str(folder / "NOISE" / "x.png"), face)
    return folder


def test_faces_are_read_as_tiles_with_their_letters_and_oblique_ones_counted_apart(faces_folder):
    from tilecam.vision.classify import ModelError, TileClassifier

    faces = bench_crops.tile_faces(faces_folder)
    assert sorted((label, oblique) for label, _, oblique in faces) == [("I", False), ("Q", False), ("Q", True),
                                                                      ("U", False), ("Z", False)]
    try:
        classifier = TileClassifier.load(threads=1)
    except (OSError, ModelError) as exc:
        pytest.skip(f"no tile model: {exc}")
    counts = bench_crops.read_faces(classifier, faces, tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    square = counts["square"]
    assert square["crops"] == square["letters"] == 4 and square["tile"] == 4 and square["letters right"] == 4
    assert counts["oblique"]["crops"] == 1


def test_the_table_names_the_folder_and_a_folder_without_crops_is_an_error(faces_folder, tmp_path, capsys):
    assert bench_crops.main([str(faces_folder)]) == 0
    out = capsys.readouterr().out
    assert str(faces_folder) in out and "| square | 4 |" in out
    with pytest.raises(SystemExit):
        bench_crops.main([str(tmp_path)])
    assert "no LETTER/*.png crops" in capsys.readouterr().err
