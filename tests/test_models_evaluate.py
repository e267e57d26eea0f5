"""The model-alone evaluation: runtime preprocessing from tiles.json, scoring against truth."""

from __future__ import annotations

import numpy as np

from tilecam.models import evaluate
from tilecam.models.dataset import CLASS_INDEX


def test_the_shipped_model_reads_an_evaluation_photo_through_its_json_preprocessing(shared_dir):
    model = evaluate.OnnxTiles(evaluate.HERE / "tiles.onnx")
    boards = list(evaluate.real_eval(shared_dir / "data" / "real-boards" / "scrabscrap"))
    assert len(boards) == 55                      # games 03-04 only: 28 + 27 photos
    scores = evaluate._score(model, boards[-1:])  # game04's last photo: 99 tiles
    assert scores["boards"] == 1
    assert scores["cell_error"] <= 2 / 225


def test_scores_count_a_wrong_square_once_and_a_board_as_not_right():
    class Fixed:                                  # a model that calls every square empty
        def predict(self, crops):
            return np.full(len(crops), CLASS_INDEX["."])

    image = np.full((600, 600, 3), 128, np.uint8)
    corners = np.array([[50, 50], [550, 50], [550, 550], [50, 550]], np.float32)
    truth = np.full(225, CLASS_INDEX["."])
    truth[112] = CLASS_INDEX["Q"]
    s = evaluate._score(Fixed(), [(image, corners, truth), (image, corners, np.full(225, CLASS_INDEX["."]))])
    assert s["wrong_cells"] == 1 and s["boards"] == 2 and s["boards_right"] == 0.5
    assert s["tile_error"] == 1.0
