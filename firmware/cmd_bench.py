"""``tilecam bench AREA``: the project's benchmarks, each printing a table for docs/BENCHMARKS.md."""

from __future__ import annotations

import argparse
import importlib

# area -> module whose ``main(argv) -> int`` runs that benchmark.
BENCHES = {
    "engine": "tilecam.engine.bench",
    "vision": "tilecam.models.bench_vision",
    "moves": "tilecam.firmware.bench_moves",
    "device": "tilecam.firmware.bench",
    "web": "tilecam.web.bench",
    "synth": "tilecam.models.synth_bench",
    "adapt": "tilecam.models.bench_adapt",
    "stills": "tilecam.firmware.bench_stills",
    "super": "tilecam.models.bench_super",
    "crops": "tilecam.models.bench_crops",
    "tilesets": "tilecam.models.bench_tilesets",
    "small": "tilecam.models.bench_small",
}


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="run a benchmark and print its table")
    p.add_argument("area", choices=sorted(BENCHES))
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options passed to that benchmark")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    module = importlib.import_module(BENCHES[args.area])
    return int(module.main(args.rest) or 0)
