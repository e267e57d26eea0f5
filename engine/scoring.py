"""Scoring, as the rules and tournament practice have it; never consults a lexicon.

Letter premiums first, then word premiums, both only under newly placed tiles; every cross word is scored with
its own premiums; two double-word squares multiply (×4), two triple-word squares ×9; a blank scores 0 even on a
letter premium but does trigger a word premium; the centre star doubles the first move; the bingo bonus is for
playing a full rack (``Rules.bingo_tile_counts``).

>>> from tilecam.engine.board import Board
>>> from tilecam.engine.move import Placement
>>> play = score(Board(), Placement.from_gcg("8D", "QUANT"))
>>> play.score, play.words[0].breakdown
(48, 'Q10×2 + U1 + A1 + N1 + T1 = 24; ×2 = 48')
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .board import Board
from .legality import FormedWord, check
from .move import Placement
from .rules import Rules
from .tiles import TileSet

_DEFAULT_RULES = Rules()
_value_map = functools.lru_cache(maxsize=None)(TileSet.value_map)


@dataclass(frozen=True, slots=True)
class WordScore:
    """One word's score: ``word`` (blanks lower case), its squares, score, and a human-readable ``breakdown``."""

    word: str
    squares: tuple[tuple[int, int], ...]
    score: int
    breakdown: str
    letter_scores: tuple[int, ...] = ()  # each square's value after its letter premium
    word_multiplier: int = 1


@dataclass(frozen=True, slots=True)
class ScoredPlay:
    """A play's score = sum of its words' scores + ``bingo`` (the bonus, 0 when none)."""

    score: int
    words: tuple[WordScore, ...]
    bingo: int = 0

    @property
    def breakdown(self) -> str:
        parts = [f"{w.word} {w.score}" for w in self.words]
        if self.bingo:
            parts.append(f"bingo {self.bingo}")
        return " + ".join(parts) + f" = {self.score}"


def score_word(board: Board, word: FormedWord, values: dict[str, int]) -> WordScore:
    """Score one formed word with the premiums under its new tiles."""
    layout = board.layout
    letter_scores, parts, word_mult = [], [], 1
    for (r, c), tile, new in zip(word.squares, word.tiles, word.new):
        value = 0 if tile.is_blank else values[tile.letter]
        mark = ""
        if new:
            lm = layout.letter_multiplier(r, c)
            if lm > 1:
                mark = f"×{lm}"
                value *= lm
            word_mult *= layout.word_multiplier(r, c)
        letter_scores.append(value)
        parts.append(f"{tile}{0 if tile.is_blank else values[tile.letter]}{mark}")
    total = sum(letter_scores)
    breakdown = " + ".join(parts) + f" = {total}"
    if word_mult > 1:
        breakdown += f"; ×{word_mult} = {total * word_mult}"
    return WordScore(word.text, word.squares, total * word_mult, breakdown, tuple(letter_scores), word_mult)


def score(board: Board, placement: Placement, rules: Rules | None = None) -> ScoredPlay:
    """Score ``placement`` on ``board`` (before it is placed). Checks legality (``IllegalPlacement``) first."""
    rules = rules or _DEFAULT_RULES
    values = _value_map(rules.tiles)
    words = tuple(score_word(board, w, values) for w in check(board, placement))
    bingo = rules.bingo_bonus if placement.tile_count in rules.bingo_tile_counts else 0
    return ScoredPlay(sum(w.score for w in words) + bingo, words, bingo)
