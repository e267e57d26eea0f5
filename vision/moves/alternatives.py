"""When the new squares are not one play at first sight: strays left out, gaps and ends filled, the last play
amended, two plays in turn (the fallbacks :func:`tilecam.vision.moves.interpret.interpret` tries, in order)."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading
from tilecam.vision.moves.resolve import Candidate, NotAMove, ResolvePolicy, resolve_move, unseen_tiles


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a settled board says happened since the committed one.

    ``kind``: ``"none"`` (nothing changed), ``"play"``, ``"withdraw"`` (the last play's tiles taken back),
    ``"withdraw+play"`` (taken back and the next play made, seen at once), ``"disturbed"`` (tiles missing or moved
    that are not the last play: no move; wait for the board to be put right), ``"unclear"`` (new tiles that do not
    make a legal placement yet). ``reason`` says why for the last two."""

    kind: str
    candidate: Candidate | None = None
    withdrawn: Placement | None = None
    reason: str = ""
    earlier: tuple[Candidate, ...] = ()     # a play made before ``candidate`` and not seen settled on its own
    ignored: tuple[tuple[int, int], ...] = ()   # doubtful squares left out (read as tiles, maybe empty)
    amended: Candidate | None = None        # the last play again, with tiles it was missing (read empty before)


def as_play(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet, lexicon: Any,
             policy: ResolvePolicy, last_play: Placement | None = None) -> Interpretation:
    """The new squares as a play (:func:`_as_play_of`), less the squares read as a blank when every blank is
    already down and the model's next guess is an empty square: on a white board a bare square and a bare tile
    look alike, and the set leaves no doubt which this is."""
    unseen = unseen_tiles(board, tileset)
    phantoms = {rc for rc in squares if _blank_beyond_the_set(reading, rc, unseen)}
    if not phantoms:
        return _as_play_of(board, reading, squares, tileset, lexicon, policy, last_play)
    rest = [rc for rc in squares if rc not in phantoms]
    if not rest:
        return Interpretation("none", ignored=tuple(sorted(phantoms)))
    result = _as_play_of(board, reading, rest, tileset, lexicon, policy, last_play)
    return dataclasses.replace(result, ignored=tuple(sorted(set(result.ignored) | phantoms)))


def _blank_beyond_the_set(reading: Reading, rc: tuple[int, int], unseen: Counter) -> bool:
    r, c = rc
    if reading.grid[r][c] != BLANK or unseen[BLANK] > 0:
        return False
    rest = [a for a, _ in reading.options(r, c) if a != BLANK and (a == EMPTY or unseen[a] > 0)]
    return bool(rest) and rest[0] == EMPTY


def _as_play_of(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet,
                lexicon: Any, policy: ResolvePolicy, last_play: Placement | None = None) -> Interpretation:
    """The new squares as one play; failing that, without the squares that may be empty after all, or with the
    gaps in their line that may hold a tile after all; failing that, as the last play read short plus the next
    one, or as two plays in turn (one of them never seen settled on its own: a photo missed, a turn made
    quickly)."""
    try:
        cand = resolve_move(board, reading, squares, tileset, lexicon, policy)
    except NotAMove as exc:
        first_reason = exc.reason
    else:
        if cand.is_phony:
            longer = _with_doubtful_ends(board, reading, squares, cand.phony, tileset, lexicon, policy)
            if longer is not None:
                return Interpretation("play", candidate=longer)
            shorter = _without_bare_ends(board, reading, squares, cand.phony, tileset, lexicon, policy)
            if shorter is not None:
                return Interpretation("play", candidate=shorter[0], ignored=shorter[1])
        return Interpretation("play", candidate=cand)
    # Left out as strays: first the squares the model also saw empty, then also those read doubtfully (a letter
    # read at 0.8 with only other letters beside it is a tile: leaving it out with the strays loses it).
    seen_empty = [rc for rc in squares if _seen_empty(reading, rc, policy)]
    doubtful = [rc for rc in squares if _maybe_empty(reading, rc, policy)]
    for strays in ([seen_empty] if seen_empty != doubtful else []) + [doubtful]:
        sure = [rc for rc in squares if rc not in strays]
        if strays and sure:
            try:
                cand = resolve_move(board, reading, sure, tileset, lexicon, policy)
                return Interpretation("play", candidate=cand, ignored=tuple(sorted(strays)))
            except NotAMove:
                pass
    # "Blanks" the model also saw empty, left out when the rest is one play: a bare square beside a play reads
    # like a bare tile on a white board (tried before splitting the tiles into two plays, which would take such
    # a square with its neighbour for a two-letter word: a blank can be any letter).
    # Fewest first, the likeliest empty first among as many (a real blank in the play may be doubted too).
    empty = {rc: reading.probability(*rc, EMPTY) for rc in squares
             if reading.grid[rc[0]][rc[1]] == BLANK}
    bare = [rc for rc in empty if empty[rc] > 0][:4]
    drops = [d for k in range(1, len(bare) + 1) for d in sorted(itertools.combinations(bare, k),
                                                                 key=lambda d: -sum(empty[rc] for rc in d))]
    for drop in drops:
        if len(drop) == len(squares):
            continue
        try:
            cand = resolve_move(board, reading, [rc for rc in squares if rc not in drop], tileset, lexicon, policy)
            return Interpretation("play", candidate=cand, ignored=tuple(sorted(drop)))
        except NotAMove:
            continue
    gaps = _doubtful_gaps(board, reading, squares, policy)
    full = sorted(set(squares) | set(gaps))
    if gaps:
        try:
            return Interpretation("play", candidate=resolve_move(board, reading, full, tileset, lexicon, policy))
        except NotAMove:
            pass
    amend = _amend_last(board, reading, full, last_play, tileset, lexicon, policy) if last_play else None
    if amend is not None and lexicon is not None and not amend.amended.phony:
        return amend      # the last play with its missing tile makes good words: that is what happened
    split = _split_in_two(board, reading, squares, tileset, lexicon, policy)
    if split is not None:
        return Interpretation("play", candidate=split[1], earlier=(split[0],))
    return amend or Interpretation("unclear", reason=first_reason)


def _with_doubtful_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], phony: Sequence[str],
                       tileset: TileSet, lexicon: Any, policy: ResolvePolicy) -> Candidate | None:
    """The play with one more tile just past an end of its line, on a square the model read as empty but doubted
    (a tile close to the board's colour, or a blank put down off its square's middle), when that turns a phony
    into a word and makes no new one (the words the lexicon lacks that the tile does not touch are the players'
    business)."""
    for extra in _doubtful_ends(board, reading, squares, policy):
        try:
            cand = resolve_move(board, reading, [*squares, *extra], tileset, lexicon, policy)
        except NotAMove:
            continue
        if set(cand.phony) < set(phony):
            return cand
    return None


def _without_bare_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], phony: Sequence[str],
                       tileset: TileSet, lexicon: Any, policy: ResolvePolicy
                       ) -> tuple[Candidate, tuple[tuple[int, int], ...]] | None:
    """The play without a "blank" at an end of its line, when the model also saw an empty square there and
    leaving it out turns a phony into a word and makes no new one: on a white board a bare square beside a play
    reads like a bare tile, and a blank that makes no word with any letter is seldom played."""
    cells = sorted(set(squares))
    if len(cells) < 2:
        return None
    for end in (cells[0], cells[-1]):
        r, c = end
        if reading.grid[r][c] != BLANK or not any(a == EMPTY for a, _ in reading.options(r, c)):
            continue
        rest = [rc for rc in cells if rc != end]
        try:
            cand = resolve_move(board, reading, rest, tileset, lexicon, policy)
        except NotAMove:
            continue
        if set(cand.phony) < set(phony):
            return cand, (end,)
    return None


def _doubtful_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], policy: ResolvePolicy
                   ) -> list[tuple[tuple[int, int], ...]]:
    """Sets of squares just past either end of the new tiles' line (through tiles already down) that may hold a
    tile after all: one end, the other, both."""
    cells = set(squares)
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    directions = ([(0, 1)] if len(rows) == 1 else []) + ([(1, 0)] if len(cols) == 1 else [])
    n = board.size

    def held(r: int, c: int) -> bool:
        return (r, c) in cells or board[r, c] is not None

    def doubtful(r: int, c: int) -> bool:
        # (a blank there would turn many a phony into a word: the model must have given a tile a fair chance)
        return (0 <= r < n and 0 <= c < n and board[r, c] is None and reading.grid[r][c] == EMPTY
                and sum(p for a, p in reading.options(r, c) if a not in (EMPTY, OCCLUDED)) >= policy.doubted_end)

    out: list[tuple[tuple[int, int], ...]] = []
    for dr, dc in directions:
        r0, c0 = min(cells)
        while 0 <= r0 - dr and 0 <= c0 - dc and held(r0 - dr, c0 - dc):
            r0, c0 = r0 - dr, c0 - dc
        r1, c1 = max(cells)
        while r1 + dr < n and c1 + dc < n and held(r1 + dr, c1 + dc):
            r1, c1 = r1 + dr, c1 + dc
        ends = [rc for rc in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)) if doubtful(*rc)]
        out += [(rc,) for rc in ends] + ([tuple(ends)] if len(ends) == 2 else [])
    return out


def _doubtful_gaps(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], policy: ResolvePolicy
                   ) -> list[tuple[int, int]]:
    """Empty squares between new tiles in one line that the model thought might hold a tile (a tile read as an
    empty square leaves a gap, and a play never has one); [] when any gap has no such doubt. A little doubt is
    enough (``policy.doubted_gap``): a blank on a white board reads as a bare square with a few per cent left to
    the tile, and the gap is what says it is there."""
    cells = sorted(set(squares))
    if len(cells) < 2:
        return []
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    if len(rows) == 1:
        r = cells[0][0]
        line = [(r, c) for c in range(min(cols), max(cols) + 1)]
    elif len(cols) == 1:
        c = cells[0][1]
        line = [(r, c) for r in range(min(rows), max(rows) + 1)]
    else:
        return []
    gaps = [rc for rc in line if rc not in cells and board[rc] is None]
    for r, c in gaps:
        empty = reading.probability(r, c, EMPTY)
        if 1 - empty < policy.doubted_gap:
            return []
    return gaps


def _amend_last(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], last_play: Placement,
                tileset: TileSet, lexicon: Any, policy: ResolvePolicy) -> Interpretation | None:
    """The last play with those new squares in its line that extend it (a tile of it read empty at the time),
    and the rest of the new squares as the play after it."""
    last = [(r, c) for r, c, _ in last_play.new_tiles()]
    before = board.copy()
    for rc in last:
        before[rc] = None
    lines = []
    if len({r for r, _ in last}) == 1:
        lines.append(lambda rc, r0=last[0][0]: rc[0] == r0)
    if len({c for _, c in last}) == 1:
        lines.append(lambda rc, c0=last[0][1]: rc[1] == c0)
    for on_line in lines:
        extra = [rc for rc in squares if on_line(rc)]
        if not extra:
            continue
        try:
            amended = resolve_move(before, reading, last + extra, tileset, lexicon, policy)
        except NotAMove:
            continue
        rest = [rc for rc in squares if rc not in extra]
        cand = None
        if rest:
            after = before.copy()
            for r, c, tile in amended.placement.new_tiles():
                after[r, c] = tile
            try:
                cand = resolve_move(after, reading, rest, tileset, lexicon, policy)
            except NotAMove:
                continue
        return Interpretation("amend", candidate=cand, withdrawn=last_play, amended=amended)
    return None


def _seen_empty(reading: Reading, rc: tuple[int, int], policy: ResolvePolicy) -> bool:
    return reading.probability(*rc, EMPTY) >= policy.min_alternative


def _maybe_empty(reading: Reading, rc: tuple[int, int], policy: ResolvePolicy) -> bool:
    return reading.confidence[rc] < policy.clear or _seen_empty(reading, rc, policy)


def _runs(board: Board, line: Sequence[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """The new squares of one row or column (sorted) in runs that tiles already down join; [] for one run."""
    runs, run = [], [line[0]]
    for (r0, c0), (r1, c1) in zip(line, line[1:]):
        between = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (r, c) not in ((r0, c0), (r1, c1))]
        if all(board[rc] is not None for rc in between):
            run.append((r1, c1))
        else:
            runs.append(frozenset(run))
            run = [(r1, c1)]
    runs.append(frozenset(run))
    return runs if len(runs) > 1 else []


def _split_in_two(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet,
                  lexicon: Any, policy: ResolvePolicy) -> tuple[Candidate, Candidate] | None:
    """Two plays, one after the other, that together place exactly ``squares`` (each part one row or column)."""
    cells = sorted(set(squares))
    if not 2 <= len(cells) <= 2 * 9:
        return None
    lines = {frozenset(rc for rc in cells if rc[0] == r) for r, _ in cells}
    lines |= {frozenset(rc for rc in cells if rc[1] == c) for _, c in cells}
    # A line may hold both plays, apart (ZO and then CIT in the same row, an empty square between): its runs too.
    parts = lines | {run for line in lines for run in _runs(board, sorted(line))}
    for part in sorted(parts, key=lambda p: (-len(p), sorted(p))):
        rest = [rc for rc in cells if rc not in part]
        if not rest:
            continue
        for first, second in ((sorted(part), rest), (rest, sorted(part))):
            try:
                a = resolve_move(board, reading, first, tileset, lexicon, policy)
                after = board.copy()
                for r, c, t in a.placement.new_tiles():
                    after[r, c] = t
                b = resolve_move(after, reading, second, tileset, lexicon, policy)
            except NotAMove:
                continue
            return a, b
    return None
