"""A game-video generator: any GCG game as a sequence of camera frames, with the truth alongside.

    GCG record ──script_game(seed)──▶ [FrameSpec] (board shown, hand/arm polygon, lighting, camera jitter)
                                       + truth (every event, the frame where it is complete)
                                       + externals (passes/exchanges a camera cannot see, as an events file)
               ──render_game──▶ frames (tilecam.models.synth's renderer, one image per FrameSpec)

A hand comes in from the player's side, places the tiles one at a time (sometimes hesitating over a square, or
nudging a tile it has put down; with ``p_pause``, stopping part-way with the hand away long enough for the board to
settle), and leaves; the board then stays still for a moment. A withdrawn phony is taken
back tile by tile. Lighting drifts slowly; rarely the camera jitters for a frame. Everything is decided by the seed:
the same record and seed give the same frames.

``simulate_readings`` turns the specs straight into readings (occluded squares under the hand, noisy confidences, a
few doubtful letters), so move inference can be exercised without images.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from tilecam.engine.board import Board
from tilecam.engine.coords import format_coord, parse_coord
from tilecam.engine.gcg import GcgGame
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class ScriptConfig:
    """Pacing in frames (at ``fps``) and how often things happen."""

    fps: float = 10.0
    enter_frames: int = 2          # the arm reaching in
    per_tile_frames: int = 2       # over a square, then the tile is down (hand still there)
    leave_frames: int = 2
    still_frames: int = 8          # the board left alone after a turn (0.8 s: a jitter in it still leaves 3)
    p_hesitate: float = 0.15       # per tile: the hand hovers over a square a while
    p_nudge: float = 0.2           # per play: a placed tile is nudged (the hand over it again)
    p_jitter: float = 0.01         # per still frame: the camera shakes for one frame
    light_drift: float = 0.12      # lighting varies by up to this fraction over a game
    p_pause: float = 0.0           # per play of two or more tiles: the player stops part-way, takes the hand away
                                   # while the board stays still (``still_frames``: long enough to settle), and goes
                                   # on from the same side (0: never, and the seed's frames as before)


@dataclass(frozen=True, slots=True)
class FrameSpec:
    """What one frame shows: the board (board text), the arm polygon in grid units (x = column, y = row, 0..15;
    empty = no hand), a brightness gain, a camera shift in grid units, a nudged tile (row, col, dx, dy in grid
    units) and the index of the last event complete on this board (-1 before any)."""

    rows: tuple[str, ...]
    hand: tuple[Point, ...] = ()
    light: float = 1.0
    shift: Point = (0.0, 0.0)
    nudge: tuple[int, int, float, float] | None = None
    event: int = -1


@dataclass
class GameVideo:
    """A rendered (or only scripted) game: specs, frames (BGR images; empty until rendered), the truth and the
    externals (events-file lines for passes and exchanges)."""

    specs: list[FrameSpec]
    truth: list[dict[str, Any]]
    externals: list[dict[str, Any]]
    tileset: str
    players: list[str]
    seed: int
    frames: list[np.ndarray] = field(default_factory=list)


# ------------------------------------------------------------------------------------------------ script


def _arm(side: int, target: Point, rng: random.Random, size: int = 15) -> tuple[Point, ...]:
    """An arm polygon reaching from the player's edge (0 bottom, 1 top, 2 left, 3 right) to ``target``."""
    tx, ty = target
    if side == 0:
        ex, ey = tx + rng.uniform(-3, 3), size + 4.0
    elif side == 1:
        ex, ey = tx + rng.uniform(-3, 3), -4.0
    elif side == 2:
        ex, ey = -4.0, ty + rng.uniform(-3, 3)
    else:
        ex, ey = size + 4.0, ty + rng.uniform(-3, 3)
    dx, dy = tx - ex, ty - ey
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    px, py = -uy, ux
    w_arm, w_hand = rng.uniform(0.9, 1.3), rng.uniform(1.0, 1.4)
    tip = (tx + ux * 0.8, ty + uy * 0.8)
    pts = [(ex + px * w_arm, ey + py * w_arm), (tx - ux * 0.6 + px * w_hand, ty - uy * 0.6 + py * w_hand),
           (tip[0] + px * 0.5, tip[1] + py * 0.5), (tip[0] - px * 0.5, tip[1] - py * 0.5),
           (tx - ux * 0.6 - px * w_hand, ty - uy * 0.6 - py * w_hand), (ex - px * w_arm, ey - py * w_arm)]
    return tuple((round(x, 3), round(y, 3)) for x, y in pts)


def script_game(record: GcgGame, seed: int, tileset: str | None = None,
                config: ScriptConfig | None = None, rules: Rules | None = None) -> GameVideo:
    """Script the frames of ``record`` (see the module doc). Events a camera cannot see (passes, exchanges)
    become externals at the frame where they happen; scores and end-of-game lines are only in the truth.
    ``rules``: the game's (a variant's board and tile set; a 21x21 board takes :func:`centred` records), else the
    classic game's with ``tileset``; either way with no limit on scoreless turns."""
    cfg = config or ScriptConfig()
    rng = random.Random(seed)
    if rules is None:
        rules = Rules(tileset=tileset or record.guess_tileset())
    rules = replace(rules, max_scoreless_turns=None)
    tiles, size = rules.tileset, rules.board_layout.size
    specs: list[FrameSpec] = []
    truth: list[dict[str, Any]] = []
    externals: list[dict[str, Any]] = []
    phase = rng.uniform(0, 2 * math.pi)
    n_players = max(2, len(record.players))
    sides = [0, 1, 2, 3][:n_players]
    state = {"event": -1, "board": Board(rules.board_layout)}

    def light() -> float:
        k = len(specs)
        return round(1.0 + cfg.light_drift * math.sin(phase + k / 180.0) + rng.uniform(-0.01, 0.01), 4)

    def emit(hand: tuple[Point, ...] = (), nudge=None, jitter: bool = False) -> None:
        shift = (round(rng.uniform(-0.15, 0.15), 3), round(rng.uniform(-0.15, 0.15), 3)) if jitter else (0.0, 0.0)
        specs.append(FrameSpec(tuple(state["board"].rows()), hand, light(), shift, nudge, state["event"]))

    def still(n: int) -> None:
        for _ in range(n):
            emit(jitter=rng.random() < cfg.p_jitter)

    still(cfg.still_frames)

    def on_event(i: int, computed: list, board_before: Board) -> None:
        if not computed:
            return
        ev = computed[0]
        side = sides[ev.player % len(sides)]
        if ev.kind in ("play", "withdraw"):
            placement = Placement.from_gcg(ev.position, ev.word)
            squares = [(r, c, t) for r, c, t in placement.new_tiles()]
            if ev.kind == "withdraw":
                squares.reverse()
            order = squares if rng.random() < 0.7 else rng.sample(squares, len(squares))
            first = order[0]
            for _ in range(cfg.enter_frames):
                emit(_arm(side, (first[1] + 0.5, first[0] + 0.5), rng, size))
            nudge_at = rng.randrange(len(order)) if ev.kind == "play" and rng.random() < cfg.p_nudge else -1
            pause_after = rng.randrange(len(order) - 1) if (cfg.p_pause and ev.kind == "play" and len(order) > 1
                                                            and rng.random() < cfg.p_pause) else -1
            for k, (r, c, t) in enumerate(order):
                target = (c + 0.5, r + 0.5)
                for _ in range(cfg.per_tile_frames - 1 + (rng.randint(1, 4) if rng.random() < cfg.p_hesitate else 0)):
                    emit(_arm(side, target, rng, size))
                state["board"][r, c] = t if ev.kind == "play" else None
                emit(_arm(side, target, rng, size))
                if k == nudge_at:
                    dx, dy = rng.uniform(-0.12, 0.12), rng.uniform(-0.12, 0.12)
                    emit(_arm(side, target, rng, size), nudge=(r, c, round(dx, 3), round(dy, 3)))
                if k == pause_after:
                    for _ in range(cfg.leave_frames):
                        emit(_arm(side, (c + 0.5 + rng.uniform(-2, 2), r + 0.5 + rng.uniform(-2, 2)), rng, size))
                    still(cfg.still_frames)
                    nxt = order[k + 1]
                    for _ in range(cfg.enter_frames):
                        emit(_arm(side, (nxt[1] + 0.5, nxt[0] + 0.5), rng, size))
            for _ in range(cfg.leave_frames):
                last = order[-1]
                emit(_arm(side, (last[1] + 0.5 + rng.uniform(-2, 2), last[0] + 0.5 + rng.uniform(-2, 2)), rng,
                          size))
        state["event"] = len(truth)
        entry = {"index": len(truth), "kind": ev.kind, "player": ev.player, "score": ev.score, "total": ev.total,
                 "frame": len(specs) + 1}
        if ev.kind in ("play", "withdraw"):
            entry.update(position=ev.position, word=ev.word)
        if ev.kind == "exchange":
            entry.update(count=ev.count)
        if ev.kind in ("pass", "exchange"):
            externals.append({"frame": len(specs) + 1, "event": ev.kind, "player": ev.player,
                              **({"count": ev.count} if ev.kind == "exchange" else {})})
        truth.append(entry)
        for extra in computed[1:]:
            truth.append({"index": len(truth), "kind": extra.kind, "player": extra.player, "score": extra.score,
                          "total": extra.total, "frame": len(specs) + 1})
        still(cfg.still_frames)

    record.replay(rules, on_event=on_event)
    return GameVideo(specs, truth, externals, tiles, [p.name for p in record.players], seed)


def centred(record: GcgGame, size: int) -> GcgGame:
    """A 15x15 game's ``record`` played in the middle of a board of ``size`` squares a side (Super Scrabble's 21):
    every position moved ``(size - 15) // 2`` rows down and as many columns right, so the opening covers that
    board's centre star. Replayed, its scores are the larger board's (a record's own are ignored)."""
    shift = (size - 15) // 2
    if shift <= 0:
        return record

    def moved(position: str) -> str:
        row, col, across = parse_coord(position)
        return format_coord(row + shift, col + shift, across)

    events = [replace(e, position=moved(e.position)) if e.position else e for e in record.events]
    return replace(record, events=events)


# ------------------------------------------------------------------------------------------------ readings


def occluded_squares(spec: FrameSpec, size: int = 15, margin: float = 0.35) -> set[tuple[int, int]]:
    """Squares the arm polygon covers (any part of it within ``margin`` of the square's centre)."""
    if not spec.hand:
        return set()
    import cv2

    px = 8                                      # raster resolution per square
    pad = 8 * px                                # the arm starts off the board
    canvas = np.zeros((size * px + 2 * pad, size * px + 2 * pad), np.uint8)
    pts = np.round((np.array(spec.hand) * px) + pad).astype(np.int32)
    cv2.fillPoly(canvas, [pts], 1)
    inner = canvas[pad:pad + size * px, pad:pad + size * px]
    lo, hi = round((0.5 - margin) * px), round((0.5 + margin) * px)
    cells = inner.reshape(size, px, size, px)[:, lo:hi, :, lo:hi]
    hit = cells.any(axis=(1, 3))
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(hit))}


def simulate_readings(video: GameVideo, seed: int, doubt_rate: float = 0.01, stray_rate: float = 0.0) -> list[Any]:
    """A stand-in for the vision reader: each spec as a Reading (squares under the arm occluded; letters read
    with high confidence, a fraction ``doubt_rate`` of tiles doubtful between the right letter and another;
    blank tiles read as ``?``; in a fraction ``stray_rate`` of frames one empty square doubtfully read as a tile).
    Seeded and deterministic."""
    from tilecam.engine.tiles import TileSet
    from tilecam.vision.infer import Reading

    rng = random.Random(seed)
    letters = TileSet.load(video.tileset).letters
    out = []
    for spec in video.specs:
        occ = occluded_squares(spec, len(spec.rows))
        rows = [list(r) for r in spec.rows]
        uncertain = {}
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                if ch == ".":
                    continue
                if ch.islower():
                    rows[r][c] = "?"
                elif rng.random() < doubt_rate:
                    other = rng.choice([x for x in letters if x != ch])
                    p = rng.uniform(0.5, 0.8)
                    options = [(ch, p), (other, round(1 - p - 0.01, 3))]
                    if rng.random() < 0.3:      # now and then the model prefers the wrong letter, unsurely
                        options = [(other, p), (ch, round(1 - p - 0.01, 3))]
                    uncertain[(r, c)] = options
        if rng.random() < stray_rate:
            empties = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
            r, c = rng.choice(empties)
            p = rng.uniform(0.5, 0.7)
            uncertain[(r, c)] = [(rng.choice(letters), p), (".", round(1 - p - 0.01, 3))]
        rows_text = ["".join(r) for r in rows]
        out.append(Reading.from_rows(rows_text, confidence=0.97,
                                     uncertain={k: v for k, v in uncertain.items() if k not in occ},
                                     occluded=sorted(occ)))
    return out


# ------------------------------------------------------------------------------------------------ rendering


def render_game(record: GcgGame, seed: int, tileset: str | None = None, config: ScriptConfig | None = None,
                image_px: int | None = None) -> GameVideo:
    """Script the game and render every frame with ``tilecam.models.synth`` (frames ``image_px`` wide)."""
    video = script_game(record, seed, tileset, config)
    video.frames = render_specs(video.specs, video.tileset, seed, image_px)
    return video


def render_specs(specs: Sequence[FrameSpec], tileset: str, seed: int, image_px: int | None = None) -> list[np.ndarray]:
    """Each spec as an image, one fixed scene (board, camera, table) for the whole video."""
    return list(iter_render(specs, tileset, seed, image_px))


def iter_render(specs: Sequence[FrameSpec], tileset: str, seed: int, image_px: int | None = None,
                renderer: str = "synth", layout: str = "standard15", camera: str = "drawn") -> Iterator[np.ndarray]:
    """:func:`render_specs` one frame at a time (a whole game need not be held in memory). ``renderer``:
    ``"synth"`` (``tilecam.models.synth``, the default) or ``"photos"`` (:class:`PhotoCompositor`: real tile
    photos on a real empty board, 15x15 only). ``image_px``: the frames' width (None: as rendered, 960 px for synth;
    a larger board in a frame as much larger, its squares as many pixels as a classic board's). ``layout``: the
    board's (``super21``: Super Scrabble's 21x21, the specs' rows 21 long). ``camera``: one of ``CAMERAS``, the
    seed's drawn scene seen by that set-up (:func:`camera_scene`; synth only)."""
    if camera not in CAMERAS:
        raise ValueError(f"unknown camera set-up {camera!r} (known: {', '.join(CAMERAS)})")
    if renderer == "photos":
        if layout != "standard15":
            raise ValueError(f"the photo compositor has only the classic board, not {layout}")
        if camera != "drawn":
            raise ValueError(f"the photo compositor has only its photos' camera, not {camera!r}")
        compositor = PhotoCompositor.load(seed)
        for spec in specs:
            yield compositor.render(spec)
        return
    from tilecam.engine.layout import Layout
    from tilecam.models import synth

    scene = synth.sample_scene(np.random.default_rng(seed), tileset=tileset)
    if camera != "drawn":
        scene = camera_scene(scene, camera, Layout.load(layout).size)
    for spec in specs:
        yield _render_one(synth, spec, scene, tileset, image_px, seed, layout)


# --- camera set-ups -----------------------------------------------------------------------------------------------

#: The steep set-up's camera: tilted this far from looking straight down (``synth.Scene.tilt_deg``; the scenes
#: ``synth.sample_scene`` draws lean 0-35 degrees).
STEEP_TILT_DEG = 45.0
#: The small set-up's board: a square this many pixels wide on average (its four grid edges' mean length / 15) in a
#: 960x720 frame. The scenes ``synth.sample_scene`` draws have squares of 19-42 px, half of them under 28: this
#: board is smaller than the drawn one in some scenes, larger in others.
SMALL_SQUARE_PX = 30.0
#: The largest ``fill`` a set-up gives a board, the largest ``synth.sample_scene`` draws: the board, frame included,
#: at most 92 % of the frame's shorter side. A small board turned near 45 degrees in the picture with a wide frame
#: would need more for squares of ``SMALL_SQUARE_PX``: it gets this, and squares a little smaller.
MAX_FILL = 0.92
#: ``drawn``: the scene as the seed draws it; ``steep``: tilted ``STEEP_TILT_DEG``; ``small``: squares of
#: ``SMALL_SQUARE_PX``; ``steep-small``: both.
CAMERAS = ("drawn", "steep", "small", "steep-small")


def camera_scene(scene: Any, camera: str, grid_size: int = 15) -> Any:
    """The drawn ``scene`` (a ``synth.Scene``) seen by the camera set-up ``camera`` (one of ``CAMERAS``), all else as
    drawn: the lean's direction, the board's turn, the camera's distance, the light. ``steep`` sets ``tilt_deg``;
    ``small`` sets ``fill`` (the board's largest extent over the frame's shorter side, frame and turn included) to
    what gives squares of ``SMALL_SQUARE_PX`` (a square's width grows in proportion to ``fill``), at most
    ``MAX_FILL``. A board stays inside the frame at any tilt: synth scales its largest projected extent to ``fill``
    of the shorter side and pulls it in from the edges."""
    from tilecam.models import synth
    from tilecam.vision.warp import square_px

    if camera not in CAMERAS:
        raise ValueError(f"unknown camera set-up {camera!r} (known: {', '.join(CAMERAS)})")
    if camera in ("steep", "steep-small"):
        scene = replace(scene, tilt_deg=STEEP_TILT_DEG)
    if camera in ("small", "steep-small"):
        square = square_px(synth.grid_corners(scene, _frame_size(grid_size), grid_size), grid_size)
        scene = replace(scene, fill=min(MAX_FILL, scene.fill * SMALL_SQUARE_PX / square))
    return scene


def _frame_size(grid_size: int) -> tuple[int, int]:
    """The synth frame for a board of ``grid_size`` squares a side: 960x720 for the classic board, a larger board's
    as much larger (its squares as many pixels)."""
    return 960 * grid_size // 15, 720 * grid_size // 15


# --- real photos as material -------------------------------------------------------------------------------------

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
PHOTO_GAMES = ("game03", "game04")      # photos the tile model was not trained on
EMPTY_PHOTO = ("game03", "image-1")     # the board before any tile (the record opens with an exchange)


class PhotoCompositor:
    """Frames made of real photographs: the empty ScrabScrap board of ``EMPTY_PHOTO`` with, on each square, a tile
    cut from one of the labelled photos of ``PHOTO_GAMES`` (same camera, so each tile keeps its real look; a tile
    is carried from its square to another by the perspective of the two squares). A hand/arm is painted over the
    board as a skin-coloured polygon with a soft shadow. Seeded: the tile picked for a square and letter is fixed
    by (seed, square, letter)."""

    def __init__(self, empty: np.ndarray, grid_to_image: np.ndarray, library: dict[str, list[tuple[np.ndarray,
                 np.ndarray]]], seed: int) -> None:
        self.empty = empty
        self.h = grid_to_image
        self.library = library          # label -> [(source image, source square quad)]
        self.seed = seed
        self._board: dict[tuple[int, int], str] = {}
        self._image = empty.copy()

    @classmethod
    def load(cls, seed: int, shared: Path = SHARED, games: Sequence[str] = PHOTO_GAMES,
             photos: int | None = None) -> "PhotoCompositor":
        """The empty board and the tile library (cached per process); ``photos`` limits the photos per game."""
        import cv2

        from tilecam.vision.locate import locate_board

        folder = shared / "data" / "real-boards" / "scrabscrap"
        if not folder.is_dir():
            raise FileNotFoundError(f"no real-board photos under {folder} (needed by the photo renderer)")
        key = f"{folder}:{','.join(games)}:{photos}"
        cache = _LIBRARY_CACHE.get(key)
        if cache is None:
            library: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {}
            for game in games:
                files = sorted((folder / game).glob("image-*.board.txt"), key=lambda p: int(p.name[6:-10]))
                for label_file in files[-photos:] if photos else files:
                    image = cv2.imread(str(label_file.with_name(label_file.name.replace(".board.txt", ".jpg"))))
                    h = _grid_homography(locate_board(image).corners)
                    rows = label_file.read_text(encoding="utf-8").split()
                    for r, row in enumerate(rows):
                        for c, ch in enumerate(row):
                            if ch != ".":
                                key = "?" if ch.islower() else ch
                                library.setdefault(key, []).append((image, _square_quad(h, r, c)))
            game, name = EMPTY_PHOTO
            empty = cv2.imread(str(folder / game / f"{name}.jpg"))
            cache = (empty, _grid_homography(locate_board(empty).corners), library)
            _LIBRARY_CACHE[key] = cache
        empty, h, library = cache
        return cls(empty, h, library, seed)

    def render(self, spec: FrameSpec) -> np.ndarray:
        """The frame for ``spec``: tiles as in ``spec.rows`` (a nudged one moved), the arm, lighting, jitter."""
        import cv2

        wanted = {(r, c): ("?" if ch.islower() else ch) for r, row in enumerate(spec.rows)
                  for c, ch in enumerate(row) if ch != "."}
        for rc in set(self._board) | set(wanted):
            if self._board.get(rc) != wanted.get(rc):
                self._paint(rc, wanted.get(rc))
        image = self._image
        if spec.nudge is not None:
            r, c, dx, dy = spec.nudge
            if (r, c) in wanted:
                image = image.copy()
                self._paint_tile(image, (r, c), wanted[(r, c)], offset=(dx, dy))
        if spec.hand:
            image = image.copy() if image is self._image else image
            pts = cv2.perspectiveTransform(np.array([spec.hand], np.float32), self.h)[0]
            shadow = image.copy()
            cv2.fillPoly(shadow, [np.round(pts + (14, 18)).astype(np.int32)], (0, 0, 0))
            image = cv2.addWeighted(shadow, 0.35, image, 0.65, 0)
            skin = np.array([120, 150, 205], np.float32) * (0.9 + 0.2 * ((sum(map(sum, spec.hand)) * 7.3) % 1))
            cv2.fillPoly(image, [np.round(pts).astype(np.int32)], tuple(int(v) for v in skin))
        if image is self._image:
            image = image.copy()        # the caller gets its own frame; the composite board stays ours
        return _post(image, spec, image.shape[1])

    def _paint(self, rc: tuple[int, int], label: str | None) -> None:
        if label is None:
            quad = _square_quad(self.h, *rc)
            mask = np.zeros(self.empty.shape[:2], np.uint8)
            import cv2

            cv2.fillConvexPoly(mask, np.round(_grow(quad, 1.08)).astype(np.int32), 1)
            self._image[mask > 0] = self.empty[mask > 0]
            self._board.pop(rc, None)
        else:
            self._paint_tile(self._image, rc, label)
            self._board[rc] = label

    def _paint_tile(self, image: np.ndarray, rc: tuple[int, int], label: str,
                    offset: tuple[float, float] = (0.0, 0.0)) -> None:
        import cv2

        choices = self.library.get(label)
        if not choices:
            raise KeyError(f"no photo of a {label!r} tile")
        rng = random.Random(f"{self.seed}:{rc}:{label}")
        src, src_quad = choices[rng.randrange(len(choices))]
        r, c = rc
        dst_quad = _square_quad(self.h, r + offset[1], c + offset[0])
        src_quad, dst_quad = _grow(src_quad, 1.04), _grow(dst_quad, 1.04)
        x0, y0 = np.floor(dst_quad.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst_quad.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
        m = cv2.getPerspectiveTransform(src_quad.astype(np.float32), (dst_quad - (x0, y0)).astype(np.float32))
        patch = cv2.warpPerspective(src, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, np.round(dst_quad - (x0, y0)).astype(np.int32), 1)
        region = image[y0:y1, x0:x1]
        region[mask > 0] = patch[mask > 0]


_LIBRARY_CACHE: dict[str, Any] = {}


def _grid_homography(corners: np.ndarray) -> np.ndarray:
    """Grid units (x = column, y = row, 0..15) → image pixels."""
    import cv2

    src = np.float32([[0, 0], [15, 0], [15, 15], [0, 15]])
    return cv2.getPerspectiveTransform(src, np.asarray(corners, np.float32).reshape(4, 2))


def _square_quad(h: np.ndarray, r: float, c: float) -> np.ndarray:
    import cv2

    pts = np.float32([[[c, r], [c + 1, r], [c + 1, r + 1], [c, r + 1]]])
    return cv2.perspectiveTransform(pts, h)[0]


def _grow(quad: np.ndarray, factor: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    return centre + (quad - centre) * factor


def _render_one(synth: Any, spec: FrameSpec, scene: Any, tileset: str, image_px: int, seed: int,
                layout: str = "standard15") -> np.ndarray:
    kwargs: dict[str, Any] = {"tileset": tileset, "layout": layout, "size": _frame_size(len(spec.rows))}
    if scene is not None:
        kwargs["scene"] = scene
    if spec.hand:
        kwargs["hand"] = [tuple(p) for p in spec.hand]
    image = synth.render_board(list(spec.rows), seed=seed, **kwargs)
    image = getattr(image, "image", image)
    return _post(np.asarray(image), spec, image_px)


def _post(image: np.ndarray, spec: FrameSpec, image_px: int) -> np.ndarray:
    """Lighting gain, camera jitter and the final size."""
    import cv2

    h, w = image.shape[:2]
    if image_px and w != image_px:
        image = cv2.resize(image, (image_px, round(h * image_px / w)), interpolation=cv2.INTER_AREA)
        h, w = image.shape[:2]
    if spec.shift != (0.0, 0.0):
        cell = w / (len(spec.rows) + 2.0)
        m = np.float32([[1, 0, spec.shift[0] * cell], [0, 1, spec.shift[1] * cell]])
        image = cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    if abs(spec.light - 1.0) > 1e-3:
        image = cv2.convertScaleAbs(image, alpha=spec.light, beta=0)
    return image


def write_frames(video: GameVideo, folder: Path, frames: Iterable[np.ndarray] | None = None) -> Path:
    """``frame_000001.jpg`` …, ``truth.json`` and ``events.jsonl`` (the externals) in ``folder``; ``frames``
    (default ``video.frames``) may be a generator such as :func:`iter_render`."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    for i, image in enumerate(video.frames if frames is None else frames, 1):
        cv2.imwrite(str(folder / f"frame_{i:06d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
    (folder / "truth.json").write_text(json.dumps({
        "seed": video.seed, "tileset": video.tileset, "players": video.players, "events": video.truth,
        "frame_events": [s.event for s in video.specs],
    }, indent=1), encoding="utf-8")
    (folder / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in video.externals), encoding="utf-8")
    return folder
