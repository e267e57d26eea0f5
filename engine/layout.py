"""Board geometry and premium squares, read from ASCII-art data files (the macondo convention).

``=`` triple word, ``-`` double word, ``"`` triple letter, ``'`` double letter, ``*`` centre star (double word),
``~`` quadruple word and ``^`` quadruple letter (Super Scrabble), ``.`` plain; ``#`` starts a comment line.
A new board (Super Scrabble 21x21 …) is a new file in ``engine/data/layouts/``.

>>> lay = Layout.load()
>>> lay.size, lay.center, lay.premium(0, 0), lay.premium(7, 7), lay.premium(1, 5), lay.premium(0, 1)
(15, (7, 7), 'TW', 'DW', 'TL', '')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from .datafiles import read_data_file
from .errors import DataFileError

DATA_DIR = Path(__file__).resolve().parent / "data" / "layouts"

# symbol -> (premium name, letter multiplier, word multiplier)
SYMBOLS: dict[str, tuple[str, int, int]] = {
    ".": ("", 1, 1),
    "'": ("DL", 2, 1),
    '"': ("TL", 3, 1),
    "^": ("QL", 4, 1),
    "-": ("DW", 1, 2),
    "*": ("DW", 1, 2),
    "=": ("TW", 1, 3),
    "~": ("QW", 1, 4),
}


@dataclass(frozen=True, slots=True)
class Layout:
    """A square board's premium squares. ``rows`` holds the ASCII art, one string per row."""

    name: str
    rows: tuple[str, ...]
    center: tuple[int, int]

    @property
    def size(self) -> int:
        return len(self.rows)

    def premium(self, row: int, col: int) -> str:
        """``"TW" "DW" "TL" "DL" ""`` (or ``"QW" "QL"`` on Super Scrabble boards) of a square."""
        return SYMBOLS[self.rows[row][col]][0]

    def letter_multiplier(self, row: int, col: int) -> int:
        return SYMBOLS[self.rows[row][col]][1]

    def word_multiplier(self, row: int, col: int) -> int:
        return SYMBOLS[self.rows[row][col]][2]

    @classmethod
    def parse(cls, text: str, name: str = "custom") -> "Layout":
        """Read ASCII art; every row as long as there are rows, only known symbols, at most one ``*``."""
        rows = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        if not rows:
            raise DataFileError(f"layout {name!r}: no rows")
        center = None
        for r, row in enumerate(rows):
            if len(row) != len(rows):
                raise DataFileError(f"layout {name!r}: row {r + 1} has {len(row)} squares, expected {len(rows)}")
            for c, ch in enumerate(row):
                if ch not in SYMBOLS:
                    raise DataFileError(f"layout {name!r}: unknown symbol {ch!r} at row {r + 1}, column {c + 1}")
                if ch == "*":
                    if center is not None:
                        raise DataFileError(f"layout {name!r}: more than one centre star")
                    center = (r, c)
        if center is None:
            center = (len(rows) // 2, len(rows) // 2)
        return cls(name, tuple(rows), center)

    @classmethod
    def load(cls, name: str = "standard15") -> "Layout":
        """A bundled layout by name (``engine/data/layouts/NAME.txt``) or a path to a layout file."""
        return _load(name)


@functools.lru_cache(maxsize=None)
def _load(name: str) -> Layout:
    text, stem = read_data_file(name, DATA_DIR, ".txt", "layout")
    return Layout.parse(text, name=stem)
