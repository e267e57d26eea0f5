"""Variants played through Game: hand-checked positions for 9-tile, Finish Line, Super Scrabble, Lexulous, Words
with Friends, Clabbers, blanks scoring their letter, the languages' end rules and word lists."""

from __future__ import annotations

import pytest

from tilecam.engine.errors import IllegalMove, PhonyWord
from tilecam.engine.game import Game
from tilecam.engine.lexicon import Lexicon
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.engine.tiles import TileSet
from tilecam.engine.variants import rules_for


def play(g: Game, coord: str, word: str) -> int:
    return g.play(Placement.from_gcg(coord, word)).score


@pytest.mark.parametrize("coord,word,expected", [
    # row 8: D8 DL, H8 DW, L8 DL
    ("8D", "RETAINERS", (2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2) * 2 + 50),  # nine tiles: 72
    ("8E", "RETAINER", (1 + 1 + 1 + 1 + 1 + 1 + 1 + 2) * 2 + 50),  # eight tiles: 68
    ("8H", "RETAINS", (1 + 1 + 1 + 1 + 1 + 2 + 1) * 2 + 50),  # seven tiles: 66
    ("8H", "RETAIN", (1 + 1 + 1 + 1 + 1 + 2) * 2),  # six tiles: no bingo, 14
])
def test_nine_tile_bingo_for_seven_eight_or_nine(coord, word, expected):
    g = Game(["a", "b"], Rules.preset("nine-tile"))
    assert g.rack_counts == [9, 9] and g.bag_count == 82
    assert play(g, coord, word) == expected
    assert g.rack_counts == [9, 9] and g.bag_count == 82 - len(word)
    assert sum(g.unseen().values()) == 100 - len(word)


def test_nine_tile_racks_with_four_players_and_the_classic_rack_refusing_eight_tiles():
    g = Game(list("abcd"), Rules.preset("nine-tile"))
    assert g.bag_count == 100 - 36
    classic = Game(["a", "b"])
    with pytest.raises(IllegalMove, match="only 7 tiles"):
        play(classic, "8E", "RETAINER")


def test_lexulous_racks_of_eight_bingo_only_for_all_eight():
    g = Game(["a", "b"], Rules.preset("lexulous"))
    assert g.rack_counts == [8, 8] and g.bag_count == 84
    assert play(g, "8E", "RETAINER") == 68
    h = Game(["a", "b"], Rules.preset("lexulous"))
    assert play(h, "8H", "RETAINS") == 16


def test_finish_line_ends_at_the_target_without_counting_racks():
    g = Game(["a", "b"], rules_for("finish-line", players=2, level="beginner"))
    assert g.target == 70 and g.to_target() == [70, 70] and g.progress() == [0.0, 0.0]
    play(g, "8H", "RETAINS")  # 66
    assert g.finished_reason is None and g.to_target() == [4, 70]
    assert play(g, "I7", "D.E") == 7  # DEE down through RETAINS's E: D(I7 DL) 4 + E 1 + E(I9 DL) 2
    assert play(g, "J7", "A.E") == 8  # ATE 3, and the cross words DA 3 (the old D at face value) and EE 2
    assert g.finished_reason == "target" and g.to_target() == [0, 63] and g.progress()[0] == 1.0
    with pytest.raises(IllegalMove, match="target"):
        g.pass_turn()
    assert g.end() == [] and g.is_over


def test_a_game_without_a_target_has_no_progress():
    with pytest.raises(IllegalMove, match="no target"):
        Game(["a", "b"]).to_target()


def test_super_scrabble_first_move_hand_checked():
    # row 11 of the 21x21 board: G11 DL, K11 centre star (DW). J8 + U1 + K5×2 + E1 + B3 + O1 + X8 = 32, ×2, + 50
    g = Game(["a", "b"], Rules.preset("super"))
    assert g.bag_count == 200 - 14
    assert play(g, "11E", "JUKEBOX") == 32 * 2 + 50
    assert g.unseen()["X"] == 1  # the 200-tile set has two


def test_words_with_friends_board_values_and_bingo():
    # WWF values R1 E1 T1 A1 I1 N2 S1 = 8; D8 is a DW (the centre H8 is plain); +35 for all seven
    g = Game(["a", "b"], Rules.preset("wordswithfriends"))
    assert play(g, "8D", "RETAINS") == 8 * 2 + 35


def test_clabbers_takes_anagrams_of_words():
    lex = Lexicon.from_words(["ETAERIO", "QI"])
    g = Game(["a", "b"], Rules.preset("clabbers", challenge="void"), lex)
    assert play(g, "8D", "EEAIORT") > 0 and g.is_word("IQ") and not g.is_word("QQ")
    with pytest.raises(PhonyWord):
        play(g, "H7", "Z.")  # ZO: no anagram of it in the list
    classic = Game(["a", "b"], Rules(challenge="void"), lex)
    with pytest.raises(PhonyWord):
        play(classic, "8D", "EEAIORT")
    assert g.is_word("E?AIORT") and not g.is_word("Z?AIORT")


def test_blanks_score_their_letter_with_the_premiums():
    # QUAnT at 8D: Q(D8 DL) 20 + U 1 + A 1 + n 1 + T 1 = 24, ×2 (H8) = 48; classically the n is 0: 46
    g = Game(["a", "b"], Rules.preset("blanks-score"))
    scored = g.score_play(Placement.from_gcg("8D", "QUAnT"))
    assert scored.words[0].breakdown == "Q10×2 + U1 + A1 + n1 + T1 = 24; ×2 = 48"
    assert g.play(Placement.from_gcg("8D", "QUAnT")).score == 48
    assert Game(["a", "b"]).score_play(Placement.from_gcg("8D", "QUAnT")).score == 46
    assert play(g, "H7", "a.") == 2  # AT: the old T at face value, the new blank a 1
    with pytest.raises(IllegalMove, match="name the blank"):
        g.score_play(Placement.from_gcg("D7", "?."))


@pytest.mark.parametrize("tileset,passes,scoreless", [("german", 4, None), ("polish", 4, 6), ("french", None, 6)])
def test_the_languages_end_rules(tileset, passes, scoreless):
    g = Game(["a", "b"], rules_for("tournament", tileset))
    for _ in range(3):
        g.pass_turn()
    assert g.finished_reason is None
    g.pass_turn()
    assert g.finished_reason == ("passes" if passes else None)
    if passes is None:
        g.pass_turn(), g.pass_turn()
        assert g.finished_reason == "scoreless"


def test_a_spanish_game_with_digraph_tiles_and_its_word_list(tmp_path):
    es = TileSet.load("spanish")
    words = tmp_path / "palabras.txt"
    words.write_text("chelo\ncalle\nperro\n", encoding="utf-8")
    lex = Lexicon.load(words, tileset=es)
    g = Game(["a", "b"], rules_for("tournament", "spanish", challenge="void"), lex)
    assert play(g, "8H", es.encode("[CH]ELO")) == (5 + 1 + 1 + 1) * 2
    assert g.unseen()[es.symbol("CH")] == 0 and g.board.rows()[7].startswith(".......ÇELO")
    with pytest.raises(PhonyWord):
        play(g, "J8", es.encode(".[RR]"))  # L + RR: not in the list
    # CALLE down onto CHELO's E: C 3 + A 1 + LL(I7 DL) 16 + E 1
    assert play(g, "I5", es.encode("CA[LL].")) == 21 and g.history[-1].words == ("CAĿE",)
    assert es.decode(g.history[-1].word) == "CA[LL]."


def test_a_polish_word_list_by_path_keeps_its_diacritics(tmp_path):
    words = tmp_path / "slowa.txt"
    words.write_text("żółw\nźle\n", encoding="utf-8")
    lex = Lexicon.load(words, tileset=TileSet.load("polish"))
    g = Game(["a", "b"], rules_for("tournament", "polish", challenge="void"), lex)
    assert play(g, "8H", "ŻÓŁW") == 28 and "ŹLE" in lex and "ZLE" not in lex
