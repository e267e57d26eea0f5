"""``tilecam eval-vision`` / ``tilecam bench vision``: accuracy and speed of the whole read.

The measure is real photos of boards: any folder of ``NAME.jpg`` + ``NAME.board.txt`` (``tilecam.vision.labelled``),
each read as a single photo with no calibration (the reader tells the turn of the board itself; any of the four
turns counts, never a mirror). Per folder: squares wrong, tiles wrong, false tiles on bare squares, boards fully
right, boards the reader flagged as unsure, boards not found (every square of those counted wrong). Held-out
renders (``tilecam.models.synth``) are a regression check beside them, never the target.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tilecam.engine.coords import square_name
from tilecam.models.dataset import SHARED_BOARDS
from tilecam.vision.classify import EMPTY, OCCLUDED, TileClassifier
from tilecam.vision.connected import one_group
from tilecam.vision.context import bare_members, kind_of_square
from tilecam.vision.labelled import best_turn, labelled_photos, turned
from tilecam.vision.locate import BoardNotFound
from tilecam.vision.raised import TILE_FACE_HEIGHT
from tilecam.vision.read import BoardReading, read_board
from tilecam.vision.warp import cut_cells



@dataclass
class Tally:
    """Counts over a set of boards."""

    name: str
    cell_px: float = 0.0
    boards: int = 0
    boards_correct: int = 0
    not_found: int = 0
    cells: int = 0
    cell_errors: int = 0
    tile_cells: int = 0
    tile_errors: int = 0
    empty_cells: int = 0
    empty_false_positives: int = 0
    empty_read_covered: int = 0  # of them, read as covered (``#``): the reader saying it cannot see, not a tile
    unsure_touched: int = 0     # squares partly under the arm read as occluded (counted right)
    unsure_boards: int = 0      # boards the reader flagged as unsure (any square read unsurely)
    unsure_wrong: int = 0       # of the boards not fully right, those it flagged
    turns_told: int = 0         # photos whose row 1 the reader told (labels upright: the label's turn is the truth)
    turns_right: int = 0        # of them, told right
    loose: int = 0              # labels whose tiles are not one joined group (not a game's position)
    as_games: bool = True       # the photos were read as games' positions (tiles joined, runs words)
    positions: str = "yes"      # how the table says they were read (``evaluate_folder``'s ``positions``)
    tile_references: int = 0    # boards on which a premium kind's bare look was taken mostly from its tiles
    words: str = "-"            # the word list a game's runs of tiles were judged by ("-": none)
    log_loss: float = 0.0       # Σ −ln p(true class) over the scored squares with probabilities (calibration)
    log_loss_cells: int = 0
    corner_errors: list[float] = field(default_factory=list)
    corner_squares: list[float] = field(default_factory=list)
    timings: list[dict[str, float]] = field(default_factory=list)
    truth_labels: list[str] = field(default_factory=list)
    read_labels: list[str] = field(default_factory=list)
    wrong_boards: list[str] = field(default_factory=list)     # "name: square truth→read, …" of each board not right

    def add_not_found(self, truth: list[str], label: str) -> None:
        """A board the reader could not find: every square counted wrong, and the board flagged (it said so)."""
        board = np.array([list(row) for row in truth])
        self.boards += 1
        self.not_found += 1
        self.unsure_boards += 1
        self.unsure_wrong += 1
        self.cells += board.size
        self.cell_errors += board.size
        self.empty_cells += int((board == EMPTY).sum())
        self.tile_cells += int((board != EMPTY).sum())
        self.tile_errors += int((board != EMPTY).sum())
        self.wrong_boards.append(f"{label}: no board found")

    def add(self, truth: list[str], reading, true_corners: np.ndarray | None, skip: np.ndarray | None = None,
            any_corner_order: bool = False, timings: dict[str, float] | None = None,
            unsure_ok: np.ndarray | None = None, label: str = ""):
        """Score one board (``label`` names it in ``wrong_boards``). ``skip``: squares not scored (under the arm);
        ``unsure_ok``: squares the arm touches, where the occluded label ``#`` counts as right (and is counted in
        ``unsure_touched``)."""
        self.boards += 1
        board = np.array([list(row) for row in truth])
        read = np.array([list(row) for row in reading.grid])
        scored = np.ones(board.shape, bool) if skip is None else ~np.asarray(skip, bool)
        counted = read_as_scored(board, read, unsure_ok)
        if unsure_ok is not None:
            self.unsure_touched += int(((read == OCCLUDED) & np.asarray(unsure_ok, bool) & scored).sum())
        t, g = board[scored], counted[scored]                  # row-major, as the squares are named
        self.cells += len(t)
        self.truth_labels.extend(t.tolist())
        self.read_labels.extend(g.tolist())
        empty = t == EMPTY
        self.empty_cells += int(empty.sum())
        self.empty_false_positives += int((g[empty] != EMPTY).sum())
        self.empty_read_covered += int((g[empty] == OCCLUDED).sum())
        self.tile_cells += int((~empty).sum())
        self.tile_errors += int((g[~empty] != t[~empty]).sum())
        wrong = (counted != board) & scored
        self.cell_errors += int(wrong.sum())
        # under the arm the truth is hidden: those squares say nothing of the probabilities
        self._add_log_loss(board, reading, scored if unsure_ok is None else scored & ~np.asarray(unsure_ok, bool))
        self.boards_correct += not wrong.any()
        self.tile_references += references_from_tiles(board, reading)
        flagged = bool(getattr(reading, "is_unsure", False))
        self.unsure_boards += flagged
        self.unsure_wrong += flagged and bool(wrong.any())
        if wrong.any():
            self.wrong_boards.append(f"{label or self.boards}: " + ", ".join(
                f"{square_name(r, c)} {board[r, c]}→{read[r, c]}" for r, c in np.argwhere(wrong)))
        if true_corners is not None:
            # Renders come from any angle: the corner error measures the localiser, whose corners may start at
            # any corner (which edge is row 1 is the orientation step's job, scored by the cells above).
            turns = range(4) if any_corner_order else (0,)
            self.corner_errors.append(min(float(np.linalg.norm(np.roll(reading.corners, k, 0) - true_corners,
                                                               axis=1).max()) for k in turns))
            # In squares of this board (renders differ in scale): its mean side over its squares a side.
            side = np.linalg.norm(np.roll(true_corners, -1, 0) - true_corners, axis=1).mean()
            self.corner_squares.append(self.corner_errors[-1] / (side / len(truth)))
        self.timings.append(timings or reading.timings)

    def _add_log_loss(self, board: np.ndarray, reading, scored: np.ndarray) -> None:
        """The reading's probability of each scored square's true class, as −ln (a square whose class the model
        lacks, or a reading without probabilities, is left out): how much the probabilities themselves are worth,
        beyond which class wins."""
        probs, classes = getattr(reading, "probs", None), getattr(reading, "classes", None)
        if probs is None or classes is None:
            return
        index = {c: i for i, c in enumerate(classes)}
        truth = np.array([index.get(ch, -1) for ch in board.reshape(-1)])
        keep = np.flatnonzero(scored.reshape(-1) & (truth >= 0))
        p = np.asarray(probs, np.float64).reshape(len(truth), -1)[keep, truth[keep]]
        self.log_loss += float(-np.log(np.maximum(p, 1e-9)).sum())
        self.log_loss_cells += len(keep)

    def row(self) -> dict[str, str]:
        pct = lambda a, b: f"{100 * a / b:.3f} %" if b else "-"   # noqa: E731
        med = {k: float(np.median([t[k] for t in self.timings])) for k in ("localise", "orient", "rectify",
                                                                          "classify", "total")
               if all(k in t for t in self.timings)} if self.timings else {}
        corner = (f"{np.median(self.corner_errors):.2f} / {max(self.corner_errors):.2f} px"
                  f" ({np.median(self.corner_squares):.3f} / {max(self.corner_squares):.3f} sq)"
                  ) if self.corner_errors else "-"
        within = (f"{sum(e <= 0.1 for e in self.corner_squares)}/{len(self.corner_squares)}"
                  if self.corner_squares else "-")
        return {
            "set": self.name, "boards": str(self.boards),
            "per-cell error": f"{pct(self.cell_errors, self.cells)} ({self.cell_errors}/{self.cells})",
            "tile-cell error": f"{pct(self.tile_errors, self.tile_cells)} ({self.tile_errors}/{self.tile_cells})",
            "empty false +": f"{pct(self.empty_false_positives, self.empty_cells)} ({self.empty_false_positives}"
                             + (f"; {self.empty_read_covered} read covered #)" if self.empty_read_covered else ")"),
            "boards fully correct": f"{self.boards_correct}/{self.boards} ({pct(self.boards_correct, self.boards)})",
            "boards flagged unsure (of them wrong)": f"{self.unsure_boards} ({self.unsure_wrong})",
            "log-loss per square (−ln p of the truth)": (f"{self.log_loss / self.log_loss_cells:.4f}"
                                                         if self.log_loss_cells else "-"),
            "no board found": str(self.not_found),
            "row 1 told right": f"{self.turns_right}/{self.turns_told}" if self.turns_told else "-",
            "read as games' positions (tiles joined)": self.positions,
            "runs of tiles judged as words by": self.words if self.as_games else "-",
            "touched by the arm, read # (counted right)": str(self.unsure_touched),
            "boards with a kind's bare look taken from its tiles": str(self.tile_references),
            "corner error median / max": corner,
            "corners within 1/10 square": within,
            **{f"{k} ms": f"{v:.1f}" for k, v in med.items()},
        }


def references_from_tiles(board: np.ndarray, reading) -> bool:
    """Whether, on this labelled ``board`` (in the reading's turn), some premium kind's bare look was taken mostly
    from squares that hold tiles (``context.bare_members``): the reader then judged that kind's squares against a
    tile."""
    warped = getattr(reading, "warped", None)
    if warped is None:
        return False
    size = board.shape[0]
    picks = bare_members(cut_cells(warped, size), kind_of_square(size))
    tiles = (board != EMPTY).reshape(-1)
    return any(tiles[members].mean() >= 0.5 for members in picks.values())


def _progress(done: int, total: int, what: str) -> None:
    print(f"\r  {what}: {done}/{total}", end="" if done < total else "\n", file=sys.stderr, flush=True)


def evaluate_folder(classifier: TileClassifier, folder: Path, tileset=None, name: str | None = None,
                    lexicon=None, positions: str = "labels", tile_height: float = TILE_FACE_HEIGHT,
                    adapter=None) -> Tally:
    """Every labelled photo of ``folder`` read as a single photo (the turn told by the reader), scored in the turn
    of the reading that fits the label best. ``tileset`` None: every letter the model knows is allowed.

    A folder is read as photos of games (``read_board(settled=True)``: a game's tiles hang together) unless one of
    its labels is not one joined group of tiles — tiles laid out for a detector, not a game's position — when the
    whole folder is read as loose tiles, and the table says how many labels were not game positions. ``lexicon``:
    the games' word list, by which a game's runs of tiles are words (``vision.words``). ``positions``: ``labels`` as
    above (the figure of record), ``games`` every photo as a game's position (as ``tilecam read`` reads a photo by
    default), ``loose`` every photo as tiles laid anywhere (``tilecam read --loose``). ``tile_height``: as
    ``read_board``'s. ``adapter``: the tiles learnt from a photo of the set laid out (``vision.laidout``), as
    ``read_board``'s."""
    tally = Tally(name or folder.name)
    photos = labelled_photos(folder)
    tally.loose = sum(not one_group(photo.board) for photo in photos)
    if positions == "labels":
        tally.as_games = not tally.loose
        tally.positions = f"no: {tally.loose} labels are not one group" if tally.loose else "yes"
    else:
        tally.as_games = positions == "games"
        tally.positions = (f"{'yes' if tally.as_games else 'no'} (read so whatever the labels; {tally.loose} are "
                           "not one group)")
    if lexicon is not None:
        tally.words = Path(lexicon.source).stem if getattr(lexicon, "source", "") else "a word list"
    for i, photo in enumerate(photos):
        image = cv2.imread(str(photo.photo))
        label = f"{folder.name}/{photo.name}"
        try:
            reading = read_board(image, classifier, tileset=tileset, rotation=None, settled=tally.as_games,
                                 lexicon=lexicon, tile_height=tile_height, adapter=adapter)
        except BoardNotFound:
            tally.add_not_found(list(photo.board), label)
            continue
        turn = best_turn(photo.board, reading.grid)
        truth = ["".join(row) for row in turned(photo.board, -turn % 4)]
        tally.add(truth, reading, None, label=label)
        tally.turns_told += 1
        tally.turns_right += turn == 0
        _progress(i + 1, len(photos), tally.name)
    return tally


def evaluate_renders(classifier: TileClassifier, n: int, tileset: str = "english", first: int = 0,
                     empty: bool = False, layout: str = "standard15", name: str | None = None,
                     frame: tuple[int, int] = (960, 720), tile_height: float = TILE_FACE_HEIGHT) -> Tally:
    """The ``n`` held-out renders from the ``first``-th held-out seed on (the bench's are the first 100). With
    ``empty``, the same scenes (look, camera, light) with no tile on the board: the first frame of every game,
    whose bare centre star random positions always cover. ``layout``: the board rendered and read (``super21``:
    Super Scrabble's 21x21, read with ``size=21``); ``frame``: the picture's width and height in pixels;
    ``tile_height``: as ``read_board``'s."""
    from tilecam.engine.layout import Layout
    from tilecam.models import synth

    size = Layout.load(layout).size
    seeds = synth.HELDOUT_SEEDS[first:first + n]
    kind = "empty boards, held-out scenes" if empty else "held-out renders"
    if name is None:
        name = f"{kind} ({tileset})" if not first else f"{kind} ({tileset}, seeds {seeds[0]}…)"
    grid = ("." * size,) * size if empty else None
    tally = Tally(name)
    for i, seed in enumerate(seeds):
        render = synth.render_board(grid, seed=int(seed), styles=synth.HELDOUT_STYLES, tileset=tileset,
                                    layout=layout, size=frame)
        if score_render(tally, classifier, render, f"{seed} {render.style}", tileset, size,
                        tile_height) is not None:
            _progress(i + 1, len(seeds), tally.name)
    return tally


def score_render(tally: Tally, classifier: TileClassifier, render, label: str, tileset: str | None = "english",
                 size: int = 15, tile_height: float = TILE_FACE_HEIGHT) -> tuple[list[str], BoardReading] | None:
    """One render read as a single photo from an unknown angle (which edge is row 1 told from the letters by the
    reader) and scored into ``tally`` (under ``label``): the truth in the turn read and the reading, or None when
    no board was found (all its squares counted wrong)."""
    truth = [row.replace("#", ".") for row in render.grid]
    try:
        reading = read_board(render.image, classifier, tileset=tileset, rotation=None, size=size,
                             tile_height=tile_height)
    except BoardNotFound:
        tally.add_not_found(truth, label)
        return None
    truth, skip, touched = arm_in_the_turn_read(truth, np.asarray(render.occluded), np.asarray(render.touched),
                                                reading.grid)
    tally.add(truth, reading, np.asarray(render.corners), skip=skip, any_corner_order=True,
              timings=dict(reading.timings), unsure_ok=touched, label=label)
    return truth, reading


def read_as_scored(board: np.ndarray, read: np.ndarray, unsure_ok: np.ndarray | None) -> np.ndarray:
    """The reading (15 x 15 labels, or 21 x 21) as it is scored against ``board``: the occluded label ``#`` on a
    square the arm touches (``unsure_ok``) counts as the truth there."""
    if unsure_ok is None:
        return read
    return np.where((read == OCCLUDED) & np.asarray(unsure_ok, bool), board, read)


def arm_in_the_turn_read(truth: list[str], skip: np.ndarray, touched: np.ndarray, grid
                         ) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The truth and the squares under the arm (``skip``) and touched by it, in the turn the reading took where
    the tiles in sight leave the turn open: a board that is the same a quarter or half turn round (an empty board,
    the commonest), or one whose only tiles lie under the arm, has no row 1 to tell from its tiles, and every such
    turn is a right one. The turn that fits the reading best is scored."""
    board = np.array([list(row) for row in truth])
    read = np.array([list(row) for row in grid])
    hidden_only = bool(((board == EMPTY) | skip).all())
    best = None
    for k in range(4):
        turned = np.rot90(board, k)
        if not (hidden_only or (turned == board).all()):
            continue
        s, t = np.rot90(skip, k), np.rot90(touched, k)
        wrong = int(((read_as_scored(turned, read, t) != turned) & ~s).sum())
        if best is None or wrong < best[0]:
            best = (wrong, ["".join(row) for row in turned], s, t)
    return best[1], best[2], best[3]


def confusion_png(tally: Tally, classes: tuple[str, ...], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = [c for c in classes if c in set(tally.truth_labels) | set(tally.read_labels)]
    index = {c: i for i, c in enumerate(labels)}
    m = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for t, g in zip(tally.truth_labels, tally.read_labels):
        m[index[t], index[g]] += 1
    fig, ax = plt.subplots(figsize=(9, 8))
    ax.imshow(np.log1p(m), cmap="Blues")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("read")
    ax.set_ylabel("truth")
    ax.set_title(f"{tally.name}: {tally.cell_errors} of {tally.cells} squares wrong")
    for i, j in zip(*np.nonzero(m)):
        if i != j:
            ax.text(j, i, str(m[i, j]), ha="center", va="center", color="red", fontsize=8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def add_render_bench_options(parser, first_render: int) -> None:
    """The options of a bench over held-out renders (``tilecam bench super``, ``tilecam bench tilesets``):
    ``--renders``, ``--first-render`` (an index of ``synth.HELDOUT_SEEDS``, the bench's own range by default),
    ``--model``, ``--threads``."""
    parser.add_argument("--renders", type=int, default=100, help="boards in each column (default 100)")
    parser.add_argument("--first-render", type=int, default=first_render,
                        help=f"index of the first held-out seed (default {first_render})")
    parser.add_argument("--model", type=Path, help="tile model (default the shipped one)")
    parser.add_argument("--threads", type=int, default=2, help="onnxruntime and OpenCV threads (default 2)")


def bench_classifier(args) -> TileClassifier:
    """The tile model of ``add_render_bench_options``' ``--model``, onnxruntime and OpenCV on ``--threads``."""
    cv2.setNumThreads(args.threads)
    return TileClassifier.load(args.model, threads=args.threads)


def print_table(rows: list[dict[str, str]]) -> None:
    keys = list(dict.fromkeys(k for r in rows for k in r))   # every measure any set has, in first-seen order
    print("| measure | " + " | ".join(r["set"] for r in rows) + " |")
    print("| --- | " + " | ".join("---" for _ in rows) + " |")
    for k in keys[1:]:
        print(f"| {k} | " + " | ".join(r.get(k, "-") for r in rows) + " |")


def print_wrong_boards(tallies) -> None:
    """Each set's boards not fully right, a line each: the squares read wrong, as ``square truth→read``."""
    for t in tallies:
        if t.wrong_boards:
            print(f"{t.name}, boards not fully right (column-row square, truth→read):")
            print("".join(f"  {b}\n" for b in t.wrong_boards), end="")


def folder_and_tiles(given) -> tuple[Path, str | None]:
    """``DIR`` or ``DIR=TILESET`` (the tile set the photos' game is played with, as a game's settings say it)."""
    text = str(given)
    if "=" in text:
        folder, tiles = text.rsplit("=", 1)
        return Path(folder), tiles
    return Path(text), None


def default_real_folders() -> list[Path]:
    """The ScrabScrap games kept for evaluation, where ../shared is beside the checkout."""
    return [Path(f"{SHARED_BOARDS / g}=german") for g in ("game03", "game04") if (SHARED_BOARDS / g).is_dir()]


def _laid_out_adapter(classifier: TileClassifier, photo: Path, tiles):
    """The reader's adaptation to the tiles laid out in ``photo`` (``vision.laidout``: the tile set ``tiles``)."""
    from tilecam.vision.laidout import learn_laid_out_photo

    looks = learn_laid_out_photo(photo, classifier, tiles)
    print(f"tiles learnt from {photo}: {looks.tiles} ({tiles})")
    return looks.profile(classifier.classes).adapter()


def run_evaluation(renders: int = 0, real_dirs: list[Path] | None = None, model: Path | None = None,
                   out_dir: Path = Path("out/eval-vision"), threads: int = 2, first_render: int = 0,
                   empty: int = 0, tileset="english", lexicon: str | None = None, positions: str = "labels",
                   tile_height: float = TILE_FACE_HEIGHT, laid_out: Path | None = None) -> int:
    from tilecam.core.lexicons import lexicon_for

    classifier = TileClassifier.load(model, threads=threads)
    cv2.setNumThreads(threads)
    tallies: list[Tally] = []
    adapter = None
    for given in default_real_folders() if real_dirs is None else real_dirs:
        folder, own_tiles = folder_and_tiles(given)
        if not folder.is_dir():
            print(f"(no folder {folder}: skipped)", file=sys.stderr)
            continue
        tiles = own_tiles or tileset
        if laid_out is not None and adapter is None:
            adapter = _laid_out_adapter(classifier, laid_out, tiles)
        name = f"{folder.name} (tiles laid out)" if adapter is not None else None
        tallies.append(evaluate_folder(classifier, folder, tiles, name, lexicon=lexicon_for(tiles, lexicon),
                                       positions=positions, tile_height=tile_height, adapter=adapter))
    if renders:
        tallies.append(evaluate_renders(classifier, renders, first=first_render, tile_height=tile_height))
    if empty:
        tallies.append(evaluate_renders(classifier, empty, first=first_render, empty=True, tile_height=tile_height))
    if not tallies:
        print("nothing to evaluate", file=sys.stderr)
        return 2
    size = classifier.path.stat().st_size / 1024
    trained = classifier.spec.trained.get("sources", [])
    print(f"model {classifier.path} ({size:.0f} KiB), onnxruntime threads {threads}")
    if trained:
        print(f"trained on: {', '.join(trained)}")
    print_table([t.row() for t in tallies])
    print_wrong_boards(tallies)
    try:
        for t in tallies:
            slug = "".join(ch if ch.isalnum() else "-" for ch in t.name).strip("-")
            print(f"confusion matrix: {confusion_png(t, classifier.classes, out_dir / f'confusion-{slug}.png')}")
    except ImportError:
        print("(confusion matrices need matplotlib: pip install 'tilecam[dev]')", file=sys.stderr)
    return 0
