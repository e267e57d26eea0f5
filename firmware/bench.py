"""``tilecam bench device``: what the capture loop costs — CPU idle and during play, memory, frames per second.

Phases (each ``--seconds`` long, default 10):

* ``idle, Pi-like``: a live camera that hands over its small motion image (as picamera2's ``lores`` stream does)
  watching a still board with sensor noise; the loop polls at ``idle_fps``.
* ``idle, webcam-like``: the same, but every poll decodes a full-size JPEG and shrinks it (a USB webcam's MJPEG).
* ``play, Pi-like``: a live camera replaying a game (a hand over the board every few seconds, then new tiles); the
  full-size frame is fetched only when the board settles. The consumer does no vision (its cost is the vision
  benchmark's ``read`` time × the ``reads`` column).
* ``throughput``: a recording read as fast as possible: frames through the loop per second, full-size JPEG decode
  included, and with the frames already in memory (the loop's own overhead).
* ``full chain``: the bundled demo game through vision, the move tracker, the game service and the store, unpaced,
  start-up (model and lexicon loading) included.

CPU % is process CPU time / wall time (100 % = one core busy). RSS is the resident memory at the end of the phase.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tilecam.firmware.loop import CaptureLoop, LoopConfig
from tilecam.firmware.sources import EndOfStream, Frame, frame_from_image, to_lores


def rss_mib() -> float:
    """Current resident set size of this process, MiB (Linux /proc; falls back to the peak)."""
    try:
        with open("/proc/self/statm") as f:
            pages = int(f.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def board_image(width: int, height: int, tiles: int, rng: np.random.Generator, hand: bool = False) -> np.ndarray:
    """A synthetic overhead picture: a board (15×15 squares) on a table, ``tiles`` tiles placed row by row."""
    img = np.full((height, width, 3), (60, 70, 80), np.uint8)
    side = int(min(width, height) * 0.9)
    x0, y0 = (width - side) // 2, (height - side) // 2
    img[y0:y0 + side, x0:x0 + side] = (150, 170, 120)
    cell = side / 15
    for i in range(tiles):
        r, c = 7 + (i // 15) % 8, i % 15
        ya, xa = int(y0 + r * cell + 2), int(x0 + c * cell + 2)
        img[ya:int(ya + cell - 4), xa:int(xa + cell - 4)] = (200, 225, 240)
    if hand:
        img[height // 4:height, width // 3:width // 3 + width // 4] = (90, 120, 170)
    return img


def pi_lores(image: np.ndarray) -> np.ndarray:
    """What picamera2's 320×180 ``lores`` Y plane would show of ``image``."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, (320, 180), interpolation=cv2.INTER_AREA)


def _noisy(gray: np.ndarray, rng: np.random.Generator, amount: int = 6) -> np.ndarray:
    noise = rng.integers(-amount, amount + 1, gray.shape)
    return np.clip(gray.astype(np.int16) + noise, 0, 255).astype(np.uint8)


class FakeLiveCamera:
    """A live camera whose picture at wall time t comes from ``scene(t) -> (lores, full or jpeg)``."""

    live = True

    def __init__(self, name: str, scene: Callable[[float], tuple[np.ndarray, Any]], decode_jpeg: bool) -> None:
        self.name = name
        self.scene = scene
        self.decode_jpeg = decode_jpeg
        self.t0 = 0.0
        self.n = 0

    def open(self) -> None:
        self.t0 = time.monotonic()

    def read(self) -> Frame:
        import cv2

        t = time.monotonic() - self.t0
        lores, full = self.scene(t)
        self.n += 1
        if self.decode_jpeg:  # a webcam: every frame decoded and shrunk
            image = cv2.imdecode(full, cv2.IMREAD_COLOR)
            return frame_from_image(image, self.n, t)
        return Frame(self.n, t, to_lores(lores), full)  # the Pi's 320×180 Y plane, shrunk as PiCameraSource does

    def close(self) -> None:
        pass


class NullConsumer:
    def __init__(self) -> None:
        self.reads = 0

    def feed(self, image: np.ndarray, t: float) -> list:
        self.reads += 1
        return []


def _measure(loop: CaptureLoop, seconds: float | None, max_frames: int | None = None) -> dict[str, float]:
    cpu0, wall0 = time.process_time(), time.perf_counter()
    status = loop.run(max_seconds=seconds, max_frames=max_frames)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return {"wall": wall, "cpu_pct": 100 * cpu / wall, "frames": status.frames, "reads": status.reads,
            "fps": status.frames / wall, "rss": rss_mib()}


def run_bench(seconds: float, width: int, height: int, say: Callable[[str], None] = print) -> list[dict[str, Any]]:
    import cv2

    rng = np.random.default_rng(5)
    cfg = LoopConfig()
    still = board_image(width, height, 20, rng)
    still_lores = [_noisy(pi_lores(still), rng) for _ in range(4)]
    ok, still_jpeg = cv2.imencode(".jpg", still, [cv2.IMWRITE_JPEG_QUALITY, 85])
    rows: list[dict[str, Any]] = []

    def idle_scene(t: float) -> tuple[np.ndarray, Any]:
        return still_lores[int(t * 30) % 4], still

    say(f"idle, Pi-like ({seconds:.0f} s)…")
    r = _measure(CaptureLoop(FakeLiveCamera("pi", idle_scene, False), NullConsumer(), config=cfg), seconds)
    rows.append({"phase": "idle, Pi-like (lores stream)", **r})

    say(f"idle, webcam-like ({seconds:.0f} s)…")
    r = _measure(CaptureLoop(FakeLiveCamera("webcam", lambda t: (None, still_jpeg), True), NullConsumer(),
                             config=cfg), seconds)
    rows.append({"phase": f"idle, webcam-like ({width}×{height} MJPEG)", **r})

    # A game: every 4 s a hand comes for 1 s and leaves two more tiles.
    frames: dict[tuple[int, bool], tuple[list[np.ndarray], np.ndarray]] = {}

    def play_scene(t: float) -> tuple[np.ndarray, Any]:
        turn, phase = divmod(t, 4.0)
        key = (20 + 2 * int(turn), phase < 1.0)
        if key not in frames:
            img = board_image(width, height, key[0], rng, hand=key[1])
            frames[key] = ([_noisy(pi_lores(img), rng) for _ in range(4)], img)
        lores, img = frames[key]
        return lores[int(t * 30) % 4], img

    say(f"play, Pi-like ({seconds:.0f} s)…")
    consumer = NullConsumer()
    r = _measure(CaptureLoop(FakeLiveCamera("pi", play_scene, False), consumer, config=cfg), seconds)
    rows.append({"phase": "play, Pi-like (a move every 4 s)", **r})

    # Throughput: a recording of JPEG frames, as fast as the loop goes.
    n = 200
    clip: list = []  # the JPEG bytes of the recording
    decoded: list = []  # the same frames decoded, filled for the in-memory run
    for i in range(n):
        img = board_image(width, height, 20 + i // 25, rng, hand=(i % 25) < 5)
        clip.append(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])[1])

    class Recording:
        live = False
        name = "recording"

        def __init__(self, decode: bool) -> None:
            self.decode, self.i = decode, 0

        def open(self) -> None:
            self.i = 0

        def read(self) -> Frame:
            if self.i >= n:
                raise EndOfStream("end")
            img = cv2.imdecode(clip[self.i], cv2.IMREAD_COLOR) if self.decode else decoded[self.i]
            f = frame_from_image(img, self.i, self.i / 10)
            self.i += 1
            return f

        def close(self) -> None:
            pass

    say("throughput…")
    r = _measure(CaptureLoop(Recording(True), NullConsumer(), config=cfg), None)
    rows.append({"phase": f"throughput, {width}×{height} JPEG decoded", **r})
    decoded.extend(cv2.imdecode(b, cv2.IMREAD_COLOR) for b in clip)
    r = _measure(CaptureLoop(Recording(False), NullConsumer(), config=cfg), None)
    rows.append({"phase": "throughput, frames in memory", **r, "rss": None})  # RSS would count the 200 frames held
    decoded.clear()  # emptied, not deleted: Recording.read still closes over both lists
    clip.clear()

    full = _full_chain(say)
    if full is not None:
        rows.append(full)
    return rows


def _full_chain(say: Callable[[str], None]) -> dict[str, Any] | None:
    """The bundled demo through everything — vision, tracker, service, SQLite store — as fast as it goes."""
    import tempfile

    from tilecam.firmware.config import Config
    from tilecam.firmware.daemon import Daemon, NullTracker
    from tilecam.firmware.sources import demo_source

    say("full chain on the bundled demo…")
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Config().replace(data_dir=tmp).replace("web", enabled=False).replace("camera", realtime=False)
        lines: list[str] = []
        daemon = Daemon(cfg, say=lines.append, source=demo_source(realtime=False))
        cpu0, wall0 = time.process_time(), time.perf_counter()
        daemon.run()
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        if isinstance(daemon.tracker, NullTracker) or daemon.loop is None:
            say("  (no vision pipeline: skipped)")
            return None
        status = daemon.loop.status
        moves = sum(line.startswith("tilecam: move ") for line in lines)
    return {"phase": f"full chain, bundled demo ({status.events} moves read, {moves} stored; start-up incl.)",
            "wall": wall, "cpu_pct": 100 * cpu / wall, "frames": status.frames, "reads": status.reads,
            "fps": status.frames / wall, "rss": rss_mib()}


def format_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| phase | CPU % of one core | frames/s | frames | reads | RSS MiB |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        rss = "—" if r["rss"] is None else f"{r['rss']:.0f}"
        lines.append(f"| {r['phase']} | {r['cpu_pct']:.1f} | {r['fps']:.1f} | {r['frames']} | {r['reads']} | {rss} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tilecam bench device", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each timed phase (default 10)")
    parser.add_argument("--width", type=int, default=1920)
    parser.add_argument("--height", type=int, default=1080)
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.width < 64 or args.height < 64:
        parser.error("--seconds must be > 0 and the frame at least 64×64")
    rows = run_bench(args.seconds, args.width, args.height, say=lambda s: print(s, flush=True))
    print()
    print(f"Machine: {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"loop defaults: idle {LoopConfig().idle_fps:g} fps, active {LoopConfig().active_fps:g} fps")
    print(format_table(rows))
    return 0
