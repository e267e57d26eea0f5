"""The labels of real photos made here (``models/real-labels``): each one a board the reader's label format reads,
each listed in its set's manifest with the photo's repository, path and blob id (the photos themselves are fetched,
never kept here)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tilecam.vision.labelled import read_label

LABELS = Path(__file__).resolve().parents[1] / "models" / "real-labels"
SETS = sorted(p for p in LABELS.iterdir() if p.is_dir())


def test_there_are_sets_of_labels():
    assert {p.name for p in SETS} >= {"protiles", "jheidel"}


@pytest.mark.parametrize("folder", SETS, ids=lambda p: p.name)
def test_each_label_reads_as_a_board_and_the_manifest_lists_exactly_the_labels(folder):
    with open(folder / "MANIFEST.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    labels = sorted(p.name for p in folder.glob("*.board.txt"))
    assert sorted(row["label"] for row in rows) == labels and labels
    tiles = 0
    for row in rows:
        assert len(row["git blob"]) == 40 and len(row["commit"]) == 40 and row["photo path"].endswith(".jpg")
        board = read_label(folder / row["label"])
        assert len(board) == 15 and all(len(line) == 15 for line in board)
        tiles += sum(ch != "." for line in board for ch in line)
    assert tiles > 10 * len(rows)          # boards of games (a few photos of an empty board among them)


def test_the_corners_given_by_hand_are_of_labelled_photos_and_lie_in_order_around_a_grid():
    with open(LABELS / "protiles" / "CORNERS.tsv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    labelled = {p.name[:-len(".board.txt")] for p in (LABELS / "protiles").glob("*.board.txt")}
    assert rows and {row["photo"] for row in rows} <= labelled
    for row in rows:
        tl, tr, br, bl = (tuple(map(float, row[k].split(","))) for k in
                          ("top-left x,y", "top-right x,y", "bottom-right x,y", "bottom-left x,y"))
        assert tl[0] < tr[0] and bl[0] < br[0] and tl[1] < bl[1] and tr[1] < br[1]
        assert float(row["most apart (px)"]) < 30          # the two labellers' corners agree within a third of a square
