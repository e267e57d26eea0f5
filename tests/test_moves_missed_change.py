"""A tile whose square the change in pixels missed (its face looks like the square it covers): the board then makes
no legal play, and the tracker reads the squares in and beside its new tiles again before it gives up on it.
Rendered frames through the one tracker."""

from __future__ import annotations

import numpy as np
import pytest

from boards import EMPTY, rows_with

SEED = 4242
CAT = rows_with(("8H", "CAT"))
AROUND_CENTRE = ((6, 7), (8, 7), (7, 6), (7, 8))      # the A of CAT lies on one of these, whatever the board's turn


@pytest.fixture(scope="module")
def render():
    synth = pytest.importorskip("tilecam.models.synth")
    scene = synth.sample_scene(np.random.default_rng(SEED), "english")
    return lambda rows: np.asarray(synth.render_board(list(rows), seed=SEED, scene=scene).image)


def test_a_tile_the_pixels_missed_is_read_once_the_board_makes_no_legal_play(tracker, render, monkeypatch):
    from tilecam.vision.moves import belief

    real = belief.changed_squares

    def missing_the_a(reference, sig):         # the A's square never seen changing, on every frame
        changed = real(reference, sig).copy()
        for r, c in AROUND_CENTRE:
            changed[r, c] = False
        return changed

    monkeypatch.setattr(belief, "changed_squares", missing_the_a)
    events = tracker.feed(render(EMPTY), 0.0) + tracker.feed(render(CAT), 1.0)
    assert events == [] and tracker.status.startswith("unclear")       # C.T: a gap, no play
    events = tracker.feed(render(CAT), 2.0) + tracker.feed(render(CAT), 3.0)
    assert [str(e) for e in events] == ["play 8H CAT"]


def test_an_unclear_board_reads_again_only_the_squares_in_and_beside_its_new_tiles(tracker, render, monkeypatch):
    """While the play may still be going down, the next frame reads again the squares around the new tiles (where a
    tile the pixels missed lies), not the whole board: the settled frame → committed move stays fast. The same
    frame read so finds the A and the play."""
    from tilecam.vision.moves import belief

    real = belief.changed_squares

    def missing_the_a(reference, sig):
        changed = real(reference, sig).copy()
        for r, c in AROUND_CENTRE:
            changed[r, c] = False
        return changed

    monkeypatch.setattr(belief, "changed_squares", missing_the_a)
    tracker.feed(render(EMPTY), 0.0)
    tracker.feed(render(CAT), 1.0)
    assert tracker.status.startswith("unclear")
    events = tracker.feed(render(CAT), 2.0)
    read_again = tracker.reader.squares_read[-1]
    assert 9 <= read_again <= 30 and [str(e) for e in events] == ["play 8H CAT"]
