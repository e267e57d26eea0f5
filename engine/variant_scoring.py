"""A play's score under the rules' variants: the classic score (:mod:`~tilecam.engine.scoring`) plus each rule.

Today one rule changes a play's score: ``Rules.blanks_score_letter`` (a house rule in the material's variants): a
blank scores the value of the letter it stands for, with the letter premium under it when newly placed and the
word premiums of the word, exactly as that natural tile would. Everything else is scored classically, so a
variant's score is always the classic score plus its rule's points (the property the tests check).

>>> from tilecam.engine.board import Board
>>> from tilecam.engine.move import Placement
>>> from tilecam.engine.rules import Rules
>>> score_play(Board(), Placement.from_gcg("8D", "QUAnT"), Rules(blanks_score_letter=True)).score
48
>>> score_play(Board(), Placement.from_gcg("8D", "QUAnT"), Rules()).score
46
"""

from __future__ import annotations

from dataclasses import replace

from .board import Board
from .errors import IllegalMove
from .move import Placement
from .rules import Rules
from .scoring import ScoredPlay, WordScore, score


def blank_letters(word: WordScore, rules: Rules) -> WordScore:
    """``word`` with each blank scoring its letter's value times the letter premium it was scored with."""
    tiles = rules.tiles
    scores = list(word.letter_scores)
    for i, (tile, lm) in enumerate(zip(word.tiles, word.letter_multipliers)):
        if tile.is_blank:
            if tile.letter == "?":
                raise IllegalMove(f"{word.word}: name the blank's letter first (a blank scores its letter here)")
            scores[i] = tiles.value(tile.letter) * lm
    if scores == list(word.letter_scores):
        return word
    return replace(word, letter_scores=tuple(scores), score=sum(scores) * word.word_multiplier)


def score_play(board: Board, placement: Placement, rules: Rules) -> ScoredPlay:
    """Score ``placement`` on ``board`` under ``rules`` (checks legality like :func:`~scoring.score`)."""
    classic = score(board, placement, rules)
    if not rules.blanks_score_letter:
        return classic
    words = tuple(blank_letters(w, rules) for w in classic.words)
    return ScoredPlay(sum(w.score for w in words) + classic.bingo, words, classic.bingo)
