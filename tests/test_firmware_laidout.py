"""The daemon's side of "Learn my tiles" (issue 23): the web's request answered from the camera's next still frame,
the looks kept and read with, a refusal reported with the looks kept before (``firmware/laidout.py``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_firmware_daemon import StandInTracker, encode_board, quiet_config, write_clip

from tilecam.core.calibration_files import (LAID_OUT_REQUEST_NAME, ask_laid_out, laid_out_request,
                                            laid_out_state)
from tilecam.firmware.daemon import Daemon
from tilecam.firmware.laidout import LaidOutTeacher
from tilecam.firmware.sources import ZipFramesSource, frame_from_image
from tilecam.vision.laidout import LOOKS_NAME, LayoutError, load_tile_looks, order_of

ENGLISH_LAID_OUT = ("....ABCDEFG", "....HIJKLMN", "....OPQRSTU", "....VWXYZ?")


@pytest.fixture(scope="module")
def laid_out_clip(tmp_path_factory):
    """Three frames of the English set laid out in order, rendered (as tests/test_vision_laidout.py renders it)."""
    from tilecam.models import synth

    rows = ["." * 15] * 5 + [line.ljust(15, ".") for line in ENGLISH_LAID_OUT] + ["." * 15] * 6
    image = np.asarray(synth.render_board(tuple(rows), seed=900_011, styles=synth.TRAINING_STYLES).image)
    return write_clip(tmp_path_factory.mktemp("laidout") / "laid-out.zip", [image] * 3, end_racks=None)


def _daemon(tmp_path, clip, tracker=None) -> tuple[Daemon, list[str]]:
    lines: list[str] = []
    return Daemon(quiet_config(tmp_path), say=lines.append, source=ZipFramesSource(clip), tracker=tracker), lines


def test_the_daemon_learns_the_set_from_its_next_still_frame_and_its_tracker_reads_with_it(tmp_path, laid_out_clip):
    data = tmp_path / "data"
    ask_laid_out(data, "english")
    daemon, lines = _daemon(tmp_path, laid_out_clip)
    first = daemon._tracker_for_game
    made = []
    daemon._tracker_for_game = lambda: made.append(first()) or made[-1]
    assert daemon.run(max_frames=3) == 0
    state = laid_out_state(data)
    assert state["state"] == "learnt" and state["tiles"] == 27 and state["tileset"] == "english"
    assert state["read_alike"] >= 14 and "27 tiles learnt" in state["message"]
    assert laid_out_request(data) is None                                  # answered, withdrawn
    looks = load_tile_looks(data)
    assert looks.tiles == 27 and sorted(label for label in looks.labels if label != ".") == sorted(order_of("english"))
    # the tracker was built again, its reader reading with the looks just learnt, and the loop feeds it
    assert len(made) == 2 and daemon.tracker is made[1] and daemon.loop.consumer is made[1]
    assert daemon.tracker.reader.taught is not None and daemon.tracker.reader.taught.labels
    assert any("the tile set laid out: 27 tiles learnt" in line for line in lines)


def test_a_set_not_laid_out_as_asked_is_refused_with_what_to_lay_and_the_looks_before_kept(tmp_path, laid_out_clip):
    data = tmp_path / "data"
    data.mkdir()
    (data / LOOKS_NAME).write_bytes(b"the looks learnt before")
    ask_laid_out(data, "german")                 # the English set lies on the board: a tile too few for German
    daemon, lines = _daemon(tmp_path, laid_out_clip, tracker=StandInTracker(["." * 15] * 15))
    assert daemon.run(max_frames=3) == 0
    state = laid_out_state(data)
    assert state["state"] == "refused" and state["cause"] == "layout" and state["tileset"] == "german"
    assert "lay one tile of each" in state["message"] and "Ä" in state["message"]
    assert (data / LOOKS_NAME).read_bytes() == b"the looks learnt before" and laid_out_request(data) is None
    assert any("the tile set laid out: 27 tiles read" in line for line in lines)


def test_a_frame_without_a_board_is_refused_and_the_loop_goes_on(tmp_path):
    clip = write_clip(tmp_path / "coded.zip", [encode_board(["." * 15] * 15)] * 4, end_racks=None)
    ask_laid_out(tmp_path / "data", "english")
    daemon, _ = _daemon(tmp_path, clip, tracker=StandInTracker(["." * 15] * 15))
    assert daemon.run(max_frames=4) == 0 and daemon.loop.status.frames == 4
    state = laid_out_state(tmp_path / "data")
    assert state["state"] == "refused" and state["cause"] == "no-board"
    assert state["message"].startswith("board not found: ")


# ------------------------------------------------------------------------------------------------ the teacher alone


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _frame(i: int):
    return frame_from_image(np.zeros((8, 8, 3), np.uint8), i, i / 5)


def test_the_frame_learnt_from_is_the_first_still_one_after_the_request_was_noticed(tmp_path):
    clock, seen = Clock(1000.0), []

    def learn(image, tileset):
        seen.append(tileset)
        raise LayoutError("2 tiles read where the set has 26 letters and a blank")

    teacher = LaidOutTeacher(tmp_path, learn, clock=clock)
    old, new = _frame(0), _frame(1)
    assert teacher.tick(old, still=True) is None                              # nothing asked
    ask_laid_out(tmp_path, "english", now=clock.t)
    assert teacher.tick(old, still=True) is None                              # noticed: this frame may be from before
    assert teacher.tick(old, still=True) is None and seen == []
    assert teacher.tick(new, still=False) is None and seen == []              # a hand still moving
    outcome = teacher.tick(new, still=True)
    assert seen == ["english"] and outcome["state"] == "refused" and outcome["cause"] == "layout"
    assert outcome["asked"] == 1000.0 and laid_out_request(tmp_path) is None
    assert teacher.tick(_frame(2), still=True) is None                        # answered once


def test_a_request_no_still_frame_answers_in_time_is_refused_no_camera_frame(tmp_path):
    clock = Clock(1000.0)
    teacher = LaidOutTeacher(tmp_path, lambda image, tileset: pytest.fail("nothing to learn from"), clock=clock,
                             wait_s=30)
    ask_laid_out(tmp_path, "english", now=clock.t)
    assert teacher.tick(None, still=False) is None
    clock.t += 29
    assert teacher.tick(None, still=False) is None
    clock.t += 2
    outcome = teacher.tick(None, still=False)
    assert outcome["state"] == "refused" and outcome["cause"] == "no-frame"
    assert outcome["message"].startswith("no camera frame: ") and laid_out_state(tmp_path) == outcome
    # a request left from before the daemon started is refused too, not learnt from the board lying there now
    ask_laid_out(tmp_path, "english", now=clock.t - 3600)
    assert teacher.tick(_frame(0), still=True) is None
    assert teacher.tick(_frame(1), still=True)["cause"] == "no-frame"


def test_a_broken_request_is_refused_and_removed_never_raised(tmp_path):
    (tmp_path / LAID_OUT_REQUEST_NAME).write_text(json.dumps({"tileset": 5}))
    teacher = LaidOutTeacher(tmp_path, lambda image, tileset: pytest.fail("nothing to learn from"))
    outcome = teacher.tick(_frame(0), still=True)
    assert outcome["state"] == "refused" and outcome["cause"] == "bad-request"
    assert not (tmp_path / LAID_OUT_REQUEST_NAME).exists() and teacher.tick(_frame(1), still=True) is None


def test_a_newer_request_made_while_one_was_answered_stays_to_be_answered(tmp_path):
    from tilecam.core.calibration_files import withdraw_laid_out_request

    first = ask_laid_out(tmp_path, "english", now=1000.0)
    ask_laid_out(tmp_path, "german", now=1001.0)
    withdraw_laid_out_request(tmp_path, first["asked"])
    assert laid_out_request(tmp_path)["tileset"] == "german"
