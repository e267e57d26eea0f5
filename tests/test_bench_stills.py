"""``tilecam bench stills``: a folder of one photo per move (``G_MM.jpg`` + ``G_MM.board.txt``) through the replay
path, counted against the labels. The stand-in games are three rendered stills (``tilecam.models.synth``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecam.firmware import bench_stills
from tilecam.firmware.bench_stills import Game, GameResult, judge, new_tiles

from boards import EMPTY, rows_with

SEED = 4242


MOVES = [rows_with(("8H", "CAT")), rows_with(("8H", "CAT"), ("H9", "OX")),
         rows_with(("8H", "CAT"), ("H9", "OX"), ("10G", "aXE"))]


def write_game(folder: Path, game: str = "1") -> Path:
    """Three rendered stills of one scene with their labels, and the scene's empty board (returned)."""
    synth = pytest.importorskip("tilecam.models.synth")
    scene = synth.sample_scene(np.random.default_rng(SEED), "english")
    folder.mkdir(parents=True, exist_ok=True)
    for i, rows in enumerate(MOVES, 1):
        image = synth.render_board(rows, seed=SEED, scene=scene).image
        cv2.imwrite(str(folder / f"{game}_{i:02d}.jpg"), np.asarray(image))
        (folder / f"{game}_{i:02d}.board.txt").write_text("\n".join(rows) + "\n", encoding="utf-8")
    empty = folder.parent / f"template_{game}.jpg"
    cv2.imwrite(str(empty), np.asarray(synth.render_board(EMPTY, seed=SEED, scene=scene).image))
    return empty


def test_new_tiles_and_blanks():
    added, changed = new_tiles(MOVES[1], MOVES[2])
    assert added == {(9, 6): "?", (9, 8): "E"} and changed == 0       # a blank compared as a blank
    added, changed = new_tiles(MOVES[2], MOVES[1])
    assert added == {} and changed == 2


def test_judge_counts_right_wrong_missed_phantom_and_final_squares():
    game = Game("g", [Path(f"g_{i}.jpg") for i in (1, 2, 3)], MOVES, empty=Path("empty.jpg"))
    wrong_x = [r for r in MOVES[1]]
    wrong_x[9] = wrong_x[9][:7] + "Z" + wrong_x[9][8:]                 # OX read as OZ
    phantom = rows_with(("1A", "Q"))                                   # on the empty photo, taken back at CAT
    boards = [phantom, MOVES[0], wrong_x, wrong_x]                     # empty photo, CAT, OX wrong, aXE missed
    r = GameResult("g")
    judge(game, boards, r)
    assert (r.moves, r.right, r.wrong, r.missed, r.phantom, r.changed) == (3, 1, 1, 1, 1, 1)
    assert r.final_wrong == 3                                          # Z for X, and aXE's two squares


def test_bench_stills_on_rendered_stills(tmp_path, capsys):
    from tilecam.vision.classify import ModelError
    from tilecam.vision.moves.reader import default_reader

    try:
        default_reader("english", threads=1)
    except (ImportError, OSError, ModelError) as exc:
        pytest.skip(f"no tile model: {exc}")
    folder = tmp_path / "stills"
    empty = write_game(folder)
    assert bench_stills.main([str(folder), "--empty", f"1={empty}", "--details"]) == 0
    out = capsys.readouterr().out
    assert "| 1 | 4 | 3 | 3 (100 %) | 0 | 0 | 0 | 0 | 0 | 0 / 225 |" in out, out
    assert "settled still → committed move (3 moves)" in out


def test_bench_stills_registered_and_refuses_a_folder_without_games(tmp_path, capsys):
    from tilecam.firmware.cmd_bench import BENCHES

    assert BENCHES["stills"] == "tilecam.firmware.bench_stills"
    assert bench_stills.main([str(tmp_path)]) == 2
    assert "no G_MM photos" in capsys.readouterr().err


def test_bench_stills_can_run_the_tracker_learning_the_board(tmp_path, capsys, monkeypatch):
    """``--learn``: the tracker learns the board from its committed tiles at each settle (off on the device)."""
    from tilecam.vision.classify import ModelError
    from tilecam.vision.moves.reader import VisionReader, default_reader

    try:
        default_reader("english", threads=1)
    except (ImportError, OSError, ModelError) as exc:
        pytest.skip(f"no tile model: {exc}")
    learnt: list[int] = []
    original = VisionReader.learn
    monkeypatch.setattr(VisionReader, "learn", lambda self, rows: learnt.append(original(self, rows)) or learnt[-1])
    folder = tmp_path / "stills"
    empty = write_game(folder)
    assert bench_stills.main([str(folder), "--empty", f"1={empty}", "--learn"]) == 0
    assert "| 1 | 4 | 3 | 3 (100 %) |" in capsys.readouterr().out
    assert learnt and max(learnt) > 0                  # the committed tiles were learnt


def test_bench_stills_refuses_a_variant_whose_board_its_labels_cannot_hold(tmp_path, capsys):
    """The labels are 15x15: Super Scrabble's 21x21 board is refused before any photo is read."""
    assert bench_stills.main([str(tmp_path), "--variant", "super"]) == 2
    assert "the labels are 15x15 boards; variant super is played on a 21x21 board" in capsys.readouterr().err
