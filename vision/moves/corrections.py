"""Committed tiles put right: a letter misread when its play was committed, a bare square misread as a tile.

A later read of the same still square is the better one when settled boards since show it clearly as another letter
(or as a bare square) ``correct_after`` times in a row (``TrackerConfig``): the light or the hand's shadow was on it
when its play was committed. A letter the model hardly believed when it was committed (``DOUBTED``) is put right by
the first board that reads it clearly, before the next play is judged with the wrong count.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import square_name
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.events import DetectedEvent
from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading

log = logging.getLogger(__name__)

#: A tile committed with its letter's probability under this is corrected on one clear read: the model gave its
#: letter less than even odds, so one board that reads it clearly is worth more than the read it was committed on.
DOUBTED = 0.5


@dataclass
class Corrections:
    """What settled boards have said of the committed tiles since they were committed."""

    misread: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)  # square -> (letter since, settles)
    doubted: set[tuple[int, int]] = field(default_factory=set)   # committed tiles whose letter was read under DOUBTED

    def forget(self) -> None:
        """The board changed other than by the camera: letters read against the old board count for nothing."""
        self.misread, self.doubted = {}, set()

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


__all__ = ["Corrections", "DOUBTED"]
