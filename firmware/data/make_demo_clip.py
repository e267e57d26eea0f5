"""Make firmware/data/demo_game.zip: the short game `tilecam run` plays when no camera is found.

    .venv/bin/python firmware/data/make_demo_clip.py [--out PATH]

The clip is a zip of JPEG frames (natural order) plus ``game.json`` (fps, players, the moves as GCG placements, the
racks left at the end — the daemon ends the game with them, as players would on the web page). Each move is a hand
over the board for a moment, then the board still with the new tiles. Frames are drawn by the project's synthetic
renderer (``tilecam.models.synth``) when it is installed, else by the simple drawing below; the output is
deterministic for a given renderer.
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
MOVES = ["8D HOUSE", "D8 .ALO", "11D .X", "H8 .AT", "10H .RAY"]
END_RACKS = {"0": "EI", "1": "DN"}
FPS = 2.0
WIDTH, HEIGHT = 960, 720
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
    """A plain overhead picture: table, board with premium squares, cream tiles with letters, a slight tilt."""
    from tilecam.engine.layout import Layout

    layout = Layout.load()
    side = 600
    board = np.full((side, side, 3), (200, 215, 205), np.uint8)
    cell = side / 15
    colours = {"TW": (60, 60, 200), "DW": (160, 170, 240), "TL": (200, 120, 40), "DL": (230, 200, 150), "": None}
    for r in range(15):
        for c in range(15):
            x0, y0 = int(c * cell), int(r * cell)
            x1, y1 = int((c + 1) * cell), int((r + 1) * cell)
            colour = colours[layout.premium(r, c)]
            if colour:
                cv2.rectangle(board, (x0, y0), (x1, y1), colour, -1)
            cv2.rectangle(board, (x0, y0), (x1, y1), (90, 100, 90), 1)
            ch = rows[r][c]
            if ch != ".":
                cv2.rectangle(board, (x0 + 2, y0 + 2), (x1 - 2, y1 - 2), (170, 215, 240), -1)
                text = ch.upper()
                (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, 1.0, 2)
                cv2.putText(board, text, (x0 + int((cell - tw) / 2), y0 + int((cell + th) / 2)),
                            cv2.FONT_HERSHEY_DUPLEX, 1.0, (30, 30, 30), 2, cv2.LINE_AA)
    frame = np.full((HEIGHT, WIDTH, 3), (70, 95, 120), np.uint8)
    src = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    dst = np.float32([[190, 70], [790, 80], [800, 670], [180, 660]])
    warp = cv2.getPerspectiveTransform(src, dst)
    cv2.warpPerspective(board, warp, (WIDTH, HEIGHT), frame, borderMode=cv2.BORDER_TRANSPARENT)
    if hand:
        cv2.ellipse(frame, (560, 600), (150, 260), 15, 0, 360, (120, 150, 200), -1)
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
    parser.add_argument("--simple", action="store_true", help="use the simple drawing even if synth is installed")
    parser.add_argument("--quality", type=int, default=80, help="JPEG quality")
    args = parser.parse_args()
    rendered = None if args.simple else render_with_synth(MOVES, seed=2026)
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
