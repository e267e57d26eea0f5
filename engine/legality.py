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

from .board import Board, Tile
from .errors import IllegalPlacement
from .move import Placement


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
        return "".join(map(str, self.tiles))

    @property
    def squares(self) -> tuple[tuple[int, int], ...]:
        if self.across:
            return tuple((self.row, self.col + i) for i in range(len(self.tiles)))
        return tuple((self.row + i, self.col) for i in range(len(self.tiles)))


def check(board: Board, placement: Placement) -> list[FormedWord]:
    """Every word the placement forms on ``board`` (main word first), or ``IllegalPlacement`` saying why not."""
    size, cells = board.size, board.cells  # squares read from the flat list: this runs once per move scored
    row, col, across, tiles_ = placement.row, placement.col, placement.across, placement.tiles
    dr, dc = (0, 1) if across else (1, 0)
    step = 1 if across else size  # from one square of the line to the next in the flat list
    n = len(tiles_)
    r_end, c_end = row + dr * (n - 1), col + dc * (n - 1)
    if not (0 <= row and 0 <= col and r_end < size and c_end < size):
        raise IllegalPlacement(f"{placement}: runs off the {size}x{size} board")
    if board.occupied(row - dr, col - dc) or board.occupied(r_end + dr, c_end + dc):
        raise IllegalPlacement(f"{placement}: does not span the whole word (a tile touches one end)")
    main_tiles: list[Tile] = []
    main_new: list[bool] = []
    new_squares: list[tuple[int, int, Tile]] = []
    start = row * size + col
    for i, tile in enumerate(tiles_):
        on_board = cells[start + i * step]
        if tile is None:
            if on_board is None:
                r, c = placement.square(i)
                raise IllegalPlacement(f"{placement}: played-through square ({r}, {c}) is empty")
            main_tiles.append(on_board)
            main_new.append(False)
        else:
            if on_board is not None:
                r, c = placement.square(i)
                raise IllegalPlacement(f"{placement}: square ({r}, {c}) is already occupied by {on_board}")
            main_tiles.append(tile)
            main_new.append(True)
            new_squares.append((row + dr * i, col + dc * i, tile))
    if not new_squares:
        raise IllegalPlacement(f"{placement}: places no tile")
    words: list[FormedWord] = []
    if n >= 2:
        words.append(FormedWord(row, col, across, tuple(main_tiles), tuple(main_new)))
    # cross words, perpendicular through each new tile: along a column when the play runs across, and so on
    cross_step = size if across else 1
    for r, c, tile in new_squares:
        here = r * size + c
        lo = c if not across else r  # squares before this one along the cross line
        hi = size - 1 - lo           # squares after it
        before = 0
        while before < lo and cells[here - (before + 1) * cross_step] is not None:
            before += 1
        after = 0
        while after < hi and cells[here + (after + 1) * cross_step] is not None:
            after += 1
        if not before and not after:
            continue
        first = here - before * cross_step
        tiles = [cells[first + k * cross_step] for k in range(before + after + 1)]
        tiles[before] = tile
        new = [False] * len(tiles)
        new[before] = True
        r0, c0 = (r - before, c) if across else (r, c - before)
        words.append(FormedWord(r0, c0, not across, tuple(tiles), tuple(new)))
    if board.is_empty():
        center = board.layout.center
        if len(new_squares) < 2:
            raise IllegalPlacement(f"{placement}: the first move must place at least two tiles")
        if not any((r, c) == center for r, c, _ in new_squares):
            raise IllegalPlacement(f"{placement}: the first move must cover the centre square")
    elif n == len(new_squares) and len(words) == (1 if n >= 2 else 0):
        raise IllegalPlacement(f"{placement}: does not touch any tile already on the board")
    if not words:
        raise IllegalPlacement(f"{placement}: forms no word of two or more letters")
    return words
