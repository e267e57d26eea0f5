"""``tilecam run``: the scorekeeper — camera → vision → moves → engine → store, and the web scoreboard.

With no camera it plays the bundled demo game through the whole pipeline, so a newcomer sees a game being scored.
Settings come from the config file (see firmware/config.py); flags override them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    from tilecam.engine.variants import tilesets, variants

    p = subparsers.add_parser("run", help="keep score from the camera and serve the scoreboard (demo without one)")
    p.add_argument("--source", default=None,
                   help="auto (default: Pi camera, else webcam, else the demo) | picamera | webcam[:N] | demo | "
                        "PATH to a video, a folder of frames or a .zip of frames")
    p.add_argument("--config", type=Path, default=None,
                   help="TOML config file (default: $TILECAM_CONFIG, /etc/tilecam/config.toml, the user config)")
    p.add_argument("--data-dir", type=Path, default=None, help="folder of the game store (default: user data dir)")
    p.add_argument("--port", type=int, default=None, help="web port (default 8000)")
    p.add_argument("--host", default=None, help="web address to listen on (default 0.0.0.0: all)")
    p.add_argument("--no-web", action="store_true", help="do not serve the scoreboard")
    p.add_argument("--players", default=None, help="names for a new game, comma-separated (default from config)")
    p.add_argument("--fast", action="store_true", help="play recordings as fast as they can be read")
    p.add_argument("--stills", action="store_true",
                   help="every frame is a settled photo, one per turn (e.g. a folder of a clock-button rig's photos)")
    p.add_argument("--variant", choices=[v.name for v in variants()], default=None,
                   help="rules of a new game (the engine's registry; default from config: tournament)")
    p.add_argument("--tiles", choices=[t.name for t in tilesets()], default=None, help="tile set of a new game")
    p.add_argument("--tracker", default=None, metavar="MODULE:CALLABLE",
                   help="a move tracker other than tilecam.vision.tracker (called with board rows and tile set)")
    p.add_argument("--max-seconds", type=float, default=None, help="stop after this many seconds")
    p.add_argument("--max-frames", type=int, default=None, help="stop after this many frames")
    p.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    p.set_defaults(func=run)


def build_config(args: argparse.Namespace):
    """The config file's settings with the flags laid over them."""
    from tilecam.firmware.config import load_config

    config = load_config(args.config)
    if args.data_dir is not None:
        config = config.replace(data_dir=str(args.data_dir))
    if args.source is not None:
        config = config.replace("camera", source=args.source)
    if args.fast:
        config = config.replace("camera", realtime=False)
    if args.stills:
        config = config.replace("camera", stills=True)
    if args.variant:  # the variant's own board and tile set come with it (Super Scrabble: 21x21, 200 tiles)
        from tilecam.engine.variants import rules_for

        rules = rules_for(args.variant, args.tiles)
        config = config.replace("game", variant=args.variant, tileset=rules.tileset, layout=rules.layout)
    if args.tiles:
        config = config.replace("game", tileset=args.tiles)
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise ValueError(f"--port must be 0..65535, not {args.port}")
        config = config.replace("web", port=args.port)
    if args.host is not None:
        config = config.replace("web", host=args.host)
    if args.no_web:
        config = config.replace("web", enabled=False)
    if args.players:
        names = tuple(n.strip() for n in args.players.split(",") if n.strip())
        config = config.replace("game", players=names)
    if args.tracker:
        config = config.replace("tracker", factory=args.tracker)
    return config


def run(args: argparse.Namespace) -> int:
    from tilecam.firmware.config import ConfigError
    from tilecam.firmware.daemon import Daemon, StartupError
    from tilecam.core.service import CommandRefused
    from tilecam.firmware.sources import BadSourceSpec, SourceError
    from tilecam.core.store import StoreError

    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(levelname)s: %(message)s")
    try:
        config = build_config(args)
        daemon = Daemon(config, say=lambda line: print(line, flush=True))
        return daemon.run(max_seconds=args.max_seconds, max_frames=args.max_frames)
    except (ConfigError, BadSourceSpec, SourceError, StoreError, StartupError, CommandRefused, ValueError) as exc:
        print(f"tilecam run: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (ConfigError, BadSourceSpec)) else 1
