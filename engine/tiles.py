"""Tile sets as data: ``engine/data/tiles/NAME.tsv`` holds ``letter  count  value`` rows; ``?`` is the blank.

>>> en = TileSet.load("english")
>>> en.total, en.blanks, en.value("Q"), en.count("E"), en.value("?")
(100, 2, 10, 12, 0)
>>> de = TileSet.load("german")
>>> de.total, de.value("Ä"), "Ö" in de.letters
(102, 6, True)

Two-letter tiles (Spanish ``CH`` ``LL`` ``RR``): one tile, one square, one *symbol*. Everywhere inside the engine
(``Tile.letter``, board text, racks, ``Placement``, lexicon words) such a tile is a single upper-case character,
its symbol, declared in the tile set's fourth column (``CH  1  5  Ç``); a blank standing for it is the symbol in
lower case, like any blank. The bundled Spanish set uses ``Ç`` for CH, ``Ŀ`` for LL and ``Ř`` for RR (letters
no bundled set plays, each with a lower-case form). Only text meant for people or other programs spells the face:
:meth:`TileSet.encode` reads macondo's GCG spelling (``[CH]`` one tile, ``[ch]`` a blank standing for it, racks
like ``EL[LL]NOOS``) into symbols and :meth:`TileSet.decode` writes it back; :meth:`TileSet.spell` splits a plain
word from a word list into tiles, longest face first (``CHICO`` is ``[CH]ICO``).

>>> es = TileSet.load("spanish")
>>> es.face("Ç"), es.symbol("LL"), es.value("Ř"), es.total
('CH', 'Ŀ', 8, 100)
>>> es.encode("EL[LL]NOOS"), es.decode("ELĿNOOS"), es.decode("çE"), es.spell("CHILLAR")
('ELĿNOOS', 'EL[LL]NOOS', '[ch]E', 'ÇIĿAR')
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .datafiles import read_data_file
from .errors import DataFileError

DATA_DIR = Path(__file__).resolve().parent / "data" / "tiles"
BLANK = "?"
_BRACKETED = re.compile(r"\[([^\[\]]+)\]|(.)", re.S)


@dataclass(frozen=True, slots=True)
class TileSet:
    """Letters (no blank) with their counts and values; ``blanks`` blank tiles worth 0.

    ``letters`` are one-character symbols; ``faces`` what each tile shows (the same letter, or ``"CH"`` …);
    an empty ``faces`` means every tile shows its symbol.
    """

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int
    faces: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.faces:
            object.__setattr__(self, "faces", self.letters)

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

    @property
    def multi_letter(self) -> bool:
        """Whether some tile shows more than one letter (``CH``)."""
        return any(len(f) > 1 for f in self.faces)

    def face(self, letter: str) -> str:
        """What the tile ``letter`` (a symbol) shows: ``"CH"`` for Spanish ``"Ç"``; ``"?"`` for the blank."""
        return BLANK if letter == BLANK else self.faces[self._index(letter)]

    def symbol(self, face: str) -> str:
        """The symbol of the tile showing ``face`` (upper case): ``symbol("CH") == "Ç"``."""
        try:
            return self.letters[self.faces.index(face)]
        except ValueError:
            raise DataFileError(f"no tile {face!r} in the {self.name} tile set") from None

    def encode(self, text: str) -> str:
        """GCG text (``[CH]`` one tile, ``[ch]`` a blank standing for it) into symbols; other characters kept."""
        out = []
        for m in _BRACKETED.finditer(text):
            face, ch = m.group(1), m.group(2)
            if face is None:
                out.append(ch)
            else:
                sym = self.symbol(face.upper())
                out.append(sym.lower() if face.islower() else sym)
        return "".join(out)

    def decode(self, symbols: str) -> str:
        """Symbols back into GCG text: a multi-letter face in brackets (``[CH]``; a blank for it ``[ch]``)."""
        out = []
        for ch in symbols:
            upper = ch.upper()
            face = self.faces[self.letters.index(upper)] if upper in self.letters else ch
            if len(face) > 1:
                face = f"[{face.lower() if ch.islower() else face}]"
            elif ch.islower():
                face = face.lower()
            out.append(face)
        return "".join(out)

    def spell(self, word: str) -> str:
        """A plain upper-case word of a word list as symbols: brackets as in :meth:`encode`, then the longest face
        that fits at each position (Spanish ``CHILLAR`` → ``ÇIĿAR``). Characters no face starts are kept."""
        word = self.encode(word) if "[" in word else word
        if not self.multi_letter:
            return word
        multi = sorted(((f, s) for f, s in zip(self.faces, self.letters) if len(f) > 1), key=lambda fs: -len(fs[0]))
        out, i = [], 0
        while i < len(word):
            for face, sym in multi:
                if word.startswith(face, i):
                    out.append(sym)
                    i += len(face)
                    break
            else:
                out.append(word[i])
                i += 1
        return "".join(out)

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
        """Rows ``letter count value`` and, for a multi-letter tile, ``face count value symbol``."""
        letters, faces, counts, values, blanks = [], [], [], [], 0
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            parts = line.split()
            if len(parts) not in (3, 4) or not parts[1].isdigit() or not parts[2].isdigit():
                raise DataFileError(f"tile set {name!r} line {n}: expected 'letter count value' "
                                    f"(and a symbol after a multi-letter tile), got {line!r}")
            face, count, value = parts[0], int(parts[1]), int(parts[2])
            if face == BLANK:
                blanks = count
                continue
            symbol = parts[3] if len(parts) == 4 else face
            if not face.isalpha() or not face.isupper():
                raise DataFileError(f"tile set {name!r} line {n}: {face!r} is not upper-case letters")
            if len(symbol) != 1 or not symbol.isalpha() or not symbol.isupper():
                raise DataFileError(f"tile set {name!r} line {n}: {symbol!r} is not one upper-case letter "
                                    f"(a multi-letter tile {face!r} names one in a fourth column)")
            if symbol in letters or face in faces:
                raise DataFileError(f"tile set {name!r} line {n}: letter {face!r} ({symbol!r}) listed twice")
            letters.append(symbol)
            faces.append(face)
            counts.append(count)
            values.append(value)
        if not letters:
            raise DataFileError(f"tile set {name!r}: no letters")
        return cls(name, tuple(letters), tuple(counts), tuple(values), blanks, tuple(faces))

    @classmethod
    def load(cls, name: str = "english") -> "TileSet":
        """A bundled tile set by name (``english``, ``german``, ``spanish`` …) or a path to a ``.tsv`` file."""
        return _load(name)

    @staticmethod
    def bundled() -> list[str]:
        """Names of the bundled tile sets."""
        return sorted(p.stem for p in DATA_DIR.glob("*.tsv"))


@functools.lru_cache(maxsize=None)
def _load(name: str) -> TileSet:
    text, stem = read_data_file(name, DATA_DIR, ".tsv", "tile set")
    return TileSet.parse(text, name=stem)
