"""Make firmware/data/demo_game.zip: the short game `tilecam run` plays when no camera is found.

    .venv/bin/python firmware/data/make_demo_clip.py [--out PATH]

The clip is a zip of JPEG frames (natural order) plus ``game.json`` (fps, players, the moves as GCG placements, the
racks left at the end — the daemon ends the game with them, as players would on the web page). Each move is a hand
over the board for a moment, then the board still with the new tiles. Frames are drawn below in the colours of a
real board (the shipped tile model reads them; a test checks the whole demo is scored), or with ``--synth`` by the
project's synthetic renderer (``tilecam.models.synth``) when it is installed. The output is deterministic.
"""

from __future__ import annotations

import argparse
import io
import json
import zipfile
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
PLAYERS = ["Ann", "Ben"]
MOVES = ["8D HOUSE", "D8 .ALO", "11D .X", "H8 .AT", "10H .RAP"]  # letters the shipped model reads here
END_RACKS = {"0": "EI", "1": "DN"}
FPS = 2.0
WIDTH, HEIGHT = 1080, 720
LEAD, HAND, STILL = 4, 2, 4  # frames: empty board at the start; a hand over the board; the settled board
SYNTH_FPS, SYNTH_PX = 4.0, 720


def board_rows_after(moves: list[str]) -> list[list[str]]:
    """The board text after each move (index 0 = empty board)."""
    from tilecam.engine.board import Board
    from tilecam.engine.move import Placement

    board = Board()
    out = [board.rows()]
    for move in moves:
        coord, word = move.split()
        for r, c, tile in Placement.from_gcg(coord, word).new_tiles():
            board[r, c] = tile
        out.append(board.rows())
    return out


def draw_board(rows: list[str], rng: np.random.Generator, hand: bool = False) -> np.ndarray:
    """A plain overhead picture in the look of a common board: white border, green squares, red/pink word and
    blue letter premiums, cream tiles with the letter and its value, seen slightly tilted on a wooden table."""
    from tilecam.engine.layout import Layout
    from tilecam.engine.tiles import TileSet

    layout, tiles = Layout.load(), TileSet.load("english")
    cell, border = 52, 26
    side = 15 * cell + 2 * border
    board = np.full((side, side, 3), (200, 198, 196), np.uint8)           # the white border (BGR)
    # Colours sampled from photos of a real board (shared/data/real-boards), so the picture looks like one.
    colours = {"TW": (41, 36, 195), "DW": (107, 112, 214), "TL": (139, 71, 1), "DL": (186, 142, 72),
               "": (55, 97, 4)}
    for r in range(15):
        for c in range(15):
            x0, y0 = border + c * cell, border + r * cell
            cv2.rectangle(board, (x0, y0), (x0 + cell, y0 + cell), colours[layout.premium(r, c)], -1)
            cv2.rectangle(board, (x0, y0), (x0 + cell, y0 + cell), (30, 60, 0), 1)
    for r in range(15):
        for c in range(15):
            ch = rows[r][c]
            if ch == ".":
                continue
            x0, y0 = border + c * cell, border + r * cell
            cv2.rectangle(board, (x0 + 3, y0 + 3), (x0 + cell - 3, y0 + cell - 3), (200, 230, 240), -1)
            cv2.rectangle(board, (x0 + 3, y0 + 3), (x0 + cell - 3, y0 + cell - 3), (150, 180, 195), 1)
            letter = ch.upper()
            (tw, th), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_DUPLEX, 1.05, 2)
            cv2.putText(board, letter, (x0 + (cell - tw) // 2 - 2, y0 + (cell + th) // 2 - 1),
                        cv2.FONT_HERSHEY_DUPLEX, 1.05, (25, 25, 25), 2, cv2.LINE_AA)
            if not ch.islower():
                cv2.putText(board, str(tiles.value(letter)), (x0 + cell - 15, y0 + cell - 7),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.35, (25, 25, 25), 1, cv2.LINE_AA)
    frame = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    wood = np.linspace(0, 1, WIDTH)[None, :, None]
    frame[:] = (np.array([102, 134, 154]) * (0.85 + 0.15 * np.sin(wood * 40))).astype(np.uint8)  # a wooden table
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    dst = np.float32([[200, 28], [872, 34], [878, 700], [192, 694]])
    warp = cv2.getPerspectiveTransform(src, dst)
    cv2.warpPerspective(board, warp, (WIDTH, HEIGHT), frame, borderMode=cv2.BORDER_TRANSPARENT)
    if hand:
        cv2.ellipse(frame, (640, 610), (150, 260), 15, 0, 360, (120, 150, 200), -1)
    frame = cv2.GaussianBlur(frame, (3, 3), 0)                                     # a camera's softness
    noise = rng.normal(0, 2.0, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def render_with_synth(moves: list[str], seed: int) -> tuple[list[np.ndarray], float] | None:
    """The game rendered by the project's synthetic renderer (hands placing tiles one by one), or None when
    ``tilecam.models.synth`` is not installed."""
    try:
        from tilecam.models import synth  # noqa: F401 — only to know it is there
        from tilecam.models.video import ScriptConfig, render_game
    except ImportError:
        return None
    from tilecam.engine.game import Game
    from tilecam.engine.gcg import read_gcg, write_gcg
    from tilecam.engine.move import Placement

    game = Game(PLAYERS)
    for move in moves:
        game.play(Placement.from_gcg(*move.split()))
    config = ScriptConfig(fps=SYNTH_FPS, enter_frames=1, per_tile_frames=1, leave_frames=1, still_frames=5,
                          p_hesitate=0.0, p_nudge=0.0, p_jitter=0.0)
    video = render_game(read_gcg(write_gcg(game)), seed, "english", config, image_px=SYNTH_PX)
    return video.frames, SYNTH_FPS


def render_frames(moves: list[str] = MOVES, seed: int = 2026) -> list[np.ndarray]:
    """The simple drawing (when the synthetic renderer is not installed)."""
    rng = np.random.default_rng(seed)
    boards = board_rows_after(moves)
    frames = [draw_board(boards[0], rng) for _ in range(LEAD)]
    for i in range(1, len(boards)):
        frames += [draw_board(boards[i - 1], rng, hand=True) for _ in range(HAND)]
        frames += [draw_board(boards[i], rng) for _ in range(STILL)]
    return frames


def write_clip(out: Path, frames: list[np.ndarray], fps: float = FPS, quality: int = 80, renderer: str = "") -> int:
    meta = {"fps": fps, "players": PLAYERS, "moves": MOVES, "end_racks": END_RACKS,
            "note": f"made by firmware/data/make_demo_clip.py ({renderer})"}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_STORED) as z:
        for i, frame in enumerate(frames):
            ok, jpg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
            info = zipfile.ZipInfo(f"frames/frame-{i}.jpg", date_time=(2026, 1, 1, 0, 0, 0))
            z.writestr(info, jpg.tobytes())
        z.writestr(zipfile.ZipInfo("game.json", date_time=(2026, 1, 1, 0, 0, 0)), json.dumps(meta, indent=1))
    out.write_bytes(buf.getvalue())
    return len(buf.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=HERE / "demo_game.zip")
    parser.add_argument("--synth", action="store_true",
                        help="render with tilecam.models.synth (if installed) instead of the drawing; check the result "
                             "with tests/test_firmware_daemon.py::test_the_bundled_demo_is_scored_through_the_real_"
                             "vision_pipeline")
    parser.add_argument("--quality", type=int, default=80, help="JPEG quality")
    args = parser.parse_args()
    rendered = render_with_synth(MOVES, seed=2026) if args.synth else None
    if rendered is None:
        frames, fps, renderer = render_frames(), FPS, "simple drawing"
    else:
        (frames, fps), renderer = rendered, "tilecam.models.synth"
    size = write_clip(args.out, frames, fps, args.quality, renderer)
    print(f"{args.out}: {len(frames)} frames by {renderer}, {size / 1e6:.2f} MB, {len(frames) / fps:.0f} s at "
          f"{fps:g} fps")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
