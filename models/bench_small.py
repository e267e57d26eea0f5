"""``tilecam bench small``: the camera on a travel board (squares of ~12 mm) beside the full-size board (~19 mm).

A travel Scrabble board is the classic 15x15 board, its squares about 12 mm a side instead of about 19 mm. Under a
camera at the same height it fills ``TRAVEL_SCALE`` (12/19) of the side of the frame the full-size board fills, so
each of its squares gets 12/19 of the pixels a side. The same held-out seeds are rendered twice
(``tilecam.models.synth``): each seed's scene — the held-out style (board design, tile look, font), camera, light,
table — and position (the tiles and any arm over them) as drawn, and the same with the scene's ``fill`` (board side
over the frame's shorter side, drawn 0.62–0.92) scaled by ``TRAVEL_SCALE`` (0.39–0.58). The two columns differ only
in the size of the board in the picture. Each board is read as a single photo with no hint (the locator as it is:
not tuned for small boards), the turn told by the reader, and scored as ``tilecam eval-vision --renders`` scores its
renders. The arm is drawn in squares, so it covers the same squares of both boards (a real arm over a travel board
covers more of them). These are renders, not photos of a real travel board.

A third column draws the travel board as a Tile Lock board (``synth.Scene.tile_lock``: the tiles sit in the
recesses of a raised plastic grid, smaller than the square and held straight; the walls dark, lit on top, casting a
shadow into each recess). The walls are drawn flat, as seen from straight above: a tilted camera would see a wall
hide part of the recess beyond it, which the renderer does not draw.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

import numpy as np

from tilecam.models import synth
from tilecam.models.eval_vision import (Tally, add_render_bench_options, bench_classifier, print_table,
                                        print_wrong_boards, score_render)
from tilecam.vision.classify import TileClassifier
from tilecam.vision.warp import square_px

#: The held-out seeds read by default start at this index of ``synth.HELDOUT_SEEDS`` (seed 950000). The other figures
#: read 900000–920999 (``tilecam eval-vision --renders`` and the sessions that looked at them, ``synth``), 921000
#: on (``--first-render 21000``, boards nobody has seen), 940000–940099 (``bench super``) and 960000–960099
#: (``bench tilesets``): 950000–950099 is a range no figure reads, so nothing was tuned on it.
FIRST_RENDER = 50_000
FRAME = (960, 720)        # the frame of every held-out render (width, height)
#: A travel board's square side over a full-size board's: ~12 mm against ~19 mm (a grid of 15 squares ~18 cm
#: across against ~29 cm). At the same camera height the board, and every square on it, spans this share of the
#: pixels a side the full-size board's does.
TRAVEL_SCALE = 12 / 19
#: The columns: name, the factor on the scene's ``fill``, and whether the board is a Tile Lock board.
BOARDS = (("full-size board (~19 mm squares)", 1.0, False), ("travel board (~12 mm squares)", TRAVEL_SCALE, False),
          ("Tile Lock travel board (tiles in recesses)", TRAVEL_SCALE, True))
#: Shown in the table, in this order (the rest of ``Tally.row`` is the Vision tables' detail).
MEASURES = ("boards", "per-cell error", "tile-cell error", "empty false +", "boards fully correct",
            "boards flagged unsure (of them wrong)", "no board found", "corners within 1/10 square",
            "corner error median / max", "px per square, median", "total ms")


def boards_of(seed: int, frame: tuple[int, int] = FRAME) -> list[synth.Render]:
    """The held-out render of ``seed`` as each board of ``BOARDS``: one scene and position (drawn as
    ``synth.render_board`` draws a random one: the scene, the grid, an arm over three boards in ten), the scene's
    ``fill`` scaled by the board's factor."""
    rng = np.random.default_rng(seed)
    scene = synth.sample_scene(rng, "english", synth.HELDOUT_STYLES)
    grid = synth.random_grid(rng, scene.tileset)
    hand = synth.random_arm(rng) if rng.random() < 0.3 else None
    return [synth.render_board(grid, seed=seed, scene=replace(scene, fill=scene.fill * k, tile_lock=lock), hand=hand,
                               size=frame)
            for _, k, lock in BOARDS]


def px_per_square(render: synth.Render) -> float:
    """The pixels a side of a square of the rendered board (``warp.square_px`` of its grid)."""
    return square_px(np.asarray(render.corners, np.float64), len(render.grid))


def evaluate_small(classifier: TileClassifier, seeds, frame: tuple[int, int] = FRAME
                   ) -> list[tuple[Tally, list[float]]]:
    """Every seed's boards read as single photos and scored: a tally and the pixels a square of each board's
    renders, per board of ``BOARDS``; ``frame``: the renders' size (width, height)."""
    results = [(Tally(name), []) for name, _, _ in BOARDS]
    for seed in seeds:
        for (tally, px), render in zip(results, boards_of(int(seed), frame)):
            px.append(px_per_square(render))
            score_render(tally, classifier, render, f"{seed} {render.style}")
    return results


def _frame(text: str) -> tuple[int, int]:
    """``WxH`` → (width, height)."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a frame is WIDTHxHEIGHT in pixels, not {text!r}") from None
    if width < 320 or height < 240:
        raise argparse.ArgumentTypeError(f"a frame of {width}x{height} is too small to hold a board")
    return width, height


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tilecam bench small", description=__doc__.splitlines()[0])
    add_render_bench_options(parser, FIRST_RENDER)
    parser.add_argument("--frame", type=_frame, default=FRAME, metavar="WxH",
                        help="the renders' size (default 960x720; the Pi camera's full field at video rate: 2304x1296)")
    args = parser.parse_args(argv)

    classifier = bench_classifier(args)
    seeds = synth.HELDOUT_SEEDS[args.first_render:args.first_render + args.renders]
    t0 = time.perf_counter()
    results = evaluate_small(classifier, seeds, args.frame)
    print(f"model {classifier.path}; held-out renders {args.frame[0]}x{args.frame[1]}, seeds {seeds[0]}–{seeds[-1]} "
          f"(the same scenes and positions in both columns, the travel board's fill x {TRAVEL_SCALE:.3f}), "
          f"{time.perf_counter() - t0:.0f} s")
    rows = [{**tally.row(), "px per square, median": f"{np.median(px):.1f}"} for tally, px in results]
    print_table([{"set": row["set"], **{k: row.get(k, "-") for k in MEASURES}} for row in rows])
    print_wrong_boards([tally for tally, _ in results])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
