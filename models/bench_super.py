"""``tilecam bench super``: the camera on Super Scrabble's 21x21 board beside the classic 15x15.

The same held-out seeds are rendered twice (``tilecam.models.synth``): as a Super Scrabble board (the ``super21``
layout, the 200-tile ``english-super`` set) and as a classic one (``english``). A seed fixes its scene — the
held-out style (board design, tile look, font), camera, light and table — so the two columns differ only in the
board and the position on it. Each is read as a single photo (``read_board(..., size=21)`` / the default 15), the
turn told by the reader, and scored as ``tilecam eval-vision --renders`` scores its renders. These are renders, not
photos of a real Super Scrabble board.

The Super Scrabble board is rendered twice: in the classic renders' frame (960 x 720, where each of its squares
gets 15/21 of the pixels a side a classic square gets) and in a frame 21/15 as large (each square as many pixels
as a classic one; the Pi camera reads at 2304 x 1296, more than either).
"""

from __future__ import annotations

import argparse
import time

from tilecam.models import synth
from tilecam.models.eval_vision import (add_render_bench_options, bench_classifier, evaluate_renders,
                                        print_table, print_wrong_boards)

#: The held-out seeds read by default start at this index of ``synth.HELDOUT_SEEDS`` (seed 940000): a range no
#: other figure of docs/BENCHMARKS.md reads, so the 21x21 reader was not tuned on it.
FIRST_RENDER = 40_000
CLASSIC_FRAME = (960, 720)       # the frame of every held-out render (width, height)
#: A frame in which a 21x21 board's squares get as many pixels as a 15x15 board's in ``CLASSIC_FRAME``.
SAME_SQUARE_FRAME = (960 * 21 // 15, 720 * 21 // 15)
#: Shown in the table, in this order (the rest of ``Tally.row`` is the Vision tables' detail).
MEASURES = ("boards", "per-cell error", "tile-cell error", "empty false +", "boards fully correct",
            "boards flagged unsure (of them wrong)", "no board found", "corners within 1/10 square",
            "corner error median / max", "total ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tilecam bench super", description=__doc__.splitlines()[0])
    add_render_bench_options(parser, FIRST_RENDER)
    args = parser.parse_args(argv)

    classifier = bench_classifier(args)
    t0 = time.perf_counter()
    tallies = [evaluate_renders(classifier, args.renders, "english-super", args.first_render, layout="super21",
                                name=f"Super 21x21, {w}x{h}", frame=(w, h))
               for w, h in (CLASSIC_FRAME, SAME_SQUARE_FRAME)]
    w, h = CLASSIC_FRAME
    tallies.append(evaluate_renders(classifier, args.renders, "english", args.first_render,
                                    name=f"classic 15x15, {w}x{h}", frame=(w, h)))
    seeds = synth.HELDOUT_SEEDS[args.first_render:args.first_render + args.renders]
    print(f"model {classifier.path}; held-out renders, seeds {seeds[0]}–{seeds[-1]} "
          f"(the same scenes in every column), {time.perf_counter() - t0:.0f} s")
    print_table([{"set": row["set"], **{k: row.get(k, "-") for k in MEASURES}} for row in (t.row() for t in tallies)])
    print_wrong_boards(tallies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
