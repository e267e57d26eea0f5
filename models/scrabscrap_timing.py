"""Times ScrabScrap v2's own board reader (``processing._image_processing``) for ``tilecam bench vision``.

Our code, run with ScrabScrap v2's interpreter (its own venv: numpy, opencv-python, imutils); it imports their
modules from a checkout's ``python/src`` folder at run time and nothing of tilecam, so it needs only the standard
library here. Their code stays outside this repository.

    python scrabscrap_timing.py --src CHECKOUT/python/src warm FRAME_OR_FOLDER...
        one warm-up call on the first frame, then each frame read once in this process; prints one JSON line
        {"frames", "failed", "median_ms", "mean_ms", "median_cpu_ms", "times_ms"} (image decoding is not timed;
        CPU: user + system of the whole process, all threads, while a frame is read).
    python scrabscrap_timing.py --src CHECKOUT/python/src once PHOTO
        the whole job of a new process: import, configuration, decode, one read; prints {"tiles", "ms"}.
        The caller times the process from outside.

Each frame is read as a whole board: a new ``scrabble.Game`` with no moves, so every candidate square is matched
(in a running game ScrabScrap keeps the previous move's squares that matched above 90 %). ``--ini`` is their
configuration file (default: ``defaults/scrabble.ini`` beside ``src``; its board layout, warp and tile set).
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import statistics
import sys
import time
from pathlib import Path


def natural_key(path: Path) -> list:
    """``image-2.jpg`` before ``image-10.jpg``."""
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", str(path))]


def frames_of(items: list[Path]) -> list[Path]:
    """The photos named, a folder standing for its ``image-*.jpg`` (its ``game*`` subfolders' too), in order."""
    frames: list[Path] = []
    for item in items:
        if item.is_dir():
            found = list(item.glob("image-*.jpg")) + list(item.glob("game*/image-*.jpg"))
            frames.extend(sorted(found, key=natural_key))
        else:
            frames.append(item)
    return frames


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="scrabscrap_timing", description=__doc__.split("\n\n")[0])
    ap.add_argument("--src", type=Path, required=True, help="ScrabScrap v2's python/src folder (holds processing.py)")
    ap.add_argument("--ini", type=Path, default=None,
                    help="their configuration (default: ../defaults/scrabble.ini beside --src, when there)")
    sub = ap.add_subparsers(dest="mode", required=True)
    warm = sub.add_parser("warm", help="median per frame over FRAMES in one process, after one warm-up read")
    warm.add_argument("frames", type=Path, nargs="+", help="photos, or folders of image-*.jpg")
    warm.add_argument("--warmup", type=int, default=1, help="untimed reads of the first frame first (default 1)")
    once = sub.add_parser("once", help="one read of PHOTO, as the whole job of this process")
    once.add_argument("photo", type=Path)
    args = ap.parse_args(argv)
    if not (args.src / "processing.py").is_file():
        ap.error(f"--src {args.src}: no processing.py there (give ScrabScrap v2's python/src folder)")
    if args.ini is None:
        default = args.src.parent / "defaults" / "scrabble.ini"
        args.ini = default if default.is_file() else None
    elif not args.ini.is_file():
        ap.error(f"--ini {args.ini}: no such file")
    if args.mode == "warm":
        args.frames = frames_of(args.frames)
        missing = [str(f) for f in args.frames if not f.is_file()]
        if missing:
            ap.error(f"no such photo: {', '.join(missing[:3])}")
        if not args.frames:
            ap.error("no frames (a folder holds none of image-*.jpg)")
    elif not args.photo.is_file():
        ap.error(f"no such photo: {args.photo}")
    return args


def load_reader(src: Path, ini: Path | None):
    """Their ``processing._image_processing`` and ``scrabble.Game``, configured from ``ini``."""
    sys.path.insert(0, str(src.resolve()))
    logging.disable(logging.CRITICAL)             # their debug logging is not part of the read
    from config import config                     # noqa: their module, from --src
    if ini is not None:
        config.reload(ini_file=str(ini))
    import processing                             # noqa: their module, from --src
    from scrabble import Game                     # noqa: their module, from --src
    return processing._image_processing, Game


def read_once(image_processing, game_class, image) -> int:
    """One whole-board read; the number of squares it judged to hold a tile."""
    _warped, board = image_processing(None, game_class(None), image)
    return len(board)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import cv2

    image_processing, game_class = load_reader(args.src, args.ini)
    if args.mode == "once":
        t0 = time.perf_counter()
        tiles = read_once(image_processing, game_class, cv2.imread(str(args.photo)))
        print(json.dumps({"tiles": tiles, "ms": (time.perf_counter() - t0) * 1000}))
        return 0
    images = [cv2.imread(str(f)) for f in args.frames]
    for _ in range(args.warmup):
        read_once(image_processing, game_class, images[0])
    times, cpu, failed = [], [], []
    for frame, image in zip(args.frames, images):
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            read_once(image_processing, game_class, image)
        except Exception:                         # a frame their reader cannot read is counted, not timed
            failed.append(str(frame))
            continue
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    if not times:
        print(json.dumps({"frames": len(args.frames), "failed": failed}))
        return 1
    print(json.dumps({"frames": len(args.frames), "failed": failed, "median_ms": statistics.median(times),
                      "mean_ms": statistics.fmean(times), "median_cpu_ms": statistics.median(cpu),
                      "times_ms": [round(t, 2) for t in times]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
