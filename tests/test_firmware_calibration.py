"""The daemon's calibration view: the latest frame with the grid drawn over it, the last reading, the status line,
written into the data folder for the web page /calibrate."""

from __future__ import annotations


import cv2
import numpy as np
import pytest

from tilecam.core.calibration_files import read_calibration, read_calibration_jpeg, write_calibration
from tilecam.firmware.calibration import CalibrationView, TeeSource, tap_reader
from tilecam.firmware.config import Config
from tilecam.firmware.daemon import Daemon
from tilecam.firmware.sources import frame_from_image
from tilecam.core.store import GameStore


def quiet_config(tmp_path) -> Config:
    cfg = Config().replace(data_dir=str(tmp_path / "data")).replace("web", enabled=False)
    return cfg.replace("camera", realtime=False).replace("game", players=("Ann", "Ben"))


def test_the_demo_run_writes_a_calibration_picture_with_the_grid_and_the_reading(tmp_path):
    """`tilecam run` on the bundled demo, bounded: the picture shows the located grid, the JSON the vision reading."""
    from tilecam.firmware.sources import demo_source

    lines: list[str] = []
    daemon = Daemon(quiet_config(tmp_path), say=lines.append, source=demo_source(realtime=False))
    assert daemon.run(max_seconds=60, max_frames=6) == 0
    data = tmp_path / "data"
    info = read_calibration(data)
    jpeg = read_calibration_jpeg(data)
    assert info is not None and jpeg is not None and jpeg[:2] == b"\xff\xd8", lines
    picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
    assert picture.shape[1] == info["image"]["width"] <= 960 and picture.shape[0] == info["image"]["height"]
    assert info["board"]["found"] and info["board"]["from"] == "reader"      # the tracker's own read, tapped
    corners = np.array(info["board"]["corners"])
    assert corners.shape == (4, 2) and (corners >= -1).all()
    assert (corners[:, 0] <= picture.shape[1] + 1).all() and (corners[:, 1] <= picture.shape[0] + 1).all()
    reading = info["reading"]
    assert len(reading["grid"]) == 15 and all(len(row) == 15 for row in reading["grid"])
    assert np.array(reading["confidence"]).shape == (15, 15)
    assert all(reading["confidence"][r][c] < reading["low_below"] for r, c in reading["low"])
    # the reader's verdict on the whole board: unsure exactly when its probabilities expect a square wrong or more
    assert reading["unsure"] == (reading["expected_wrong"] >= 0.5)
    status = info["status"]
    assert status["source"] == "demo" and status["state"] and "demo" in status["line"]
    # The grid was drawn: yellow lines over the picture (the demo drawing has no pure yellow of its own).
    yellow = (picture[:, :, 2] > 200) & (picture[:, :, 1] > 200) & (picture[:, :, 0] < 90)
    assert yellow.sum() > 500
    with GameStore(data) as store:
        assert store.games()                               # the game went on beside it


def test_a_frame_without_a_board_is_located_here_and_says_so(tmp_path):
    """No reader to tap (a stand-in tracker): the view locates the frame itself, at most once per write."""
    clock = [100.0]
    view = CalibrationView(tmp_path, every_s=2.0, clock=lambda: clock[0])
    assert not view.tick({"source": "webcam:0", "frames": 0})               # no frame yet: nothing written
    assert read_calibration(tmp_path) is None and read_calibration_jpeg(tmp_path) is None
    source = TeeSource(type("S", (), {"name": "webcam:0", "live": True,
                                      "read": lambda self: frame_from_image(np.full((240, 320, 3), 40, np.uint8),
                                                                            0, 0.0)})(), view.frame_seen)
    assert source.name == "webcam:0" and source.live        # the rest is the wrapped source's
    source.read()
    assert view.tick({"source": "webcam:0", "state": "watching", "frames": 1})
    info = read_calibration(tmp_path)
    assert info["board"] == {"found": False, "from": None, "score": None, "corners": None,
                             "problem": info["board"]["problem"]}
    assert info["board"]["problem"].startswith("board not found")
    assert info["reading"] is None and info["status"]["fps"] is None
    assert not view.tick({"source": "webcam:0", "frames": 5})               # within 2 s: not again
    clock[0] += 2.5
    assert view.tick({"source": "webcam:0", "state": "watching", "frames": 6})
    assert read_calibration(tmp_path)["status"]["fps"] == 2.0               # 5 frames in 2.5 s
    assert view.writes == 2


def test_the_tapped_reader_reports_readings_and_failures(tmp_path):
    class Tracker:
        def __init__(self):
            self._reader = self.read

        def read(self, image):
            if image is None:
                raise ValueError("no board in the picture")
            return ["." * 15] * 7 + ["...CAT........."] + ["." * 15] * 7

    tracker, seen = Tracker(), []
    assert tap_reader(tracker, lambda raw, err: seen.append((raw, err)))
    tracker._reader("image")
    with pytest.raises(ValueError):
        tracker._reader(None)
    assert seen[0][1] is None and seen[1][0] is None and "no board" in str(seen[1][1])
    assert not tap_reader(object(), lambda raw, err: None)                  # nothing to tap
    view = CalibrationView(tmp_path)
    view.reading_seen(seen[0][0])
    reading = view._reading(0.0)
    assert reading["grid"][7] == "...CAT........." and reading["low"] == []


def test_files_are_replaced_whole(tmp_path):
    write_calibration(tmp_path, b"\xff\xd8one", {"n": 1})
    write_calibration(tmp_path, b"\xff\xd8two", {"n": 2})
    assert read_calibration(tmp_path) == {"n": 2} and read_calibration_jpeg(tmp_path) == b"\xff\xd8two"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["calibration.jpg", "calibration.json"]  # no leftovers
    (tmp_path / "calibration.json").write_text("{half")
    assert read_calibration(tmp_path) is None


def test_a_tapped_reader_still_reads_only_what_changed_learns_and_turns():
    """The calibration view's tap must not cost the tracker its reader's other ways of reading: with a calibrated
    board (a reader made at start) the tracker asks the tapped reader for ``read_changed``, ``turned``, ``learn``."""
    class Reader:
        rotation, last = 0, None

        def __call__(self, image):
            return "whole"

        def read_changed(self, image, wanted):
            return "changed", "signature"

        def learn(self, committed):
            return len(committed)

    class Tracker:
        _reader = Reader()

    tracker, seen = Tracker(), []
    assert tap_reader(tracker, lambda raw, err: seen.append(raw))
    reader = tracker._reader
    assert reader("image") == "whole"
    assert reader.read_changed("image", None) == ("changed", "signature")
    assert hasattr(reader, "read_changed") and not hasattr(reader, "turned")
    assert reader.learn(["." * 15]) == 1 and reader.rotation == 0
    assert seen == ["whole", "changed"]                 # the view is told of the reading, not of the signature
