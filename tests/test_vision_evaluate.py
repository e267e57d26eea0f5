"""The whole-read evaluation's scoring: what counts as a wrong square, a wrong board, an allowed 'occluded'."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from tilecam.models.eval_vision import Tally, references_from_tiles
from tilecam.vision.context import kind_of_square
from tilecam.vision.warp import CELL_PX, MARGIN_PX, board_px


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
    assert strict.empty_read_covered == 1 and strict.row()["empty false +"].endswith("(1; 1 read covered #)")
    skip[7, 8] = True
    again = Tally("skip")
    again.add(truth, _reading(read, corners), corners, skip=skip, unsure_ok=touched)
    assert again.cell_errors == 0 and again.boards_correct == 1 and again.cells == 224
    assert abs(again.corner_squares[0]) < 1e-6
    assert tally.wrong_boards == ["1: I8 T→X"] and strict.wrong_boards == ["1: A1 .→#, G8 C→#, I8 T→X"]
    assert again.wrong_boards == []


def test_the_log_loss_is_the_mean_minus_log_probability_of_each_squares_true_class():
    corners = np.array([[0, 0], [150, 0], [150, 150], [0, 150]], np.float32)
    truth = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    classes = (".", "A", "C", "T", "?", "#")
    probs = np.zeros((225, len(classes)))
    probs[:, 0] = 1.0
    for col, letter in ((6, "C"), (7, "A"), (8, "T")):
        probs[7 * 15 + col] = 0.0
        probs[7 * 15 + col, classes.index(letter)] = 0.5      # each letter at one half, bare at the other
        probs[7 * 15 + col, 0] = 0.5
    reading = SimpleNamespace(grid=tuple(truth), corners=corners, timings={"total": 1.0}, probs=probs,
                              classes=classes)
    tally = Tally("calibration")
    tally.add(truth, reading, corners)
    assert tally.log_loss_cells == 225
    assert float(tally.row()["log-loss per square (−ln p of the truth)"]) == round(3 * np.log(2) / 225, 4)
    assert Tally("none").row()["log-loss per square (−ln p of the truth)"] == "-"


def test_a_wrong_board_is_named_by_its_label():
    corners = np.array([[0, 0], [150, 0], [150, 150], [0, 150]], np.float32)
    truth = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    tally = Tally("named")
    tally.add(truth, _reading(truth, corners), corners, label="900001 classic/ivory/stix")
    tally.add(truth, _reading(["?" + "." * 14] + truth[1:], corners), corners, label="900002 hasbro/wood/sans")
    assert tally.wrong_boards == ["900002 hasbro/wood/sans: A1 .→?"] and tally.boards_correct == 1


def test_renders_from_another_range_of_held_out_seeds_are_other_boards():
    from tilecam.models import synth
    from tilecam.vision.classify import TileClassifier
    from tilecam.models.eval_vision import evaluate_renders

    classifier = TileClassifier.load(None, threads=1)
    bench, fresh = evaluate_renders(classifier, 1), evaluate_renders(classifier, 1, first=700)
    assert fresh.name.endswith(f"seeds {synth.HELDOUT_SEEDS[700]}…)") and "seeds" not in bench.name
    assert bench.boards == fresh.boards == 1 and bench.truth_labels != fresh.truth_labels


def test_renders_are_read_with_the_tile_height_asked_for(monkeypatch):
    from tilecam.models import eval_vision
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.raised import TILE_FACE_HEIGHT

    asked = []
    read = eval_vision.read_board
    monkeypatch.setattr(eval_vision, "read_board", lambda *a, **k: asked.append(k["tile_height"]) or read(*a, **k))
    classifier = TileClassifier.load(None, threads=1)
    eval_vision.evaluate_renders(classifier, 1)
    eval_vision.evaluate_renders(classifier, 1, tile_height=0.0)
    assert asked == [TILE_FACE_HEIGHT, 0.0]


def test_empty_boards_are_the_held_out_scenes_with_no_tile():
    from tilecam.vision.classify import TileClassifier
    from tilecam.models.eval_vision import evaluate_renders

    classifier = TileClassifier.load(None, threads=1)
    tiles, empty = evaluate_renders(classifier, 2, first=5), evaluate_renders(classifier, 2, first=5, empty=True)
    assert empty.name.startswith("empty boards") and empty.boards == 2
    assert set(empty.truth_labels) == {"."} and len(set(tiles.truth_labels)) > 1
    assert max(empty.corner_errors) < 5        # a bare board's grid is found as well as a played one's


def test_an_empty_board_may_be_read_in_any_turn_but_a_board_with_tiles_only_in_its_own():
    from tilecam.models.eval_vision import arm_in_the_turn_read

    empty = ["." * 15] * 15
    arm = np.zeros((15, 15), bool)
    arm[0, 10:] = True                                   # the arm over the top right corner
    read = ["." * 15] * 14 + ["#####" + "." * 10]        # read a half turn round: the arm at the bottom left
    turned, skip, touched = arm_in_the_turn_read(empty, arm, np.zeros((15, 15), bool), read)
    assert turned == empty and skip[14, :5].all() and skip.sum() == 5 and not touched.any()
    tiles = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    read = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 6 + ["#####" + "." * 10]
    turned, skip, _ = arm_in_the_turn_read(tiles, arm, np.zeros((15, 15), bool), read)
    assert turned == tiles and (skip == arm).all()       # CAT fixes the turn: the # squares stay wrong


def test_a_board_whose_only_tiles_lie_under_the_arm_may_be_read_in_any_turn():
    from tilecam.models.eval_vision import arm_in_the_turn_read

    hidden = ["." * 15] * 15
    hidden[0] = "." * 11 + "NE.."                         # two tiles, both under the arm
    arm = np.zeros((15, 15), bool)
    arm[0, 10:] = True
    read = ["." * 15] * 14 + ["#####" + "." * 10]        # a half turn round: nothing in sight tells it
    turned, skip, _ = arm_in_the_turn_read(hidden, arm, np.zeros((15, 15), bool), read)
    assert turned[14] == "..EN" + "." * 11 and skip[14, :5].all() and skip.sum() == 5
    hidden[0] = "." * 9 + "T.NE.."                        # the T is in sight: the turn is fixed
    turned, skip, _ = arm_in_the_turn_read(hidden, arm, np.zeros((15, 15), bool), read)
    assert turned == hidden and (skip == arm).all()


def test_a_labelled_folder_is_scored_in_the_turn_that_fits_and_a_missing_board_counts_every_square(tmp_path):
    """Any of the four turns of the board counts (never a mirror); a photo with no board in it is read by nobody:
    all its squares are wrong and the board counts as flagged."""
    import cv2

    from tilecam.models.eval_vision import evaluate_folder
    from tilecam.vision.labelled import best_turn, labelled_photos, turned

    truth = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7
    read = ["".join(row) for row in turned(truth, 1)]
    assert best_turn(truth, read) == 3 and best_turn(truth, truth) == 0
    mirrored = [row[::-1] for row in ["..CAT" + "." * 10] + truth[1:]]
    asym = np.array([list(r) for r in ["..CAT" + "." * 10] + truth[1:]])
    assert min(int((turned(mirrored, k) != asym).sum()) for k in range(4)) > 0
    (tmp_path / "blank.board.txt").write_text("\n".join(["." * 14 + "a"] + truth[1:]) + "\n", encoding="utf-8")
    cv2.imwrite(str(tmp_path / "blank.jpg"), np.full((200, 300, 3), 120, np.uint8))
    (tmp_path / "orphan.board.txt").write_text("\n".join(truth), encoding="utf-8")     # no photo: left out
    photos = labelled_photos(tmp_path)
    assert [p.name for p in photos] == ["blank"] and photos[0].board[0] == "." * 14 + "?"
    tally = evaluate_folder(classifier=None, folder=tmp_path)
    assert tally.not_found == 1 and tally.cell_errors == 225 and tally.tile_errors == 4
    assert tally.unsure_boards == 1 and tally.boards_correct == 0
    assert tally.row()["runs of tiles judged as words by"] == "-"          # loose tiles: no game, no words
    game = tmp_path / "game"
    game.mkdir()
    (game / "cat.board.txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
    cv2.imwrite(str(game / "cat.jpg"), np.full((200, 300, 3), 120, np.uint8))
    from tilecam.core.lexicons import lexicon_for

    judged = evaluate_folder(classifier=None, folder=game, lexicon=lexicon_for("english"))
    assert judged.row()["runs of tiles judged as words by"] == "enable1"
    assert evaluate_folder(classifier=None, folder=game).row()["runs of tiles judged as words by"] == "-"
    # a label not one group reads the folder loose; the photos can be read as games (or loose) whatever the labels
    row = evaluate_folder(classifier=None, folder=tmp_path, lexicon=lexicon_for("english")).row()
    assert row["read as games' positions (tiles joined)"] == "no: 1 labels are not one group"
    row = evaluate_folder(classifier=None, folder=tmp_path, lexicon=lexicon_for("english"), positions="games").row()
    assert row["read as games' positions (tiles joined)"].startswith("yes (read so whatever the labels; 1 are not")
    assert row["runs of tiles judged as words by"] == "enable1"
    row = evaluate_folder(classifier=None, folder=game, lexicon=lexicon_for("english"), positions="loose").row()
    assert row["read as games' positions (tiles joined)"].startswith("no (read so")
    assert row["runs of tiles judged as words by"] == "-"


def test_a_label_that_is_not_fifteen_by_fifteen_is_refused(tmp_path):
    import pytest

    from tilecam.vision.labelled import LabelError, read_label

    bad = tmp_path / "x.board.txt"
    bad.write_text("...\n" * 15, encoding="utf-8")
    with pytest.raises(LabelError, match="15 lines of 15"):
        read_label(bad)


def test_photos_of_games_are_grouped_by_game_in_move_order_and_a_label_with_an_unknown_square_is_refused(tmp_path):
    import cv2
    import pytest

    from tilecam.vision.labelled import LabelError, games_in

    board = "\n".join(["." * 15] * 15)
    for name in ("10_02", "10_01", "2_10", "2_9", "notes"):
        cv2.imwrite(str(tmp_path / f"{name}.jpg"), np.zeros((8, 8, 3), np.uint8))
        (tmp_path / f"{name}.board.txt").write_text(board, encoding="utf-8")
    games = games_in(tmp_path)
    assert list(games) == ["2", "10"]
    assert [p.name for p in games["2"]] == ["2_9", "2_10"] and [p.name for p in games["10"]] == ["10_01", "10_02"]
    (tmp_path / "2_9.board.txt").write_text(board.replace(".", "%", 1), encoding="utf-8")
    with pytest.raises(LabelError, match="unknown squares"):
        games_in(tmp_path)


def test_a_kind_whose_bare_look_was_taken_from_its_tiles_is_told_from_the_label():
    kinds = kind_of_square(15).reshape(15, 15)
    warped = np.full((board_px(), board_px(), 3), 200, np.uint8)
    board = np.full((15, 15), ".")
    for (r, c), k in np.ndenumerate(kinds):
        y, x = MARGIN_PX + r * CELL_PX, MARGIN_PX + c * CELL_PX
        warped[y:y + CELL_PX, x:x + CELL_PX] = (200, 200, 200) if not k else (40 * k, 90, 220 - 40 * k)
        if k == 4 or (k == 0 and r % 3 == 0):          # every triple word covered, and tiles elsewhere
            warped[y:y + CELL_PX, x:x + CELL_PX] = (120, 170, 210)
            board[r, c] = "E"
    assert references_from_tiles(board, SimpleNamespace(warped=warped))
    board[kinds == 4] = "."                                # a label saying those squares are bare: not from tiles
    assert not references_from_tiles(board, SimpleNamespace(warped=warped))
    assert not references_from_tiles(board, SimpleNamespace())
