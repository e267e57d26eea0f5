"""Committed tiles put right: a letter misread when its play was committed, a bare square misread as a tile.

A later read of the same still square is the better one when settled boards since show it clearly as another letter
(or as a bare square) ``correct_after`` times in a row (``TrackerConfig``): the light or the hand's shadow was on it
when its play was committed. A letter the model hardly believed when it was committed (``DOUBTED``) is put right by
the first board that reads it clearly, before the next play is judged with the wrong count.

On live video a committed tile read bare may be one lifted and held, and the board waits ("tiles missing"); but once
the players went on past it — more tiles put down since, away from it — it was a bare square misread as a tile when
its play was committed (a tile's face seen over the square beyond it by a camera low over the board), and it is
taken out (:meth:`Corrections.gone_past`): else the game stalls for good on a tile that was never there.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import square_name
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.events import DetectedEvent
from tilecam.vision.moves.reach import touching
from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading
from tilecam.vision.moves.unclear import word_still_going_down

log = logging.getLogger(__name__)

#: A tile committed with its letter's probability under this is corrected on one clear read: the model gave its
#: letter less than even odds, so one board that reads it clearly is worth more than the read it was committed on.
DOUBTED = 0.5

#: At most this many committed tiles read bare are taken out once the players went on past them: more is a board
#: swept or moved, not a misread.
GONE_PAST_MOST = 2


@dataclass
class Corrections:
    """What settled boards have said of the committed tiles since they were committed."""

    misread: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)  # square -> (letter since, settles)
    doubted: set[tuple[int, int]] = field(default_factory=set)   # committed tiles whose letter was read under DOUBTED
    # committed tiles read bare on a board left disturbed, and the new tiles read then (None: no such board)
    missing: tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]] | None = None

    def forget(self) -> None:
        """The board changed other than by the camera: letters read against the old board count for nothing."""
        self.misread, self.doubted, self.missing = {}, set(), None

    def gone_past(self, board: Board, missing: Iterable[tuple[int, int]], added: Iterable[tuple[int, int]],
                  pressed: bool, t: float) -> list[DetectedEvent]:
        """A settled board left disturbed by committed tiles read bare (``missing``, none of the last play) with new
        tiles ``added``: the ``correct`` events taking those tiles out of ``board`` once the players went on past
        them — the same tiles read bare on a board before, more new tiles since (not one word still going down
        into its own line), or a clock ``pressed`` — and none beside a new tile (a tile slid a square aside), at
        most ``GONE_PAST_MOST``. Until then the board waits (a tile lifted and held), and nothing changes."""
        missing, added = frozenset(missing), frozenset(added)
        before, self.missing = self.missing, (missing, added)
        if not missing or len(missing) > GONE_PAST_MOST or touching(missing, added):
            return []
        went_on = pressed or (before is not None and before[0] == missing and added > before[1]
                              and not word_still_going_down(before[1], added - before[1]))
        if not went_on:
            return []
        self.missing = None
        out = []
        for r, c in sorted(missing):
            tile = board[r, c]
            board[r, c] = None
            self.doubted.discard((r, c))
            self.misread.pop((r, c), None)
            was = "a blank" if tile.is_blank else tile.letter
            out.append(DetectedEvent("correct", t=t, square=(r, c), letter=EMPTY,
                                     note=f"{square_name(r, c)} was committed as {was} and has read bare since, "
                                          "and the players went on past it"))
        return out

    def committed(self, placement: Placement, reading: Reading) -> None:
        """A play's tiles were committed from ``reading``: the ones whose letter it hardly believed are doubted."""
        for r, c, tile in placement.new_tiles():
            p = reading.probability(r, c, BLANK if tile.is_blank else tile.letter)
            (self.doubted.add if p < DOUBTED else self.doubted.discard)((r, c))

    def keep_to(self, board: Board) -> None:
        """Only squares that hold a tile are doubted (a withdrawn tile's square is free)."""
        self.doubted &= {(r, c) for r, c, _ in board.tiles()}

    def found(self, board: Board, reading: Reading, last_play: Placement | None, tileset: TileSet,
              config: Any, t: float) -> list[DetectedEvent]:
        """The ``correct`` events of the committed tiles of ``board`` that ``reading`` and the settled boards
        before it put right, and ``board`` changed to match them. ``config``: the
        tracker's (``correct_above``, ``correct_after``, ``remove_after``). The last play's tiles are left to
        ``interpret`` (a changed letter there may be a new tile on a square just vacated) unless doubted."""
        if config.correct_after <= 0:
            return []
        last = {(r, c) for r, c, _ in last_play.new_tiles()} if last_play is not None else set()
        seen: dict[tuple[int, int], tuple[str, int]] = {}
        out: list[DetectedEvent] = []
        for r, c, tile in board.tiles():
            label = reading.grid[r][c]
            # a blank read clearly as a letter was a letter misread bare (a blank has nothing printed to read)
            same = label == tile.letter and not tile.is_blank
            doubted = (r, c) in self.doubted
            if (((r, c) in last and not doubted) or label in (OCCLUDED, BLANK) or same
                    or reading.confidence[r, c] < config.correct_above
                    or (label == EMPTY and config.remove_after <= 0)):
                continue
            before, count = self.misread.get((r, c), ("", 0))
            count = count + 1 if before == label else 1
            if count < (config.remove_after if label == EMPTY else 1 if doubted else config.correct_after):
                seen[(r, c)] = (label, count)
                continue
            if label != EMPTY and label in tileset.letters and board.count(label) >= tileset.count(label):
                # the set's every tile of that letter is on the board already: one of them is the misread one, and
                # the game would refuse this correction; the square is left as committed (the players can correct it)
                log.info("%s reads %s, but every %s of the set is on the board: not corrected", square_name(r, c),
                         label, label)
                continue
            # read bare as clearly, as often: the square was bare and misread as a tile when its play was committed
            # (the game would otherwise stall on a tile "missing" from then on); read as another letter: misread
            board[r, c] = None if label == EMPTY else Tile(label)
            self.doubted.discard((r, c))
            was = "a blank" if tile.is_blank else tile.letter
            since = "bare" if label == EMPTY else label
            out.append(DetectedEvent("correct", t=t, square=(r, c), letter=label,
                                     note=f"{square_name(r, c)} was committed as {was} and has read {since} since"))
        self.misread = seen
        return out


__all__ = ["Corrections", "DOUBTED", "GONE_PAST_MOST"]
