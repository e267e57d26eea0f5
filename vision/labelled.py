"""Folders of labelled photos: ``NAME.jpg`` (or ``.png``/``.jpeg``) beside ``NAME.board.txt``.

A label is 15 lines of 15 squares as the board lies in the photo: ``.`` a bare square, an upper-case letter a
lettered tile (``Ñ``, ``Ł`` …), a lower-case letter or ``?`` a blank tile. A two-letter tile (Spanish CH, LL, RR) is
its tile set's one-character symbol (``Ç``, ``Ŀ``, ``Ř``: ``engine.tiles``) or its face in brackets as GCG writes
it (``[CH]``; ``[ch]`` a blank standing for it), one square either way. A reader may return the board in any of its
four turns (never mirrored): ``best_turn`` finds the turn of a reading that agrees best with a label. Only paths are
read here; the photos themselves stay where their owners keep them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")   # what OpenCV reads
LABEL_SUFFIX = ".board.txt"
#: A photo of one move of a game: ``G_MM`` (game G, move MM).
MOVE_PHOTO = re.compile(r"^(?P<game>[^_]+)_(?P<move>\d+)$")


#: One square of a label row: a tile's face in brackets (``[CH]``) or one character.
_SQUARE = re.compile(r"\[([^\[\]]*)\]|(.)")


class LabelError(ValueError):
    """A ``NAME.board.txt`` that is not 15 lines of 15 squares, or holds a square that is none of ``.``, ``?``
    and a letter (or a bracketed face no bundled tile set has)."""


@dataclass(frozen=True)
class LabelledPhoto:
    name: str
    photo: Path
    board: tuple[str, ...]       # 15 rows as labelled, blanks as ``?`` (their letter is not the camera's to read)


def blank_as_unknown(row: str) -> str:
    """A label row with every blank (lower case or ``?``) written ``?``: the reader sees a blank, not its letter."""
    return "".join("?" if ch == "?" or ch.islower() else ch for ch in row)


@functools.lru_cache(maxsize=1)
def _symbols_of_faces() -> dict[str, str]:
    """Each multi-letter face of the bundled tile sets → its tile's symbol (``CH`` → ``Ç``)."""
    from tilecam.engine.tiles import TileSet

    found: dict[str, str] = {}
    for name in TileSet.bundled():
        tiles = TileSet.load(name)
        found.update((face, symbol) for face, symbol in zip(tiles.faces, tiles.letters) if len(face) > 1)
    return found


def squares_of(row: str) -> str:
    """A label row as one character a square: a bracketed face as its tile's symbol (``[CH]`` → ``Ç``, ``[ch]``, a
    blank standing for it, → ``ç``). ``LabelError`` for a bracketed face that no bundled tile set has."""
    out = []
    for m in _SQUARE.finditer(row):
        face, char = m.group(1), m.group(2)
        if face is None:
            out.append(char)
            continue
        symbol = _symbols_of_faces().get(face.upper())
        if symbol is None:
            raise LabelError(f"no bundled tile set has a tile [{face}]")
        out.append(symbol.lower() if face.islower() else symbol)
    return "".join(out)


def read_label(path: Path, size: int = 15) -> tuple[str, ...]:
    """The board of a ``NAME.board.txt``, blanks as ``?``, a two-letter tile as its symbol (``[CH]`` → ``Ç``);
    ``LabelError`` when it is not ``size`` x ``size``."""
    try:
        rows = [squares_of(line.rstrip("\r")) for line in path.read_text(encoding="utf-8").splitlines()
                if line.strip()]
    except LabelError as exc:
        raise LabelError(f"{path}: {exc}") from None
    if len(rows) != size or any(len(r) != size for r in rows):
        raise LabelError(f"{path}: expected {size} lines of {size} squares, got {[len(r) for r in rows]}")
    bad = sorted({ch for r in rows for ch in r if not (ch in ".?" or ch.isalpha())})
    if bad:
        raise LabelError(f"{path}: unknown squares {bad}")
    return tuple(blank_as_unknown(r) for r in rows)


def labelled_photos(folder: Path) -> list[LabelledPhoto]:
    """Every photo in ``folder`` that has a label beside it, by name; a label without a photo is skipped."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"no folder {folder}")
    out = []
    for label in sorted(folder.glob("*" + LABEL_SUFFIX)):
        name = label.name[: -len(LABEL_SUFFIX)]
        photo = next((folder / (name + s) for s in PHOTO_SUFFIXES if (folder / (name + s)).is_file()), None)
        if photo is not None:
            out.append(LabelledPhoto(name, photo, read_label(label)))
    return out


def games_in(folder: Path) -> dict[str, list[LabelledPhoto]]:
    """The folder's labelled photos of games by game (names ``G_MM``, ``MOVE_PHOTO``; others left out), each game's
    in move order, the games in natural order (2 before 10)."""
    games: dict[str, list[tuple[int, LabelledPhoto]]] = {}
    for photo in labelled_photos(folder):
        m = MOVE_PHOTO.match(photo.name)
        if m:
            games.setdefault(m["game"], []).append((int(m["move"]), photo))
    order = sorted(games, key=lambda g: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", g)])
    return {g: [p for _, p in sorted(games[g], key=lambda t: t[0])] for g in order}


def as_array(board) -> np.ndarray:
    """15 strings → a 15 x 15 array of one-character strings."""
    return np.array([list(row) for row in board])


def best_turn(truth, read) -> int:
    """The quarter turns (``np.rot90`` of ``read``) that make ``read`` agree best with ``truth``; ties go to 0."""
    t, r = as_array(truth), as_array(read)
    return min(range(4), key=lambda k: (int((np.rot90(r, k) != t).sum()), k))


def turned(board, k: int) -> np.ndarray:
    """``board`` (strings or array) turned ``k`` quarter turns as ``np.rot90`` turns it."""
    return np.rot90(as_array(board), k)
