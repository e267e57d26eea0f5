"""Legality of placements: one line, contiguous, empty squares, connected, the first move; formed words."""

from __future__ import annotations

import pytest

from tilecam.engine.board import Board, Tile
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.legality import check
from tilecam.engine.move import Placement

EMPTY = ["." * 15] * 15


def board_with(*placed: tuple[int, str]) -> Board:
    rows = list(EMPTY)
    for row, text in placed:
        rows[row] = text
    return Board.from_rows(rows)


CAT = board_with((7, "......CAT......"))  # C on G8, A on the centre H8, T on I8


def test_first_move_must_cover_the_centre():
    with pytest.raises(IllegalPlacement, match="centre"):
        check(Board(), Placement.from_gcg("1A", "CAT"))
    assert [w.word for w in check(Board(), Placement.from_gcg("H6", "CAT"))] == ["CAT"]


def test_first_move_needs_two_tiles():
    with pytest.raises(IllegalPlacement, match="at least two tiles"):
        check(Board(), Placement.from_gcg("8H", "A"))


def test_tiles_must_lie_on_empty_squares():
    with pytest.raises(IllegalPlacement, match="already occupied"):
        check(CAT, Placement.from_gcg("G7", "ACT"))  # the C square is written as a new tile


def test_played_through_square_must_hold_a_tile():
    with pytest.raises(IllegalPlacement, match="is empty"):
        check(CAT, Placement.from_gcg("8F", ".CAT"))  # F8 is empty


def test_placement_must_span_the_whole_word():
    with pytest.raises(IllegalPlacement, match="whole word"):
        check(CAT, Placement.from_gcg("8J", "S"))  # the word is CATS: the placement must start at G8


def test_move_must_touch_existing_tiles():
    with pytest.raises(IllegalPlacement, match="does not touch"):
        check(CAT, Placement.from_gcg("1A", "DOG"))


def test_hook_and_cross_words_with_squares():
    words = check(CAT, Placement.from_gcg("8G", "...S"))
    assert [(w.word, w.squares[0], w.squares[-1]) for w in words] == [("CATS", (7, 6), (7, 9))]
    # parallel play under CAT forms AT... cross words
    words = check(CAT, Placement.from_gcg("9G", "AT"))
    assert [w.word for w in words] == ["AT", "CA", "AT"]
    assert [w.across for w in words] == [True, False, False]
    assert words[1].new == (False, True)


def test_single_tile_forms_only_its_cross_word():
    words = check(CAT, Placement.from_gcg("H8", ".T"))  # T below A, written down: main word AT
    assert [(w.word, w.across) for w in words] == [("AT", False)]
    words = check(CAT, Placement.from_gcg("9H", "T"))  # the same tile written across: AT is its cross word
    assert [(w.word, w.across) for w in words] == [("AT", False)]
    with pytest.raises(IllegalPlacement, match="whole word"):
        check(CAT, Placement.from_gcg("H9", "T"))  # down from H9 leaves out the A above


def test_blank_keeps_its_letter_and_an_unnamed_blank_is_allowed():
    words = check(CAT, Placement.from_gcg("8G", "...s"))
    assert words[0].text == "CATs" and words[0].word == "CATS"
    # the camera cannot see what a blank stands for; the geometry (and the score) do not depend on it
    words = check(CAT, Placement(8, 6, True, (Tile("?", True), Tile("T"))))
    assert [w.text for w in words] == ["?T", "C?", "AT"]


def test_runs_off_the_board():
    with pytest.raises(IllegalPlacement, match="off the"):
        check(CAT, Placement.from_gcg("8M", "...ABCD"))


def test_from_gcg_with_spelled_out_letters_needs_matching_tile():
    p = Placement.from_gcg("8G", "CATS", board=CAT)
    assert p.tiles[:3] == (None, None, None) and p.tiles[3] == Tile("S")
    with pytest.raises(IllegalPlacement, match="written over"):
        Placement.from_gcg("8G", "DOGS", board=CAT)


def test_from_squares_builds_the_whole_word():
    p = Placement.from_squares(CAT, [(7, 9, Tile("S")), (7, 5, Tile("S"))])
    assert str(p) == "8F S...S"
    p = Placement.from_squares(CAT, [(8, 7, Tile("T"))])  # single tile below A: down, AT
    assert p.gcg() == ("H8", ".T")
    p = Placement.from_squares(Board(), [(7, 7, Tile("A")), (7, 8, Tile("T", True))])
    assert p.gcg() == ("8H", "At")


@pytest.mark.parametrize("squares,match", [
    ([(7, 6, Tile("S"))], "already occupied"),
    ([(6, 6, Tile("S")), (8, 8, Tile("S"))], "one line"),
    ([(9, 0, Tile("S")), (9, 2, Tile("S"))], "not contiguous"),
    ([], "no tiles"),
    ([(15, 0, Tile("S"))], "off the board"),
    ([(9, 0, Tile("S")), (9, 0, Tile("T"))], "two tiles"),
])
def test_from_squares_refuses(squares, match):
    with pytest.raises(IllegalPlacement, match=match):
        Placement.from_squares(CAT, squares)
