"""``tilecam bench vision``: the figures of ``tilecam eval-vision`` plus the read's speed.

Warm: a fixed camera, the last location reused (the daemon's case), median of repeated reads in this process.
Cold: ``tilecam read PHOTO`` as a whole new process (start-up, model load, locating, telling the turn, reading),
median wall time of a few runs. Needs no dev extra (the confusion matrices are skipped without matplotlib).

``--scrabscrap-v2 SRC`` (ScrabScrap v2's ``python/src``, run with ``--scrabscrap-python``, its own venv) also times
its reader, ``processing._image_processing``, through our driver ``scrabscrap_timing.py`` on the same frames
(ScrabScrap's 107 labelled photos) and prints both side by side: warm (median per frame, one process, after one
warm-up read; tilecam reusing the previous frame's location within a game) and cold (a new process reading
game03/image-20, median of 3)."""

from __future__ import annotations

import argparse
import json
import os
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
    return cold_read_times(photo, threads, model, repeats)[0]


def cold_read_times(photo: Path, threads: int, model: Path | None, repeats: int = 3) -> tuple[float, float]:
    """Median wall time and median CPU time (ms, user + system) of ``tilecam read PHOTO`` as a new process."""
    cmd = [sys.executable, "-m", "tilecam.firmware.cli", "read", str(photo), "--threads", str(threads)]
    if model:
        cmd += ["--model", str(model)]
    return process_times_ms(cmd, repeats, "tilecam read")


def process_times_ms(cmd: list[str], repeats: int, what: str) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system of the child) in ms of ``cmd`` run ``repeats`` times."""
    import resource

    walls, cpus = [], []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True)
        walls.append((time.perf_counter() - t0) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
        if out.returncode != 0:
            raise RuntimeError(f"{what} failed ({out.returncode}): {out.stderr.strip()[-800:]}")
    return float(np.median(walls)), float(np.median(cpus))


def warm_read_frames_ms(frames: list[Path], threads: int, model: Path | None) -> dict:
    """tilecam's whole-board read of each frame once, in this process, after one warm-up read of the first; the
    previous frame's location is offered as the hint within a game's folder (the daemon's case), not across games.
    Image decoding is not timed."""
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.read import read_board

    classifier = TileClassifier.load(model, threads=threads)
    images = [cv2.imread(str(f)) for f in frames]
    read_board(images[0], classifier, tileset="german")
    times, cpu, failed, hint, folder = [], [], [], None, None
    for frame, image in zip(frames, images):
        if frame.parent != folder:
            hint, folder = None, frame.parent
        c0, t0 = time.process_time(), time.perf_counter()
        try:
            reading = read_board(image, classifier, tileset="german", hint=hint)
        except Exception:                                   # a frame it cannot read is counted, not timed
            failed.append(str(frame))
            hint = None
            continue
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        hint = reading.location
    nan = float("nan")
    return {"frames": len(frames), "failed": failed, "median_ms": float(np.median(times)) if times else nan,
            "median_cpu_ms": float(np.median(cpu)) if cpu else nan}


SCRABSCRAP_DRIVER = Path(__file__).with_name("scrabscrap_timing.py")


def scrabscrap_warm(python: str, src: Path, frames: list[Path], ini: Path | None = None) -> dict:
    """ScrabScrap v2's ``_image_processing`` per frame in one process of ``python``: the driver's JSON."""
    cmd = [python, str(SCRABSCRAP_DRIVER), "--src", str(src)] + (["--ini", str(ini)] if ini else [])
    out = subprocess.run(cmd + ["warm", *map(str, frames)], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"ScrabScrap v2 warm timing failed ({out.returncode}): {out.stderr.strip()[-800:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def scrabscrap_cold_times(python: str, src: Path, photo: Path, ini: Path | None = None,
                          repeats: int = 3) -> tuple[float, float]:
    """Median wall and CPU time (ms) of a new ``python`` process that imports ScrabScrap v2 and reads ``photo``."""
    cmd = [python, str(SCRABSCRAP_DRIVER), "--src", str(src)] + (["--ini", str(ini)] if ini else [])
    return process_times_ms(cmd + ["once", str(photo)], repeats, "ScrabScrap v2 cold read")


def scrabscrap_table(tilecam_warm: float, scrabscrap_warm: float, tilecam_cold: float, scrabscrap_cold: float,
                     frames: int, photo: str, threads: int,
                     cpu: tuple[float, float, float, float] | None = None) -> str:
    """The side-by-side table; the ratio is ScrabScrap v2's time over tilecam's (above 1: tilecam is faster).
    ``cpu``: the same four as CPU time (user + system, all threads), printed under the wall times."""
    warm = f"warm whole-board read, median of {frames} frames"
    cold = f"cold read of {photo} as a new process, median of 3"
    rows = [(warm, tilecam_warm, scrabscrap_warm), (cold, tilecam_cold, scrabscrap_cold)]
    if cpu is not None:
        rows = [(f"{warm}: wall", tilecam_warm, scrabscrap_warm), (f"{warm}: CPU", cpu[0], cpu[1]),
                (f"{cold}: wall", tilecam_cold, scrabscrap_cold), (f"{cold}: CPU", cpu[2], cpu[3])]
    width = max(len(r[0]) for r in rows)
    lines = [f"{'':{width}}  {'tilecam':>9}  {'ScrabScrap v2':>13}  {'v2 / tilecam':>12}"]
    for name, ours, theirs in rows:
        lines.append(f"{name:{width}}  {ours:>6.0f} ms  {theirs:>10.0f} ms  {theirs / ours:>11.2f}x")
    cores = os.cpu_count()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    lines.append(f"(tilecam threads {threads}; this machine: {cores} cores, load average {load})")
    return "\n".join(lines)


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
    ap.add_argument("--scrabscrap-v2", type=Path, metavar="SRC",
                    help="also time ScrabScrap v2's reader: its checkout's python/src folder (not part of tilecam)")
    ap.add_argument("--scrabscrap-python", default=sys.executable, metavar="PYTHON",
                    help="the interpreter with ScrabScrap v2's packages (numpy, opencv-python, imutils)")
    ap.add_argument("--scrabscrap-ini", type=Path, default=None,
                    help="its configuration (default: its defaults/scrabble.ini)")
    ap.add_argument("--scrabscrap-frames", type=Path, default=SHARED_BOARDS, metavar="DIR",
                    help="the photos both readers time (default: ScrabScrap's labelled games in ../shared)")
    args = ap.parse_args(argv)
    if args.scrabscrap_v2 is not None and not (args.scrabscrap_v2 / "processing.py").is_file():
        ap.error(f"--scrabscrap-v2 {args.scrabscrap_v2}: no processing.py there (give its python/src folder)")
    cv2.setNumThreads(args.threads)
    status = run_evaluation(args.renders, args.real, args.model, args.out, args.threads, args.first_render,
                            args.empty)
    if SHARED_BOARDS.is_dir():
        t0 = time.perf_counter()
        warm = warm_read_times(args.threads, args.model)
        print(f"\nwarm read (previous location reused), game03/image-20, threads {args.threads}: "
              + ", ".join(f"{k} {v:.1f} ms" for k, v in warm.items()) + f"  [{time.perf_counter() - t0:.1f} s]")
        photo = SHARED_BOARDS / "game03" / "image-20.jpg"
        cold, cold_cpu = cold_read_times(photo, args.threads, args.model)
        print(f"cold read (tilecam read {photo.name} as a new process), threads {args.threads}: "
              f"{cold:.0f} ms median of 3")
        if args.scrabscrap_v2 is not None:
            status = max(status, scrabscrap_side_by_side(args, photo, cold, cold_cpu))
    elif args.scrabscrap_v2 is not None:
        print(f"\nScrabScrap v2 side by side skipped: no photos at {SHARED_BOARDS}")
    return status


def scrabscrap_side_by_side(args: argparse.Namespace, photo: Path, tilecam_cold: float, tilecam_cold_cpu: float) -> int:
    """Both readers on the same frames, one after the other in this run; prints the table."""
    from tilecam.models.scrabscrap_timing import frames_of

    frames = frames_of([args.scrabscrap_frames])
    if not frames:
        print(f"\nScrabScrap v2 side by side skipped: no image-*.jpg under {args.scrabscrap_frames}")
        return 1
    t0 = time.perf_counter()
    ours = warm_read_frames_ms(frames, args.threads, args.model)
    theirs = scrabscrap_warm(args.scrabscrap_python, args.scrabscrap_v2, frames, args.scrabscrap_ini)
    their_cold, their_cold_cpu = scrabscrap_cold_times(args.scrabscrap_python, args.scrabscrap_v2, photo,
                                                       args.scrabscrap_ini)
    print(f"\nspeed beside ScrabScrap v2 (processing._image_processing from {args.scrabscrap_v2}, "
          f"{args.scrabscrap_python})  [{time.perf_counter() - t0:.1f} s]")
    print(scrabscrap_table(ours["median_ms"], theirs["median_ms"], tilecam_cold, their_cold, len(frames),
                           f"{photo.parent.name}/{photo.name}", args.threads,
                           (ours["median_cpu_ms"], theirs["median_cpu_ms"], tilecam_cold_cpu, their_cold_cpu)))
    for who, result in (("tilecam", ours), ("ScrabScrap v2", theirs)):
        if result["failed"]:
            print(f"{who} could not read {len(result['failed'])} frame(s), left out of its median: "
                  + ", ".join(result["failed"][:5]))
    return 0
