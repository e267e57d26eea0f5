"""The board: a square grid of :class:`Tile` or ``None`` over a :class:`~tilecam.engine.layout.Layout`.

Board text (the project-wide convention): one string per row, row 1 first, column A first; ``.`` empty, an
upper-case letter a tile, a lower-case letter a blank standing for that letter, ``?`` a blank whose letter is not
known yet.

>>> b = Board()
>>> b[7, 7] = Tile("Q")
>>> b[7, 8] = Tile("I", is_blank=True)
>>> b.rows()[7]
'.......Qi......'
>>> Board.from_rows(b.rows()) == b
True
>>> str(b[7, 8]), b[7, 8]
('i', Tile('I', is_blank=True))
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from .errors import BoardTextError
from .layout import Layout

EMPTY = "."
UNKNOWN = "?"


def fast_init(cls: type) -> type:
    """Give a frozen, slotted dataclass an ``__init__`` (same signature, defaults and ``__post_init__``) that sets
    each slot through its descriptor instead of ``object.__setattr__``, which builds and slices an argument tuple
    per field: for the engine's values made once per play, word or event. Apply it above ``@dataclass``."""
    names, params = [], []
    ns: dict[str, object] = {}
    for f in dataclasses.fields(cls):
        if not f.init or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes plain fields with plain defaults")
        names.append(f.name)
        ns[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            ns[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
    lines = [f"def __init__(self, {', '.join(params)}):"] + [f"    _set_{n}(self, {n})" for n in names]
    if hasattr(cls, "__post_init__"):
        lines.append("    self.__post_init__()")
    exec("\n".join(lines), ns)
    init = ns["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"  # type: ignore[attr-defined]
    cls.__init__ = init  # type: ignore[misc]
    return cls


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile on the board. ``letter`` is upper case; a blank carries its designated letter (``"?"`` if unknown)."""

    letter: str
    is_blank: bool = False

    def __post_init__(self) -> None:
        ok = len(self.letter) == 1 and (
            (self.letter.isalpha() and self.letter.isupper()) or (self.letter == UNKNOWN and self.is_blank)
        )
        if not ok:
            raise BoardTextError(f"not a tile: letter {self.letter!r}, is_blank={self.is_blank}")

    def __str__(self) -> str:
        return self.letter.lower() if self.is_blank else self.letter

    def __repr__(self) -> str:
        return f"Tile({self.letter!r}, is_blank=True)" if self.is_blank else f"Tile({self.letter!r})"

    @property
    def rack_letter(self) -> str:
        """The tile as it stood on a rack: its letter, or ``"?"`` for any blank."""
        return UNKNOWN if self.is_blank else self.letter

    @staticmethod
    def from_char(ch: str) -> "Tile":
        """The tile a board-text character stands for (``"A"``, ``"a"`` blank, ``"?"`` blank of unknown letter)."""
        tile = _CHAR_TILES.get(ch)
        if tile is not None:
            return tile
        if ch == UNKNOWN:
            return Tile(UNKNOWN, True)
        if len(ch) == 1 and ch.isalpha():
            return Tile(ch.upper(), ch.islower())
        raise BoardTextError(f"not a tile character: {ch!r}")


_CHAR_TILES: dict[str, Tile] = {}
for _ch in "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ":
    _CHAR_TILES[_ch] = Tile(_ch)
    _CHAR_TILES[_ch.lower()] = Tile(_ch, True)
_CHAR_TILES[UNKNOWN] = Tile(UNKNOWN, True)


class Board:
    """A mutable grid; ``board[row, col]`` is a :class:`Tile` or ``None``. Rows and columns are 0-based."""

    __slots__ = ("layout", "size", "_cells", "_counts")

    def __init__(self, layout: Layout | None = None):
        self.layout = layout if layout is not None else Layout.load()
        self.size = self.layout.size
        self._cells: list[Tile | None] = [None] * (self.size * self.size)
        self._counts: dict[str, int] = {}  # rack letter -> tiles on the board, kept as squares change (no zeros)

    def _index(self, key: tuple[int, int]) -> int:
        row, col = key
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise IndexError(f"square ({row}, {col}) is off the {self.size}x{self.size} board")
        return row * self.size + col

    def __getitem__(self, key: tuple[int, int]) -> Tile | None:
        return self._cells[self._index(key)]

    def __setitem__(self, key: tuple[int, int], tile: Tile | None) -> None:
        row, col = key
        size = self.size
        if not (0 <= row < size and 0 <= col < size):
            raise IndexError(f"square ({row}, {col}) is off the {size}x{size} board")
        i = row * size + col
        counts, old = self._counts, self._cells[i]
        if old is not None:
            letter = UNKNOWN if old.is_blank else old.letter
            if counts[letter] > 1:
                counts[letter] -= 1
            else:
                del counts[letter]
        if tile is not None:
            letter = UNKNOWN if tile.is_blank else tile.letter  # its rack letter
            counts[letter] = counts.get(letter, 0) + 1
        self._cells[i] = tile

    def place(self, squares: list[tuple[int, int, Tile]]) -> None:
        """Put tiles on empty squares, ``[(row, col, tile)]`` (a play's new tiles): ``board[row, col] = tile`` for
        each, in one call."""
        size, cells, counts = self.size, self._cells, self._counts
        for row, col, tile in squares:
            if tile is None or not (0 <= row < size and 0 <= col < size) or cells[row * size + col] is not None:
                self[row, col] = tile  # the general path: bounds checked, an old tile's count taken off
                continue
            letter = UNKNOWN if tile.is_blank else tile.letter
            counts[letter] = counts.get(letter, 0) + 1
            cells[row * size + col] = tile

    @property
    def cells(self) -> list[Tile | None]:
        """The squares row by row (``cells[row * size + col]``), for hot loops that only read; do not change it
        (``board[row, col] = tile`` keeps the tile counts)."""
        return self._cells

    def in_bounds(self, row: int, col: int) -> bool:
        return 0 <= row < self.size and 0 <= col < self.size

    def occupied(self, row: int, col: int) -> bool:
        """True when the square is on the board and holds a tile (off-board squares count as empty)."""
        return 0 <= row < self.size and 0 <= col < self.size and self._cells[row * self.size + col] is not None

    def is_empty(self) -> bool:
        return not self._counts

    def tiles(self) -> Iterator[tuple[int, int, Tile]]:
        """Every occupied square as ``(row, col, tile)``, row by row."""
        for i, cell in enumerate(self._cells):
            if cell is not None:
                yield i // self.size, i % self.size, cell

    def tile_counts(self) -> Counter:
        """Tiles on the board as rack letters (blanks as ``"?"``)."""
        return Counter(self._counts)

    def count(self, rack_letter: str) -> int:
        """How many tiles of ``rack_letter`` (``"?"``: blanks) are on the board."""
        return self._counts.get(rack_letter, 0)

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.layout, other.size, other._cells, other._counts = self.layout, self.size, list(self._cells), \
            dict(self._counts)
        return other

    def rows(self) -> list[str]:
        """The board as text, one string per row (see the module docstring)."""
        n = self.size
        return ["".join(EMPTY if c is None else str(c) for c in self._cells[r * n:(r + 1) * n]) for r in range(n)]

    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...], layout: Layout | None = None) -> "Board":
        """Board text back into a board; raises ``BoardTextError`` naming the row and column of a bad character."""
        board = cls(layout)
        if len(rows) != board.size:
            raise BoardTextError(f"expected {board.size} rows, got {len(rows)}")
        for r, row in enumerate(rows):
            if len(row) != board.size:
                raise BoardTextError(f"row {r + 1} has {len(row)} characters, expected {board.size}")
            for c, ch in enumerate(row):
                if ch != EMPTY:
                    try:
                        board[r, c] = Tile.from_char(ch)
                    except BoardTextError:
                        raise BoardTextError(f"row {r + 1}, column {c + 1}: not a tile character: {ch!r}") from None
        return board

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.layout == other.layout and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Board.from_rows({self.rows()!r})"

    def __str__(self) -> str:
        return "\n".join(self.rows())
