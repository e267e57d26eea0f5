"""``tilecam bench stills FOLDER``: move inference on real photo sequences, one overhead photo per move.

``FOLDER`` holds games as ``G_MM.jpg`` (game ``G``, move ``MM`` from 01), their labels ``G_MM.board.txt`` beside
them: 15 lines, ``.`` an empty square, an upper-case letter a tile, a lower-case letter or ``?`` a blank. Each game's
photos go in move order (``--empty G=PHOTO``: that game's empty-board photo first) through the path of ``tilecam
replay --stills`` (``firmware/pipeline.py``: source → capture loop → the one tracker → game service → a temporary
store), and what the game committed is compared with the labels. A move's truth is the difference between
consecutive labels (the first against an empty board): its new squares and their letters, a blank as a blank.

Counted per game and in total: moves whose committed new tiles are exactly right (same squares, same letters; a
blank must be committed as a blank, its letter is not asked), moves committed wrong, moves missed (nothing new on the
board at that photo), phantom moves (tiles committed at a photo whose label adds none: the empty board's), events the
game refused, squares of earlier moves changed later (amends, corrections, withdrawals), and the final board's
squares that differ from the last label. Timing: for each photo that committed a move, the wall and CPU time from
the decoded still handed to the capture loop to the move stored.

``--variant`` / ``--tiles``: the games' rules, built as ``tilecam replay`` builds them
(``pipeline.recording_settings``); the labels are 15x15 boards, so a variant of another board (Super Scrabble's
21x21) is refused.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from tilecam.firmware.cmd_vision import add_tile_height_option
from tilecam.firmware.sources import FolderSource, Frame
from tilecam.vision.labelled import LABEL_SUFFIX, MOVE_PHOTO, PHOTO_SUFFIXES, LabelError, games_in



class StillsError(ValueError):
    """A folder or option the bench cannot use (no games, a bad label, a missing photo)."""


# ------------------------------------------------------------------------------------------------ inputs


@dataclass
class Game:
    """One game's photos in move order, each with its label (15 rows), and an optional empty-board photo."""

    name: str
    photos: list[Path]
    labels: list[list[str]]
    empty: Path | None = None


def find_games(folder: Path, empties: dict[str, Path] | None = None, only: Sequence[str] = ()) -> list[Game]:
    """The games of ``folder`` (``G_MM`` photos with ``G_MM.board.txt`` labels: ``vision.labelled.games_in``), in
    natural order of ``G``; a ``G_MM`` photo without its label is an error (that move could not be judged)."""
    if not folder.is_dir():
        raise StillsError(f"no folder {folder}")
    try:
        found = games_in(folder)
    except LabelError as exc:
        raise StillsError(str(exc)) from exc
    labelled = {photo.photo for photos in found.values() for photo in photos}
    for p in folder.iterdir():
        if p.is_file() and p.suffix.lower() in PHOTO_SUFFIXES and MOVE_PHOTO.match(p.stem) and p not in labelled:
            raise StillsError(f"no label {p.stem}{LABEL_SUFFIX} for {p.name}")
    games = [Game(name, [p.photo for p in photos], [list(p.board) for p in photos], (empties or {}).get(name))
             for name, photos in found.items() if not only or name in only]
    if not games:
        raise StillsError(f"no G_MM photos with G_MM{LABEL_SUFFIX} labels in {folder}")
    return games


def parse_empty(specs: Sequence[str]) -> dict[str, Path]:
    out = {}
    for spec in specs:
        game, sep, photo = spec.partition("=")
        if not sep or not game or not photo:
            raise StillsError(f"--empty wants G=PHOTO, got {spec!r}")
        if not Path(photo).is_file():
            raise StillsError(f"--empty {spec}: no file {photo}")
        out[game] = Path(photo)
    return out


class FilesSource(FolderSource):
    """``FolderSource`` (the source ``tilecam replay`` reads a folder with) over a given list of image files."""

    def __init__(self, files: Sequence[Path], fps: float = 10.0) -> None:
        super().__init__(Path(files[0]).parent if files else Path("."), fps=fps)
        self.name = f"stills:{len(files)} photos"
        self._given = [Path(f) for f in files]

    def open(self) -> None:
        self._files, self._index, self._started = list(self._given), 0, None


class _Watched:
    """A source that calls ``before(index)`` before each read and ``after(frame)`` once the frame is decoded."""

    def __init__(self, source: Any, before: Any, after: Any) -> None:
        self._source, self._before, self._after, self._next = source, before, after, 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)

    def read(self) -> Frame:
        self._before(self._next)
        frame = self._source.read()
        self._next = frame.index + 1
        self._after(frame)
        return frame


# ------------------------------------------------------------------------------------------------ comparing


def cell(ch: str) -> str | None:
    """A square of a board text as compared: None empty, ``?`` any blank, else the tile's letter."""
    if ch == ".":
        return None
    return "?" if (ch == "?" or ch.islower()) else ch.upper()


def new_tiles(before: Sequence[str], after: Sequence[str]) -> tuple[dict[tuple[int, int], str], int]:
    """The squares empty in ``before`` and filled in ``after`` (square → letter, ``?`` a blank), and how many
    squares filled in ``before`` changed or emptied in ``after``."""
    added, changed = {}, 0
    for r, (rb, ra) in enumerate(zip(before, after)):
        for c, (b, a) in enumerate(zip(rb, ra)):
            cb, ca = cell(b), cell(a)
            if cb is None and ca is not None:
                added[(r, c)] = ca
            elif cb is not None and cb != ca:
                changed += 1
    return added, changed


def squares_wrong(board: Sequence[str], label: Sequence[str]) -> int:
    return sum(cell(a) != cell(b) for ra, rb in zip(board, label) for a, b in zip(ra, rb))


@dataclass
class GameResult:
    name: str
    photos: int = 0
    moves: int = 0
    right: int = 0
    wrong: int = 0
    missed: int = 0
    phantom: int = 0
    refused: int = 0
    changed: int = 0
    final_wrong: int = 0
    seconds: float = 0.0
    latency: list[float] = field(default_factory=list)      # wall s, decoded still → move stored
    cpu: list[float] = field(default_factory=list)          # process CPU s over the same span
    decode: list[float] = field(default_factory=list)       # wall s per photo: read from disk, decoded, lores made
    notes: list[str] = field(default_factory=list)


EMPTY_BOARD = ["." * 15] * 15


def _fmt(tiles: dict[tuple[int, int], str]) -> str:
    if not tiles:
        return "nothing"
    return " ".join(f"{'ABCDEFGHIJKLMNO'[c]}{r + 1}={t}" for (r, c), t in sorted(tiles.items()))


def judge(game: Game, boards: Sequence[list[str]], result: GameResult, statuses: Sequence[str] = ()) -> None:
    """Count ``result`` from the game's board after each frame (``boards``: one per frame, the empty photo's first
    when there is one) against the labels; ``statuses``: the tracker's after each frame, for the notes."""
    labels = ([EMPTY_BOARD] if game.empty else []) + [EMPTY_BOARD] + list(game.labels)
    names = (["empty"] if game.empty else []) + [p.name for p in game.photos]
    # labels[i] is the truth before frame i, labels[i + 1] after it
    committed_before = EMPTY_BOARD
    for i, board in enumerate(boards):
        truth, _ = new_tiles(labels[i], labels[i + 1])
        got, changed = new_tiles(committed_before, board)
        committed_before = board
        why = f" (tracker: {statuses[i]})" if i < len(statuses) and statuses[i] else ""
        result.changed += changed
        if changed:
            result.notes.append(f"{names[i]}: {changed} squares of earlier moves changed")
        if not truth:
            if got:
                result.phantom += 1
                result.notes.append(f"{names[i]}: phantom {_fmt(got)}")
            continue
        result.moves += 1
        if got == truth:
            result.right += 1
        elif not got:
            result.missed += 1
            result.notes.append(f"{names[i]}: missed {_fmt(truth)}{why}")
        else:
            result.wrong += 1
            result.notes.append(f"{names[i]}: wrong, committed {_fmt(got)} where the label has {_fmt(truth)}{why}")
    result.final_wrong = squares_wrong(boards[-1] if boards else EMPTY_BOARD, game.labels[-1])


# ------------------------------------------------------------------------------------------------ running


def run_game(game: Game, tiles: str, reader: Any, lexicon: Any, lexicon_name: str, learn: bool = False,
             settings: Any = None, rack_size: int = 7) -> GameResult:
    """One game's photos through ``tilecam replay --stills``'s path; the result counted against the labels.
    ``learn``: the tracker learns the board from its committed tiles (``TrackerConfig.learn``, off by default);
    ``settings``, ``rack_size``: the game's (``pipeline.recording_settings``; None: the classic game's)."""
    from tilecam.firmware.pipeline import run_recording, temporary_game
    from tilecam.vision.moves.tracker import make_tracker

    files = ([game.empty] if game.empty else []) + list(game.photos)
    result = GameResult(game.name, photos=len(files))
    boards: list[list[str]] = []
    statuses: list[str] = []
    delivered: dict[int, tuple[float, float]] = {}
    reading = [0.0]
    started = time.monotonic()
    with temporary_game(["Player1", "Player2"], tiles, lexicon, lexicon_name, settings=settings) as service:
        tracker = make_tracker(service.state()["board"], tiles, lexicon=lexicon, stills=True, commit="clock",
                               reader=reader, rack_size=rack_size)
        if learn:
            tracker.config = replace(tracker.config, learn=True)

        def before(index: int) -> None:
            reading[0] = time.perf_counter()
            if index > 0:                 # the board after the previous frame
                boards.append(list(service.state()["board"]))
                statuses.append(str(getattr(tracker, "status", "")))

        def after(frame: Frame) -> None:
            delivered[frame.index] = (time.perf_counter(), time.process_time())
            result.decode.append(delivered[frame.index][0] - reading[0])

        def on_event(event: Any, frame: Frame, ok: bool) -> None:
            if ok and getattr(event, "kind", None) == "play" and frame.index in delivered:
                wall, cpu = delivered.pop(frame.index)
                result.latency.append(time.perf_counter() - wall)
                result.cpu.append(time.process_time() - cpu)

        source = _Watched(FilesSource(files), before, after)
        report = run_recording(source, tracker, service, on_event=on_event)
        boards.append(list(service.state()["board"]))
        statuses.append(str(getattr(tracker, "status", "")))
        result.refused = len(report.refused)
        result.notes += [f"refused: {why}" for why in report.refused]
        result.notes += [f"run: {why}" for why in report.problems()]
    result.seconds = time.monotonic() - started
    judge(game, boards[:len(files)], result, statuses[:len(files)])
    return result


def table(results: Sequence[GameResult]) -> str:
    cols = ("game", "photos", "moves", "right", "wrong", "missed", "phantom", "refused", "earlier squares changed",
            "final squares wrong")
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]

    def row(name: str, rs: Sequence[GameResult]) -> str:
        s = lambda attr: sum(getattr(r, attr) for r in rs)  # noqa: E731
        moves = s("moves")
        right = f"{s('right')} ({100 * s('right') / moves:.0f} %)" if moves else "0"
        return (f"| {name} | {s('photos')} | {moves} | {right} | {s('wrong')} | {s('missed')} | {s('phantom')} | "
                f"{s('refused')} | {s('changed')} | {s('final_wrong')} / 225 × {len(rs)} |".replace(" / 225 × 1 |",
                                                                                                   " / 225 |"))

    lines += [row(r.name, [r]) for r in results]
    if len(results) > 1:
        lines.append(row("**total**", results))
    return "\n".join(lines)


def timing_line(results: Sequence[GameResult]) -> str:
    lat = sorted(x for r in results for x in r.latency)
    cpu = sorted(x for r in results for x in r.cpu)
    if not lat:
        return "no move committed: no still → move timing"
    p90 = lat[min(len(lat) - 1, int(0.9 * len(lat)))]
    return (f"settled still → committed move ({len(lat)} moves): wall median {1000 * statistics.median(lat):.0f} ms, "
            f"p90 {1000 * p90:.0f} ms, max {1000 * lat[-1]:.0f} ms; CPU median "
            f"{1000 * statistics.median(cpu):.0f} ms\nbefore that, the photo read from disk and decoded (not in the "
            f"figures above): median {1000 * statistics.median(x for r in results for x in r.decode):.0f} ms")


def main(argv: Sequence[str] | None = None) -> int:
    from tilecam.core.service import CommandRefused
    from tilecam.engine.variants import tilesets, variants
    from tilecam.firmware.cmd_replay import load_lexicon
    from tilecam.firmware.pipeline import recording_settings
    from tilecam.vision.laidout import learn_laid_out_photo
    from tilecam.vision.moves import reader as reader_module

    p = argparse.ArgumentParser(prog="tilecam bench stills", description=__doc__.split("\n\n")[0])
    p.add_argument("folder", help="G_MM.jpg photos with G_MM.board.txt labels")
    p.add_argument("--variant", choices=[v.name for v in variants()], default=None,
                   help="the games' rules as for tilecam replay (a 15x15 board's: the labels are 15x15)")
    p.add_argument("--tiles", choices=[t.name for t in tilesets()], default=None,
                   help="the games' tile set (default: the variant's, English for the classic game)")
    p.add_argument("--model", default=None, help="tile model (default: the shipped models/tiles.onnx)")
    p.add_argument("--empty", action="append", default=[], metavar="G=PHOTO",
                   help="game G's empty-board photo, put through first (repeatable)")
    p.add_argument("--games", default="", help="comma-separated games to run (default: all)")
    p.add_argument("--lexicon", default=None, help="as tilecam replay's --lexicon (default: the tile set's)")
    add_tile_height_option(p)
    p.add_argument("--details", action="store_true", help="list every move not right, and each game's run")
    p.add_argument("--learn", action="store_true",
                   help="the tracker learns the board from its committed tiles (off on the device by default)")
    p.add_argument("--laid-out", default=None, metavar="PHOTO",
                   help="a photo of the games' tile set laid out on their board (as tilecam calibrate --laid-out "
                        "takes it): every game read with the tiles learnt from it")
    args = p.parse_args(list(argv) if argv is not None else None)

    try:
        settings, rules = recording_settings(args.variant, args.tiles, args.lexicon)
    except CommandRefused as exc:
        print(f"tilecam bench stills: {exc.reason}", file=sys.stderr)
        return 2
    size = rules.board_layout.size
    if size != 15:
        print(f"tilecam bench stills: the labels are 15x15 boards; variant {settings.variant} is played on a "
              f"{size}x{size} board", file=sys.stderr)
        return 2
    tiles = settings.tileset
    try:
        games = find_games(Path(args.folder), parse_empty(args.empty),
                           [g.strip() for g in args.games.split(",") if g.strip()])
        lexicon = load_lexicon(args.lexicon, tiles)
    except (StillsError, OSError, ValueError) as exc:
        print(f"tilecam bench stills: {exc}", file=sys.stderr)
        return 2
    try:
        reader = reader_module.default_reader(tiles, model=args.model, tile_height=args.tile_height)
        looks = None if args.laid_out is None else learn_laid_out_photo(Path(args.laid_out), reader.classifier, tiles)
    except (ImportError, OSError, ValueError) as exc:     # a LayoutError is a ValueError
        print(f"tilecam bench stills: the vision reader is not available: {exc}", file=sys.stderr)
        return 2
    results = []
    for game in games:
        # a new reader per game: each game is its own board and camera (its turn is learnt again)
        if results or looks is not None:
            reader = reader_module.default_reader(tiles, model=args.model, tile_height=args.tile_height,
                                                  looks=looks)
        r = run_game(game, tiles, reader, lexicon, settings.lexicon, learn=args.learn, settings=settings,
                     rack_size=rules.rack_size)
        results.append(r)
        print(f"game {r.name}: {r.photos} photos in {r.seconds:.1f} s, {r.right}/{r.moves} moves right",
              file=sys.stderr)
        if args.details:
            for note in r.notes:
                print(f"  {note}", file=sys.stderr)
    model = args.model or "shipped models/tiles.onnx"
    empties = "with" if any(g.empty for g in games) else "without"
    variant = f"variant {settings.variant}, " if args.variant else ""
    taught = "" if looks is None else f", {looks.tiles} tiles learnt from {args.laid_out}"
    print(f"Move inference on {args.folder} ({variant}{tiles} tiles, model {model}, {empties} the empty-board "
          f"photo{taught})\n")
    print(table(results))
    print()
    print(timing_line(results))
    return 0
