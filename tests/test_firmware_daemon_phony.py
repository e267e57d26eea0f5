"""The daemon passes the tracker's "phony" (a play the lexicon rejects, read clearly) into the stored move's flags."""

from __future__ import annotations

import numpy as np

from tilecam.engine.move import Placement
from tilecam.firmware.config import Config
from tilecam.firmware.daemon import Daemon
from tilecam.firmware.sources import frame_from_image
from tilecam.core.store import GameStore
from tilecam.vision.tracker import DetectedEvent


class OnePhonyTracker:
    """Reports one play of a word no lexicon has at the first frame, then nothing."""

    def __init__(self):
        self.fed = 0

    def feed(self, image, t):
        self.fed += 1
        if self.fed > 1:
            return []
        return [DetectedEvent("play", placement=Placement.from_gcg("8G", "ZQX"), t=t, phony=("ZQX",))]

    def sync(self, rows):
        pass


class StillFrames:
    name, live = "stills", False

    def __init__(self, n=3):
        self.n, self.i = n, 0

    def open(self):
        pass

    def read(self):
        from tilecam.firmware.sources import EndOfStream

        if self.i >= self.n:
            raise EndOfStream("done")
        self.i += 1
        return frame_from_image(np.zeros((60, 80, 3), np.uint8), self.i - 1, self.i / 10)

    def close(self):
        pass


def test_a_phony_play_from_the_camera_is_stored_with_the_phony_flag(tmp_path):
    cfg = Config().replace(data_dir=str(tmp_path / "data")).replace("web", enabled=False)
    cfg = cfg.replace("camera", realtime=False).replace("game", players=("Ann", "Ben"), tileset="german")
    daemon = Daemon(cfg, say=lambda line: None, source=StillFrames(), tracker=OnePhonyTracker())
    assert daemon.run(max_seconds=20) == 0
    with GameStore(tmp_path / "data") as store:
        game = store.games()[0]
        moves = store.moves(game.id)
        assert [(m.position, m.word, m.flags) for m in moves] == [("8G", "ZQX", ("phony",))]
        assert store.events(game.id)[-1].payload["phony"] == ["ZQX"]
