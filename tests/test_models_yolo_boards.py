"""Board labels from other people's tile boxes (YOLO sets): each box carried onto its square of the grid found."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tilecam.models import yolo_boards
from tilecam.models.yolo_boards import BoxError, original_name, read_boxes

ROWS = ["." * 15] * 6 + [".....JAB.......", ".......OXEN....", ".......T......."] + ["." * 15] * 6


def _yolo_lines(render, rows) -> str:
    """A YOLO box file for the tiles of ``rows`` on ``render``: class, middle and size as fractions."""
    from tilecam.vision.warp import CELL_PX, MARGIN_PX, homography_to_rectified

    h = np.linalg.inv(homography_to_rectified(render.corners))
    height, width = render.image.shape[:2]
    lines = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch != ".":
                mid = np.array([[[MARGIN_PX + (c + 0.5) * CELL_PX, MARGIN_PX + (r + 0.5) * CELL_PX]]], np.float32)
                x, y = cv2.perspectiveTransform(mid, h)[0, 0]
                lines.append(f"{ord(ch) - ord('A')} {x / width:.5f} {y / height:.5f} 0.03 0.04")
    return "\n".join(lines) + "\n"


def test_a_detection_sets_boxes_become_the_boards_label_once_per_photo(tmp_path):
    from tilecam.models import synth
    from tilecam.vision.labelled import labelled_photos

    render = synth.render_board(ROWS, seed=900_002, styles=synth.HELDOUT_STYLES)
    src, out = tmp_path / "set", tmp_path / "out"
    (src / "images").mkdir(parents=True)
    (src / "labels").mkdir()
    for copy in ("IMG_7_jpeg.rf.0a1b", "IMG_7_jpeg.rf.ffee"):       # a photo and its Roboflow copy
        cv2.imwrite(str(src / "images" / f"{copy}.jpg"), render.image)
        (src / "labels" / f"{copy}.txt").write_text(_yolo_lines(render, ROWS))
    clash = _yolo_lines(render, ROWS).splitlines()
    cv2.imwrite(str(src / "images" / "twice.jpg"), render.image)
    (src / "labels" / "twice.txt").write_text("\n".join(clash + clash[:1]) + "\n")   # two boxes on one square
    said = []
    assert yolo_boards.convert(src, out, log=said.append) == 1
    (photo,) = labelled_photos(out)
    assert photo.name == "IMG_7" and list(photo.board) == ROWS
    assert any("twice.jpg" in line and "two boxes on one square" in line for line in said)


def test_box_files_that_are_not_boxes_are_refused_by_line():
    assert original_name("IMG_2677_jpeg.rf.76a02bccfaec5bb2f104ff8d631956e5") == "IMG_2677"
    assert original_name("TestEval_JPG.rf.496d") == "TestEval" and original_name("board_7") == "board_7"
    assert read_boxes("0 0.5 0.25 0.1 0.1\n\n25 0.1 0.1 0.1 0.1\n", 200, 100) == [
        yolo_boards.Box("A", 100.0, 25.0), yolo_boards.Box("Z", 20.0, 10.0)]
    with pytest.raises(BoxError, match="line 2"):
        read_boxes("0 0.5 0.5 0.1 0.1\n26 0.5 0.5 0.1 0.1\n", 100, 100)
