"""A placement: tiles laid in one line, written and read in GCG notation.

``tiles`` holds one entry per square of the main word from ``(row, col)`` on: a :class:`Tile` for a newly placed
tile, ``None`` for a square played through (a tile already on the board).

>>> p = Placement.from_gcg("8D", "CRAAlED")
>>> p.row, p.col, p.across, len(p.tiles), p.tiles[4]
(7, 3, True, 7, Tile('L', is_blank=True))
>>> p.gcg()
('8D', 'CRAAlED')
>>> str(Placement.from_gcg("H3", "AB.C"))
'H3 AB.C'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from .board import _CHAR_TILES, UNKNOWN, Board, Tile, fast_init
from .coords import format_coord, parse_coord
from .errors import BoardTextError, IllegalPlacement

PLAYED_THROUGH = "."


@fast_init
@dataclass(frozen=True, slots=True)
class Placement:
    """Tiles in one line; ``across`` True = left to right along a row, False = down a column."""

    row: int
    col: int
    across: bool
    tiles: tuple[Tile | None, ...]

    def square(self, i: int) -> tuple[int, int]:
        """The ``(row, col)`` of the ``i``-th square of the placement."""
        return (self.row, self.col + i) if self.across else (self.row + i, self.col)

    def squares(self) -> Iterator[tuple[int, int, Tile | None]]:
        """Every square of the main word as ``(row, col, tile or None)``."""
        row, col, dr, dc = self.row, self.col, int(not self.across), int(self.across)
        for i, tile in enumerate(self.tiles):
            yield row + dr * i, col + dc * i, tile

    def new_tile_index(self, row: int, col: int) -> int | None:
        """Which square of the placement ``(row, col)`` is (the index into ``tiles`` and into the GCG word) when
        the play puts a tile there; None when it puts none there (off its line, or a played-through square).

        >>> p = Placement.from_gcg("8G", "C.T")
        >>> p.new_tile_index(7, 8), p.new_tile_index(7, 7), p.new_tile_index(8, 8)
        (2, None, None)
        """
        for i, (r, c, tile) in enumerate(self.squares()):
            if (r, c) == (row, col):
                return i if tile is not None else None
        return None

    def new_tiles(self) -> list[tuple[int, int, Tile]]:
        """The newly placed tiles as ``(row, col, tile)``."""
        row, col, dr, dc = self.row, self.col, int(not self.across), int(self.across)
        return [(row + dr * i, col + dc * i, t) for i, t in enumerate(self.tiles) if t is not None]

    @property
    def tile_count(self) -> int:
        return len([t for t in self.tiles if t is not None])  # not tiles.count(None): that calls Tile.__eq__

    def rack_letters(self) -> str:
        """The tiles taken from the rack, blanks as ``"?"`` (``"CRAA?ED"`` for ``CRAAlED``)."""
        return "".join([UNKNOWN if t.is_blank else t.letter for t in self.tiles if t is not None])

    def gcg(self, lettered_rows: bool = False) -> tuple[str, str]:
        """``(coordinate, word)`` with ``.`` for played-through squares."""
        word = "".join([PLAYED_THROUGH if t is None else t.letter.lower() if t.is_blank else t.letter
                        for t in self.tiles])
        return format_coord(self.row, self.col, self.across, lettered_rows), word

    def __str__(self) -> str:
        return " ".join(self.gcg())

    def __repr__(self) -> str:
        coord, word = self.gcg()
        return f"Placement.from_gcg({coord!r}, {word!r})"

    @classmethod
    def from_gcg(cls, coord: str, word: str, board: Board | None = None, lettered_rows: bool = False) -> "Placement":
        """Read a GCG placement. ``.`` marks a played-through square; with a ``board``, letters written out over
        occupied squares are read as played through too (they must match the tile there)."""
        row, col, across = parse_coord(coord, lettered_rows=lettered_rows)
        if not word:
            raise IllegalPlacement(f"{coord}: empty word")
        size = board.size if board is not None else 0
        cells = board._cells if board is not None else ()
        last = len(word) - 1
        inside = row + (0 if across else last) < size and col + (last if across else 0) < size  # all on the board
        if inside:  # what the board holds under the word, one slice of the flat list
            start, step = row * size + col, 1 if across else size
            line = cells[start:start + last * step + 1:step]
        elif board is None:
            line = [None] * len(word)
        else:
            line = [cells[r * size + c] if 0 <= r < size and 0 <= c < size else None
                    for r, c in (((row, col + i) if across else (row + i, col)) for i in range(len(word)))]
        tiles: list[Tile | None] = []
        for ch, on_board in zip(word, line):
            if ch == PLAYED_THROUGH:
                tiles.append(None)
                continue
            tile = _CHAR_TILES.get(ch)
            if tile is None:
                try:
                    tile = Tile.from_char(ch)
                except BoardTextError:
                    raise IllegalPlacement(f"{coord} {word}: not a tile character: {ch!r}") from None
            if on_board is not None:
                if on_board.letter != tile.letter:
                    raise IllegalPlacement(
                        f"{coord} {word}: letter {ch!r} written over {str(on_board)!r} already on the board"
                    )
                tiles.append(None)
            else:
                tiles.append(tile)
        return cls(row, col, across, tuple(tiles))

    @classmethod
    def from_squares(cls, board: Board, squares: Iterable[tuple[int, int, Tile]]) -> "Placement":
        """The placement made by newly placed tiles ``[(row, col, tile)]`` on ``board`` (before they are placed).

        The result spans the whole main word, played-through tiles at either end included. A single tile takes
        the direction in which it forms the longer word (across on a tie). Raises ``IllegalPlacement`` when the
        tiles are not in one line, leave a gap, or lie on occupied or off-board squares.

        >>> b = Board.from_rows(["." * 15] * 7 + ["...CAT........."] + ["." * 15] * 7)
        >>> Placement.from_squares(b, [(7, 6, Tile("S"))])
        Placement.from_gcg('8D', '...S')
        """
        new = {}
        for r, c, tile in squares:
            if not board.in_bounds(r, c):
                raise IllegalPlacement(f"square ({r}, {c}) is off the board")
            if board[r, c] is not None:
                raise IllegalPlacement(f"square ({r}, {c}) is already occupied")
            if (r, c) in new:
                raise IllegalPlacement(f"two tiles on square ({r}, {c})")
            new[(r, c)] = tile
        if not new:
            raise IllegalPlacement("no tiles placed")
        rows = {r for r, _ in new}
        cols = {c for _, c in new}
        if len(new) == 1:
            (r, c), = new
            across = _run_length(board, r, c, True) >= _run_length(board, r, c, False)
        elif len(rows) == 1:
            across = True
        elif len(cols) == 1:
            across = False
        else:
            raise IllegalPlacement("tiles are not in one line")
        keys = sorted(new)
        (r0, c0), (r1, c1) = keys[0], keys[-1]
        dr, dc = (0, 1) if across else (1, 0)
        # extend backwards and forwards over tiles already on the board
        while board.occupied(r0 - dr, c0 - dc):
            r0, c0 = r0 - dr, c0 - dc
        while board.occupied(r1 + dr, c1 + dc):
            r1, c1 = r1 + dr, c1 + dc
        tiles: list[Tile | None] = []
        r, c = r0, c0
        while (r, c) <= (r1, c1):
            if (r, c) in new:
                tiles.append(new[(r, c)])
            elif board[r, c] is not None:
                tiles.append(None)
            else:
                raise IllegalPlacement(f"gap at square ({r}, {c}): tiles are not contiguous")
            r, c = r + dr, c + dc
        return cls(r0, c0, across, tuple(tiles))


def word_without(coord: str, word: str, k: int) -> tuple[str, str]:
    """The GCG play ``coord word`` without the tile on its word's ``k``-th square (a bare square read as a tile when
    it was recorded): ``(coord, word)`` of what is left. Only a square at either end of the word can go — one
    inside would split the play — and some new tile must be left.

    >>> word_without("12L", "?S.R", 0), word_without("H8", "CAT", 2)
    (('12M', 'S.R'), ('H8', 'CA'))
    """
    if not 0 <= k < len(word) or word[k] == PLAYED_THROUGH:
        raise IllegalPlacement(f"{coord} {word}: no tile of the play on its square {k + 1}")
    if 0 < k < len(word) - 1:
        raise IllegalPlacement(f"{coord} {word}: the tile is inside the word; taking it out would split the play")
    rest = word[1:] if k == 0 else word[:-1]
    if not rest.strip(PLAYED_THROUGH):
        raise IllegalPlacement(f"{coord} {word}: no tile of the play would be left")
    if k == 0:
        row, col, across = parse_coord(coord)
        coord = format_coord(row + (not across), col + across, across)
    return coord, rest


def _run_length(board: Board, row: int, col: int, across: bool) -> int:
    """Length of the word a tile at an empty ``(row, col)`` would sit in along one direction."""
    dr, dc = (0, 1) if across else (1, 0)
    n = 1
    r, c = row - dr, col - dc
    while board.occupied(r, c):
        n, r, c = n + 1, r - dr, c - dc
    r, c = row + dr, col + dc
    while board.occupied(r, c):
        n, r, c = n + 1, r + dr, c + dc
    return n
