"""Learning the user's tiles from one photo: one tile of each letter of the set laid out on the board in order.

A model that never saw a board's tile make misreads some of its tiles every time: the Romanian set's blank, a
smiley printed on it, read O on every photo of five games (docs/BENCHMARKS.md). Shown the set once, the reader
learns it. The user lays one tile of each letter on the board in the set's order (``order_of``: the letters as the
set lists them, the blank last), row after row from the board's top left, at any spacing, and photographs it
(``tilecam calibrate --laid-out PHOTO``). Each tile read is labelled by its place in that order, whatever the model
read it as; its look (the model's embedding) is kept, with the squares read bare, and the model's last layer refitted
on them (``adapt.BoardProfile``) reads every frame after: the learning a game's committed moves give
(``VisionReader.learn``), before the first move. The looks are kept with the model's digest: another model's
embeddings mean nothing to it, so a new model asks for the photo again.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tilecam.vision.adapt import BoardProfile
from tilecam.vision.classify import BLANK, EMPTY, OCCLUDED

LOOKS_NAME = "tile-looks.npz"

#: Of the tiles laid out, at least this share must read as the letter their place gives them: a set laid out in its
#: order reads mostly as itself even on a board the model never saw (22 of 23 on the Romanian board, its blank the
#: one); fewer means the tiles lie in another order, or are another set's, and learning them would teach it wrong.
MOST_READ_ALIKE = 0.5


class LayoutError(ValueError):
    """A photo whose tiles are not the set laid out in its order: a tile too few or too many, something over the
    board, or tiles read too unlike the order."""


@dataclass(frozen=True, eq=False)
class TileLooks:
    """The looks learnt from a photo of the set laid out: the model's embedding of each square learnt, its label (a
    class name: a letter, ``?`` the blank, ``.`` bare), the model's last layer, the digest of the model, and, when
    just learnt (not kept in the file), how many of the tiles the model read as their place's letter."""

    embeddings: np.ndarray                 # (N, features) float32
    labels: tuple[str, ...]
    head: tuple[np.ndarray, np.ndarray]    # (W, b) of the model's last layer (``adapt.head_of``)
    model: str                             # ``model_digest`` of the model the embeddings are of
    read_alike: int | None = None          # tiles the model read as their place's letter (None: not learnt here)

    def profile(self, classes) -> BoardProfile:
        """The looks as a ``BoardProfile`` of a model with ``classes`` (labels it has no class for left out)."""
        index = {c: i for i, c in enumerate(classes)}
        keep = [i for i, label in enumerate(self.labels) if label in index]
        return BoardProfile([self.embeddings[i] for i in keep], [index[self.labels[i]] for i in keep], self.head)

    @property
    def tiles(self) -> int:
        """Tiles learnt (the squares learnt bare not counted)."""
        return sum(label != EMPTY for label in self.labels)


def order_of(tileset) -> list[str]:
    """The order the tiles are laid out in: the set's letters as it lists them (a two-letter tile as its symbol,
    Spanish CH ``Ç``), then the blank."""
    from tilecam.engine.tiles import TileSet

    letters = (TileSet.load(tileset) if isinstance(tileset, str) else tileset).letters
    return list(letters) + [BLANK]


def laid_out_labels(grid, tileset) -> np.ndarray:
    """Each square's label in a reading ``grid`` (rows, upright) of the set laid out: the tiles read, taken row by
    row and left to right, labelled by the order (``order_of``); squares read bare labelled bare. A ``LayoutError``
    where the tiles read are not as many as the order's, something covers the board, or fewer than
    ``MOST_READ_ALIKE`` of them read as their place's letter."""
    order = order_of(tileset)
    size = len(grid)
    labels = np.array([[ch for ch in row] for row in grid], dtype=object)
    if (labels == OCCLUDED).any():
        raise LayoutError(f"something covers {int((labels == OCCLUDED).sum())} squares of the board: photograph "
                          "the tiles alone")
    tiles = [(r, c) for r in range(size) for c in range(size) if labels[r, c] != EMPTY]
    if len(tiles) != len(order):
        raise LayoutError(f"{len(tiles)} tiles read where the set has {len(order) - 1} letters and a blank: lay one "
                          f"tile of each, in this order, row after row from the top left: {' '.join(order)}")
    alike = sum(labels[sq] == ch for sq, ch in zip(tiles, order))
    if alike < MOST_READ_ALIKE * len(order):
        read = " ".join(labels[sq] for sq in tiles)
        raise LayoutError(f"the tiles read {read}, only {alike} of {len(order)} as their place in the order "
                          f"{' '.join(order)}: lay them in that order, row after row from the top left")
    out = np.full((size, size), EMPTY, dtype=object)
    for sq, ch in zip(tiles, order):
        out[sq] = ch
    return out


def learn_laid_out(image: np.ndarray, classifier, tileset, size: int = 15) -> TileLooks:
    """The looks of the set laid out in ``image`` (``laid_out_labels``), read as a single photo by ``classifier``.
    ``BoardNotFound`` without a board; ``LayoutError`` as ``laid_out_labels``; ``ValueError`` for a model without
    an embedding (nothing to learn from)."""
    from tilecam.vision.read import read_board

    reading = read_board(image, classifier, tileset=tileset, rotation=None, settled=False, size=size)
    if reading.embedding is None or reading.logits is None:
        raise ValueError(f"the tile model {classifier.path} gives no embedding: it cannot learn a board")
    labels = laid_out_labels(reading.grid, tileset).reshape(-1)
    read = "".join(reading.grid)
    classes = list(classifier.classes)
    profile = BoardProfile()
    profile.learn(reading.embedding, np.array([classes.index(ch) for ch in labels]), reading.logits,
                  empty=classes.index(EMPTY))
    return TileLooks(np.stack(profile.embeddings), tuple(classes[y] for y in profile.labels), profile.head,
                     model_digest(classifier.path), sum(ch != EMPTY and ch == r for ch, r in zip(labels, read)))


def learn_laid_out_photo(photo: Path, classifier, tileset, size: int = 15) -> TileLooks:
    """``learn_laid_out`` of the photo at ``photo``; ``ValueError`` where no image can be read from it."""
    import cv2

    image = cv2.imread(str(photo)) if Path(photo).is_file() else None
    if image is None:
        raise ValueError(f"cannot read an image from {photo}")
    return learn_laid_out(image, classifier, tileset, size)


def model_digest(path) -> str:
    """The model file's digest (SHA-256, 16 hex digits): which model a board's looks were learnt with."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def save_tile_looks(looks: TileLooks, folder: Path) -> Path:
    from tilecam.vision.profile import save_npz

    return save_npz(folder, LOOKS_NAME, embeddings=looks.embeddings, labels=np.array(looks.labels, dtype=str),
                    head_w=looks.head[0], head_b=looks.head[1], model=np.array(looks.model))


def load_tile_looks(folder: Path) -> TileLooks | None:
    """The looks kept in ``folder``, or None when there are none; ``LayoutError`` for a file that is not looks."""
    path = Path(folder) / LOOKS_NAME
    if not path.is_file():
        return None
    try:
        with np.load(path) as data:
            looks = TileLooks(data["embeddings"].astype(np.float32), tuple(str(s) for s in data["labels"]),
                              (data["head_w"], data["head_b"]), str(data["model"]))
    except (OSError, KeyError, ValueError) as exc:
        raise LayoutError(f"{path} is not a board's tile looks: {exc}") from exc
    if looks.embeddings.ndim != 2 or len(looks.embeddings) != len(looks.labels):
        raise LayoutError(f"{path}: {looks.embeddings.shape} embeddings for {len(looks.labels)} labels")
    return looks
