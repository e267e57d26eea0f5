"""``tilecam calibrate``: the empty board's photo becomes each square's reference, kept in the data folder."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tilecam.firmware.cli import main
from tilecam.models import synth
from tilecam.vision.profile import PROFILE_NAME, ProfileError, calibrate, load_profile, save_profile
from tilecam.vision.read import turn_squares


@pytest.fixture(scope="module")
def empty_board():
    return synth.render_board(("." * 15,) * 15, seed=int(synth.TRAIN_SEEDS[3]), styles=synth.TRAIN_STYLES).image


def test_the_profile_holds_each_squares_bare_look_and_comes_back_as_it_was_kept(tmp_path, empty_board):
    profile = calibrate(empty_board)
    assert profile.references.shape == (225, 40, 40, 3) and profile.corners.shape == (4, 2)
    save_profile(profile, tmp_path)
    again = load_profile(tmp_path)
    assert (again.references == profile.references).all() and np.allclose(again.corners, profile.corners)
    assert (again.references_turned(1) == turn_squares(profile.references, 1)).all()
    assert load_profile(tmp_path / "nowhere") is None
    (tmp_path / PROFILE_NAME).write_bytes(b"not a profile")
    with pytest.raises(ProfileError):
        load_profile(tmp_path)


def test_the_command_records_the_empty_board_and_says_so_when_it_cannot(tmp_path, empty_board, capsys):
    photo = tmp_path / "empty.jpg"
    cv2.imwrite(str(photo), empty_board)
    assert main(["calibrate", str(photo), "--data-dir", str(tmp_path / "data")]) == 0
    assert "225 squares recorded" in capsys.readouterr().out and load_profile(tmp_path / "data") is not None
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), 90, np.uint8))
    assert main(["calibrate", str(blank), "--data-dir", str(tmp_path / "data2")]) == 1
    assert "no board found" in capsys.readouterr().err and load_profile(tmp_path / "data2") is None


def test_the_scorekeepers_reader_reads_against_the_recorded_board_and_goes_on_without_a_broken_one(
        tmp_path, empty_board, caplog):
    from tilecam.firmware.daemon import make_tracker

    empty = ["." * 15] * 15
    save_profile(calibrate(empty_board), tmp_path / "data")
    tracker = make_tracker("", empty, "english", data_dir=tmp_path / "data")
    assert tracker.reader.profile is not None and tracker.reader.hint is not None
    reading = tracker.reader(empty_board)
    assert (reading.references == load_profile(tmp_path / "data").references).all()
    assert "".join(reading.grid).strip(".") == ""
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / PROFILE_NAME).write_bytes(b"junk")
    assert make_tracker("", empty, "english", data_dir=tmp_path / "broken").reader.profile is None
    assert "not a board profile" in caplog.text
