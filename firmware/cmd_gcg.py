"""``tilecam gcg rescore FILE`` and ``tilecam gcg verify FILE…``: GCG game records checked against the engine.

``rescore`` recomputes every score and cumulative total from the placements alone and prints the game as GCG.
``verify`` says per file whether every recorded score and total matches, and exits 1 on any mismatch (2 when a
file cannot be read at all). The rules are the ones the record's pragmas name (``#tile-distribution``,
``#board-layout``, ``#game-type``), else German tiles when the record uses Ä/Ö/Ü (``--tiles`` overrides).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("gcg", help="rescore or verify GCG game records")
    sub = p.add_subparsers(dest="gcg_command", metavar="ACTION", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--tiles", default="auto",
                        help="tile set: auto (the record's #tile-distribution, else German when it uses Ä/Ö/Ü), "
                             "a bundled set's name, or a .tsv path")
    common.add_argument("--orientation", choices=["standard", "lettered-rows"], default=None,
                        help="coordinate notation (default: the file's #orientation pragma, else standard)")
    common.add_argument("--end-scoring", choices=["tournament", "casual"], default="tournament",
                        help="end-of-game rack rule (default tournament: twice the opponent's rack)")
    rescore = sub.add_parser("rescore", parents=[common], help="recompute every score and print the game as GCG")
    rescore.add_argument("file", type=Path)
    rescore.set_defaults(func=_rescore)
    verify = sub.add_parser("verify", parents=[common], help="check every recorded score and total")
    verify.add_argument("files", type=Path, nargs="+", help="GCG files, or folders (every .gcg file in them)")
    verify.add_argument("-q", "--quiet", action="store_true", help="print only files that do not match")
    verify.set_defaults(func=_verify)


def _load(path: Path, args: argparse.Namespace):
    from tilecam.engine.gcg import load_gcg

    game = load_gcg(path, orientation=args.orientation)
    if args.tiles == "auto":  # the record's #tile-distribution, #board-layout and #game-type, else a guess
        return game, game.rules(end_scoring=args.end_scoring)
    return game, game.rules(tileset=args.tiles, end_scoring=args.end_scoring)


def _rescore(args: argparse.Namespace) -> int:
    from tilecam.engine.errors import EngineError
    from tilecam.engine.gcg import write_gcg

    try:
        game, rules = _load(args.file, args)
        sys.stdout.write(write_gcg(game.rescored(rules)))
    except (OSError, EngineError) as exc:
        print(f"{args.file}: {exc}", file=sys.stderr)
        return 2
    return 0


def _verify(args: argparse.Namespace) -> int:
    from tilecam.engine.errors import EngineError

    matched, mismatched, unreadable = [], [], []
    paths = [p for arg in args.files for p in (sorted(arg.glob("*.gcg")) if arg.is_dir() else [arg])]
    for path in paths:
        try:
            game, rules = _load(path, args)
        except (OSError, EngineError) as exc:
            unreadable.append(path.name)
            print(f"UNREADABLE {path}: {exc}")
            continue
        report = game.verify(rules)
        scores = ", ".join(f"{p.nick} {s}" for p, s in zip(game.players, report.final_scores))
        if report.ok:
            matched.append(path.name)
            if not args.quiet:
                print(f"ok         {path}: {report.checked} events match ({rules.tiles.name} tiles); final {scores}")
            continue
        mismatched.append(path.name)
        print(f"MISMATCH   {path}: {len(report.mismatches)} recorded number(s) differ from the rules "
              f"({rules.tiles.name} tiles, {report.checked} of {report.events} events checked)")
        last_line = None
        for m in report.mismatches:
            if m.line_no != last_line and m.line:
                print(f"    line {m.line_no}: {m.line}")
                last_line = m.line_no
            print(f"        {m.describe()}" if m.line else f"    {m}")
    total = len(paths)
    summary = f"{total} file(s): {len(matched)} match"
    if mismatched:
        summary += f", {len(mismatched)} with mismatches ({', '.join(mismatched)})"
    if unreadable:
        summary += f", {len(unreadable)} unreadable ({', '.join(unreadable)})"
    print(summary)
    return 2 if unreadable else (1 if mismatched else 0)
