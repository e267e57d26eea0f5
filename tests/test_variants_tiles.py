"""The world's tile sets (rules material variants.md §4) and the two-letter tiles' symbols."""

from __future__ import annotations

import pytest

from tilecam.engine.board import Board
from tilecam.engine.errors import DataFileError
from tilecam.engine.layout import Layout
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.engine.scoring import score
from tilecam.engine.tiles import TileSet

# name -> (tiles in all, blanks, a letter, its count, its value), from variants.md
BUNDLED = {
    "english-super": (200, 4, "E", 24, 1),
    "french": (102, 2, "K", 1, 10),
    "spanish": (100, 2, "Ñ", 1, 8),
    "dutch": (102, 2, "E", 18, 1),
    "polish": (100, 2, "Ź", 1, 9),
    "romanian": (100, 2, "B", 2, 9),
    "wordswithfriends": (104, 2, "H", 4, 3),
}


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_tile_sets_match_the_material(name):
    total, blanks, letter, count, value = BUNDLED[name]
    tiles = TileSet.load(name)
    assert (tiles.total, tiles.blanks, tiles.count(letter), tiles.value(letter)) == (total, blanks, count, value)


def test_polish_has_its_nine_diacritics_and_romanian_lacks_k_q_w_y():
    assert set("ĄĆĘŁŃÓŚŹŻ") <= set(TileSet.load("polish").letters)
    assert not set("KQWY") & set(TileSet.load("romanian").letters)
    assert not set("KW") & set(TileSet.load("spanish").faces)


def test_spanish_digraphs_are_one_tile_each_with_a_symbol():
    es = TileSet.load("spanish")
    assert [es.face(es.symbol(f)) for f in ("CH", "LL", "RR", "Ñ")] == ["CH", "LL", "RR", "Ñ"]
    assert (es.value(es.symbol("CH")), es.value(es.symbol("LL")), es.value(es.symbol("RR"))) == (5, 8, 8)
    assert es.multi_letter and not TileSet.load("english").multi_letter
    # macondo's GCG spelling: [CH] a tile, [ch] a blank standing for it
    assert es.encode("[ch]AVAL") == "çAVAL" and es.decode("çAVAL") == "[ch]AVAL"
    assert es.decode(es.encode("PE[RR]O[LL]A")) == "PE[RR]O[LL]A"
    with pytest.raises(DataFileError, match="no tile 'XX'"):
        es.encode("[XX]")


def test_a_word_from_a_plain_word_list_is_spelt_longest_tile_first():
    es = TileSet.load("spanish")
    assert es.spell("CHURRO") == "ÇUŘO" and es.spell("CALLE") == "CAĿE" and es.spell("ÑU") == "ÑU"
    assert TileSet.load("english").spell("CHURRO") == "CHURRO"


def test_a_digraph_tile_scores_as_one_square_on_the_board():
    # [CH]E[LL]O across from H8 (centre, DW): CH 5 + E 1 + LL 8 + O 1 = 15, doubled = 30
    es = TileSet.load("spanish")
    rules = Rules(tileset="spanish")
    play = score(Board(), Placement.from_gcg("8H", es.encode("[CH]E[LL]O")), rules)
    assert play.score == 30 and len(play.words[0].squares) == 4


def test_a_polish_word_scores_with_its_diacritics():
    # ŻÓŁW across from H8: Ż 5 + Ó 5 + Ł 3 + W 1 = 14, doubled by the centre star = 28
    assert score(Board(), Placement.from_gcg("8H", "ŻÓŁW"), Rules(tileset="polish")).score == 28


def test_a_multi_letter_tile_needs_a_symbol():
    with pytest.raises(DataFileError, match="fourth column"):
        TileSet.parse("CH 1 5\n")
    with pytest.raises(DataFileError, match="twice"):
        TileSet.parse("C 1 1\nCH 1 5 C\n")


def test_words_with_friends_board_has_a_plain_start_square():
    lay = Layout.load("wordswithfriends15")
    cells = [lay.premium(r, c) for r in range(15) for c in range(15)]
    assert lay.center == (7, 7) and lay.premium(7, 7) == ""
    assert (cells.count("TW"), cells.count("DW"), cells.count("TL"), cells.count("DL")) == (8, 12, 16, 24)
    assert (lay.premium(0, 3), lay.premium(3, 7), lay.premium(0, 6)) == ("TW", "DW", "TL")  # D1, H4, G1


def test_super_scrabble_layout_matches_the_material():
    lay = Layout.load("super21")
    cells = [lay.premium(r, c) for r in range(21) for c in range(21)]
    counts = [cells.count(p) for p in ("QW", "QL", "TW", "DW", "TL", "DL")]
    assert lay.size == 21 and lay.center == (10, 10) and counts == [4, 8, 16, 41, 20, 36]
    assert all(lay.premium(r, c) == "QL" for r, c in ((2, 5), (2, 15), (5, 2), (18, 15)))  # F3 P3 C6 P19
