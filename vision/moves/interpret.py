"""A settled board reading against the committed board → what happened.

    committed board + settled Reading ──diff_board──▶ BoardDiff (added / removed / changed squares)
                                      ──interpret──▶ Interpretation: nothing | play | withdraw | withdraw+play |
                                                     disturbed (tiles gone that were not the last play, a shift)

Only squares that changed are ever resolved: a tile already committed is trusted over a new misreading of it.
What the new squares are (one play, two, the last play amended, nothing) is one scored decision,
:mod:`tilecam.vision.moves.decide`; this module says which squares are new and whether the last play was taken back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import square_name
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.decide import Interpretation, Weights, decide
from tilecam.vision.moves.reach import touching
from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading, ReadingError


@dataclass(frozen=True, slots=True)
class BoardDiff:
    """Squares where a settled reading differs from the committed board: ``added`` (a tile read on an empty
    square), ``removed`` (an empty square read where a tile was), ``changed`` (a tile read clearly as another
    letter where one was — a misreading, or a new tile on a square just vacated)."""

    added: tuple[tuple[int, int], ...]
    removed: tuple[tuple[int, int], ...]
    changed: tuple[tuple[int, int], ...]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed)


#: How sure an empty reading must be to say a committed blank tile was taken away.
BLANK_GONE = 0.98


def diff_board(board: Board, reading: Reading, clear: float = 0.9) -> BoardDiff:
    """Compare a settled reading with the committed board, square by square."""
    if reading.size != board.size:
        raise ReadingError(f"a {reading.size}x{reading.size} reading for a {board.size}x{board.size} board")
    added, removed, changed = [], [], []
    for r in range(board.size):
        row = reading.grid[r]
        for c in range(board.size):
            ch = row[c]
            tile = board[r, c]
            if ch == OCCLUDED:
                continue
            if tile is None:
                if ch != EMPTY:
                    added.append((r, c))
            elif ch == EMPTY:
                # A doubtful "empty" over a committed tile: trust the tile. A blank must read empty beyond doubt:
                # on a white board a bare tile and a bare square look alike, and it was often found by its gap.
                if reading.confidence[r, c] >= (BLANK_GONE if tile.is_blank else clear):
                    removed.append((r, c))
            elif reading.confidence[r, c] >= clear and not _same_tile(tile, ch):
                changed.append((r, c))
    return BoardDiff(tuple(added), tuple(removed), tuple(changed))


def _same_tile(tile: Tile, label: str) -> bool:
    if tile.is_blank:
        return label == BLANK           # a blank reads as an unprinted tile whatever it stands for
    return tile.letter == label


def interpret(board: Board, reading: Reading, tileset: TileSet, lexicon: Any = None,
              last_play: Placement | None = None, policy: Weights | None = None,
              first_changed: Mapping[tuple[int, int], float] | None = None,
              went_on: bool = False, same_hand: bool | None = None, one_player: bool = False,
              strays: Iterable[tuple[int, int]] = (), misread: bool = False,
              bare: Iterable[tuple[int, int]] = ()) -> Interpretation:
    """What the settled ``reading`` means against the committed ``board`` (whose last play was ``last_play``);
    ``first_changed``: when squares' pixels first changed since the board was last looked at (the order of two
    plays in one change, :func:`~tilecam.vision.moves.decide.decide`); ``went_on``: the players went on past
    this board unclear (a gap may hold a blank read bare, a tile no play can reach is left out: ``decide``);
    ``same_hand``: whether this change's hand came from the side the last play's did, ``one_player``: every arm came
    from one side; ``strays``: squares left out as out of reach when the board was last decided (``decide``);
    ``misread``: the fewest new squares read as tiles may be bare ones misread (``decide``, the last resort);
    ``bare``: squares taken so when the board was last decided (``decide``)."""
    policy = policy or Weights()
    diff = diff_board(board, reading, policy.clear)
    if diff.empty:
        return Interpretation("none")
    if not diff.removed:
        return decide(board, reading, diff.added, tileset, lexicon, policy, last_play, first_changed, went_on,
                      same_hand, one_player, strays, misread, bare)

    last_squares = {(r, c) for r, c, _ in last_play.new_tiles()} if last_play is not None else set()
    removed = set(diff.removed)
    missing = removed - last_squares
    if missing and len(missing) <= policy.tolerate_missing and not touching(missing, diff.added):
        # A committed tile read empty far from anything new: a misreading (glare), not a move; trust the tile.
        removed -= missing
        if not removed:
            if not diff.added:
                return Interpretation("none")
            return decide(board, reading, diff.added, tileset, lexicon, policy, first_changed=first_changed,
                          went_on=went_on, strays=strays, misread=misread, bare=bare)
    if last_squares and removed <= last_squares:
        before = board.copy()
        for r, c in last_squares:
            before[r, c] = None
        kept = last_squares - removed
        # Tiles of the last play still down are either part of it (a withdrawal half done, or a tile lifted:
        # wait) or new tiles of the next play on squares just vacated (a changed letter, or other new tiles
        # beside them, says so).
        relaid = any(rc in diff.changed for rc in kept)
        if kept and not (relaid or diff.added):
            return Interpretation("disturbed", reason="some tiles of the last play were lifted; waiting")
        new = sorted(set(diff.added) | kept)
        if not new:
            return Interpretation("withdraw", withdrawn=last_play)
        result = decide(before, reading, new, tileset, lexicon, policy, first_changed=first_changed,
                        went_on=went_on, strays=strays)
        if result.kind != "play":
            return result
        return Interpretation("withdraw+play", candidate=result.candidate, withdrawn=last_play,
                              earlier=result.earlier, ignored=result.ignored, note=result.note, score=result.score)
    names = ", ".join(square_name(r, c) for r, c in sorted(removed - last_squares)[:6])
    return Interpretation("disturbed", reason=f"tiles missing from {names} (moved or lifted): no move")


def read_surely(reading: Reading, labels: Mapping[tuple[int, int], str]) -> Reading:
    """``reading`` with each square of ``labels`` read surely as its label."""
    grid = tuple("".join(labels.get((r, c), ch) for c, ch in enumerate(row)) for r, row in enumerate(reading.grid))
    confidence, occluded = reading.confidence.copy(), reading.occluded.copy()
    for r, c in labels:
        confidence[r, c], occluded[r, c] = 1.0, False
    alternatives = {s: a for s, a in reading.alternatives.items() if s not in labels}
    return Reading(grid, confidence, occluded, alternatives)


def interpret_in_turn(board: Board, reading: Reading, earlier: Iterable[tuple[int, int]], tileset: TileSet,
                      lexicon: Any = None, last_play: Placement | None = None, policy: Weights | None = None,
                      first_changed: Mapping[tuple[int, int], float] | None = None, one_player: bool = False,
                      strays: Iterable[tuple[int, int]] = (), misread: bool = False,
                      bare: Iterable[tuple[int, int]] = ()) -> Interpretation | None:
    """A board left unclear (``earlier``: its new squares) that the players went on past, decided first as it lay
    then — the players went on, so its gaps may hold a blank read bare (``went_on``); its decision plays, or the
    last play amended and the next play —, and what was put down since decided on top of it. Without this, every
    later play adds to the unclear tiles until they are more plays than one change may hold, and the game stalls
    for good. None where the earlier board still makes no play; the earlier board's decision alone where what came
    since is not yet one (it waits, as any new play does)."""
    earlier = set(earlier)
    since = [s for s in diff_board(board, reading, (policy or Weights()).clear).added if s not in earlier]
    as_then = read_surely(reading, dict.fromkeys(since, EMPTY))     # the board as they went on past it
    past = interpret(board, as_then, tileset, lexicon, last_play, policy, first_changed, went_on=True,
                     one_player=one_player, strays=strays, misread=misread, bare=bare)
    if past.kind not in ("play", "amend") or past.candidate is None:
        return None
    plays = (*past.earlier, past.candidate)
    placed = plays if past.amended is None else (past.amended, *plays)
    after, found = board.copy(), {}
    for cand in placed:
        for r, c, tile in cand.placement.new_tiles():
            after[r, c] = tile
            if not reading.occupied(r, c):          # a tile found in a gap: it reads bare on this board too
                found[r, c] = BLANK if tile.is_blank else tile.letter
    note = "decided once the players went on past it" + (f"; {past.note}" if past.note else "")
    rest = interpret(after, read_surely(reading, found), tileset, lexicon, past.candidate.placement, policy,
                     first_changed, strays=past.unreachable, bare=past.misread)
    if rest.kind != "play" or rest.candidate is None:
        return replace(past, note=note) if past.earlier else past
    return Interpretation(past.kind, candidate=rest.candidate, earlier=plays + rest.earlier, amended=past.amended,
                          withdrawn=past.withdrawn, ignored=tuple(sorted({*past.ignored, *rest.ignored})),
                          note=note + (f"; {rest.note}" if rest.note else ""), score=past.score + rest.score,
                          unreachable=rest.unreachable, misread=tuple(sorted({*past.misread, *rest.misread})))
