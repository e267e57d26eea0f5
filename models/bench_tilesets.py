"""``tilecam bench tilesets``: the camera on Spanish and Polish boards beside the English 15x15.

The same held-out seeds are rendered in each tile set (``tilecam.models.synth``): a seed fixes its scene — the
held-out style (board design, tile look, font), camera, light and table — and the position, so the columns differ
only in the letters on the tiles and their values. Every tile's letter is drawn evenly among the set's letters its
bag still holds (``synth.reletter``): each rare letter (Ñ, CH, Ź) on as many squares as the set has tiles of it, as
on a real board, and far more often than a game draws it.
No arm. Each board is read as a single photo with its game's tile set (``read_board(..., tileset=…)``: the letters
of other sets ruled out), the turn told by the reader, and scored as ``tilecam eval-vision --renders`` scores its
renders, and per letter group: the letters A–Z, the two-letter tiles (Spanish CH, LL, RR), the letters with a
diacritic (Ñ, Polish Ą … Ż), the blanks. A model without a class for a letter (an older one of 32 classes: none for
Ñ, CH or Ł) never reads it: the bench says which, and counts those squares wrong. These are renders, not photos of real
Spanish or Polish boards.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tilecam.engine.tiles import TileSet
from tilecam.models import synth
from tilecam.models.eval_vision import Tally, add_render_bench_options, bench_classifier, print_table, score_render
from tilecam.vision.classify import BLANK, EMPTY, TileClassifier

#: The tile sets read, the classic one first as the yardstick.
TILESETS = ("english", "spanish", "polish")
#: The held-out seeds read by default start at this index of ``synth.HELDOUT_SEEDS`` (seed 960000): a range no
#: other figure reads, so nothing was tuned on it.
FIRST_RENDER = 60_000
FRAME = (960, 720)        # the frame of every held-out render (width, height)
#: Letter groups in the order shown; ``letter_group`` puts each square in one.
GROUPS = ("letters A–Z", "two-letter tiles (CH LL RR)", "letters with diacritics (Ñ Ą … Ż)", "blanks")
#: Shown in the table before the groups, in this order (the rest of ``Tally.row`` is the Vision tables' detail).
MEASURES = ("boards", "per-cell error", "tile-cell error", "empty false +", "boards fully correct", "no board found")
#: Misreads listed per letter in the letters' table, the commonest first.
MISREADS_SHOWN = 3


def letter_group(tiles: TileSet, label: str) -> str | None:
    """The group of ``GROUPS`` of a square labelled ``label`` on a board of ``tiles``; None for a bare square."""
    if label == EMPTY:
        return None
    if label == BLANK:
        return GROUPS[3]
    if len(tiles.face(label)) > 1:
        return GROUPS[1]
    return GROUPS[0] if label.isascii() else GROUPS[2]


@dataclass
class LetterTally:
    """Squares and squares wrong per true label over one tile set's boards, and what each was misread as."""

    tiles: TileSet
    squares: Counter = field(default_factory=Counter)
    wrong: Counter = field(default_factory=Counter)
    misread: dict[str, Counter] = field(default_factory=dict)

    def add(self, truth, read) -> None:
        """One board: ``truth`` and ``read`` grids in the same turn (``read`` None: no board found, all wrong)."""
        for r, row in enumerate(truth):
            for c, label in enumerate(row):
                got = None if read is None else read[r][c]
                self.squares[label] += 1
                if got != label:
                    self.wrong[label] += 1
                    self.misread.setdefault(label, Counter())[got or "not found"] += 1

    def group_row(self) -> dict[str, str]:
        """Each group's tiles wrong, as ``Tally.row`` writes its figures."""
        row = {}
        for group in GROUPS:
            labels = [label for label in self.squares if letter_group(self.tiles, label) == group]
            n, bad = sum(self.squares[x] for x in labels), sum(self.wrong[x] for x in labels)
            row[f"{group} wrong"] = f"{100 * bad / n:.3f} % ({bad}/{n})" if n else "-"
        return row

    def letter_rows(self) -> list[tuple[str, int, int, str]]:
        """(face, squares, wrong, commonest misreads) of each letter outside A–Z, in the set's order."""
        rows = []
        for label in self.tiles.letters:
            if letter_group(self.tiles, label) in (GROUPS[1], GROUPS[2]) and self.squares[label]:
                shown = self.misread.get(label, Counter()).most_common(MISREADS_SHOWN)
                misreads = ", ".join(f"{self._face(got)} {k}" for got, k in shown) or "-"
                rows.append((self.tiles.face(label), self.squares[label], self.wrong[label], misreads))
        return rows

    def _face(self, label: str) -> str:
        return self.tiles.face(label) if label in self.tiles.letters else label


def board_of(seed: int, tileset: str, frame: tuple[int, int] = FRAME) -> synth.Render:
    """The held-out render of ``seed`` in ``tileset``: its scene and position as every tile set's, each tile's
    letter drawn evenly among the set's letters its bag still holds."""
    rng = np.random.default_rng(seed)
    scene = synth.sample_scene(rng, tileset, synth.HELDOUT_STYLES)
    position = synth.random_grid(rng, tileset)
    letters = TileSet.load(tileset).letters
    grid = synth.reletter(position, tileset, np.random.default_rng([seed, synth.RELETTER_STREAM]), letters, 1.0)
    return synth.render_board(grid, seed=seed, scene=scene, size=frame)


def evaluate_tileset(classifier: TileClassifier, tileset: str, seeds) -> tuple[Tally, LetterTally]:
    """Every seed's board in ``tileset`` read as a single photo with the set's letters and scored."""
    tally, letters = Tally(tileset), LetterTally(TileSet.load(tileset))
    for seed in seeds:
        render = board_of(int(seed), tileset)      # (no arm: nothing of it is left unscored)
        scored = score_render(tally, classifier, render, f"{seed} {render.style}", tileset)
        if scored is None:
            letters.add(list(render.grid), None)
        else:
            letters.add(scored[0], scored[1].grid)
    return tally, letters


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tilecam bench tilesets", description=__doc__.splitlines()[0])
    add_render_bench_options(parser, FIRST_RENDER)
    parser.add_argument("--tilesets", nargs="+", default=list(TILESETS), choices=TileSet.bundled(),
                        help=f"the tile sets read (default {' '.join(TILESETS)})")
    args = parser.parse_args(argv)

    classifier = bench_classifier(args)
    seeds = synth.HELDOUT_SEEDS[args.first_render:args.first_render + args.renders]
    t0 = time.perf_counter()
    results = [evaluate_tileset(classifier, tileset, seeds) for tileset in args.tilesets]
    print(f"model {classifier.path}; held-out renders, seeds {seeds[0]}–{seeds[-1]} (the same scenes and "
          f"positions in every column, letters drawn evenly from each set), {time.perf_counter() - t0:.0f} s")
    for tally, letters in results:
        lacking = classifier.unreadable(letters.tiles.letters)
        if lacking:
            print(f"the model has no class for {' '.join(letters.tiles.face(x) for x in lacking)} of the "
                  f"{tally.name} set: never read")
    print_table([{"set": tally.name, **{k: tally.row()[k] for k in MEASURES}, **letters.group_row()}
                 for tally, letters in results])
    letter_rows = [(tally.name, *row) for tally, letters in results for row in letters.letter_rows()]
    if letter_rows:
        print()
        print("| tile set | tile | squares | wrong | read as |")
        print("| --- | --- | --- | --- | --- |")
        for name, face, n, bad, misreads in letter_rows:
            print(f"| {name} | {face} | {n} | {bad} ({100 * bad / n:.1f} %) | {misreads} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
