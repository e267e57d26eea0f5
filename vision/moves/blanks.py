"""What the tracker knows about blanks better than one frame: an unprinted tile and a bare square look alike.

Two memories, each a set of squares, each applied to every settled reading before it is judged:

* **bare squares read as a blank** — a "blank" beside a play that made no word with it, or one the set has no blank
  left for, was judged empty: the same white square reads the same on every board, and would otherwise come back
  as a new tile. Read empty while it still reads as a blank; forgotten once it reads anything else (a tile put there
  is read afresh).
* **tiles that read as the bare board** — a blank (or, more rarely, a letter) found in a play's gap (``decide`` once
  the players went on) read bare then and reads bare on every later board: read as the tile it is, else every later
  board would say a tile is missing there — unless its play is being taken back (another tile of the last play read
  bare beside it).
"""

from __future__ import annotations

from collections.abc import Iterable

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.vision.moves.reading import BLANK, EMPTY, Reading

Square = tuple[int, int]


class BlankMemory:
    """The two memories; ``apply`` gives the reading as the tracker judges it."""

    def __init__(self) -> None:
        self.bare: set[Square] = set()          # squares judged empty though read as a blank tile
        self.unseen: dict[Square, str] = {}     # committed tiles that read as the bare board: their labels

    def forget(self) -> None:
        self.bare, self.unseen = set(), {}

    def apply(self, reading: Reading, board: Board, last_play: Placement | None) -> Reading:
        """``reading`` with the blanks known to read bare read as blanks, and the bare squares known to read as
        blanks read empty (see the module doc); squares that no longer fit either are forgotten."""
        self.unseen = {s: label for s, label in self.unseen.items() if board[s] is not None}
        last = {(r, c) for r, c, _ in last_play.new_tiles()} if last_play is not None else set()
        taken_back = any(reading.grid[r][c] == EMPTY for r, c in last - set(self.unseen))
        for label in set(self.unseen.values()):
            reading = reading.with_label({(r, c) for (r, c), known in self.unseen.items() if known == label
                                          and reading.grid[r][c] == EMPTY and not (taken_back and (r, c) in last)},
                                         label)
        self.bare = {(r, c) for r, c in self.bare if reading.grid[r][c] == BLANK and board[r, c] is None}
        return reading.with_empty(self.bare)

    def judged_bare(self, squares: Iterable[Square], reading: Reading) -> None:
        """The decision took these squares as empty: those read as a blank are bare squares that look like one."""
        self.bare |= {(r, c) for r, c in squares if reading.grid[r][c] == BLANK}

    def committed(self, placement: Placement, reading: Reading) -> None:
        """A play was committed: its tiles on squares read bare (found in a gap) will read bare again."""
        self.unseen.update({(r, c): BLANK if tile.is_blank else tile.letter for r, c, tile in placement.new_tiles()
                            if reading.grid[r][c] == EMPTY})
