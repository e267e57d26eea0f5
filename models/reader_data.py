"""Training examples for the tile reader: (crop, reference, label) triples from renders, real photos and tile crops.

Every example is a square's crop as ``tilecam.vision.warp`` cuts it, beside the reference crop the reader gives
the model (``tilecam.vision.context``): the bare look of that square's kind on the same board. Three sources:

- synthetic renders (``tilecam.models.synth``, training seeds and styles, the variety styles included); some with
  the reference cut from the same scene rendered empty, as a calibrated reader sees it;
- labelled photos of real boards (folders of ``NAME.jpg`` + ``NAME.board.txt``, ``tilecam.vision.labelled``), located
  and cut as the reader does, each board turned upright first (a board lying sideways in a photo is turned so that
  its letters stand up, told by a model's reading of the labelled letters);
- folders of real tile crops, one folder per letter (``A/…png``, ``BLANK/``): letter faces of many tile makes. They
  come without their board, so their reference is a bare square of another board.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from tilecam.models.dataset import CLASS_INDEX, CLASSES, label_of
from tilecam.vision.context import references_from_board, references_from_empty_board
from tilecam.vision.labelled import labelled_photos
from tilecam.vision.raised import faces_corners
from tilecam.vision.warp import CELL_PX, CONTEXT_PX, CROP_PX, cut_cells, warp_board

EMPTY, BLANK, OCCLUDED = CLASS_INDEX["."], CLASS_INDEX["?"], CLASS_INDEX["#"]


@dataclass
class Examples:
    """Crops, their references and labels (class indices), and the board each came from (for splits)."""

    x: np.ndarray        # (N, CROP_PX, CROP_PX, 3) uint8 BGR
    ref: np.ndarray      # (N, CROP_PX, CROP_PX, 3) uint8 BGR
    y: np.ndarray        # (N,) int64
    board: np.ndarray    # (N,) int32: index of the board (or crop folder) in its source

    @staticmethod
    def concat(parts: list["Examples"]) -> "Examples":
        parts = [p for p in parts if len(p.y)]
        return Examples(*(np.concatenate([getattr(p, f) for p in parts]) for f in ("x", "ref", "y", "board")))

    def take(self, idx) -> "Examples":
        return Examples(self.x[idx], self.ref[idx], self.y[idx], self.board[idx])

    def __len__(self) -> int:
        return len(self.y)


def board_examples(crops: np.ndarray, labels: np.ndarray, board: int, refs: np.ndarray | None = None,
                   empties: float = 1.0, rng: np.random.Generator | None = None) -> Examples:
    """The squares of one board with their references (from the board itself unless ``refs``), every tile and
    an ``empties`` share of the bare squares."""
    refs = references_from_board(crops) if refs is None else refs
    keep = labels != EMPTY
    if empties >= 1:
        keep[:] = True
    elif empties > 0:
        keep |= (rng or np.random.default_rng(board)).random(len(labels)) < empties
    idx = np.flatnonzero(keep)
    return Examples(crops[idx], refs[idx], labels[idx].astype(np.int64), np.full(len(idx), board, np.int32))


# --- synthetic ----------------------------------------------------------------------------------------------------

#: The tilt (degrees from straight down) of the training renders drawn steep (``synthetic_examples``' ``steep``
#: share): the scenes draw 0-35 degrees, and a camera low over an edge (45 degrees, issue 25's hard case; the real
#: idofrizler set) shows each tile's face up the picture over a fifth of the square beyond it, which a reader
#: trained on 35 degrees at most has never seen beside a bare square.
STEEP_TILT_DEG = (35.0, 50.0)

#: The random stream of the steep draw, apart from the scene's: with no steep share the renders are the ones drawn
#: before it existed.
STEEP_STREAM = 11


def _render_examples(job: tuple[int, int, float, float, float, bool]) -> Examples:
    """One training render's examples (a worker's job: board seed, index, share of empties kept, share of boards
    given their empty render's crops as references, share of boards drawn steep, and whether each tile is also cut
    on the plane of the tiles' faces where the render's camera can be told (``vision.raised``), as the reader reads
    which tile (``vision.read.tiles_read_on_their_faces``), beside its cut on the board's plane, where the reader
    reads whether a tile lies there)."""
    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels

    seed, i, empties, calibrated, steep, on_faces = job
    rng = np.random.default_rng([seed, 7])
    tileset = "german" if i % 4 == 3 else "english"
    styles = synth.VARIETY_STYLES if i % 2 else synth.TRAINING_STYLES
    scene = synth.sample_scene(rng, tileset, styles)
    steep_rng = np.random.default_rng([seed, STEEP_STREAM])
    if steep_rng.random() < steep:
        scene = replace(scene, tilt_deg=float(steep_rng.uniform(*STEEP_TILT_DEG)))
    few = rng.random() < 0.1          # a game's first frames: the board nearly empty, the star bare
    grid = synth.random_grid(rng, tileset, tiles=int(rng.integers(0, 4)) if few else None)
    hand = synth.random_arm(rng) if rng.random() < 0.25 else None
    render = synth.render_board(grid, seed=seed, scene=scene, hand=hand)
    crops, y = crops_and_labels(render.image, render.corners, list(render.grid))
    y[np.asarray(render.occluded).reshape(-1)] = OCCLUDED
    refs = None
    if rng.random() < calibrated:
        empty = synth.render_board(("." * 15,) * 15, seed=seed, scene=scene, hand=None)
        refs = references_from_empty_board(crops_and_labels(empty.image, empty.corners, ["." * 15] * 15)[0])
    examples = board_examples(crops, y, i, refs, empties, rng)
    faces = faces_corners(render.corners, render.image.shape) if on_faces else None
    if faces is None:
        return examples
    tiles = np.flatnonzero((y != EMPTY) & (y != OCCLUDED))
    refs = references_from_board(crops) if refs is None else refs
    cut = Examples(cut_cells(warp_board(render.image, faces))[tiles], refs[tiles], y[tiles].astype(np.int64),
                   np.full(len(tiles), i, np.int32))
    return Examples.concat([examples, cut])


def synthetic_examples(n_boards: int, seed: int, empties: float = 0.3, calibrated: float = 0.3,
                       workers: int = 2, steep: float = 0.0, on_faces: bool = False) -> Examples:
    """Examples of ``n_boards`` training renders (training seeds only), ``workers`` processes, progress printed;
    ``steep``: the share of them drawn with the camera tilted ``STEEP_TILT_DEG``; ``on_faces``: each tile also cut
    on the plane of the tiles' faces (``_render_examples``)."""
    from tilecam.models import synth

    seeds = synth.TRAIN_SEEDS[seed * 10_000:seed * 10_000 + n_boards]
    jobs = [(int(s), i, empties, calibrated, steep, on_faces) for i, s in enumerate(seeds)]
    parts = []
    pool = None
    if workers > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(workers)
    try:
        results = pool.imap(_render_examples, jobs, chunksize=8) if pool else map(_render_examples, jobs)
        for i, part in enumerate(results):
            parts.append(part)
            if (i + 1) % 200 == 0 or i + 1 == n_boards:
                print(f"  rendered {i + 1}/{n_boards} boards", flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    return Examples.concat(parts)


# --- real boards ---------------------------------------------------------------------------------------------------

def located_boards(folder: Path, cache: Path | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """(names, crops (B, 225, …), labels (B, 225)) of every labelled photo in ``folder`` whose board is found,
    located and cut as the reader does; kept in ``cache`` (an .npz) when given. A photo whose board is not found is
    left out and named on stdout."""
    from tilecam.vision.locate import BoardNotFound, locate_board

    if cache is not None and cache.exists():
        with np.load(cache) as data:
            return list(data["names"]), data["crops"], data["labels"]
    names, crops, labels = [], [], []
    for photo in labelled_photos(folder):
        image = cv2.imread(str(photo.photo))
        try:
            location = locate_board(image)
        except BoardNotFound as exc:
            print(f"  {photo.name}: {exc}", flush=True)
            continue
        names.append(photo.name)
        crops.append(cut_cells(warp_board(image, location.corners)))
        labels.append([CLASS_INDEX[label_of(ch)] for row in photo.board for ch in row])
    out = names, np.stack(crops), np.array(labels, np.int64)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, names=np.array(names), crops=out[1], labels=out[2])
    return out


#: A located board is trained on only where its label fits the grid found this well: the share of (tile, bare
#: square) pairs in which the tile differs more from its square's reference than the bare square does (an AUC;
#: 0.5 is a grid that has nothing to do with the label — a board located wrong).
MIN_LABEL_FIT = 0.7


def _auc(pos: np.ndarray, neg: np.ndarray) -> float:
    if not len(pos) or not len(neg):
        return 1.0
    ranks = np.concatenate([pos, neg]).argsort().argsort() + 1
    return float((ranks[:len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def label_turn(crops: np.ndarray, labels: np.ndarray) -> tuple[int, float]:
    """The quarter turn (``np.rot90`` of the 15 x 15 label) that lays a photo's label on the grid as the locator
    found it (its corners may start at another corner than the photo's top left), and how well it fits
    (``MIN_LABEL_FIT``): told without a model, from how unlike its square's reference each labelled tile is."""
    c = CONTEXT_PX + 4
    diff = np.abs(crops.astype(np.float32) - references_from_board(crops).astype(np.float32))
    diff = diff[:, c:CROP_PX - c, c:CROP_PX - c].mean(axis=(1, 2, 3))
    fits = []
    for k in range(4):
        tile = np.rot90(labels.reshape(15, 15), k).reshape(-1) != EMPTY
        fits.append(_auc(diff[tile], diff[~tile]))
    k = int(np.argmax(fits))
    return k, fits[k]


def labelled_letters_turn(crops: np.ndarray, labels: np.ndarray, classify) -> int:
    """The quarter turns (of each crop, as ``np.rot90``) that stand a board's letters up: the turn under which
    ``classify`` (crops, references → probabilities) gives the labelled letters the most likelihood."""
    letter = np.array([len(CLASSES[i]) == 1 and CLASSES[i].isalpha() for i in labels])
    if not letter.any():
        return 0
    refs = references_from_board(crops)
    scores = []
    for k in range(4):
        p = classify(np.rot90(crops[letter], k, axes=(1, 2)), np.rot90(refs[letter], k, axes=(1, 2)))
        scores.append(float(np.log(p[np.arange(int(letter.sum())), labels[letter]] + 1e-6).mean()))
    return int(np.argmax(scores))


def real_examples(boards: list[tuple[np.ndarray, np.ndarray, int]], first_board: int = 0) -> Examples:
    """Examples of real boards given as (crops, labels, upright turn); every square kept."""
    parts = []
    for i, (crops, labels, turn) in enumerate(boards):
        crops = np.ascontiguousarray(np.rot90(crops, turn, axes=(1, 2)))
        parts.append(board_examples(crops, labels, first_board + i))
    return Examples.concat(parts)


# --- real tile crops -----------------------------------------------------------------------------------------------

#: A tile crop whose sides differ more than this ratio is a rack tile seen cut off, not a square's face.
MAX_ASPECT = 1.25


def face_label(folder_name: str) -> str | None:
    """The class of a folder of tile faces (``A``…, ``BLANK`` a blank tile), None for one that is not a tile's
    (``NOISE``, a bare or covered square)."""
    name = "?" if folder_name.upper() == "BLANK" else folder_name.upper()
    return name if name in CLASS_INDEX and name not in (".", "#") else None


def oblique(image: np.ndarray) -> bool:
    """Whether a tile face's sides differ by more than ``MAX_ASPECT`` (a rack tile seen at an angle or cut off)."""
    return max(image.shape[:2]) > MAX_ASPECT * min(image.shape[:2])


def face_as_square(image: np.ndarray) -> np.ndarray:
    """A tile's face as the reader cuts a square: scaled to ``CELL_PX``, its own edge as ``CONTEXT_PX`` of context."""
    face = cv2.resize(image, (CELL_PX, CELL_PX), interpolation=cv2.INTER_AREA)
    return cv2.copyMakeBorder(face, *(CONTEXT_PX,) * 4, cv2.BORDER_REPLICATE)


def tile_crop_examples(folder: Path, bare: np.ndarray, rng: np.random.Generator, board: int = 0,
                       limit_per_class: int = 400) -> Examples:
    """Real tile faces from ``folder`` (``LETTER/*.png|jpg``; ``BLANK`` a blank tile; other names skipped), each
    scaled to a square and given ``CONTEXT_PX`` of its own edge as context; references drawn from ``bare`` (bare
    crops of other boards), since the tile's own board is not in the picture."""
    xs, ys = [], []
    for sub in sorted(p for p in Path(folder).iterdir() if p.is_dir()):
        name = face_label(sub.name)
        if name is None:
            continue
        files = sorted(f for f in sub.iterdir() if f.suffix.lower() in (".png", ".jpg", ".jpeg"))
        if len(files) > limit_per_class:
            files = [files[i] for i in sorted(rng.choice(len(files), limit_per_class, replace=False))]
        for f in files:
            image = cv2.imread(str(f))
            if image is None or oblique(image):
                continue
            xs.append(face_as_square(image))
            ys.append(CLASS_INDEX[name])
    x = np.stack(xs) if xs else np.zeros((0, CROP_PX, CROP_PX, 3), np.uint8)
    refs = bare[rng.integers(len(bare), size=len(x))] if len(x) else x.copy()
    return Examples(x, refs, np.array(ys, np.int64), np.full(len(x), board, np.int32))


def describe(examples: Examples) -> str:
    counts = np.bincount(examples.y, minlength=len(CLASSES))
    return json.dumps({CLASSES[i]: int(c) for i, c in enumerate(counts) if c})
