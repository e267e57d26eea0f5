"""Scoring: worked examples from the rules texts in ../shared/rules/ and each scoring rule on its own."""

from __future__ import annotations

import pytest

from tilecam.engine.board import Board, Tile
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.engine.scoring import score


def play(board: Board, coord: str, word: str, rules: Rules | None = None):
    placement = Placement.from_gcg(coord, word, board=board)
    result = score(board, placement, rules)
    for r, c, tile in placement.new_tiles():
        board[r, c] = tile
    return result


def test_wikipedia_worked_example_quant_aliquant_oidioid():
    # 001_*.txt: QUANT 8D = 48; ALI(QUANT) 8A = 51; OIDIOID 9G = 69 with NO and TI; "a 117–51 lead"
    b = Board()
    first = play(b, "8D", "QUANT")
    assert first.score == 48
    assert first.words[0].breakdown == "Q10×2 + U1 + A1 + N1 + T1 = 24; ×2 = 48"
    second = play(b, "8A", "ALI.....")
    assert second.score == 51 and [w.word for w in second.words] == ["ALIQUANT"]
    third = play(b, "9G", "OIDIOID")
    assert [(w.word, w.score) for w in third.words] == [("OIDIOID", 14), ("NO", 3), ("TI", 2)]
    assert third.bingo == 50 and third.score == 69
    assert first.score + third.score == 117


def test_cross_word_scored_with_its_own_premiums():
    # 001_*.txt's JOBS/CAKES example: CAKES down column O with the K on the triple word at O8, its S hooking JOB.
    # JOBS has no premium under a new tile (13); CAKES is tripled: (3+1+5+1+1) x 3 = 33. (The text says 30 for
    # CAKES, leaving the S out of its sum; the rule it states - triple CAKES, JOBS at face value - is this one.)
    rows = ["." * 15] * 9 + ["...........JOB."] + ["." * 15] * 5
    b = Board.from_rows(rows)
    result = play(b, "O6", "CAKES")
    assert [(w.word, w.score) for w in result.words] == [("CAKES", 33), ("JOBS", 13)]
    assert result.score == 46


def test_two_double_words_multiply_to_four_and_two_triples_to_nine():
    b = Board.from_rows(["." * 15, "..ABCDEFGHIJK..", *["." * 15] * 13])
    ws = score(b, Placement.from_gcg("2B", "S" + "." * 11 + "S", board=b)).words[0]
    assert ws.word_multiplier == 4 and ws.score == 4 * sum(ws.letter_scores)
    b = Board.from_rows([".BCDEFGHIJKLMN.", *["." * 15] * 14])
    ws = score(b, Placement.from_gcg("1A", "A" + "." * 13 + "O", board=b)).words[0]
    assert ws.word_multiplier == 9 and ws.score == 9 * sum(ws.letter_scores)


def test_blank_scores_zero_on_letter_premium_but_triggers_word_premium():
    b = Board()
    # Q on a double letter as a blank: 0; word still doubled by the centre star
    result = score(b, Placement.from_gcg("8D", "qUANT"))
    assert result.words[0].letter_scores[0] == 0
    assert result.score == (0 + 1 + 1 + 1 + 1) * 2
    result = score(b, Placement.from_gcg("8H", "aT"))
    assert result.score == 2  # blank on the centre star: (0 + 1) x 2


def test_premiums_count_only_under_new_tiles():
    b = Board()
    play(b, "8D", "QUANT")
    result = score(b, Placement.from_gcg("D8", ".I", board=b))
    assert result.score == 10 + 1  # the Q's double letter and the star are spent


def test_bingo_only_for_full_rack_and_nine_tile_variant():
    b = Board()
    seven = Placement.from_gcg("8B", "RETAINS")
    assert score(b, seven).bingo == 50
    assert score(b, Placement.from_gcg("8C", "RETAIN")).bingo == 0
    nine = Rules.nine_tile()
    assert score(b, Placement.from_gcg("8C", "RETAIN"), nine).bingo == 0
    assert score(b, seven, nine).bingo == 50
    assert score(b, Placement.from_gcg("8A", "RETAINERS"), nine).bingo == 50


def test_score_is_sum_of_words_plus_bingo():
    b = Board()
    play(b, "8D", "QUANT")
    result = score(b, Placement.from_gcg("9G", "OIDIOID"))
    assert result.score == sum(w.score for w in result.words) + result.bingo


def test_german_values():
    result = score(Board(), Placement.from_gcg("8H", "ÄS"), Rules(tileset="german"))
    assert result.score == (6 + 1) * 2


def test_scoring_refuses_illegal_placement():
    with pytest.raises(IllegalPlacement):
        score(Board(), Placement.from_gcg("1A", "AT"))
