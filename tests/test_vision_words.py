"""A game's words are words: a single photo's runs of tiles judged by the game's lexicon (vision/words.py)."""

from __future__ import annotations

import math

import numpy as np

from tilecam.engine.lexicon import Lexicon
from tilecam.vision.words import PHONY_ODDS, as_words, runs

CLASSES = (".", "A", "C", "I", "L", "N", "O", "T", "?", "#")
LEX = Lexicon.from_words(["IT", "TIN", "TIC", "ACT", "CAT", "TO", "AT"])


def _board(rows: dict[tuple[int, int], dict[str, float]]):
    """Probabilities of a 15 x 15 board: bare everywhere but the squares given (class → probability)."""
    probs = np.zeros((225, len(CLASSES)))
    probs[:, 0] = 1.0
    for (r, c), p in rows.items():
        probs[r * 15 + c] = [p.get(k, 0.0) for k in CLASSES]
    return probs, probs.argmax(axis=1)


def _word(choice, squares):
    return "".join(CLASSES[choice[r * 15 + c]] for r, c in squares)


def test_a_run_the_lexicon_rejects_takes_the_letters_that_make_it_a_word_when_they_cost_less_than_a_phony():
    probs, choice = _board({(7, 7): {"L": 0.6, "I": 0.4}, (7, 8): {"T": 1.0}})       # LT, nearly IT
    assert _word(choice, [(7, 7), (7, 8)]) == "LT"
    out = as_words(probs, choice, CLASSES, LEX)
    assert _word(out, [(7, 7), (7, 8)]) == "IT"
    assert as_words(probs, choice, CLASSES, None) is choice                            # no lexicon: not judged
    sure, choice = _board({(7, 7): {"L": 0.95, "I": 0.05}, (7, 8): {"T": 1.0}})      # 19 to 1: a phony is likelier
    assert math.log(0.95 / 0.05) > math.log(PHONY_ODDS)
    assert _word(as_words(sure, choice, CLASSES, LEX), [(7, 7), (7, 8)]) == "LT"


def test_a_letter_is_not_changed_where_it_would_break_the_word_crossing_it_nor_beyond_its_tile_count():
    # TIN across row 8; C at H9 under the I: the column reads IC (no word), IT would need the I changed,
    # which would break TIN; the C made a T (column IT) is cheap: taken
    probs, choice = _board({(7, 6): {"T": 1.0}, (7, 7): {"I": 0.55, "L": 0.45}, (7, 8): {"N": 1.0},
                            (8, 7): {"C": 0.6, "T": 0.4}})
    out = as_words(probs, choice, CLASSES, LEX)
    assert _word(out, [(7, 6), (7, 7), (7, 8)]) == "TIN" and _word(out, [(7, 7), (8, 7)]) == "IT"
    t = CLASSES.index("T")
    assert _word(as_words(probs, choice, CLASSES, LEX, caps={t: 1}), [(7, 7), (8, 7)]) == "IC"   # one T only


def test_runs_through_a_covered_square_are_not_judged_and_a_blank_stands_for_any_letter():
    probs, choice = _board({(7, 7): {"L": 0.6, "I": 0.4}, (7, 8): {"#": 1.0}, (9, 3): {"C": 1.0},
                            (9, 4): {"?": 1.0}, (9, 5): {"T": 1.0}})
    assert [len(r) for r in runs([[CLASSES[choice[r * 15 + c]] for c in range(15)] for r in range(15)])] == [2, 3]
    out = as_words(probs, choice, CLASSES, LEX)
    assert np.array_equal(out, choice)           # L# unknown; C?T is CAT


def test_a_letter_that_spoils_two_words_is_mended_at_a_cost_one_word_would_not_pay():
    # TLN across, IT down through the same square: an I read as L (I at 0.13) spoils both
    probs, choice = _board({(7, 6): {"T": 1.0}, (7, 7): {"L": 0.85, "I": 0.15}, (7, 8): {"N": 1.0},
                            (8, 7): {"T": 1.0}})
    cost = math.log(0.85 / 0.15)
    assert math.log(PHONY_ODDS) < cost < 2 * math.log(PHONY_ODDS)
    out = as_words(probs, choice, CLASSES, LEX)
    assert _word(out, [(7, 6), (7, 7), (7, 8)]) == "TIN" and _word(out, [(7, 7), (8, 7)]) == "IT"
    alone, choice = _board({(7, 6): {"T": 1.0}, (7, 7): {"L": 0.85, "I": 0.15}, (7, 8): {"N": 1.0}})
    assert _word(as_words(alone, choice, CLASSES, LEX), [(7, 6), (7, 7), (7, 8)]) == "TLN"   # one word: a phony


def test_a_settled_reading_judges_its_words_and_a_reading_mid_play_does_not():
    from tilecam.vision.read import reading_of

    probs, choice = _board({(7, 7): {"L": 0.6, "I": 0.4}, (7, 8): {"T": 1.0}})
    corners = np.array([[0, 0], [600, 0], [600, 600], [0, 600]], np.float32)

    def read(settled):
        return reading_of(probs, CLASSES, corners, None, None, 0, None, None, None, {}, None, settled, LEX)

    assert read(True).grid[7][7:9] == "IT" and read(False).grid[7][7:9] == "LT"
    assert read(True).confidence[7, 7] == 0.4          # taken for the word, as unsure as the reader was
