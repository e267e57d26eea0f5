"""Legality of a placement: the one place where the geometry rules are checked.

A placement is legal when its tiles lie in one line on empty squares, contiguous with any played-through
letters, the placement spans the whole main word, and it touches the tiles already down (the first move instead
covers the centre with at least two tiles). Word validity is a separate question (see ``Game`` and
``Lexicon``). A blank whose letter is not known yet (``Tile("?", is_blank=True)``, what the camera sees before
anyone says) is allowed: neither legality nor the score depends on the letter a blank stands for. :func:`check` returns every word formed, main word first, then the cross words in order.

>>> from tilecam.engine.board import Board
>>> from tilecam.engine.move import Placement
>>> [w.text for w in check(Board(), Placement.from_gcg("8D", "QUANT"))]
['QUANT']
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Board, Tile, fast_init
from .errors import IllegalPlacement
from .move import Placement


@fast_init
@dataclass(frozen=True, slots=True)
class FormedWord:
    """A word formed by a play: its squares, tiles, and which of them were placed by this play."""

    row: int
    col: int
    across: bool
    tiles: tuple[Tile, ...]
    new: tuple[bool, ...]

    @property
    def word(self) -> str:
        """The word in upper case (what a lexicon is asked about)."""
        return "".join([t.letter for t in self.tiles])

    @property
    def text(self) -> str:
        """The word with blanks in lower case (``QUAnT``)."""
        return "".join([t.letter.lower() if t.is_blank else t.letter for t in self.tiles])

    @property
    def squares(self) -> tuple[tuple[int, int], ...]:
        if self.across:
            return tuple((self.row, self.col + i) for i in range(len(self.tiles)))
        return tuple((self.row + i, self.col) for i in range(len(self.tiles)))


def check(board: Board, placement: Placement) -> list[FormedWord]:
    """Every word the placement forms on ``board`` (main word first), or ``IllegalPlacement`` saying why not."""
    # Runs once per move scored: squares are read from the flat list (slices for whole lines), no per-square calls.
    size, cells = board.size, board._cells
    row, col, across, tiles_ = placement.row, placement.col, placement.across, placement.tiles
    n = len(tiles_)
    if across:
        step, cross_step, r_end, c_end = 1, size, row, col + n - 1
    else:
        step, cross_step, r_end, c_end = size, 1, row + n - 1, col
    if not (0 <= row and 0 <= col and r_end < size and c_end < size):
        raise IllegalPlacement(f"{placement}: runs off the {size}x{size} board")
    start = row * size + col
    end = start + (n - 1) * step  # the last square of the line
    if (col if across else row) > 0 and cells[start - step] is not None or \
            (c_end if across else r_end) < size - 1 and cells[end + step] is not None:
        raise IllegalPlacement(f"{placement}: does not span the whole word (a tile touches one end)")
    line = cells[start:end + 1:step]  # what the board holds under the placement
    main_tiles = list(tiles_)
    new_at: list[int] = []  # indices of the newly placed tiles
    for i, tile in enumerate(tiles_):
        on_board = line[i]
        if tile is None:
            if on_board is None:
                r, c = placement.square(i)
                raise IllegalPlacement(f"{placement}: played-through square ({r}, {c}) is empty")
            main_tiles[i] = on_board
        elif on_board is not None:
            r, c = placement.square(i)
            raise IllegalPlacement(f"{placement}: square ({r}, {c}) is already occupied by {on_board}")
        else:
            new_at.append(i)
    if not new_at:
        raise IllegalPlacement(f"{placement}: places no tile")
    words: list[FormedWord] = []
    if n >= 2:
        words.append(FormedWord(row, col, across, tuple(main_tiles), tuple([t is not None for t in tiles_])))
    # cross words, perpendicular through each new tile: along a column when the play runs across, and so on
    last = size - 1
    for i in new_at:
        here = start + i * step
        r, c = (row, col + i) if across else (row + i, col)
        lo = r if across else c  # squares before this one along the cross line
        first = here
        while lo > 0 and cells[first - cross_step] is not None:
            first -= cross_step
            lo -= 1
        hi = (r if across else c)
        stop = here
        while hi < last and cells[stop + cross_step] is not None:
            stop += cross_step
            hi += 1
        if first == stop:
            continue
        tiles = cells[first:stop + 1:cross_step]
        before = (here - first) // cross_step
        tiles[before] = tiles_[i]
        new = [False] * len(tiles)
        new[before] = True
        r0, c0 = (r - before, c) if across else (r, c - before)
        words.append(FormedWord(r0, c0, not across, tuple(tiles), tuple(new)))
    if not board._counts:  # the first move
        center = board.layout.center
        if len(new_at) < 2:
            raise IllegalPlacement(f"{placement}: the first move must place at least two tiles")
        if not any((row, col + i) == center if across else (row + i, col) == center for i in new_at):
            raise IllegalPlacement(f"{placement}: the first move must cover the centre square")
    elif n == len(new_at) and len(words) == (1 if n >= 2 else 0):
        raise IllegalPlacement(f"{placement}: does not touch any tile already on the board")
    if not words:
        raise IllegalPlacement(f"{placement}: forms no word of two or more letters")
    return words
