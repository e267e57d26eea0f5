"""``tilecam replay SOURCE --gcg OUT``: rebuild a game from a recording; ``tilecam render-game``: make one.

``SOURCE`` is a video file or a folder of frames (image files in the natural order of their names:
``frame_000001.jpg`` …, or ``image-1.jpg``, ``image-2.jpg`` … ``image-10.jpg``). Frames are numbered from 1 in that
order. ``--stills``: every image is already a settled board, one photo per turn (a clock-button rig), so an unchanged
photo is a scoreless turn (a pass or an exchange). ``--events FILE``: JSON lines ``{"frame": N, "event": "pass" |
"exchange" | "clock", "player": i}`` for what a camera cannot see (``"count"``: tiles exchanged, optional).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tilecam.firmware.cmd_vision import add_tile_height_option

EVENT_KINDS = ("pass", "exchange", "clock")


class EventsFileError(ValueError):
    """A line of an events file that is not ``{"frame": N, "event": "pass"|"exchange"|"clock", "player": i}``."""

    def __init__(self, line_no: int, message: str):
        super().__init__(f"events file line {line_no}: {message}")
        self.line_no = line_no


class ReplaySourceError(ValueError):
    """A replay source that is neither a folder of images nor a video file OpenCV can open."""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("replay", help="rebuild a game (GCG) from a video or a folder of frames")
    p.add_argument("source", help="video file or folder of frames (natural order of names)")
    p.add_argument("--gcg", required=True, help="where to write the reconstructed game")
    p.add_argument("--tiles", choices=("english", "german"), default=None,
                   help="the game's tile set (default: the variant's, English for the classic game)")
    p.add_argument("--variant", default=None,
                   help="the game's variant as for tilecam run (e.g. super: a 21x21 board read at 21x21)")
    p.add_argument("--stills", action="store_true", help="every image is a settled board, one per turn")
    p.add_argument("--events", help="JSON lines of passes, exchanges and clock presses the camera cannot see")
    p.add_argument("--lexicon", default=None,
                   help="word list for doubtful letters, blanks and phonies: enable1, a path, or 'none' "
                        "(default: the bundled ENABLE for English tiles, none for German)")
    p.add_argument("--players", default="", help="comma-separated names (default Player1, Player2)")
    p.add_argument("--commit", choices=("settle", "clock"), default=None,
                   help="commit on a settled board, or only at clock presses (default: clock when the events "
                        "file has clock presses)")
    p.add_argument("--fps", type=float, default=10.0,
                   help="frame rate of a folder of frames (the capture loop's stillness is measured in it)")
    p.add_argument("--lettered-rows", action="store_true", help="write ScrabScrap's transposed coordinates")
    p.add_argument("--model", default=None, help="tile model (default models/tiles.onnx)")
    add_tile_height_option(p)
    p.set_defaults(func=_replay)

    r = subparsers.add_parser("render-game", help="render a GCG game as frames of a synthetic video, with truth")
    r.add_argument("gcg", help="the game record")
    r.add_argument("out", help="folder for frame_000001.jpg … and truth.json")
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--tiles", choices=("english", "german"), default=None, help="default: guessed from the record")
    r.add_argument("--lettered-rows", action="store_true", help="the record uses ScrabScrap's coordinates")
    r.set_defaults(func=_render)


# ------------------------------------------------------------------------------------------------ inputs


def parse_events(text: str) -> list[Any]:
    """An events file's lines as ``External`` values (blank lines and ``#`` comments skipped)."""
    from tilecam.vision.moves.replay import External

    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EventsFileError(n, f"not JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise EventsFileError(n, "expected an object")
        frame, kind, player = data.get("frame"), data.get("event"), data.get("player")
        if not isinstance(frame, int) or isinstance(frame, bool) or frame < 1:
            raise EventsFileError(n, f"'frame' must be a frame number from 1, got {frame!r}")
        if kind not in EVENT_KINDS:
            raise EventsFileError(n, f"'event' must be one of {', '.join(EVENT_KINDS)}, got {kind!r}")
        if player is not None and (not isinstance(player, int) or isinstance(player, bool) or player < 0):
            raise EventsFileError(n, f"'player' must be a player index from 0, got {player!r}")
        count = data.get("count", 0)
        if not isinstance(count, int) or count < 0:
            raise EventsFileError(n, f"'count' must be a number of tiles, got {count!r}")
        unknown = set(data) - {"frame", "event", "player", "count"}
        if unknown:
            raise EventsFileError(n, f"unknown fields: {', '.join(sorted(unknown))}")
        out.append(External(frame, kind, player, count))
    return out


def list_frames(folder: Path) -> list[Path]:
    """The image files of a folder in the natural order of their names (``image-2`` before ``image-10``)."""
    from tilecam.firmware.sources import IMAGE_SUFFIXES, natural_key

    return sorted((p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
                  key=lambda p: natural_key(p.name))


def iter_frames(source: Path, fps: float) -> Iterator[tuple[float, Any]]:
    """``(t, BGR image)`` for every frame of a folder or a video file."""
    import cv2

    if source.is_dir():
        files = list_frames(source)
        if not files:
            raise ReplaySourceError(f"no image files in {source}")
        for i, path in enumerate(files):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise ReplaySourceError(f"cannot decode image {path}")
            yield i / fps, image
        return
    if not source.is_file():
        raise ReplaySourceError(f"no file or folder {source}")
    cap = cv2.VideoCapture(str(source))
    if not cap.isOpened():
        raise ReplaySourceError(f"OpenCV cannot open {source} as a video")
    rate = cap.get(cv2.CAP_PROP_FPS) or fps
    try:
        i = 0
        while True:
            ok, image = cap.read()
            if not ok:
                break
            yield i / rate, image
            i += 1
    finally:
        cap.release()


def load_lexicon(spec: str | None, tiles: str) -> Any:
    """The game's word list as the game core decides it (core/lexicons.py): ``--lexicon`` is a game's lexicon
    setting (a shipped list's name, ``none`` or a path); a German game is never judged with ENABLE."""
    from tilecam.core.lexicons import lexicon_for

    return lexicon_for(tiles, spec)


# ------------------------------------------------------------------------------------------------ commands


def _replay(args: argparse.Namespace) -> int:
    """The recording through the device's one path (``firmware/pipeline.py``: capture loop → the one tracker →
    game service → a temporary store), then the stored game written as GCG."""
    from tilecam.core.service import CommandRefused
    from tilecam.engine.gcg import write_gcg
    from tilecam.firmware.pipeline import recording_settings, run_recording, temporary_game
    from tilecam.firmware.sources import FolderSource, SourceError, VideoFileSource
    from tilecam.vision.moves import reader as reader_module
    from tilecam.vision.moves.tracker import make_tracker

    default_reader = reader_module.default_reader      # looked up at call time (tests put a stand-in there)
    source_path = Path(args.source)
    try:
        externals = parse_events(Path(args.events).read_text(encoding="utf-8")) if args.events else []
    except (OSError, EventsFileError) as exc:
        print(f"tilecam replay: {exc}", file=sys.stderr)
        return 2
    commit = args.commit or ("clock" if args.stills or any(e.kind == "clock" for e in externals) else "settle")
    players = [p.strip() for p in args.players.split(",") if p.strip()] or ["Player1", "Player2"]
    if len(players) < 2:
        players.append(f"Player{len(players) + 1}")
    try:
        settings, rules = recording_settings(args.variant, args.tiles, args.lexicon, len(players))
    except CommandRefused as exc:
        print(f"tilecam replay: {exc.reason}", file=sys.stderr)
        return 2
    tiles = settings.tileset
    try:
        lexicon = load_lexicon(args.lexicon, tiles)
    except (OSError, ValueError) as exc:
        print(f"tilecam replay: cannot load the lexicon: {exc}", file=sys.stderr)
        return 2
    source = (FolderSource(source_path, fps=args.fps) if source_path.is_dir()
              else VideoFileSource(source_path, fps=None))
    started = time.monotonic()
    with temporary_game(players, tiles, lexicon, args.lexicon or "enable1", settings=settings) as service:
        rows = service.state()["board"]
        try:
            reader = default_reader(tiles, model=args.model, size=len(rows), tile_height=args.tile_height)
        except (ImportError, OSError, ValueError) as exc:
            print(f"tilecam replay: the vision reader is not available: {exc}", file=sys.stderr)
            return 2
        tracker = make_tracker(rows, tiles, lexicon=lexicon, stills=args.stills, commit=commit, reader=reader,
                               rack_size=rules.rack_size)      # as the device's (nine-tile: plays of 9)
        try:
            report = run_recording(source, tracker, service, externals=externals)
        except SourceError as exc:
            print(f"tilecam replay: {exc}", file=sys.stderr)
            return 2
        game, moves = service.game, service.moves()
    Path(args.gcg).write_text(write_gcg(game, orientation="lettered-rows" if args.lettered_rows else None),
                              encoding="utf-8")
    print(summary(game, moves, report, time.monotonic() - started, args.gcg))
    return 0


def summary(game: Any, moves: Any, report: Any, seconds: float, out: str) -> str:
    """The rebuilt game as a few lines for the terminal: the run's counts (and why nothing settled, if so), each
    move with its flags, the final scores, the events the game refused."""
    lines = [f"{report.line()} in {seconds:.1f} s → {len(game.history)} events, written to {out}"]
    flags = {m.index: m.flags for m in moves}
    for i, ev in enumerate(game.history):
        who = game.players[ev.player]
        if ev.kind == "play":
            what = f"{ev.position} {ev.word}"
        elif ev.kind == "withdraw":
            what = f"-- (withdrawn {ev.position} {ev.word})"
        else:
            what = ev.kind
        flag = f"   [{', '.join(flags[i])}]" if flags.get(i) else ""
        lines.append(f"  {i + 1:3d}. {who:<10} {what:<28} {ev.score:+4d} {ev.total:5d}{flag}")
    lines.append("  final: " + ", ".join(f"{p} {s}" for p, s in zip(game.players, game.scores)))
    lines += [f"  not recorded: {why}" for why in report.refused]
    return "\n".join(lines)


def _render(args: argparse.Namespace) -> int:
    from tilecam.engine.errors import EngineError
    from tilecam.engine.gcg import load_gcg
    from tilecam.models.video import iter_render, script_game, write_frames

    try:
        record = load_gcg(args.gcg, orientation="lettered-rows" if args.lettered_rows else None)
    except (OSError, EngineError) as exc:
        print(f"tilecam render-game: {exc}", file=sys.stderr)
        return 2
    tiles = args.tiles or record.guess_tileset()
    started = time.monotonic()
    video = script_game(record, seed=args.seed, tileset=tiles)
    total = len(video.specs)

    def frames() -> Any:
        for i, image in enumerate(iter_render(video.specs, tiles, args.seed), 1):
            if i % 100 == 0:
                print(f"  … {i}/{total} frames", file=sys.stderr)
            yield image

    try:
        out = write_frames(video, Path(args.out), frames())
    except ImportError as exc:
        print(f"tilecam render-game: the synthetic renderer is not available ({exc})", file=sys.stderr)
        return 2
    print(f"{total} frames ({len(video.truth)} events) in {time.monotonic() - started:.1f} s → {out}")
    return 0
