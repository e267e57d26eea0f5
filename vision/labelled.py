"""Folders of labelled photos: ``NAME.jpg`` (or ``.png``/``.jpeg``) beside ``NAME.board.txt``.

A label is 15 lines of 15 characters as the board lies in the photo: ``.`` a bare square, an upper-case letter a
lettered tile, a lower-case letter or ``?`` a blank tile. A reader may return the board in any of its four turns
(never mirrored): ``best_turn`` finds the turn of a reading that agrees best with a label. Only paths are read here;
the photos themselves stay where their owners keep them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")   # what OpenCV reads
LABEL_SUFFIX = ".board.txt"
#: A photo of one move of a game: ``G_MM`` (game G, move MM).
MOVE_PHOTO = re.compile(r"^(?P<game>[^_]+)_(?P<move>\d+)$")


class LabelError(ValueError):
    """A ``NAME.board.txt`` that is not 15 lines of 15 squares, or holds a square that is none of ``.``, ``?``
    and a letter."""


@dataclass(frozen=True)
class LabelledPhoto:
    name: str
    photo: Path
    board: tuple[str, ...]       # 15 rows as labelled, blanks as ``?`` (their letter is not the camera's to read)


def blank_as_unknown(row: str) -> str:
    """A label row with every blank (lower case or ``?``) written ``?``: the reader sees a blank, not its letter."""
    return "".join("?" if ch == "?" or ch.islower() else ch for ch in row)


def read_label(path: Path, size: int = 15) -> tuple[str, ...]:
    """The board of a ``NAME.board.txt``, blanks as ``?``; ``LabelError`` when it is not ``size`` x ``size``."""
    rows = [line.rstrip("\r") for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
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
