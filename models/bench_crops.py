"""``tilecam bench crops FOLDER``: real tile faces cut from other people's photos, read by the tile model.

A folder of ``LETTER/*.png`` crops (``BLANK`` a blank tile), each one tile's face (e.g. truthmane/ScrabbleVision's
``training/data/held_out_rack_naspa_finals``, cut from a tournament broadcast no training command reads) is read as
the board reader reads a square: the face scaled to a square, its own edge as context, beside the reference of a
bare square (a plain square of an empty rendered board: the crop's own board is not in the picture). Measured:
of the crops, the share read as a tile (any letter or a blank, not a bare or covered square), and of the letters,
the share whose letter is right when the reading is asked for a letter (the tile set's letters only). Crops whose
sides differ by more than ``reader_data.MAX_ASPECT`` are rack tiles seen obliquely (training leaves them out); they
are stretched to a square and counted apart, since a board square reaches the model rectified.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from tilecam.models.reader_data import face_as_square, face_label, oblique
from tilecam.vision.classify import BLANK, EMPTY, OCCLUDED, TileClassifier


def tile_faces(folder: Path) -> list[tuple[str, np.ndarray, bool]]:
    """(label, crop as the reader cuts a square, oblique) of every crop in ``folder``'s ``LETTER/`` folders."""
    out = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        label = face_label(sub.name)
        if label is None:
            continue
        for f in sorted(sub.iterdir()):
            image = cv2.imread(str(f)) if f.suffix.lower() in (".png", ".jpg", ".jpeg") else None
            if image is not None:
                out.append((label, face_as_square(image), oblique(image)))
    return out


def bare_reference(seed: int = 900_000) -> np.ndarray:
    """A plain square's crop of an empty board rendered in a held-out style (the reference the faces are read
    beside)."""
    from tilecam.models import synth
    from tilecam.models.dataset import crops_and_labels
    from tilecam.vision.context import kind_of_square

    render = synth.render_board(("." * 15,) * 15, seed=seed, styles=synth.HELDOUT_STYLES)
    crops, _ = crops_and_labels(render.image, render.corners, ["." * 15] * 15)
    return crops[int(np.flatnonzero(kind_of_square(15) == 0)[0])]      # kind 0: the plain squares


def read_faces(classifier: TileClassifier, faces, letters: tuple[str, ...]) -> dict[str, Counter]:
    """Counts per group (``square`` faces, ``oblique`` ones): crops, read as a tile, letters, letters right."""
    classes = list(classifier.classes)
    crops = np.stack([crop for _, crop, _ in faces])
    refs = np.repeat(bare_reference()[None], len(crops), axis=0)
    logits, _ = classifier.in_views(crops, refs, classifier.run(crops, refs)[0])   # as a board's squares are read
    probs = classifier.calibrated(logits, letters)
    letter_columns = [classes.index(ch) for ch in letters]
    counts = {"square": Counter(), "oblique": Counter()}
    for (label, _, seen_obliquely), p in zip(faces, probs):
        c = counts["oblique" if seen_obliquely else "square"]
        c["crops"] += 1
        c["tile"] += classes[int(p.argmax())] not in (EMPTY, OCCLUDED)
        if label != BLANK:
            c["letters"] += 1
            c["letters right"] += classes[letter_columns[int(p[letter_columns].argmax())]] == label
    return counts


def main(argv: list[str] | None = None) -> int:
    from tilecam.vision.read import letters_of

    parser = argparse.ArgumentParser(prog="tilecam bench crops", description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="LETTER/*.png crops (BLANK: a blank tile)")
    parser.add_argument("--tiles", default="english", help="the tile set whose letters the reading is asked for")
    parser.add_argument("--model", type=Path, help="tile model (default the shipped one)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        parser.error(f"{args.folder} is not a folder")
    faces = tile_faces(args.folder)
    if not faces:
        parser.error(f"no LETTER/*.png crops in {args.folder}")
    classifier = TileClassifier.load(args.model, threads=2)
    counts = read_faces(classifier, faces, letters_of(args.tiles))
    print(f"model {classifier.path}; {args.folder}: {len(faces)} crops")
    print("| crops | n | read as a tile | letters right (asked for a letter) |")
    print("| --- | --- | --- | --- |")
    for group, c in counts.items():
        if c["crops"]:
            print(f"| {group} | {c['crops']} | {c['tile'] / c['crops']:.1%} | "
                  f"{c['letters right']}/{c['letters']} ({c['letters right'] / max(c['letters'], 1):.1%}) |")
    return 0
