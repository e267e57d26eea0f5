"""Coordinates, layouts, tile sets, tiles and board text."""

from __future__ import annotations

import pytest

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import format_coord, parse_coord, square_name
from tilecam.engine.errors import BoardTextError, CoordinateError, DataFileError
from tilecam.engine.layout import Layout
from tilecam.engine.rules import Rules, RulesError
from tilecam.engine.tiles import TileSet


@pytest.mark.parametrize("text,expected", [
    ("8D", (7, 3, True)), ("D8", (7, 3, False)), ("1A", (0, 0, True)), ("O15", (14, 14, False)),
    ("15o", (14, 14, True)), ("h8", (7, 7, False)),
])
def test_parse_standard_coordinates(text, expected):
    assert parse_coord(text) == expected
    row, col, across = expected
    assert format_coord(row, col, across) == text.upper()


@pytest.mark.parametrize("text,expected", [("H4", (7, 3, True)), ("5G", (6, 4, False)), ("A1", (0, 0, True))])
def test_parse_lettered_rows_coordinates(text, expected):
    # ScrabScrap: letter = row, number = column; letter first = across
    assert parse_coord(text, lettered_rows=True) == expected
    assert format_coord(*expected, lettered_rows=True) == text


def test_lettered_rows_is_the_transposed_notation_of_the_same_square():
    assert parse_coord("H4", lettered_rows=True) == parse_coord("8D")
    assert parse_coord("5G", lettered_rows=True) == parse_coord("E7")


@pytest.mark.parametrize("bad", ["", "8", "DD", "88", "0A", "A0", "8D8", "?8"])
def test_bad_coordinates(bad):
    with pytest.raises(CoordinateError):
        parse_coord(bad)


def test_coordinate_off_the_board():
    with pytest.raises(CoordinateError, match="off a 15x15"):
        parse_coord("16A", size=15)
    assert square_name(0, 14) == "O1"


def test_standard_layout_counts():
    lay = Layout.load("standard15")
    cells = [lay.premium(r, c) for r in range(15) for c in range(15)]
    assert (cells.count("TW"), cells.count("DW"), cells.count("TL"), cells.count("DL")) == (8, 17, 12, 24)
    assert lay.center == (7, 7) and lay.word_multiplier(7, 7) == 2
    # the board is symmetric under transposition, so lettered-rows records score the same either way
    assert all(lay.premium(r, c) == lay.premium(c, r) for r in range(15) for c in range(15))


def test_layout_is_data(tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("# a 5x5 test board\n~.^..\n.....\n..*..\n.....\n..=.-\n", encoding="utf-8")
    lay = Layout.load(str(path))
    assert lay.size == 5 and lay.center == (2, 2)
    assert (lay.premium(0, 0), lay.word_multiplier(0, 0), lay.premium(0, 2), lay.letter_multiplier(0, 2)) == \
        ("QW", 4, "QL", 4)
    assert Board(lay).size == 5


@pytest.mark.parametrize("text,match", [
    ("...\n..\n...\n", "row 2 has 2"), ("..x\n...\n...\n", "unknown symbol"), ("*..\n.*.\n...\n", "more than one"),
    ("# nothing\n", "no rows"),
])
def test_bad_layouts(text, match):
    with pytest.raises(DataFileError, match=match):
        Layout.parse(text)


def test_unknown_layout_names_the_bundled_ones():
    with pytest.raises(DataFileError, match="standard15"):
        Layout.load("nosuchboard")


def test_tile_sets():
    en, de = TileSet.load("english"), TileSet.load("german")
    assert en.total == 100 and en.blanks == 2 and len(en.letters) == 26
    assert sum(en.count(l) * en.value(l) for l in en.letters) == 187
    assert de.total == 102 and {"Ä", "Ö", "Ü"} <= set(de.letters)
    assert (de.value("Y"), de.value("Ö"), de.count("E")) == (10, 8, 15)
    assert en.bag()["?"] == 2 and sum(en.bag().values()) == 100
    with pytest.raises(DataFileError, match="not in the english"):
        en.value("Ä")


@pytest.mark.parametrize("text,match", [
    ("A 1\n", "expected 'letter count value'"), ("AB 1 1\n", "not one upper-case"), ("A 1 1\nA 2 2\n", "twice"),
    ("? 2 0\n", "no letters"),
])
def test_bad_tile_sets(text, match):
    with pytest.raises(DataFileError, match=match):
        TileSet.parse(text)


def test_rules_presets_and_checks():
    assert Rules.preset("casual").end_on_passes and Rules.preset("tournament").max_scoreless_turns == 6
    assert Rules.preset("nine-tile").bingo_tile_counts == (7, 8, 9)
    with pytest.raises(RulesError):
        Rules(challenge="bogus")
    with pytest.raises(RulesError):
        Rules(bingo_sizes=(8,))
    with pytest.raises(RulesError):
        Rules.preset("scrabble-deluxe")


def test_tile_text():
    assert str(Tile("A")) == "A" and str(Tile("A", True)) == "a" and str(Tile("?", True)) == "?"
    assert Tile.from_char("ä") == Tile("Ä", True) and Tile.from_char("?").rack_letter == "?"
    assert eval(repr(Tile("Q", True))) == Tile("Q", True)
    for bad in ("a", "AB", "", "1"):
        with pytest.raises(BoardTextError):
            Tile(bad)
    with pytest.raises(BoardTextError):
        Tile("?")  # an unknown letter must be a blank


def test_board_text_round_trip_and_errors():
    rows = ["." * 15] * 15
    rows[7] = "...QUAnT?......"
    b = Board.from_rows(rows)
    assert b.rows() == rows and not b.is_empty()
    assert b[7, 6] == Tile("N", True) and b[7, 8] == Tile("?", True) and b[0, 0] is None
    c = b.copy()
    c[0, 0] = Tile("Z")
    assert b[0, 0] is None and c != b
    assert sorted(b.tile_counts().elements()) == ["?", "?", "A", "Q", "T", "U"]
    with pytest.raises(BoardTextError, match="row 1, column 2"):
        Board.from_rows([".1" + "." * 13] + ["." * 15] * 14)
    with pytest.raises(BoardTextError, match="expected 15 rows"):
        Board.from_rows(["." * 15])
    with pytest.raises(IndexError):
        b[15, 0]
    assert Board().is_empty()


def test_super_scrabble_is_just_data():
    lay = Layout.load("super21")
    cells = [lay.premium(r, c) for r in range(21) for c in range(21)]
    counts = {p: cells.count(p) for p in ("QW", "QL", "TW", "DW", "TL", "DL")}
    assert counts == {"QW": 4, "QL": 8, "TW": 16, "DW": 41, "TL": 20, "DL": 36}  # variants.md §2
    assert lay.size == 21 and lay.center == (10, 10)
    tiles = TileSet.load("english-super")
    assert tiles.total == 200 and tiles.blanks == 4
    rules = Rules(layout="super21", tileset="english-super")
    from tilecam.engine.game import Game
    from tilecam.engine.move import Placement

    g = Game(["a", "b"], rules)
    assert g.bag_count == 186 and len(g.board.rows()) == 21
    assert g.play(Placement.from_gcg("11K", "ZA")).score == (10 + 1) * 2
    assert g.play(Placement.from_gcg("K11", ".A")).score == 10 + 1  # the star is spent; K12 is plain
