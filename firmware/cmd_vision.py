"""``tilecam read IMAGE`` and ``tilecam eval-vision``: the vision pipeline from the command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    # the bundled tile sets, not the variants' registry: importing its rules costs a cold `tilecam read` 12 ms
    from tilecam.engine.tiles import TileSet

    p = subparsers.add_parser("read", help="read the board in a photo: 15 rows (21 with --size 21), or JSON with "
                                           "confidences")
    p.add_argument("image", type=Path)
    p.add_argument("--json", action="store_true", help="grid, per-square label and confidence, grid corners")
    p.add_argument("--tiles", choices=TileSet.bundled(), default="english",
                   help="tile set (default english)")
    p.add_argument("--model", type=Path, help="tile model (.onnx with its .json beside it); default the shipped one")
    p.add_argument("--size", type=int, choices=(15, 21), default=15,
                   help="squares a side: 15, or 21 for a Super Scrabble board (default 15)")
    p.add_argument("--rotation", type=int, default=None,
                   help="quarter turns that bring row 1 to the top (default: told from the letters)")
    p.add_argument("--loose", action="store_true",
                   help="tiles laid out anywhere, not a game's position: do not hold them to one joined group")
    p.add_argument("--lexicon", default=None, metavar="NAME|PATH|none",
                   help="word list a game's runs of tiles are words of, as a game's setting (default: the tile "
                        "set's, enable1 for English; none: not judged)")
    add_tile_height_option(p)
    p.add_argument("--threads", type=int, default=2, help="onnxruntime threads (default 2)")
    p.set_defaults(func=_read)

    e = subparsers.add_parser("eval-vision", help="accuracy and speed of the vision pipeline")
    e.add_argument("--real", nargs="+", default=None, metavar="DIR[=TILESET]",
                   help="folders of NAME.jpg + NAME.board.txt, one table column each, each with the tile set its "
                        "game is played with if known (default: ScrabScrap games 03-04 in ../shared, german)")
    e.add_argument("--tiles", default="english",
                   help="tile set of folders given without one (default english, as a new game's)")
    e.add_argument("--renders", type=int, default=0, help="also held-out synthetic boards (a regression check)")
    e.add_argument("--first-render", type=int, default=0,
                   help="start at this held-out seed's index (0: the benchmark's; another range is fresh data)")
    e.add_argument("--empty", type=int, default=0,
                   help="also read this many empty boards, in the scenes of the held-out renders' seeds")
    e.add_argument("--model", type=Path, help="tile model to evaluate (default the shipped one)")
    e.add_argument("--lexicon", default=None, metavar="NAME|PATH|none",
                   help="word list of each folder's games, as a game's setting (default: its tile set's; none)")
    e.add_argument("--positions", choices=("labels", "games", "loose"), default="labels",
                   help="read each folder's photos as games' positions unless a label is not one joined group of "
                        "tiles (labels, the default), all as games' positions (games: as `tilecam read` reads a "
                        "photo), or all as loose tiles (loose: `tilecam read --loose`)")
    add_tile_height_option(e)
    e.add_argument("--laid-out", type=Path, default=None, metavar="PHOTO",
                   help="a photo of the real folders' tile set laid out on their board (as tilecam calibrate "
                        "--laid-out takes it): every photo read with the tiles learnt from it")
    e.add_argument("--out", type=Path, default=Path("out/eval-vision"), help="folder for the confusion matrices")
    e.add_argument("--threads", type=int, default=2)
    e.set_defaults(func=_eval)


def add_tile_height_option(parser: argparse.ArgumentParser) -> None:
    """``--tile-height``: ``read_board``'s and the tracker's reader's ``tile_height`` (``vision.raised``)."""
    from tilecam.vision.raised import TILE_FACE_HEIGHT

    parser.add_argument("--tile-height", type=float, default=TILE_FACE_HEIGHT, metavar="SQUARES",
                        help="read which tile lies on a square from the plane of the tiles' faces, this far above the "
                             f"board (default {TILE_FACE_HEIGHT}: real tiles' thickness, which a camera low over the "
                             "board's edge sees; 0: everything read on the board's plane)")


def _read(args: argparse.Namespace) -> int:
    import cv2

    from tilecam.core.lexicons import lexicon_for
    from tilecam.vision.classify import ModelError, TileClassifier
    from tilecam.vision.locate import BoardNotFound
    from tilecam.vision.read import read_board

    image = cv2.imread(str(args.image)) if args.image.is_file() else None
    if image is None:
        print(f"tilecam read: cannot read an image from {args.image}", file=sys.stderr)
        return 2
    try:
        classifier = TileClassifier.load(args.model, threads=args.threads)
        lexicon = None if args.loose else lexicon_for(args.tiles, args.lexicon)
        reading = read_board(image, classifier, tileset=args.tiles, rotation=args.rotation, size=args.size,
                             settled=not args.loose, lexicon=lexicon, tile_height=args.tile_height)
    except BoardNotFound as exc:
        print(f"tilecam read: no board found in {args.image}: {exc}", file=sys.stderr)
        return 1
    except (ModelError, ValueError) as exc:       # ValueError: a lexicon setting that names no word list
        print(f"tilecam read: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(reading.to_json(), ensure_ascii=False))
    else:
        print("\n".join(reading.grid))
    return 0


def _eval(args: argparse.Namespace) -> int:
    from tilecam.models.eval_vision import run_evaluation

    return run_evaluation(renders=args.renders, real_dirs=args.real, model=args.model, out_dir=args.out,
                          threads=args.threads, first_render=args.first_render, empty=args.empty,
                          tileset=args.tiles, lexicon=args.lexicon, positions=args.positions,
                          tile_height=args.tile_height, laid_out=args.laid_out)
