"""``tilecam bench adapt``: what the empty-board calibration and learning the board during a game buy.

A folder of one labelled photo a move (``G_MM.jpg`` + ``G_MM.board.txt``: game G, move MM) is read move by move,
four ways: as a single photo; with the empty board's photo as each square's reference (``--empty G=PHOTO``, the
calibration a user takes); with the board learnt from the moves before (``vision.adapt``: after each move, its
squares as labelled are learnt — in a game, the moves the players did not correct); and with both. Squares wrong
are counted on moves 1–5 and 15–20 of each game, and on the moves after the first ``--learn-first`` (default 10).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from tilecam.models.dataset import label_of
from tilecam.vision.adapt import BoardProfile
from tilecam.vision.classify import TileClassifier
from tilecam.vision.labelled import LabelledPhoto, best_turn, games_in, turned
from tilecam.vision.profile import calibrate
from tilecam.vision.read import read_board

WAYS = ("single photo", "empty board", "learnt", "empty board + learnt")


def play_game(classifier: TileClassifier, photos: list[LabelledPhoto], references, learn: bool, learn_first: int,
              tileset=None) -> list[int]:
    """Squares wrong on each move of one game read one way."""
    profile, wrong = BoardProfile(), []
    column = {label: i for i, label in enumerate(classifier.classes)}
    for n, photo in enumerate(photos):
        image = cv2.imread(str(photo.photo))
        adapter = profile.adapter() if learn else None
        reading = read_board(image, classifier, tileset=tileset, rotation=0, references=references, adapter=adapter)
        k = best_turn(photo.board, reading.grid)
        truth = turned(photo.board, -k % 4)
        wrong.append(int((np.array([list(r) for r in reading.grid]) != truth).sum()))
        if learn and n < learn_first:
            # the truth in the reading's own squares (the reading is unturned: rotation 0), as the model's classes
            # (-1, not learnt: a letter the model has no class for)
            labels = np.array([column.get(label_of(ch), -1) for ch in np.rot90(truth, k).reshape(-1)])
            profile.learn(reading.embedding, labels, reading.logits, empty=column["."])
    return wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="tilecam bench adapt", description=__doc__.split("\n")[0])
    ap.add_argument("folder", type=Path, help="one labelled photo a move: G_MM.jpg + G_MM.board.txt")
    ap.add_argument("--empty", nargs="*", default=[], help="G=PHOTO: the empty board of game G")
    ap.add_argument("--model", type=Path)
    ap.add_argument("--learn-first", type=int, default=10, help="moves learnt from (the rest only read)")
    ap.add_argument("--tiles", default="english", help="the games' tile set (default english)")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    classifier = TileClassifier.load(args.model, threads=args.threads)
    empty = dict(item.split("=", 1) for item in args.empty)
    games = games_in(args.folder)
    if not games:
        print(f"no G_MM photos in {args.folder}", file=sys.stderr)
        return 2
    rows = []
    for way in WAYS:
        calibrated, learn = "empty" in way, "learnt" in way
        early = late = after = early_sq = late_sq = after_sq = 0
        for game, photos in games.items():
            if calibrated and game not in empty:
                continue
            refs = calibrate(cv2.imread(empty[game])).references if calibrated else None
            wrong = play_game(classifier, photos, refs, learn, args.learn_first, args.tiles)
            early, early_sq = early + sum(wrong[:5]), early_sq + 225 * len(wrong[:5])
            late, late_sq = late + sum(wrong[14:20]), late_sq + 225 * len(wrong[14:20])
            after, after_sq = after + sum(wrong[args.learn_first:]), after_sq + 225 * len(wrong[args.learn_first:])
            print(f"  {way}, game {game}: squares wrong per move {wrong}", file=sys.stderr, flush=True)
        pct = lambda a, b: f"{100 * a / b:.2f} % ({a}/{b})" if b else "-"   # noqa: E731
        rows.append((way, pct(early, early_sq), pct(late, late_sq), pct(after, after_sq)))
    print(f"model {classifier.path}; {args.folder}: {len(games)} games, tile set {args.tiles}")
    print(f"| reader | moves 1-5 | moves 15-20 | moves after the first {args.learn_first} |")
    print("| --- | --- | --- | --- |")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
