"""``tilecam bench vision``: the figures of ``tilecam eval-vision`` plus the warm (fixed camera) read time."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np

from tilecam.vision.evaluate import SHARED_BOARDS, run_evaluation


def warm_read_times(threads: int, model: Path | None, repeats: int = 30) -> dict[str, float]:
    """Median ms per stage when the last location is reused (the daemon's case: a fixed camera)."""
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.read import read_board

    photo = SHARED_BOARDS / "game03" / "image-20.jpg"
    image = cv2.imread(str(photo))
    classifier = TileClassifier.load(model, threads=threads)
    first = read_board(image, classifier, tileset="german")
    times = []
    for _ in range(repeats):
        times.append(read_board(image, classifier, tileset="german", hint=first.location).timings)
    return {k: float(np.median([t[k] for t in times])) for k in times[0]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tilecam bench vision")
    ap.add_argument("--renders", type=int, default=100)
    ap.add_argument("--first-render", type=int, default=0, help="index of the first held-out seed (0: the bench's)")
    ap.add_argument("--empty", type=int, default=0, help="also read this many empty boards (held-out scenes)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--model", type=Path)
    ap.add_argument("--out", type=Path, default=Path("out/eval-vision"))
    args = ap.parse_args(argv)
    cv2.setNumThreads(args.threads)
    status = run_evaluation(args.renders, None, args.model, args.out, args.threads, args.first_render,
                            args.empty)
    if SHARED_BOARDS.is_dir():
        t0 = time.perf_counter()
        warm = warm_read_times(args.threads, args.model)
        print(f"\nwarm read (previous location reused), game03/image-20, threads {args.threads}: "
              + ", ".join(f"{k} {v:.1f} ms" for k, v in warm.items()) + f"  [{time.perf_counter() - t0:.1f} s]")
    return status
