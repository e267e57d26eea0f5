"""A game's tiles hang together: a stray tile is read as what it likelier is, bare or a tile between."""

import numpy as np

from tilecam.vision.connected import HAND_SQUARES, hands_only, joined, one_group
from tilecam.vision.tilecounts import tile_caps

CLASSES = (".", "A", "B", "?", "#")
SIZE = 5          # a small board: the centre square is (2, 2)


def board_probs(layout: list[str], sure: float = 0.98, doubt: dict | None = None) -> np.ndarray:
    """Probabilities of a SIZE x SIZE board read as ``layout`` at ``sure``; ``doubt``: (r, c) → its own row."""
    probs = np.full((SIZE * SIZE, len(CLASSES)), (1 - sure) / (len(CLASSES) - 1))
    for r, row in enumerate(layout):
        for c, ch in enumerate(row):
            probs[r * SIZE + c, CLASSES.index(ch)] = sure
    for (r, c), p in (doubt or {}).items():
        probs[r * SIZE + c] = p
    return probs


def read(probs: np.ndarray, caps=None) -> list[str]:
    choice = joined(probs, probs.argmax(axis=1), CLASSES, caps)
    return ["".join(CLASSES[i] for i in choice[r * SIZE:(r + 1) * SIZE]) for r in range(SIZE)]


def test_a_stray_tile_read_surely_less_than_the_squares_between_is_read_bare():
    layout = ["....?",
              ".....",
              ".AB..",
              ".....",
              "....."]
    doubt = {(0, 4): [0.3, 0.0, 0.0, 0.7, 0.0]}          # a premium print read as a blank, not surely
    assert read(board_probs(layout, doubt=doubt)) == [".....", ".....", ".AB..", ".....", "....."]


def test_a_blank_read_bare_between_the_game_and_its_word_is_read_a_tile_again():
    layout = [".....",
              ".....",
              ".A.BA",
              ".....",
              "....."]
    doubt = {(2, 2): [0.6, 0.0, 0.0, 0.4, 0.0]}          # the blank, read bare but not surely
    assert read(board_probs(layout, doubt=doubt)) == [".....", ".....", ".A?BA", ".....", "....."]


def test_the_join_takes_only_tiles_the_set_has_left():
    layout = ["?....",
              ".....",
              ".A.BA",
              ".....",
              "....?"]
    doubt = {(2, 2): [0.6, 0.0, 0.0, 0.4, 0.0]}
    probs = board_probs(layout, doubt=doubt)
    probs[[0, 24]] = [0.01, 0.0, 0.0, 0.99, 0.0]          # two blanks read surely, far from the game
    # both blanks of the set are spent by the strays; the square between can only be a letter (unlikely): the
    # strays, far away, are joined by paths dearer than reading them bare, so they go and the gap takes the blank
    got = read(probs, caps={CLASSES.index("?"): 2})
    assert got[2] == ".A?BA" and sum(row.count("?") for row in got) <= 2


def test_a_covered_square_joins_and_the_game_group_is_never_changed():
    layout = [".....",
              "..#B.",
              ".AB..",
              ".....",
              "A...."]
    got = read(board_probs(layout))
    assert got[:3] == [".....", "..#B.", ".AB.."]      # B at (1, 3) joins through the hand
    assert got[4] == "....."                          # a lone sure tile three squares away: cheaper read bare


def test_one_group_tells_a_game_position_from_tiles_laid_out_anywhere():
    assert one_group([".....", ".AB..", "..B..", "....."])
    assert one_group(["....", "....", "...."])
    assert one_group([".A#B"])                        # the hand is not a tile, nor a gap: either may be under it
    assert not one_group(["A.B", "...", "..."])


def test_the_tile_counts_of_the_set_name_the_blank():
    caps = tile_caps(CLASSES, "english")
    assert caps[CLASSES.index("?")] == 2


def test_a_join_the_set_has_no_tiles_left_for_is_not_made():
    layout = [".....",
              ".....",
              ".A.BA",
              ".....",
              "....."]
    probs = board_probs(layout, doubt={(2, 2): [0.6, 0.0, 0.0, 0.4, 0.0]})
    caps = {CLASSES.index(c): n for c, n in (("A", 2), ("B", 1), ("?", 0))}       # every tile of the set is down
    assert read(probs, caps)[2] == "...BA"                  # the stray A is read bare: nothing could join it


def test_covered_squares_stay_covered_only_where_they_make_a_hand():
    classes = (".", "A", "#")
    board = ["#....",
             ".....",
             "..##.",
             "...##",
             "....."]
    choice = np.array([classes.index(ch) for row in board for ch in row])
    probs = np.full((25, 3), 0.05)
    probs[np.arange(25), choice] = 0.9
    probs[0] = (0.3, 0.1, 0.6)          # a lone covered square, bare its next class
    kept = hands_only(probs, choice, classes)
    assert kept[0] == classes.index(".")                                     # glare, not a hand
    assert [classes[i] for i in kept[10:20]].count("#") == HAND_SQUARES      # four touching (a diagonal): a hand
    assert hands_only(probs, choice, (".", "A", "?")) is choice               # a model without the covered class
