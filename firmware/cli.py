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
#: The module that registers each command: a command named on the command line gets a parser of its module alone,
#: so that ``tilecam read PHOTO`` does not import every other command's (a tenth of its cold read).
COMMANDS = {
    "gcg": "tilecam.firmware.cmd_gcg",
    "read": "tilecam.firmware.cmd_vision", "eval-vision": "tilecam.firmware.cmd_vision",
    "replay": "tilecam.firmware.cmd_replay", "render-game": "tilecam.firmware.cmd_replay",
    "run": "tilecam.firmware.cmd_run",
    "calibrate": "tilecam.firmware.cmd_calibrate",
    "serve": "tilecam.firmware.cmd_web",
    "doctor": "tilecam.firmware.cmd_doctor",
    "bench": "tilecam.firmware.cmd_bench",
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or, for a ``command`` of ``COMMANDS``, the parser of that command's module alone."""
    parser = argparse.ArgumentParser(
        prog="tilecam", description="A camera over a real Scrabble board that keeps score by itself."
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in [COMMANDS[command]] if command in COMMANDS else COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv[0] if argv else None)
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
