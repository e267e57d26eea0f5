"""Benchmark of the synthetic renderer: milliseconds per frame, and how well the board locator finds rendered boards.

    python -m tilecam.models.synth_bench [--frames 30] [--boards 40]

Prints a table (for docs/BENCHMARKS.md). "fixed scene" is the video case (one ``Scene``, many grids: table, camera
maps and light maps are cached); "new scene" is the training case (every render draws its own scene).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tilecam.models import synth


def _time_renders(frames: int) -> list[tuple[str, float]]:
    rng = np.random.default_rng(0)
    scene = synth.sample_scene(rng)
    full = list(synth.random_grid(np.random.default_rng(1), tiles=100))
    arm = [(3.0, 17.0), (6.0, 8.0), (8.0, 8.0), (9.0, 17.0)]
    synth.render_board(full, seed=1, scene=scene)          # warm the caches once
    rows = []
    for name, kwargs in (("fixed scene, 100 tiles", dict(scene=scene)),
                         ("fixed scene, 100 tiles, arm", dict(scene=scene, hand=arm))):
        t = time.perf_counter()
        for _ in range(frames):
            synth.render_board(full, seed=1, **kwargs)
        rows.append((name, (time.perf_counter() - t) / frames * 1000))
    t = time.perf_counter()
    for s in range(frames):
        synth.render_board(None, seed=10_000 + s)
    rows.append(("new scene, random position", (time.perf_counter() - t) / frames * 1000))
    return rows


def _locate(boards: int) -> list[tuple[str, int, int, int, float]]:
    from tilecam.vision.locate import locate_board

    out = []
    for name, seeds, styles in (("train styles", synth.TRAIN_SEEDS[2000:2000 + boards], synth.TRAIN_STYLES),
                                ("held-out styles", synth.HELDOUT_SEEDS[:boards], synth.HELDOUT_STYLES)):
        errs = []
        for s in seeds:
            r = synth.render_board(None, seed=int(s), styles=styles)
            try:
                c = np.asarray(locate_board(r.image).corners, np.float32)
            except Exception:  # noqa: BLE001 - a miss is a result here
                errs.append(np.inf)
                continue
            # the locator may start at another corner (orientation is decided later): best of the 4 turns
            errs.append(min(float(np.abs(np.roll(c, k, 0) - r.corners).max()) for k in range(4)))
        e = np.array(errs)
        found = e[np.isfinite(e)]
        out.append((name, len(e), int(np.isfinite(e).sum()), int((e < 5).sum()),
                    float(np.median(found)) if len(found) else float("nan")))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tilecam bench synth", description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=30, help="frames timed per row")
    ap.add_argument("--boards", type=int, default=40, help="renders per style pool for the locator check")
    args = ap.parse_args(argv)
    print("| render (960x720) | ms/frame |")
    print("|---|---:|")
    for name, ms in _time_renders(args.frames):
        print(f"| {name} | {ms:.1f} |")
    if args.boards:
        print()
        print("| locate_board on renders | boards | found | max corner error < 5 px | median max corner error (px) |")
        print("|---|---:|---:|---:|---:|")
        for name, n, found, good, med in _locate(args.boards):
            print(f"| {name} | {n} | {found} | {good} | {med:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
