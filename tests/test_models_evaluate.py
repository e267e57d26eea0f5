"""The model-alone evaluation: the shipped model through the runtime classifier, scoring against truth."""

from __future__ import annotations

import numpy as np

from tilecam.models import evaluate
from tilecam.models.dataset import CLASS_INDEX
from tilecam.vision.classify import TileClassifier


def test_the_shipped_model_reads_an_evaluation_photo(shared_dir):
    model = TileClassifier.load(evaluate.HERE / "tiles.onnx", threads=1)
    boards = list(evaluate.real_eval(shared_dir / "data" / "real-boards" / "scrabscrap"))
    assert len(boards) == 55                      # games 03-04 only: 28 + 27 photos
    scores = evaluate._score(model, boards[-1:])  # game04's last photo: 99 tiles
    assert scores["boards"] == 1
    assert scores["cell_error"] <= 2 / 225


def _fixed(label: str):
    class Fixed:                                  # a model that calls every square the same
        def classify(self, crops):
            p = np.zeros((len(crops), len(CLASS_INDEX)), np.float32)
            p[:, CLASS_INDEX[label]] = 1
            return [label] * len(crops), p
    return Fixed()


def test_scores_count_a_wrong_square_once_and_a_board_as_not_right():
    image = np.full((600, 600, 3), 128, np.uint8)
    corners = np.array([[50, 50], [550, 50], [550, 550], [50, 550]], np.float32)
    truth = np.full(225, CLASS_INDEX["."])
    truth[112] = CLASS_INDEX["Q"]
    nothing = np.zeros(225, bool)
    s = evaluate._score(_fixed("."), [(image, corners, truth, nothing),
                                      (image, corners, np.full(225, CLASS_INDEX["."]), nothing)])
    assert s["wrong_cells"] == 1 and s["boards"] == 2 and s["boards_right"] == 0.5
    assert s["tile_error"] == 1.0


def test_occluded_is_right_only_on_squares_the_arm_touches():
    image = np.full((600, 600, 3), 128, np.uint8)
    corners = np.array([[50, 50], [550, 50], [550, 550], [50, 550]], np.float32)
    truth = np.full(225, CLASS_INDEX["."])
    touched = np.zeros(225, bool)
    touched[:20] = True
    s = evaluate._score(_fixed("#"), [(image, corners, truth, touched)])
    assert s["wrong_cells"] == 205
