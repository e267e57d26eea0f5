"""``tilecam calibrate``: a photo of the empty board becomes the board's profile (each square's bare look); a photo
of the tile set laid out teaches the reader the user's tiles.

    tilecam calibrate [PHOTO] [--source …] [--data-dir DIR] [--config FILE] [--size 21]
    tilecam calibrate --laid-out PHOTO [--tiles SET] [--data-dir DIR] [--config FILE] [--size 21]

With PHOTO, that photo; without, one frame from the camera the config names. The profile is written to the data
folder (``board-profile.npz``); the reader of ``tilecam run`` judges tiles against it from then on. With
``--laid-out``, the photo shows one tile of each letter of the set laid on the board in the set's order, the blank
last, row after row from the top left (``vision.laidout``): the looks of the user's tiles are written to the data
folder (``tile-looks.npz``) and ``tilecam run`` reads with them.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("calibrate", help="record the empty board: each square's bare look, for the reader")
    p.add_argument("photo", type=Path, nargs="?", help="a photo of the empty board (default: one camera frame)")
    p.add_argument("--source", default=None, help="camera source when no photo is given (as tilecam run)")
    p.add_argument("--config", type=Path, default=None)
    p.add_argument("--data-dir", type=Path, default=None, help="where the profile goes (default: the config's)")
    p.add_argument("--size", type=int, choices=(15, 21), default=15,
                   help="squares a side: 15, or 21 for a Super Scrabble board (default 15)")
    p.add_argument("--laid-out", type=Path, default=None, metavar="PHOTO",
                   help="a photo of one tile of each letter laid on the board in the set's order, the blank last, "
                        "row after row from the top left: the reader learns the user's tiles from it")
    p.add_argument("--tiles", default="english", help="the tile set laid out (default english)")
    p.add_argument("--model", type=Path, default=None, help="tile model (default: the shipped one)")
    p.set_defaults(func=_calibrate)


def _frame(args: argparse.Namespace, config):
    import cv2

    if args.photo is not None:
        image = cv2.imread(str(args.photo)) if args.photo.is_file() else None
        if image is None:
            raise ValueError(f"cannot read an image from {args.photo}")
        return image
    from tilecam.firmware.sources import open_source_spec

    source = open_source_spec(args.source or config.camera.source).source
    source.open()
    try:
        return source.read().full()
    finally:
        source.close()


def _calibrate(args: argparse.Namespace) -> int:
    from tilecam.firmware.config import load_config
    from tilecam.vision.profile import calibrate, save_profile

    config = load_config(args.config)
    from tilecam.core.store import default_path

    folder = Path(args.data_dir or config.data_dir or default_path().parent)
    if args.laid_out is not None:
        return _learn_laid_out(args, folder)
    profile, refused = _attempt(lambda: calibrate(_frame(args, config), args.size))
    if refused:
        return refused
    path = save_profile(profile, folder)
    print(f"tilecam calibrate: the empty {profile.size}x{profile.size} board's {len(profile.references)} squares "
          f"recorded in {path}")
    return 0


def _learn_laid_out(args: argparse.Namespace, folder: Path) -> int:
    from tilecam.vision.classify import TileClassifier
    from tilecam.vision.laidout import learn_laid_out_photo, order_of, save_tile_looks

    looks, refused = _attempt(lambda: learn_laid_out_photo(args.laid_out, TileClassifier.load(args.model, threads=2),
                                                           args.tiles, args.size),
                              f"{args.laid_out} is not the {args.tiles} set laid out: ")
    if refused:
        return refused
    path = save_tile_looks(looks, folder)
    print(f"tilecam calibrate: {looks.tiles} tiles learnt ({' '.join(order_of(args.tiles))}) in {path}")
    return 0


def _attempt(step, not_it: str = ""):
    """``(step(), 0)``, or ``(None, exit code)`` once the reason is said: 1 where the photo shows no board or not
    what was asked (``not_it`` leads that message), 2 where it cannot be read or used."""
    from tilecam.vision.laidout import LayoutError
    from tilecam.vision.locate import BoardNotFound

    try:
        return step(), 0
    except BoardNotFound as exc:
        print(f"tilecam calibrate: no board found: {exc}", file=sys.stderr)
        return None, 1
    except LayoutError as exc:          # a ValueError too: asked first
        print(f"tilecam calibrate: {not_it}{exc}", file=sys.stderr)
        return None, 1
    except (ValueError, OSError) as exc:
        print(f"tilecam calibrate: {exc}", file=sys.stderr)
        return None, 2
