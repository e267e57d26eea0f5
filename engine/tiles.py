"""Tile sets as data: ``engine/data/tiles/NAME.tsv`` holds ``letter  count  value`` rows; ``?`` is the blank.

>>> en = TileSet.load("english")
>>> en.total, en.blanks, en.value("Q"), en.count("E"), en.value("?")
(100, 2, 10, 12, 0)
>>> de = TileSet.load("german")
>>> de.total, de.value("Ä"), "Ö" in de.letters
(102, 6, True)
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .datafiles import read_data_file
from .errors import DataFileError

DATA_DIR = Path(__file__).resolve().parent / "data" / "tiles"
BLANK = "?"


@dataclass(frozen=True, slots=True)
class TileSet:
    """Letters (no blank) with their counts and values; ``blanks`` blank tiles worth 0."""

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int

    def _index(self, letter: str) -> int:
        try:
            return self.letters.index(letter)
        except ValueError:
            raise DataFileError(f"letter {letter!r} is not in the {self.name} tile set") from None

    def count(self, letter: str) -> int:
        """How many tiles of ``letter`` the set holds (``"?"``: blanks)."""
        return self.blanks if letter == BLANK else self.counts[self._index(letter)]

    def value(self, letter: str) -> int:
        """Face value of a natural tile (``"?"``: 0). Raises ``DataFileError`` for a letter not in the set."""
        return 0 if letter == BLANK else self.values[self._index(letter)]

    @property
    def total(self) -> int:
        return sum(self.counts) + self.blanks

    def bag(self) -> Counter:
        """Every tile of the set as a Counter of letters, blanks as ``"?"``."""
        bag = Counter(dict(zip(self.letters, self.counts)))
        if self.blanks:
            bag[BLANK] = self.blanks
        return bag

    def value_map(self) -> dict[str, int]:
        """``{letter: value}`` including ``"?": 0``, for hot loops."""
        return {**dict(zip(self.letters, self.values)), BLANK: 0}

    def rack_value(self, rack: str) -> int:
        """Sum of face values of the tiles in ``rack`` (``"?"`` for blanks): ``rack_value("QI?") == 11``.

        >>> TileSet.load().rack_value("QI?")
        11
        """
        return sum(self.value(ch) for ch in rack)

    @classmethod
    def parse(cls, text: str, name: str = "custom") -> "TileSet":
        letters, counts, values, blanks = [], [], [], 0
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            if len(parts) != 3 or not parts[1].isdigit() or not parts[2].isdigit():
                raise DataFileError(f"tile set {name!r} line {n}: expected 'letter count value', got {line!r}")
            letter, count, value = parts[0], int(parts[1]), int(parts[2])
            if letter == BLANK:
                blanks = count
                continue
            if len(letter) != 1 or not letter.isalpha() or not letter.isupper():
                raise DataFileError(f"tile set {name!r} line {n}: {letter!r} is not one upper-case letter")
            if letter in letters:
                raise DataFileError(f"tile set {name!r} line {n}: letter {letter!r} listed twice")
            letters.append(letter)
            counts.append(count)
            values.append(value)
        if not letters:
            raise DataFileError(f"tile set {name!r}: no letters")
        return cls(name, tuple(letters), tuple(counts), tuple(values), blanks)

    @classmethod
    def load(cls, name: str = "english") -> "TileSet":
        """A bundled tile set by name (``english``, ``german``) or a path to a ``.tsv`` file."""
        return _load(name)


@functools.lru_cache(maxsize=None)
def _load(name: str) -> TileSet:
    text, stem = read_data_file(name, DATA_DIR, ".tsv", "tile set")
    return TileSet.parse(text, name=stem)
