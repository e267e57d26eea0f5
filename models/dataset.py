"""Training and evaluation crops: real labelled photos and synthetic renders, cut by the shared warp.

Real photos come from ``shared/data/real-boards/scrabscrap`` (games 01–02 for training; games 03–04 are kept for
evaluation and never trained on). Their labels are ``image-N.board.txt``: ``.`` empty, an upper-case letter a tile,
a lower-case letter a blank tile (label ``?``).
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from tilecam.vision.warp import cut_cells, warp_board

#: The labels of the first tile models (m23 and the shipped one, 32 outputs): bare, A–Z, German Ä Ö Ü, blank,
#: occluded.
FIRST_CLASSES: tuple[str, ...] = (".",) + tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ("Ä", "Ö", "Ü", "?", "#")
#: The letters of the Spanish and Polish tile sets that the first models lack, each named as the engine's tile set
#: names its tile (``engine/data/tiles``): Spanish Ñ and its two-letter tiles CH, LL, RR by their symbols Ç, Ŀ, Ř
#: (one character a square, as board text has them), then Polish Ą Ć Ę Ł Ń Ó Ś Ź Ż.
LATER_LETTERS: tuple[str, ...] = ("Ñ", "Ç", "Ŀ", "Ř", "Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż")
#: Every label the tile model knows, in the order of its outputs: one model reads the Latin letters of every
#: bundled tile set. The later letters come after ``#`` so that every class of the first models keeps its index:
#: label indices cached by a training (``located-*.npz``, the renders) stay right, and code that compares these
#: indices with a first model's outputs (``models.evaluate``) still compares like with like.
CLASSES: tuple[str, ...] = FIRST_CLASSES + LATER_LETTERS
CLASS_INDEX = {c: i for i, c in enumerate(CLASSES)}

#: The shared photo folder beside the checkout (absent on machines without ../shared).
SHARED_BOARDS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-boards" / "scrabscrap"

TRAIN_GAMES = ("game01", "game02")
EVAL_GAMES = ("game03", "game04")

# ScrabScrap warps these outer board corners (scrabble.ini) to 800x800 and puts the grid at 25..775 px.
_SCRABSCRAP_OUTER = np.array([[5, 44], [908, 37], [910, 934], [21, 940]], np.float32)


def scrabscrap_grid_corners() -> np.ndarray:
    """The playing grid's corners in a ScrabScrap frame (TL, TR, BR, BL), from its calibration."""
    h = cv2.getPerspectiveTransform(_SCRABSCRAP_OUTER,
                                    np.array([[0, 0], [800, 0], [800, 800], [0, 800]], np.float32))
    grid = np.array([[25, 25], [775, 25], [775, 775], [25, 775]], np.float32).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(grid, np.linalg.inv(h)).reshape(4, 2)


def label_of(char: str) -> str:
    """Board-text character of a label file → tile-model label: a lower-case letter (``ç``, a blank standing for
    CH) is a blank tile, ``?``."""
    if char == ".":
        return "."
    if char.islower():
        return "?"
    return char


def read_labels(path: Path) -> list[str]:
    rows = path.read_text(encoding="utf-8").split("\n")[:15]
    if len(rows) != 15 or any(len(r) != 15 for r in rows):
        raise ValueError(f"{path}: expected 15 rows of 15 squares")
    return rows


def natural_key(path: Path) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", path.name)]


def real_photos(root: Path, games=TRAIN_GAMES) -> list[tuple[Path, list[str]]]:
    """(photo, 15 label rows) of the chosen ScrabScrap games."""
    out = []
    for game in games:
        for label in sorted((root / game).glob("image-*.board.txt"), key=natural_key):
            photo = label.with_name(label.name.replace(".board.txt", ".jpg"))
            if photo.is_file():
                out.append((photo, read_labels(label)))
    return out


def crops_and_labels(image: np.ndarray, corners: np.ndarray, rows: list[str]) -> tuple[np.ndarray, np.ndarray]:
    crops = cut_cells(warp_board(image, corners))
    labels = np.array([CLASS_INDEX[label_of(ch)] for row in rows for ch in row], dtype=np.int64)
    return crops, labels


def real_crops(root: Path, games=TRAIN_GAMES, jitter: int = 0, copies: int = 1, seed: int = 0
               ) -> tuple[np.ndarray, np.ndarray]:
    """Crops of every square of the games' photos; ``copies`` extra cuts with corners moved up to ``jitter`` px."""
    rng = np.random.default_rng(seed)
    base = scrabscrap_grid_corners()
    xs, ys = [], []
    for photo, rows in real_photos(root, games):
        image = cv2.imread(str(photo))
        for i in range(copies):
            corners = base if i == 0 else base + rng.uniform(-jitter, jitter, base.shape).astype(np.float32)
            x, y = crops_and_labels(image, corners, rows)
            xs.append(x)
            ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)
