"""The capture loop: reads once per settle, sleeps when idle, survives a flaky camera, stays bounded."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from tilecam.firmware.loop import CAMERA_LOST, CaptureLoop, LoopConfig, motion_fraction
from tilecam.firmware.sources import EndOfStream, Frame, SourceError, frame_from_image


def board(tiles: int = 0) -> np.ndarray:
    """A gray 'board' with ``tiles`` bright squares along the top row (each ~0.4 % of the image)."""
    img = np.full((300, 400, 3), 90, np.uint8)
    for i in range(tiles):
        img[20:45, 20 + 30 * i:45 + 30 * i] = 230
    return img


def hand() -> np.ndarray:
    img = board()
    img[100:260, 120:300] = 20
    return img


class ListSource:
    """A recording made of in-memory images, ``fps`` frames per second of source time."""

    live = False

    def __init__(self, images, fps=10.0):
        self.images, self.fps, self.i, self.name, self.closed = list(images), fps, 0, "list", 0

    def open(self):
        self.i = 0

    def read(self) -> Frame:
        if self.i >= len(self.images):
            raise EndOfStream("done")
        f = frame_from_image(self.images[self.i], self.i, self.i / self.fps)
        self.i += 1
        return f

    def close(self):
        self.closed += 1


class Recorder:
    """A stand-in consumer: remembers what it was fed and reports a 'play' whenever the tile count grew."""

    def __init__(self):
        self.fed: list[float] = []
        self.tiles = 0

    def feed(self, image, t):
        self.fed.append(t)
        n = int(np.count_nonzero(image[32, :, 0] == 230) // 25)
        if n > self.tiles:
            self.tiles = n
            return [("play", n)]
        return []


def test_motion_fraction_sees_a_tile_but_not_noise():
    a = board(0)[:, :, 0]
    rng = np.random.default_rng(1)
    noisy = np.clip(a.astype(int) + rng.integers(-8, 9, a.shape), 0, 255).astype(np.uint8)
    assert motion_fraction(a, noisy, 18) == 0.0
    assert motion_fraction(a, board(1)[:, :, 0], 18) > 0.002
    assert motion_fraction(a, a[:10], 18) == 1.0


def test_recording_is_read_once_at_start_and_once_per_settle():
    # 0.0-0.9 s: empty board; 1.0-1.2 s: a hand; 1.3-2.9 s: board with one tile; then a second tile.
    images = [board(0)] * 10 + [hand()] * 3 + [board(1)] * 17 + [hand()] * 2 + [board(2)] * 12
    src, rec = ListSource(images), Recorder()
    got = []
    status = CaptureLoop(src, rec, lambda ev, frame: got.append((ev, frame.index)),
                         LoopConfig(settle_seconds=0.5)).run(max_seconds=20)
    assert status.stop_reason == "end-of-stream"
    assert status.frames == len(images)
    assert status.reads == 3                       # the first frame + one per settle
    assert [e for e, _ in got] == [[("play", 1)], [("play", 2)]]
    # Each read happens once the board has been still for settle_seconds, not during the hand.
    assert rec.fed[1] == pytest.approx(1.3 + 0.5, abs=0.11)
    assert src.closed == 1


def test_a_consumer_that_notes_motion_is_told_where_the_small_image_moved():
    images = [board(0)] * 5 + [hand()] * 2 + [board(1)] * 10
    rec = Recorder()
    noted: list[tuple[float, np.ndarray]] = []
    rec.note_motion = lambda moving, t: noted.append((t, moving))
    CaptureLoop(ListSource(images), rec, config=LoopConfig(settle_seconds=0.3)).run(max_seconds=20)
    # the hand coming (frame 5), leaving (frame 7): the masks cover where it was, in the small image's pixels
    assert [round(t, 1) for t, _ in noted] == [0.5, 0.7]
    first = noted[0][1]
    assert first.dtype == bool and first.shape == ListSource(images).read().lores.shape
    ys, xs = np.nonzero(first)
    scale = first.shape[1] / 400
    assert ys.min() == pytest.approx(100 * scale, abs=2) and xs.max() == pytest.approx(300 * scale, abs=2)


def test_max_frames_bounds_the_loop():
    src = ListSource([board(0)] * 50)
    status = CaptureLoop(src, Recorder()).run(max_frames=7)
    assert status.frames == 7 and status.stop_reason == "max-frames"


def test_a_consumer_that_wants_every_frame_gets_every_frame():
    rec = Recorder()
    rec.wants_every_frame = True
    CaptureLoop(ListSource([board(0)] * 6), rec).run()
    assert len(rec.fed) == 6


class LiveStill:
    """A live camera looking at a still board."""

    live = True
    name = "still"

    def __init__(self):
        self.reads = 0

    def open(self):
        pass

    def read(self):
        self.reads += 1
        return frame_from_image(board(0), self.reads, time.monotonic())

    def close(self):
        pass


def test_idle_live_loop_polls_slowly_and_reads_once():
    src = LiveStill()
    status = CaptureLoop(src, Recorder(), config=LoopConfig(idle_fps=4)).run(max_seconds=1.0)
    assert status.reads == 1
    assert 3 <= status.frames <= 6          # ~4 polls per second, not a busy loop
    assert status.stop_reason == "max-seconds"


def test_request_read_and_stop_from_another_thread():
    rec = Recorder()
    loop = CaptureLoop(LiveStill(), rec, config=LoopConfig(idle_fps=20))
    t = threading.Thread(target=loop.run, kwargs={"max_seconds": 10})
    t.start()
    time.sleep(0.3)
    loop.request_read()
    time.sleep(0.3)
    loop.stop()
    t.join(2)
    assert not t.is_alive()
    assert len(rec.fed) == 2
    assert loop.status.stop_reason == "stopped"


class FlakyCamera:
    """A live camera that shows one tile, then fails for a while (reads and reopens), then comes back with two."""

    live = True
    name = "flaky"

    def __init__(self, good_before=5, bad_reads=3, bad_opens=2):
        self.n = 0
        self.good_before, self.bad_reads, self.bad_opens = good_before, bad_reads, bad_opens
        self.opens = 0
        self.failures = 0

    def open(self):
        self.opens += 1
        if self.failures and self.bad_opens > 0:
            self.bad_opens -= 1
            raise SourceError("no such device")

    def read(self):
        self.n += 1
        if self.n > self.good_before and self.bad_reads > 0:
            self.bad_reads -= 1
            self.failures += 1
            raise SourceError("VIDIOC_DQBUF: No such device")
        image = board(1) if self.n <= self.good_before else board(2)
        return frame_from_image(image, self.n, time.monotonic())

    def close(self):
        pass


def test_a_camera_that_fails_and_comes_back_is_survived_without_invented_moves():
    cam, rec = FlakyCamera(), Recorder()
    events, states = [], []
    cfg = LoopConfig(idle_fps=50, active_fps=50, retry_initial_s=0.01, retry_max_s=0.05)
    status = CaptureLoop(cam, rec, lambda ev, f: events.append(ev), cfg,
                         on_status=lambda s: states.append(s.state)).run(max_seconds=1.5)
    assert CAMERA_LOST in states
    assert status.source_errors >= 1 and status.reconnects >= 1
    assert cam.opens >= 3
    # One play per board the camera actually showed: one tile before the failure, two after it.
    assert events == [[("play", 1)], [("play", 2)]]
    assert states[-1] == "stopped"


def test_a_failing_consumer_is_counted_and_the_loop_goes_on():
    class Broken:
        def feed(self, image, t):
            raise RuntimeError("bug in vision")

    images = [board(0)] * 3 + [hand()] * 2 + [board(1)] * 12
    status = CaptureLoop(ListSource(images), Broken(), config=LoopConfig(settle_seconds=0.3)).run()
    assert status.consumer_errors == 2 and "bug in vision" in status.last_error
    assert status.frames == len(images)


def test_recorded_source_that_cannot_open_raises():
    class Missing(ListSource):
        def open(self):
            raise SourceError("no file x.avi")

    with pytest.raises(SourceError, match="no file"):
        CaptureLoop(Missing([]), Recorder()).run(max_seconds=1)


def test_a_long_back_off_keeps_ticking_for_the_watchdog():
    class Dead:
        live, name = True, "dead"

        def open(self):
            raise SourceError("no camera")

        def read(self):
            raise AssertionError("never opened")

        def close(self):
            pass

    ticks = []
    cfg = LoopConfig(retry_initial_s=1.8, retry_max_s=1.8)
    status = CaptureLoop(Dead(), Recorder(), config=cfg, on_tick=lambda: ticks.append(time.monotonic())).run(
        max_seconds=2.2)
    assert status.state == "stopped" and status.frames == 0
    assert len(ticks) >= 3 and max(b - a for a, b in zip(ticks, ticks[1:])) < 1.5


def test_a_consumer_that_found_no_board_is_given_the_next_still_frame_and_its_status_is_on_the_line():
    class NoBoard:
        status = "unreadable: no board found (1 frames so far)"
        wants_another_read = True

        def __init__(self):
            self.fed = 0

        def feed(self, image, t):
            self.fed += 1
            return []

    consumer = NoBoard()
    status = CaptureLoop(ListSource([board()] * 5), consumer).run()
    assert consumer.fed == 5 and status.tracker == NoBoard.status
    assert "tracker: unreadable: no board found" in status.line()
