"""``tilecam bench vision``: the figures of ``tilecam eval-vision`` plus the read's speed.

Warm: a fixed camera, the last location reused (the daemon's case), median of repeated reads in this process.
Cold: ``tilecam read PHOTO`` as a whole new process (start-up, model load, locating, telling the turn, reading),
median wall time of a few runs. Needs no dev extra (the confusion matrices are skipped without matplotlib)."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from tilecam.models.eval_vision import SHARED_BOARDS, run_evaluation


def warm_read_times(threads: int, model: Path | None, repeats: int = 30) -> dict[str, float]:
    """Median ms per stage when the last location is reused (the daemon's case: a fixed camera)."""
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.read import read_board

    photo = SHARED_BOARDS / "game03" / "image-20.jpg"
    image = cv2.imread(str(photo))
    classifier = TileClassifier.load(model, threads=threads)
    first = read_board(image, classifier, tileset="german")
    read_board(image, classifier, tileset="german", hint=first.location)     # the first run's allocations
    times = []
    for _ in range(repeats):
        times.append(read_board(image, classifier, tileset="german", hint=first.location).timings)
    return {k: float(np.median([t[k] for t in times])) for k in times[0]}


def cold_read_ms(photo: Path, threads: int, model: Path | None, repeats: int = 3) -> float:
    """Median wall time (ms) of ``tilecam read PHOTO`` as a new process."""
    cmd = [sys.executable, "-m", "tilecam.firmware.cli", "read", str(photo), "--threads", str(threads)]
    if model:
        cmd += ["--model", str(model)]
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.median(times))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tilecam bench vision")
    ap.add_argument("--real", nargs="+", default=None, metavar="DIR[=TILESET]",
                    help="labelled photo folders (default: ScrabScrap games 03-04 in ../shared)")
    ap.add_argument("--renders", type=int, default=100)
    ap.add_argument("--first-render", type=int, default=0, help="index of the first held-out seed (0: the bench's)")
    ap.add_argument("--empty", type=int, default=0, help="also read this many empty boards (held-out scenes)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--out", type=Path, default=Path("out/eval-vision"))
    args = ap.parse_args(argv)
    cv2.setNumThreads(args.threads)
    status = run_evaluation(args.renders, args.real, args.model, args.out, args.threads, args.first_render,
                            args.empty)
    if SHARED_BOARDS.is_dir():
        t0 = time.perf_counter()
        warm = warm_read_times(args.threads, args.model)
        print(f"\nwarm read (previous location reused), game03/image-20, threads {args.threads}: "
              + ", ".join(f"{k} {v:.1f} ms" for k, v in warm.items()) + f"  [{time.perf_counter() - t0:.1f} s]")
        photo = SHARED_BOARDS / "game03" / "image-20.jpg"
        print(f"cold read (tilecam read {photo.name} as a new process), threads {args.threads}: "
              f"{cold_read_ms(photo, args.threads, args.model):.0f} ms median of 3")
    return status
