"""Board labels from tile boxes: a folder of photos labelled for object detection (YOLO: ``NAME.txt`` beside
``NAME.jpg``, one line a tile, ``CLASS CX CY W H`` in fractions of the picture) turned into the reader's labels
(``NAME.board.txt``, ``tilecam.vision.labelled``), so that other people's detection sets measure the reader too.

    python -m tilecam.models.yolo_boards SRC OUT [--names A B C …]

Each photo's board is located by the reader's own ``locate_board``; each box's middle is carried through the
grid's homography onto its square. A photo whose board is not found, or where two boxes land on one square or a
box off the grid, is reported and left out (its label would be a guess). Sets exported by Roboflow hold each photo
up to three times, turned and sheared a little (``NAME_jpg.rf.HASH.jpg``): only the first of each is kept, since
the copies are the same board. What the boxes cannot say: a blank tile is a box only where the set has a class for
it (``--names`` ``?``); squares hidden under something else are labelled bare.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

#: A Roboflow export's copy of a photo: the original's name, its extension, ``.rf.`` and a hash.
ROBOFLOW_COPY = re.compile(r"^(?P<name>.+?)_(?:jpe?g|png|JPE?G|PNG)\.rf\.[0-9a-f]+$")
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


@dataclass(frozen=True)
class Box:
    """One labelled tile: its class's name and its middle in pixels."""

    label: str
    x: float
    y: float


class BoxError(ValueError):
    """A line of a box file that is not ``CLASS CX CY W H`` with a known class."""


def original_name(stem: str) -> str:
    """The photo a Roboflow copy was made from (``IMG_1_jpeg.rf.ab12`` → ``IMG_1``); other names as they are."""
    match = ROBOFLOW_COPY.match(stem)
    return match["name"] if match else stem


def read_boxes(text: str, width: int, height: int, names: tuple[str, ...] = LETTERS) -> list[Box]:
    """The boxes of a YOLO label file, their middles in pixels of a ``width`` x ``height`` picture."""
    boxes = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields:
            continue
        try:
            index, cx, cy = int(fields[0]), float(fields[1]), float(fields[2])
            label = names[index]
        except (ValueError, IndexError) as exc:
            raise BoxError(f"line {number}: {line!r} is not CLASS CX CY W H of {len(names)} classes") from exc
        boxes.append(Box(label, cx * width, cy * height))
    return boxes


def board_of_boxes(boxes: list[Box], corners: np.ndarray, size: int = 15) -> list[str]:
    """The board label (rows of ``.`` and labels) of ``boxes`` on the grid with ``corners``. Raises ``BoxError``
    when a box falls off the grid or two on one square."""
    from tilecam.vision.warp import CELL_PX, MARGIN_PX, homography_to_rectified

    grid = [["."] * size for _ in range(size)]
    if not boxes:
        return ["".join(row) for row in grid]
    h = homography_to_rectified(corners, size)
    points = np.array([[[b.x, b.y] for b in boxes]], np.float32)
    for box, (x, y) in zip(boxes, cv2.perspectiveTransform(points, h)[0]):
        col, row = int((x - MARGIN_PX) // CELL_PX), int((y - MARGIN_PX) // CELL_PX)
        if not (0 <= row < size and 0 <= col < size):
            raise BoxError(f"a box of {box.label} at ({box.x:.0f}, {box.y:.0f}) px is off the grid")
        if grid[row][col] != ".":
            raise BoxError(f"two boxes on one square (row {row + 1}, column {col + 1}): "
                           f"{grid[row][col]} and {box.label}")
        grid[row][col] = box.label
    return ["".join(row) for row in grid]


def convert(src: Path, out: Path, names: tuple[str, ...] = LETTERS, log=print) -> int:
    """Every photo of ``src`` with a box file beside it (``NAME.txt``, or ``../labels/NAME.txt`` as YOLO sets lay
    them out) written to ``out`` as ``NAME.jpg`` + ``NAME.board.txt``; returns how many."""
    from tilecam.vision.locate import BoardNotFound, locate_board

    out.mkdir(parents=True, exist_ok=True)
    kept: set[str] = set()
    photos = sorted(p for p in src.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    for photo in photos:
        name = original_name(photo.stem)
        boxes_file = next((f for f in (photo.with_suffix(".txt"),
                                       photo.parent.parent / "labels" / f"{photo.stem}.txt") if f.exists()), None)
        if name in kept or boxes_file is None:
            continue
        image = cv2.imread(str(photo))
        if image is None:
            log(f"{photo.name}: not a picture OpenCV reads, left out")
            continue
        try:
            corners = locate_board(image).corners
            board = board_of_boxes(read_boxes(boxes_file.read_text(), image.shape[1], image.shape[0], names),
                                   corners)
        except (BoardNotFound, BoxError) as exc:
            log(f"{photo.name}: {exc}; left out")
            continue
        kept.add(name)
        shutil.copyfile(photo, out / f"{name}{photo.suffix.lower()}")
        (out / f"{name}.board.txt").write_text("\n".join(board) + "\n")
        log(f"{name}: {sum(ch != '.' for row in board for ch in row)} tiles")
    return len(kept)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tilecam.models.yolo_boards", description=__doc__.splitlines()[0])
    parser.add_argument("src", type=Path, help="folder of photos with YOLO box files (searched recursively)")
    parser.add_argument("out", type=Path, help="folder for NAME.jpg + NAME.board.txt")
    parser.add_argument("--names", nargs="*", default=list(LETTERS),
                        help="the box classes' labels in order (default A … Z; ? for a blank)")
    args = parser.parse_args(argv)
    if not args.src.is_dir():
        parser.error(f"{args.src} is not a folder")
    count = convert(args.src, args.out, tuple(args.names))
    print(f"{count} labelled boards in {args.out}")
    return 0 if count else 1


if __name__ == "__main__":
    sys.exit(main())
