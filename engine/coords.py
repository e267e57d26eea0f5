"""GCG coordinates: ``8D`` = row 8 from column D across, ``D8`` = column D from row 8 down.

Internally ``row`` and ``col`` are 0-based ints. The transposed "lettered rows" notation (ScrabScrap's German
records) puts the letter on the ROW and the number on the column: ``H4`` = across along row H from column 4,
``5G`` = down column 5 from row G.

>>> parse_coord("8D")
(7, 3, True)
>>> parse_coord("D8")
(7, 3, False)
>>> format_coord(7, 3, True)
'8D'
>>> parse_coord("H4", lettered_rows=True)
(7, 3, True)
>>> format_coord(7, 3, True, lettered_rows=True)
'H4'
"""

from __future__ import annotations

import functools
import re

from .errors import CoordinateError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Coordinates kept read and written (every square of a 26x26 board both ways, both notations: 2,704), as a
# record names the same few hundred again and again.
COORDS_CACHED = 4096
_NUMBER_FIRST = re.compile(r"^(\d{1,2})([A-Za-z])$")
_LETTER_FIRST = re.compile(r"^([A-Za-z])(\d{1,2})$")


def parse_coord(text: str, lettered_rows: bool = False, size: int | None = None) -> tuple[int, int, bool]:
    """Read a GCG coordinate into ``(row, col, across)``; ``size`` (if given) bounds-checks it."""
    row, col, across = _parse(text, lettered_rows)
    if size is not None and not (row < size and col < size):
        raise CoordinateError(f"coordinate {text!r} lies off a {size}x{size} board")
    return row, col, across


@functools.lru_cache(maxsize=COORDS_CACHED)
def _parse(text: str, lettered_rows: bool) -> tuple[int, int, bool]:
    m = _NUMBER_FIRST.match(text)
    if m:
        number, letter, number_first = int(m.group(1)), m.group(2).upper(), True
    else:
        m = _LETTER_FIRST.match(text)
        if not m:
            raise CoordinateError(f"not a coordinate: {text!r} (expected e.g. 8D across or D8 down)")
        letter, number, number_first = m.group(1).upper(), int(m.group(2)), False
    if number < 1:
        raise CoordinateError(f"coordinate {text!r}: numbers start at 1")
    letter_index, number_index = LETTERS.index(letter), number - 1
    if lettered_rows:
        # letter = row, number = column; letter first = across
        row, col, across = letter_index, number_index, not number_first
    else:
        # number = row, letter = column; number first = across
        row, col, across = number_index, letter_index, number_first
    return row, col, across


@functools.lru_cache(maxsize=COORDS_CACHED)
def format_coord(row: int, col: int, across: bool, lettered_rows: bool = False) -> str:
    """Write ``(row, col, across)`` as a GCG coordinate (the inverse of :func:`parse_coord`)."""
    if not (0 <= row < len(LETTERS) and 0 <= col < len(LETTERS)):
        raise CoordinateError(f"square ({row}, {col}) cannot be written as a coordinate")
    if lettered_rows:
        letter, number = LETTERS[row], col + 1
        return f"{letter}{number}" if across else f"{number}{letter}"
    letter, number = LETTERS[col], row + 1
    return f"{number}{letter}" if across else f"{letter}{number}"


def square_name(row: int, col: int) -> str:
    """A square's name in standard notation, column letter then row number: ``square_name(7, 7) == 'H8'``.

    >>> square_name(7, 7)
    'H8'
    """
    return f"{LETTERS[col]}{row + 1}"
