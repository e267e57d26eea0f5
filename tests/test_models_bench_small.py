"""``tilecam bench small``: a travel board rendered as the full-size board's scene at 12/19 of its size, and read."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.firmware.cli import main
from tilecam.models.bench_small import TRAVEL_SCALE, boards_of, px_per_square
from tilecam.vision.classify import packaged_model

SEEDS = (950_000, 950_001)   # the bench's own first seeds


@pytest.mark.parametrize("seed", SEEDS)
def test_the_travel_board_is_the_same_board_at_twelve_nineteenths_of_the_size(seed):
    full, travel, tile_lock = boards_of(seed)
    assert travel.grid == full.grid == tile_lock.grid and travel.style == full.style == tile_lock.style
    assert (tile_lock.corners == travel.corners).all()            # the same board, its grid raised
    assert (travel.occluded == full.occluded).all()
    span = lambda render: np.ptp(render.corners, axis=0).max()   # noqa: E731
    # The lens distortion bends the corners a little, not the scale.
    assert span(travel) / span(full) == pytest.approx(TRAVEL_SCALE, abs=0.01)
    assert px_per_square(travel) / px_per_square(full) == pytest.approx(TRAVEL_SCALE, abs=0.01)


@pytest.mark.skipif(not packaged_model().is_file(), reason="models/tiles.onnx is not there")
def test_bench_small_prints_both_boards_in_one_table(capsys):
    assert main(["bench", "small", "--renders", str(len(SEEDS)), "--threads", "1"]) == 0
    out = capsys.readouterr().out
    assert "seeds 950000–950001" in out
    assert ("| measure | full-size board (~19 mm squares) | travel board (~12 mm squares) | Tile Lock travel board "
            "(tiles in recesses) |") in out
    for measure in ("per-cell error", "tile-cell error", "empty false +", "boards fully correct",
                    "boards flagged unsure (of them wrong)", "no board found", "corners within 1/10 square",
                    "px per square, median", "total ms"):
        assert f"| {measure} | " in out
    assert "| boards | 2 | 2 | 2 |" in out


def test_a_larger_frame_gives_the_boards_more_pixels_a_square_and_a_bad_frame_is_refused(capsys):
    from tilecam.models.bench_small import _frame

    small = px_per_square(boards_of(SEEDS[0])[1])
    large = px_per_square(boards_of(SEEDS[0], _frame("1920x1440"))[1])
    assert large / small == pytest.approx(2.0, rel=0.05)
    with pytest.raises(SystemExit):
        main(["bench", "small", "--frame", "wide"])
    assert "WIDTHxHEIGHT" in capsys.readouterr().err


def test_a_tile_lock_board_draws_its_raised_walls_over_the_same_board():
    """The Tile Lock column is the travel board with dark walls between its squares: the grid lines' pixels darker
    and the squares' middles (premium prints, or tiles held smaller in their recesses) about as they were."""
    _, travel, tile_lock = boards_of(SEEDS[0])
    travel_image, lock_image = (np.asarray(r.image, np.float32).mean(axis=2) for r in (travel, tile_lock))
    assert lock_image.mean() < travel_image.mean() - 3
