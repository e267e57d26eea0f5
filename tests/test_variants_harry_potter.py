"""Scrabble: World of Harry Potter (rules material 000): cards and Magical Words as their own scored events."""

from __future__ import annotations

import pytest

from tilecam.engine.errors import IllegalMove
from tilecam.engine.game import Game
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules

# The material's five turns, L on the centre square. Its board position is not printed; this one was found on the
# standard board and checked by hand (each play forms one word; the two blanks are TORE's T and, through the
# Obliviate card, DURSLEY's Y):
#   LAKE   H8 down:  L(DW) A K E               (1+1+5+1)×2          = 16
#   HARRY  9G across through A:  H(G9 DL)=8, A 1, R(I9 DL)=2, R 1, Y 4  = 16
#   TORE   J7 down through R:  t 0, O 1, R 1, E(J10 TL)=3           =  5
#   DURSLEY 11C across through E:  D2 U1 R(E11 DW)1 S1 L1 E1 y0 = 7, ×2 = 14
#   DIME   C11 down through D:  D2 I1 M(C13 DW)3 E1 = 7, ×2          = 14
TURNS = [
    # (coordinate, word, traditional score, card (name, multiplier), Magical Word?, World of Harry Potter score)
    ("H8", "LAKE", 16, None, True, 23),  # the material prints 22, but its own parts are 16 + 7 (see below)
    ("9G", "H.RRY", 16, None, True, 26),
    ("J7", "tO.E", 5, ("First-years o'er here", 3), False, 15),
    ("11C", "DURSL.y", 14, ("Obliviate", None), True, 39),
    ("C11", ".IME", 14, None, False, 14),
]


def hp_game() -> Game:
    return Game(["Ron", "Hermione"], Rules.preset("harry-potter"))


def test_the_five_turn_worked_example():
    g = hp_game()
    for coord, word, traditional, card, magical, total in TURNS:
        before = list(g.scores)
        play = g.play(Placement.from_gcg(coord, word))
        assert play.score == traditional, (word, play.breakdown)
        if card:
            name, multiplier = card
            event = g.card(name, multiplier=multiplier)
            assert event.kind == "card" and event.word == name
        if magical:
            g.magical_word()
        gained = [after - b for after, b in zip(g.scores, before)]
        assert gained[play.player] == total, word
    # turn 1: the material says "World of Harry Potter: 22 points. Traditional score: 16 points. Wizarding Word
    # bonus: 7 points" -- 16 + 7 is 23; the bonus rows LAKE 7, HARRY 10, DURSLEY 25 are what the table ships.
    kinds = [(e.kind, e.score) for e in g.history]
    assert kinds == [("play", 16), ("magical_word", 7), ("play", 16), ("magical_word", 10), ("play", 5),
                     ("card", 10), ("play", 14), ("card", 0), ("magical_word", 25), ("play", 14)]
    assert g.scores == [23 + 15 + 14, 26 + 39]


def test_the_card_multiplies_the_word_after_premiums_never_the_bingo_or_the_bonus():
    g = hp_game()
    g.play(Placement.from_gcg("8D", "RETINAS"))  # R on D8 (DL) 2 + six 1s = 8, ×2 (H8) = 16; + bingo 50
    assert g.history[-1].score == 66
    g.magical_word()  # 7 letters: 25, entered before the card: the card still leaves it alone
    card = g.card("Double trouble", multiplier=2)
    assert card.score == 16 and g.scores[0] == 66 + 25 + 16
    again = g.card("Re-tripled", multiplier=3)  # cards re-multiply: (16 + 16) × 2
    assert again.score == 64


def test_magical_word_can_be_a_cross_word_once_each():
    g = hp_game()
    g.play(Placement.from_gcg("8H", "NOX"))
    g.play(Placement.from_gcg("I8", ".N"))  # ON down through NOX's O
    assert g.magical_word("on").score == 2 and g.history[-1].count == 2
    with pytest.raises(IllegalMove, match="already"):
        g.magical_word("ON")
    with pytest.raises(IllegalMove, match="not a word of the play"):
        g.magical_word("NOX")


def test_cards_and_bonuses_belong_to_the_play_just_made():
    g = hp_game()
    with pytest.raises(IllegalMove, match="belongs to the play just made"):
        g.card("Accio", points=5)
    g.play(Placement.from_gcg("8H", "NOX"))
    g.pass_turn()
    with pytest.raises(IllegalMove, match="belongs to the play just made"):
        g.magical_word()
    with pytest.raises(IllegalMove, match="not both"):
        g.card("Accio", multiplier=2, points=3)
    g.undo()
    assert g.card("Accio", points=5).score == 5 and g.scores == [20 + 5, 0]  # NOX: (1 + 1 + 8) × 2
    g.undo()
    assert g.scores == [20, 0]


def test_classic_games_refuse_cards_and_bonuses():
    g = Game(["a", "b"])
    g.play(Placement.from_gcg("8H", "NOX"))
    with pytest.raises(IllegalMove, match="without Harry Potter cards"):
        g.card("Accio", points=5)
    with pytest.raises(IllegalMove, match="no Magical Word"):
        g.magical_word()


def test_events_round_trip_through_the_store_form():
    g = hp_game()
    g.play(Placement.from_gcg("8H", "NOX"))
    for ev in (g.card("Lumos", multiplier=2), g.magical_word()):
        assert type(ev).from_dict(ev.to_dict()) == ev
