"""The most probable board a tile set allows (vision.tilecounts)."""

import numpy as np

from tilecam.vision.tilecounts import tile_caps, within_tile_counts

CLASSES = (".", "A", "G", "?", "#")


def _probs(rows):
    p = np.array(rows, float)
    return p / p.sum(axis=1, keepdims=True)


def test_the_caps_are_the_sets_counts_of_the_models_classes():
    caps = tile_caps(CLASSES, "english")
    assert caps == {1: 9, 2: 3, 3: 2}          # A nine times, G three, two blanks; bare and hand unlimited
    assert tile_caps(CLASSES, None) == {}


def test_a_third_blank_goes_to_the_square_read_least_surely_as_one():
    probs = _probs([[0.05, 0, 0, 0.95, 0], [0.1, 0, 0, 0.9, 0], [0.4, 0, 0, 0.6, 0], [0.2, 0, 0, 0.8, 0]])
    assert within_tile_counts(probs, {3: 2}).tolist() == [3, 3, 0, 0]


def test_within_the_counts_every_square_keeps_its_most_probable_class():
    probs = _probs([[0.1, 0.2, 0.7, 0, 0], [0.9, 0.1, 0, 0, 0], [0, 0, 0, 0.3, 0.7]])
    assert within_tile_counts(probs, tile_caps(CLASSES, "english")).tolist() == [2, 0, 4]


def test_a_square_moved_off_one_full_tile_does_not_land_on_another_full_one():
    # four squares read G (three in the set); the least sure one's next class is a blank, whose two are read
    # more surely elsewhere, so it goes on to its third class
    probs = _probs([[0, 0, 0.9, 0.1, 0]] * 3 + [[0.1, 0, 0.5, 0.4, 0]] + [[0, 0, 0, 1, 0]] * 2)
    assert within_tile_counts(probs, {2: 3, 3: 2}).tolist() == [2, 2, 2, 0, 3, 3]
