"""``tilecam bench engine``: how fast the engine scores and replays, and what ENABLE costs to compile and load.

Prints a Markdown table for docs/BENCHMARKS.md. Uses the GCG records in ``../shared/data/gcg`` (``--gcg-dir``).
"""

from __future__ import annotations

import argparse
import glob
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .board import Board
from .gcg import read_gcg
from .lexicon import DEFAULT_PATH, Lexicon
from .move import Placement
from .rules import Rules
from .scoring import score

DEFAULT_GCG_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "gcg"

_RSS_SCRIPT = """
import sys
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'):
            return int(line.split()[1])
from tilecam.engine.lexicon import Lexicon
before = rss()
lex = Lexicon.load()
assert 'QUANT' in lex
print(rss() - before, rss())
"""


def _timed(fn, min_seconds: float) -> tuple[int, float]:
    """Run ``fn`` until ``min_seconds`` have passed; returns (runs, seconds)."""
    runs, start = 0, time.perf_counter()
    while True:
        fn()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return runs, elapsed


def collect_plays(texts: list[str]) -> list[tuple[Board, Placement]]:
    """Every play of the records as (board before it, placement), for timing the scorer alone."""
    plays: list[tuple[Board, Placement]] = []
    for text in texts:
        game = read_gcg(text)

        def keep(i, events, board_before, game=game):
            if game.events[i].kind == "play" and events:
                plays.append((board_before, events[0].placement))

        game.replay(on_event=keep)
    return plays


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tilecam bench engine", description=__doc__)
    parser.add_argument("--gcg-dir", type=Path, default=DEFAULT_GCG_DIR)
    parser.add_argument("--seconds", type=float, default=2.0, help="minimum time per measurement")
    args = parser.parse_args(argv)
    files = sorted(glob.glob(str(args.gcg_dir / "*.gcg")))
    if not files:
        print(f"no GCG files in {args.gcg_dir}; pass --gcg-dir", file=sys.stderr)
        return 2
    texts = [Path(f).read_bytes().decode("utf-8", errors="replace") for f in files]
    rules = Rules()
    print(f"collecting plays from {len(files)} GCG files …", file=sys.stderr)
    plays = collect_plays(texts)

    def score_all() -> None:
        for board, placement in plays:
            score(board, placement, rules)

    runs, secs = _timed(score_all, args.seconds)
    moves_per_s = runs * len(plays) / secs

    def replay_all() -> None:
        for text in texts:
            read_gcg(text).replay(rules)

    cpu_start = time.process_time()
    runs, secs = _timed(replay_all, args.seconds)
    games_per_s = runs * len(texts) / secs
    games_per_cpu_s = runs * len(texts) / (time.process_time() - cpu_start)  # what other jobs' load leaves out

    def verify_all() -> None:
        for text in texts:
            read_gcg(text).verify(rules)

    cpu_start = time.process_time()
    runs, secs = _timed(verify_all, args.seconds)
    verified_per_s = runs * len(texts) / secs
    verified_per_cpu_s = runs * len(texts) / (time.process_time() - cpu_start)

    print("compiling ENABLE …", file=sys.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "enable1.txt"
        source.write_bytes(DEFAULT_PATH.read_bytes())
        start = time.perf_counter()
        Lexicon.load(source, cache=False)
        compile_s = time.perf_counter() - start
        Lexicon.load(source)  # writes the cache beside the copy
        loads, secs = _timed(lambda: Lexicon.load(source), args.seconds / 2)
        load_s = secs / loads
        lex = Lexicon.load(source)
    words = ["QUANT", "OIDIOID", "ZZZ", "AA", "QI", "RETAINS", "XYZZY", "JOBS"] * 1000
    runs, secs = _timed(lambda: [w in lex for w in words], args.seconds / 2)
    lookups_per_s = runs * len(words) / secs
    Lexicon.load()  # make sure the bundled list's cache exists before the memory probe
    env = dict(os.environ)
    probe = subprocess.run([sys.executable, "-c", _RSS_SCRIPT], capture_output=True, text=True, env=env, check=False)
    rss_delta_kb, rss_total_kb = (int(x) for x in probe.stdout.split()) if probe.returncode == 0 else (-1, -1)

    print(f"\nEngine benchmark ({platform.python_implementation()} {platform.python_version()}, "
          f"{platform.machine()}, {len(files)} GCG files, {len(plays)} plays)\n")
    print("| measure | value |")
    print("| --- | --- |")
    print(f"| moves scored per second (legality + all words + bingo) | {moves_per_s:,.0f} |")
    print(f"| GCG games read + replayed per second | {games_per_s:,.1f} |")
    print(f"| GCG games read + replayed per CPU second (this process's CPU time) | {games_per_cpu_s:,.1f} |")
    print(f"| GCG games read + verified per second (every score and total checked) | {verified_per_s:,.1f} |")
    print(f"| GCG games read + verified per CPU second (this process's CPU time) | {verified_per_cpu_s:,.1f} |")
    print(f"| ENABLE compile (decode, check, sort; {len(lex):,} words) | {compile_s * 1000:,.0f} ms |")
    print(f"| ENABLE load from the compiled cache | {load_s * 1000:,.1f} ms |")
    print(f"| ENABLE lookups per second (`word in lex`) | {lookups_per_s:,.0f} |")
    print(f"| ENABLE memory: RSS added by loading (process total) | {rss_delta_kb / 1024:,.1f} MiB "
          f"({rss_total_kb / 1024:,.1f} MiB) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
