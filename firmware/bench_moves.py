"""``tilecam bench moves``: move inference measured on real games and on rendered ones.

* Real games: the ScrabScrap photo folders (``game03``, ``game04``: one settled photo per turn, German tiles, no
  lexicon) replayed as stills, once through their hand-made labels (``image-N.board.txt``: a perfect reader, so
  any miss is move inference's) and once through the vision reader when the tile model is there. Compared with
  the GCG record (its transposed "lettered rows" coordinates): every placement (squares and letters) and every
  withdrawn phony; the record's exchanges should come out as scoreless turns.
* Synthetic games: ``--games`` records of ``../shared/data/gcg`` scripted by ``tilecam.models.video`` with seeds
  from ``--seed`` (never used in development), replayed frame by frame. ``--reader simulated`` turns the scripts
  straight into readings (hand occlusion, doubtful letters; no images): move inference alone. ``--reader vision``
  renders the frames with ``tilecam.models.synth`` and reads them with the vision pipeline. Every placement must be
  found with the right squares, letters and score, no phantom moves, every withdrawn phony withdrawn. Blanks: a
  rendered blank is unprinted; a blank the lexicon (bundled ENABLE) names must be right; a blank left pending is
  counted right when its square is right, and the record's letter is then given as the players' answer (what the
  web asks them), so later words see it. ``--variant`` / ``--tiles``: the synthetic games' rules, built as
  ``tilecam replay --variant`` builds them (``pipeline.recording_settings``); records that do not fit that tile
  set are left out, and on Super Scrabble's 21x21 board each 15x15 record is played in its middle (its opening on
  the centre star, ``video.centred``), rendered with squares as many pixels as a classic board's. The ScrabScrap
  games stay classic German games. ``--camera``: the rendered scene's camera set-up (``video.CAMERAS``): as each
  seed draws it, tilted 45° from overhead, with squares 30 px wide, or both.
* Timing (one core: onnxruntime and OpenCV limited to one thread): per-frame processing (read + track) and the
  latency from the settling frame in to the committed move out.
"""

from __future__ import annotations

import argparse
import difflib
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REAL_GAMES = ("game03", "game04")
DOUBT_RATE = 0.03      # simulated reader: tiles read doubtfully (the right letter and another; 30 % wrong first)
STRAY_RATE = 0.03      # simulated reader: frames with one empty square doubtfully read as a tile


def _one_thread() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("ORT_NUM_THREADS", "1")
    try:
        import cv2

        cv2.setNumThreads(1)
    except ImportError:  # pragma: no cover - cv2 is a dependency
        pass


def _vision_reader(tileset: str, model: Any = None, size: int = 15) -> Any:
    """The vision pipeline with one onnxruntime thread (``model``: None = the shipped one) reading a board of
    ``size`` squares a side, or None (and why)."""
    from tilecam.vision.moves.reader import default_reader

    try:
        return default_reader(tileset, threads=1, model=model, size=size), ""
    except ImportError as exc:
        return None, f"vision reader not available ({exc.name})"
    except (OSError, ValueError) as exc:
        return None, f"tile model not available ({exc})"


# ------------------------------------------------------------------------------------------------ comparing


def _tiles_key(kind: str, position: str, word: str) -> tuple:
    from tilecam.engine.move import Placement

    if kind not in ("play", "withdraw"):
        return ("scoreless",)
    p = Placement.from_gcg(position, word)
    return (kind, tuple((r, c, "?" if t.is_blank else t.letter) for r, c, t in p.new_tiles()))


def compare(truth: Sequence[dict[str, Any]], history: Sequence[Any], scores: bool) -> Counter:
    """Count what the rebuilt ``history`` got right against ``truth`` (``kind``, ``position``, ``word``,
    ``score``): plays with the right squares and letters (blanks by square), with the right score too
    (``scores``), withdrawals, scoreless turns, and phantom plays (rebuilt plays matching no true one)."""
    keep = ("play", "withdraw", "pass", "exchange")
    want = [t for t in truth if t["kind"] in keep]
    got = [e for e in history if e.kind in ("play", "withdraw", "pass", "exchange")]
    wk = [_tiles_key(t["kind"], t.get("position", ""), t.get("word", "")) for t in want]
    gk = [_tiles_key(e.kind, e.position, e.word) for e in got]
    c: Counter = Counter()
    c["plays"] = sum(t["kind"] == "play" for t in want)
    c["withdrawals"] = sum(t["kind"] == "withdraw" for t in want)
    c["scoreless"] = sum(t["kind"] in ("pass", "exchange") for t in want)
    matched_got: set[int] = set()
    for block in difflib.SequenceMatcher(a=wk, b=gk, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            t, e = want[block.a + k], got[block.b + k]
            matched_got.add(block.b + k)
            if t["kind"] == "play":
                c["plays_found"] += 1
                if not scores or e.score == t["score"]:
                    c["plays_right"] += 1
                letters_true = [ch for ch in t["word"] if ch != "."]
                letters_got = [ch for ch in e.word if ch != "."]
                for a, b in zip(letters_true, letters_got):
                    if a.islower():
                        c["blanks"] += 1
                        c["blanks_pending" if b == "?" else ("blanks_named" if b == a else "blanks_wrong")] += 1
            elif t["kind"] == "withdraw":
                c["withdrawals_right"] += 1
            else:
                c["scoreless_right"] += 1
    for j, e in enumerate(got):
        if j not in matched_got and e.kind == "play":
            c["phantom"] += 1
        if j not in matched_got and e.kind == "withdraw":
            c["phantom_withdrawals"] += 1
    return c


def _answer_blanks(service: Any, tracker: Any, event: Any, truth_rows: Sequence[str]) -> None:
    """The players' answer for pending blanks: the record's letter, given to the game and the tracker."""
    for r, c in event.pending_blanks:
        ch = truth_rows[r][c]
        if ch.isalpha() and ch.islower():
            tracker.set_named_blank(r, c, ch)
            service.set_blank(r, c, ch.upper(), actor="players")


# ------------------------------------------------------------------------------------------------ runs


def run_real(game: str, reader_name: str, reader: Any) -> tuple[Counter, Any]:
    """One ScrabScrap game as stills through the device's one path (``firmware/pipeline.py``)."""
    from tilecam.engine.gcg import load_gcg
    from tilecam.engine.rules import Rules
    from tilecam.firmware.pipeline import ItemsSource, run_recording, temporary_game
    from tilecam.firmware.sources import natural_key
    from tilecam.vision.moves.reading import Reading
    from tilecam.vision.moves.tracker import make_tracker

    import cv2

    folder = SHARED / "data" / "real-boards" / "scrabscrap" / game
    record = load_gcg(next(folder.glob("*.gcg")), orientation="lettered-rows")
    truth = [{"kind": e.kind, "position": e.position, "word": e.word, "score": e.score}
             for e in record.replay(Rules(tileset="german", max_scoreless_turns=None)).history]
    photos = sorted(folder.glob("image-*.jpg"), key=lambda p: natural_key(p.name))
    label_rows = [p.with_name(p.stem + ".board.txt").read_text(encoding="utf-8").split() for p in photos]

    def frames():
        for photo, rows in zip(photos, label_rows):
            if reader_name == "labels":
                yield Reading.from_rows(["".join("?" if ch.islower() else ch for ch in r) for r in rows])
            else:
                yield cv2.imread(str(photo), cv2.IMREAD_COLOR)

    with temporary_game([p.name for p in record.players], "german", None, "none") as service:
        tracker = make_tracker(service.state()["board"], "german", stills=True, reader=reader)

        def on_event(event: Any, frame: Any, recorded: bool) -> None:
            if recorded and event.kind in ("play", "amend") and event.pending_blanks:
                _answer_blanks(service, tracker, event, label_rows[frame.index])

        run_recording(ItemsSource(frames(), name=game), tracker, service, on_event=on_event)
        return compare(truth, service.game.history, scores=False), tracker


def synthetic_record(path: Path, rules: Any = None) -> Any:
    """The record at ``path`` as played under ``rules`` (None: the classic game): in the middle of a larger board."""
    from tilecam.engine.gcg import load_gcg
    from tilecam.models.video import centred

    record = load_gcg(path)
    return centred(record, rules.board_layout.size) if rules is not None else record


def synthetic_records(n: int, rules: Any = None) -> list[Path]:
    """The first ``n`` records of ../shared/data/gcg (sorted by name) that replay under ``rules`` (None: the
    classic game's; a record whose tiles the set lacks is left out)."""
    from dataclasses import replace

    from tilecam.engine.errors import EngineError
    from tilecam.engine.rules import Rules

    out: list[Path] = []
    if n <= 0:
        return out
    rules = replace(rules or Rules(), max_scoreless_turns=None)
    for path in sorted((SHARED / "data" / "gcg").glob("*.gcg")):
        try:
            synthetic_record(path, rules).replay(rules)
        except (EngineError, ValueError):
            continue
        out.append(path)
        if len(out) == n:
            break
    return out


def run_synthetic(path: Path, seed: int, reader_name: str, reader: Any, lexicon: Any,
                  noise: tuple[float, float] = (DOUBT_RATE, STRAY_RATE), renderer: str = "synth",
                  game: tuple[Any, Any] | None = None, camera: str = "drawn", pauses: float = 0.0
                  ) -> tuple[Counter, Any, dict]:
    """One rendered game through the device's one path: capture loop → the one tracker → game service → a
    temporary store. ``simulated`` readings have no pixels: they go to a tracker that settles on three agreeing
    readings, given every frame. ``game``: its settings and rules (``pipeline.recording_settings``; None: the
    classic English game). ``camera``: the rendered frames' camera set-up (``video.CAMERAS``). ``pauses``: the share
    of plays the player stops part-way through, long enough for the board to settle (``ScriptConfig.p_pause``)."""
    from tilecam.firmware.pipeline import ItemsSource, recording_settings, run_recording, temporary_game
    from tilecam.models.video import ScriptConfig, iter_render, script_game, simulate_readings
    from tilecam.vision.moves.decide import ResolvePolicy
    from tilecam.vision.moves.replay import External
    from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig, make_tracker

    settings, rules = game or recording_settings()
    video = script_game(synthetic_record(path, rules), seed, rules=rules, config=ScriptConfig(p_pause=pauses))
    info: dict[str, Any] = {"frames": len(video.specs), "render_s": 0.0}
    if reader_name == "simulated":
        frames: Any = simulate_readings(video, seed, doubt_rate=noise[0], stray_rate=noise[1])
    else:
        def timed(images: Any) -> Any:          # rendering time kept apart from the tracker's
            while True:
                t0 = time.perf_counter()
                image = next(images, None)
                info["render_s"] += time.perf_counter() - t0
                if image is None:
                    return
                yield image

        frames = timed(iter_render(video.specs, video.tileset, seed, renderer=renderer, layout=settings.layout,
                                   camera=camera))
    externals = [External(e["frame"], e["event"], e.get("player"), e.get("count", 0)) for e in video.externals]
    with temporary_game(video.players, settings.tileset, lexicon, settings=settings) as service:
        board = service.state()["board"]
        if reader_name == "simulated":
            tracker = MoveTracker(settings.tileset, lexicon=lexicon, board_rows=board,
                                  config=TrackerConfig(settle_readings=3, wants_every_frame=True,
                                                       resolve=ResolvePolicy(rack_size=rules.rack_size)))
        else:
            tracker = make_tracker(board, settings.tileset, lexicon=lexicon, reader=reader,
                                   rack_size=rules.rack_size)

        def on_event(event: Any, frame: Any, recorded: bool) -> None:
            if recorded and event.kind in ("play", "amend") and event.pending_blanks:
                _answer_blanks(service, tracker, event, video.specs[frame.index].rows)

        report = run_recording(ItemsSource(frames, name=path.stem), tracker, service, externals=externals,
                               on_event=on_event)
        counts = compare(video.truth, service.game.history, scores=True)
        counts["flagged_phony"] = sum("phony" in m.flags for m in service.moves())
        counts.update(sides_told(video.truth, tracker.stats.sides))
        counts["problems"] = len(report.refused)
        info["report"] = report
    return counts, tracker, info


def sides_told(truth: Sequence[dict[str, Any]], sides: Sequence[tuple[Any, int | None]]) -> Counter:
    """How the tracker told the side of the board each committed play's hand came from, against who made it (the
    truth's play holding its squares): ``sides_own`` the side most of that player's plays were told, ``sides_other``
    another, ``sides_none`` not told."""
    from tilecam.engine.move import Placement

    plays = [(e["player"], {(r, c) for r, c, _ in Placement.from_gcg(e["position"], e["word"]).new_tiles()})
             for e in truth if e["kind"] == "play"]
    told: dict[int, Counter] = {}
    for squares, side in sides:
        who = next((p for p, s in plays if set(squares) <= s), None)
        if who is not None:
            told.setdefault(who, Counter())[side] += 1
    out: Counter = Counter()
    for by_side in told.values():
        own = max((s for s in by_side if s is not None), key=lambda s: by_side[s], default=None)
        for side, n in by_side.items():
            out["sides_none" if side is None else "sides_own" if side == own else "sides_other"] += n
    return out


# ------------------------------------------------------------------------------------------------ output


def _ms(values: Sequence[float]) -> str:
    if not values:
        return "–"
    v = sorted(values)
    p95 = v[min(len(v) - 1, int(round(0.95 * (len(v) - 1))))]
    return f"{statistics.median(v) * 1000:.1f} / {p95 * 1000:.1f} / {v[-1] * 1000:.1f}"


def _frac(c: Counter, right: str, total: str) -> str:
    return f"{c[right]}/{c[total]}"


def main(argv: list[str] | None = None) -> int:
    from tilecam.core.lexicons import lexicon_for_settings
    from tilecam.core.service import CommandRefused
    from tilecam.engine.variants import tilesets, variants
    from tilecam.firmware.pipeline import recording_settings
    from tilecam.models.video import CAMERAS

    ap = argparse.ArgumentParser(prog="tilecam bench moves", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="synthetic games (records of ../shared/data/gcg)")
    ap.add_argument("--seed", type=int, default=4100, help="first seed of the synthetic games")
    ap.add_argument("--reader", choices=("simulated", "vision", "both"), default="both",
                    help="synthetic games: simulated readings, rendered frames through vision, or both")
    ap.add_argument("--renderer", choices=("synth", "photos"), default="synth",
                    help="vision reader: frames by tilecam.models.synth (960x720) or the photo compositor")
    ap.add_argument("--camera", choices=CAMERAS, default="drawn",
                    help="vision reader, synth frames: the camera set-up (drawn: each seed's scene as drawn, tilted "
                         "0-35 degrees; steep: tilted 45 degrees; small: squares 30 px wide; steep-small: both)")
    ap.add_argument("--model", default=None, help="tile model (.onnx) for the vision reader (default: the shipped one)")
    ap.add_argument("--variant", choices=[v.name for v in variants()], default=None,
                    help="the synthetic games' rules as for tilecam replay/run (super: 21x21, each record in the "
                         "middle of the board; default: the classic game)")
    ap.add_argument("--tiles", choices=[t.name for t in tilesets()], default=None,
                    help="the synthetic games' tile set (default: the variant's, English for the classic game)")
    ap.add_argument("--pauses", type=float, default=0.0,
                    help="synthetic games: share of plays the player stops part-way through, the hand away long "
                         "enough for the board to settle, then goes on (default 0: the seeds' frames as before)")
    ap.add_argument("--skip-real", action="store_true", help="leave out the ScrabScrap photo games")
    ap.add_argument("--first", type=int, default=0, help="skip this many records (a quick partial run)")
    ap.add_argument("--doubt", type=float, default=DOUBT_RATE, help="simulated reader: fraction of doubtful tiles")
    ap.add_argument("--stray", type=float, default=STRAY_RATE,
                    help="simulated reader: fraction of frames with a doubtful stray tile")
    args = ap.parse_args(argv)
    _one_thread()
    if not SHARED.is_dir():
        print("tilecam bench moves: ../shared is not there (the records and photos live in it)", file=sys.stderr)
        return 2
    try:
        settings, rules = chosen = recording_settings(args.variant, args.tiles)
    except CommandRefused as exc:
        print(f"tilecam bench moves: {exc.reason}", file=sys.stderr)
        return 2
    if args.renderer == "photos" and args.camera != "drawn":
        print(f"tilecam bench moves: the photo compositor has only its photos' camera, not --camera {args.camera}",
              file=sys.stderr)
        return 2
    if args.renderer == "photos" and settings.layout != "standard15":
        print(f"tilecam bench moves: the photo compositor has only the classic board, not {settings.layout}",
              file=sys.stderr)
        return 2
    lexicon = lexicon_for_settings(settings)
    timing_rows: list[tuple[str, Any]] = []

    if not args.skip_real:
        print("\n### Real games: ScrabScrap photos as stills (German tiles, no lexicon)\n")
        print("| game | reader | placements (squares + letters) | withdrawn phonies | exchanges → scoreless turn "
              "| phantom plays | blanks pending → answered |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for game in REAL_GAMES:
            vision, why = _vision_reader("german", args.model)      # each game its own set-up
            for name, reader in (("labels", None), ("vision", vision)):
                if name == "vision" and reader is None:
                    print(f"| {game} | vision | {why} | | | | |")
                    continue
                c, tracker = run_real(game, name, reader)
                print(f"| {game} | {name} | {_frac(c, 'plays_found', 'plays')} | "
                      f"{_frac(c, 'withdrawals_right', 'withdrawals')} | {_frac(c, 'scoreless_right', 'scoreless')} "
                      f"| {c['phantom']} | {c['blanks_pending']}/{c['blanks']} |")
                if name == "vision":
                    timing_rows.append((f"{game} photos (992x976), vision", tracker))

    readers = ["simulated", "vision"] if args.reader == "both" else [args.reader]
    records = synthetic_records(args.first + args.games, rules)[args.first:]
    if args.games > 0 and not records:
        print(f"tilecam bench moves: no record of ../shared/data/gcg replays with {settings.tileset} tiles on "
              f"{settings.layout}", file=sys.stderr)
        return 2
    size = rules.board_layout.size
    for reader_name in readers:
        reader = None
        if reader_name == "vision":
            reader, why = _vision_reader(settings.tileset, args.model, size)
            if reader is None:
                print(f"\n### Synthetic games, rendered + vision: not run ({why})")
                continue
        noise = (f" (each frame: {args.doubt:.0%} of tiles doubtful, {args.stray:.0%} chance of a doubtful stray tile)"
                 if reader_name == "simulated" else
                 f" (frames by {'tilecam.models.synth' if args.renderer == 'synth' else 'the photo compositor'}"
                 f"{'' if args.camera == 'drawn' else f', camera {args.camera}'}, "
                 "read by tilecam.vision.read through the capture loop)")
        rules_said = "" if args.variant is None and args.tiles is None else \
            f", variant {settings.variant}, {settings.tileset} tiles on {settings.layout}"
        if args.pauses:
            rules_said += f", {args.pauses:.0%} of plays paused part-way"
        print(f"\n### Synthetic games: {len(records)} records of ../shared/data/gcg, seeds {args.seed}…"
              f"{args.seed + len(records) - 1}, reader: {reader_name}{noise}{rules_said}\n")
        print("| game | frames | placements right (squares, letters, score) | phantom plays | withdrawn phonies "
              "| blanks named / pending→answered / wrong | flagged phony (lexicon) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        total: Counter = Counter()
        started = time.perf_counter()
        all_track: list[Any] = []
        stalls: list[str] = []          # what the run said of a game with plays missed
        for i, path in enumerate(records):
            if reader is not None and i:
                # Each game is a new set-up (its own camera and board): the reader learns its orientation afresh.
                reader, _ = _vision_reader(settings.tileset, args.model, size)
            c, tracker, info = run_synthetic(path, args.seed + args.first + i, reader_name, reader, lexicon,
                                             (args.doubt, args.stray), args.renderer, chosen, args.camera,
                                             args.pauses)
            total += c
            total["frames"] += info["frames"]
            total["render_ms"] += round(info["render_s"] * 1000)
            all_track.append(tracker)
            problems = info["report"].problems()
            if c["plays_right"] < c["plays"] and problems:
                stalls.append(f"{path.stem}: {'; '.join(problems)}")
            print(f"| {path.stem} | {info['frames']} | {_frac(c, 'plays_right', 'plays')} | {c['phantom']} | "
                  f"{_frac(c, 'withdrawals_right', 'withdrawals')} | {c['blanks_named']} / {c['blanks_pending']} / "
                  f"{c['blanks_wrong']} | {c['flagged_phony']} |", flush=True)
        print(f"| **all** | {total['frames']} | **{_frac(total, 'plays_right', 'plays')}** | **{total['phantom']}** "
              f"| **{_frac(total, 'withdrawals_right', 'withdrawals')}** | {total['blanks_named']} / "
              f"{total['blanks_pending']} / {total['blanks_wrong']} | {total['flagged_phony']} |")
        rendering = f" ({total['render_ms'] / 1000:.1f} s of it rendering)" if total["render_ms"] else ""
        print(f"\n{time.perf_counter() - started:.1f} s wall{rendering}; passes/exchanges came in as events "
              f"({total['scoreless_right']}/{total['scoreless']} recorded); refused events: {total['problems']}")
        told = total["sides_own"] + total["sides_other"] + total["sides_none"]
        for why in stalls:        # the run's own words, as `tilecam replay` says them: never a silent 0 of N
            print(f"what the run said of a game with plays missed: {why}")
        print(f"the side of the board each committed play's hand came from (vision/moves/hands.py): the side most of "
              f"its player's plays were told {total['sides_own']} of {told}, another {total['sides_other']}, "
              f"not told {total['sides_none']}")
        changed = [n for tr in all_track for n in tr.stats.changed[1:]]        # the first read sees everything
        if changed:
            print(f"squares whose pixels changed since the last settle, per read after the first: median "
                  f"{statistics.median(changed):.0f}, max {max(changed)} of {size * size}")
        _print_partial_reads(all_track, size * size)
        merged = _merge_stats(all_track)
        timing_rows.append((f"synthetic, {reader_name}", merged))

    print("\n### Timing (one core: onnxruntime/OpenCV one thread)\n")
    print("| stream | frames | reads | every frame ms p50/p95/max | one read ms p50/p95/max "
          "| settling frame → committed move ms p50/p95/max |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, st in timing_rows:
        s = st.stats if hasattr(st, "stats") else st
        print(f"| {name} | {s.frames} | {len(s.read_s)} | {_ms(s.frame_s)} | {_ms(s.read_s)} | {_ms(s.latency_s)} |")
    return 0


def _print_partial_reads(trackers: Sequence[Any], squares: int = 225) -> None:
    """Squares classified per read and the time it took, the first (whole) read of each game left out
    (``squares``: the board's)."""
    counts, secs = [], []
    for tr in trackers:
        reader = getattr(tr, "_reader", None)
        counts += list(getattr(reader, "squares_read", [])[1:])
        secs += list(getattr(reader, "classify_s", [])[1:])
    if counts:
        part = [s for n, s in zip(counts, secs) if n < squares]
        print(f"squares classified per read after the first: median {statistics.median(counts):.0f}, max "
              f"{max(counts)} of {squares} ({sum(n == squares for n in counts)} whole reads of {len(counts)}); "
              f"classifying them, ms p50/p95/max: {_ms(part)}")


def _merge_stats(trackers: Sequence[Any]) -> Any:
    from tilecam.vision.moves.tracker import TrackerStats

    out = TrackerStats()
    for tr in trackers:
        s = tr.stats
        out.frames += s.frames
        out.read_s += s.read_s
        out.track_s += s.track_s
        out.latency_s += s.latency_s
        out.changed += s.changed
        out.frame_s += s.frame_s
    return out


if __name__ == "__main__":
    sys.exit(main())
