"""Tile-model figures on data it was never trained on, with the TRUE grid corners (no localisation error).

    python -m tilecam.models.evaluate [MODEL.onnx ...] [--renders 40] [--real-dir DIR]

For each model: held-out synthetic renders (``synth.HELDOUT_STYLES`` x ``synth.HELDOUT_SEEDS``) and the real
ScrabScrap photos of games 03–04 (``dataset.EVAL_GAMES``): per-cell error, error on tile squares, boards read fully
right, and onnxruntime time for one board (225 crops, one thread). Runtime-only (onnxruntime, no torch), read by
``tilecam.vision.classify`` with the preprocessing the model's ``.json`` describes. The whole read through
``tilecam.vision`` (localisation included) is measured by ``tilecam eval-vision`` / ``tilecam bench vision``; this
is the model alone, so the two can be told apart.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from tilecam.models.dataset import (CLASS_INDEX, EVAL_GAMES, SHARED_BOARDS, label_of, real_photos,
                                    scrabscrap_grid_corners)
from tilecam.vision.classify import TileClassifier
from tilecam.vision.warp import CROP_PX, cut_cells, warp_board

HERE = Path(__file__).resolve().parent


def _score(model: TileClassifier, boards) -> dict:
    """boards: iterable of (image, corners, truth label indices[225], squares where ``#`` is also right) → error
    figures."""
    cells = wrong = tiles = tiles_wrong = boards_n = boards_right = 0
    occluded = CLASS_INDEX["#"]
    for image, corners, truth, unsure_ok in boards:
        pred = model.classify(cut_cells(warp_board(image, corners)))[1].argmax(1)
        bad = (pred != truth) & ~(unsure_ok & (pred == occluded))
        cells += truth.size
        wrong += int(bad.sum())
        on_tile = truth != CLASS_INDEX["."]
        tiles += int(on_tile.sum())
        tiles_wrong += int((bad & on_tile).sum())
        boards_n += 1
        boards_right += int(not bad.any())
    return dict(boards=boards_n, cell_error=wrong / max(cells, 1), tile_error=tiles_wrong / max(tiles, 1),
                boards_right=boards_right / max(boards_n, 1), wrong_cells=wrong)


def heldout_renders(n: int):
    """(image, true corners, truth, ``#`` also right) of ``n`` held-out renders: squares under the arm are ``#``,
    and on squares it only touches ``#`` is right as well as their content."""
    from tilecam.models import synth

    for i, seed in enumerate(synth.HELDOUT_SEEDS[:n]):
        tileset = "german" if i % 3 == 2 else "english"
        r = synth.render_board(None, seed=int(seed), styles=synth.HELDOUT_STYLES, tileset=tileset)
        truth = np.array([CLASS_INDEX[label_of(ch)] for row in r.grid for ch in row], np.int64)
        truth[np.asarray(r.occluded).reshape(-1)] = CLASS_INDEX["#"]
        yield r.image, r.corners, truth, np.asarray(r.touched).reshape(-1)


def real_eval(root: Path):
    corners = scrabscrap_grid_corners()
    for photo, rows in real_photos(root, EVAL_GAMES):
        truth = np.array([CLASS_INDEX[label_of(ch)] for row in rows for ch in row], np.int64)
        yield cv2.imread(str(photo)), corners, truth, np.zeros(truth.size, bool)


def board_ms(model: TileClassifier, repeats: int = 30) -> float:
    """Median time for one board (225 crops and their references), preprocessing included."""
    crops = np.random.default_rng(0).integers(0, 256, (225, CROP_PX, CROP_PX, 3), dtype=np.uint8)
    model.classify(crops)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        model.classify(crops)
        times.append(time.perf_counter() - t)
    return 1000 * float(np.median(times))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tilecam.models.evaluate", description=__doc__.split("\n\n")[0])
    ap.add_argument("models", nargs="*", type=Path, default=[HERE / "tiles.onnx"])
    ap.add_argument("--renders", type=int, default=40, help="held-out renders to read (0: none)")
    ap.add_argument("--real-dir", type=Path, default=SHARED_BOARDS)
    args = ap.parse_args(argv)
    print("| model | data | boards | cell error | tile-square error | boards fully right | ms/board (1 thread) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for path in args.models:
        if not path.is_file() or not path.with_suffix(".json").is_file():
            print(f"error: {path} (and its .json) not found", file=sys.stderr)
            return 2
        model = TileClassifier.load(path, threads=1)
        ms = board_ms(model)
        sets = []
        if args.renders > 0:
            sets.append(("held-out renders", heldout_renders(args.renders)))
        if args.real_dir.is_dir():
            sets.append(("real game03-04", real_eval(args.real_dir)))
        for name, boards in sets:
            s = _score(model, boards)
            print(f"| {path.name} | {name} | {s['boards']} | {100 * s['cell_error']:.3f}% "
                  f"({s['wrong_cells']}) | {100 * s['tile_error']:.2f}% | {100 * s['boards_right']:.1f}% "
                  f"| {ms:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
