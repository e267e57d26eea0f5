"""The whole-read evaluation's scoring: what counts as a wrong square, a wrong board, an allowed 'occluded'."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from tilecam.vision.evaluate import Tally


def _reading(rows: list[str], corners: np.ndarray) -> SimpleNamespace:
    return SimpleNamespace(grid=tuple(rows), corners=corners, timings={"total": 1.0})


def test_tally_counts_errors_skips_occluded_and_allows_unsure_where_the_arm_touches():
    corners = np.array([[0, 0], [150, 0], [150, 150], [0, 150]], np.float32)
    truth = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    read = ["#" + "." * 14] + ["." * 15] * 6 + ["......#AX......"] + ["." * 15] * 7
    skip = np.zeros((15, 15), bool)
    touched = np.zeros((15, 15), bool)
    touched[0, 0] = touched[7, 6] = True
    tally = Tally("test")
    tally.add(truth, _reading(read, corners + 1.0), corners, skip=skip, unsure_ok=touched)
    assert tally.cell_errors == 1 and tally.tile_errors == 1       # only T read as X
    assert tally.unsure_touched == 2 and tally.boards_correct == 0
    strict = Tally("strict")
    strict.add(truth, _reading(read, corners), corners, skip=skip)
    assert strict.cell_errors == 3 and strict.empty_false_positives == 1
    skip[7, 8] = True
    again = Tally("skip")
    again.add(truth, _reading(read, corners), corners, skip=skip, unsure_ok=touched)
    assert again.cell_errors == 0 and again.boards_correct == 1 and again.cells == 224
    assert abs(again.corner_squares[0]) < 1e-6
