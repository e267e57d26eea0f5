"""The ``tilecam`` command line: one dispatcher, one small module per command group.

Each command module exposes ``register(subparsers)``, which adds its parser(s) and sets ``func`` (called with the
parsed arguments, returning the exit status). Command modules keep heavy imports (numpy, cv2, onnxruntime, flask)
inside their functions so that ``tilecam gcg verify`` starts as fast as the engine allows.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# Command modules, in the order their commands appear in ``tilecam --help``.
COMMAND_MODULES = [
    "tilecam.firmware.cmd_gcg",      # gcg rescore / gcg verify            (engine)
    "tilecam.firmware.cmd_vision",   # read / eval-vision / train          (vision)
    "tilecam.firmware.cmd_replay",   # replay / render-game                (move inference)
    "tilecam.firmware.cmd_run",      # run                                 (device)
    "tilecam.firmware.cmd_calibrate",  # calibrate                         (device)
    "tilecam.firmware.cmd_web",      # serve                               (web)
    "tilecam.firmware.cmd_doctor",   # doctor                              (deploy)
    "tilecam.firmware.cmd_bench",    # bench engine|vision|moves|device|web
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tilecam", description="A camera over a real Scrabble board that keeps score by itself."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
