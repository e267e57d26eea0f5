"""The tracker's reader learns the board it watches from the tiles the game committed."""

from __future__ import annotations

from tilecam.models import synth
from tilecam.vision.moves.reader import default_reader


def test_the_reader_learns_the_committed_tiles_and_reads_on_with_them():
    grid = ["." * 15] * 6 + [".......CAT.....", ".......O.......", "...QUARTZ......"] + ["." * 15] * 6
    image = synth.render_board(grid, seed=int(synth.TRAIN_SEEDS[11]), styles=synth.TRAIN_STYLES, hand=None).image
    reader = default_reader("english", rotation=None)
    first = reader(image)
    assert reader.adapter is None
    committed = [row.replace("QUARTZ", "......") for row in first.grid]     # the last play not committed yet
    assert reader.learn(committed) == 4 and reader.adapter is not None
    assert {reader.learnt[(r, c)][1] for r, c in reader.learnt} >= {0}      # bare squares learnt too
    assert not any((r, c) in reader.learnt for r in range(15) for c in range(15)
                   if committed[r][c] == "." and first.grid[r][c] != ".")  # the uncommitted play is left out
    again = reader(image)
    assert list(again.grid) == list(first.grid)


def test_the_tracker_asks_its_reader_to_learn_only_when_told_to():
    from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig

    asked = []

    class Reader:
        def __call__(self, image):
            raise AssertionError("not read here")

        def learn(self, rows):
            asked.append(list(rows))
            return 0

    board = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
    for learn, expected in ((False, 0), (True, 1)):
        asked.clear()
        tracker = MoveTracker("english", reader=Reader(), board_rows=board, config=TrackerConfig(learn=learn))
        tracker._learn_board()
        assert len(asked) == expected
    assert asked[0][7] == ".......CAT....."
