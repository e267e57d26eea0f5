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

from .board import Board, Tile, fast_init
from .errors import IllegalPlacement
from .layout import Layout
from .legality import FormedWord, check
from .move import Placement
from .rules import Rules
from .tiles import TileSet

_DEFAULT_RULES = Rules()


@functools.lru_cache(maxsize=None)
def _values(tileset: str) -> dict[str, int]:
    """``{letter: value}`` of a tile set by its name, made once: keyed by the name, whose hash Python keeps, not by
    the set, whose tuples would be hashed again for every play."""
    return TileSet.load(tileset).value_map()


@fast_init
@dataclass(frozen=True, slots=True)
class WordScore:
    """One word's score: ``word`` (blanks lower case), its squares, score, and a human-readable ``breakdown``.

    The squares and breakdown are read off ``formed`` (the word as :func:`~.legality.check` found it) when asked
    for, not each time a word is scored.
    """

    word: str
    formed: FormedWord
    score: int
    letter_scores: tuple[int, ...] = ()  # each square's value after its letter premium
    word_multiplier: int = 1
    letter_multipliers: tuple[int, ...] = ()  # 1 where no letter premium counts (an old tile, a plain square)

    @property
    def squares(self) -> tuple[tuple[int, int], ...]:
        return self.formed.squares

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return self.formed.tiles

    @property
    def breakdown(self) -> str:
        """``Q10×2 + U1 + A1 + N1 + T1 = 24; ×2 = 48``."""
        parts = [f"{tile}{value // lm}×{lm}" if lm > 1 else f"{tile}{value}"
                 for tile, value, lm in zip(self.formed.tiles, self.letter_scores, self.letter_multipliers)]
        total = sum(self.letter_scores)
        text = " + ".join(parts) + f" = {total}"
        return text + f"; ×{self.word_multiplier} = {self.score}" if self.word_multiplier > 1 else text


@fast_init
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


_MULTIPLIERS: dict[int, tuple[Layout, tuple[int, ...], tuple[int, ...]]] = {}  # id(layout) -> its tables


def _multipliers(layout: Layout) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The layout's letter and word multipliers, one entry per square row by row (made once per layout; looked up
    by identity, as hashing the layout's rows for every word would cost more than the lookup saves)."""
    entry = _MULTIPLIERS.get(id(layout))
    if entry is None or entry[0] is not layout:
        squares = [(r, c) for r in range(layout.size) for c in range(layout.size)]
        entry = (layout, tuple(layout.letter_multiplier(r, c) for r, c in squares),
                 tuple(layout.word_multiplier(r, c) for r, c in squares))
        _MULTIPLIERS[id(layout)] = entry
    return entry[1], entry[2]


def score_word(board: Board, word: FormedWord, values: dict[str, int]) -> WordScore:
    """Score one formed word with the premiums under its new tiles."""
    letter_mults, word_mults = _multipliers(board.layout)
    return _score_word(word, values, letter_mults, word_mults, board.size)


def _score_word(word: FormedWord, values: dict[str, int], letter_mults: tuple[int, ...],
                word_mults: tuple[int, ...], size: int) -> WordScore:
    index, step = word.row * size + word.col, (1 if word.across else size)  # squares in the flat tables
    letter_scores, multipliers, letters, word_mult = [], [], [], 1
    for tile, new in zip(word.tiles, word.new):
        letter = tile.letter
        if tile.is_blank:
            face, letter = 0, letter.lower()
        else:
            face = values[letter]
        letters.append(letter)
        if new:
            lm = letter_mults[index]
            word_mult *= word_mults[index]
            face *= lm
        else:
            lm = 1
        letter_scores.append(face)
        multipliers.append(lm)
        index += step
    return WordScore("".join(letters), word, sum(letter_scores) * word_mult, tuple(letter_scores), word_mult,
                     tuple(multipliers))


def score(board: Board, placement: Placement, rules: Rules | None = None) -> ScoredPlay:
    """Score ``placement`` on ``board`` (before it is placed). Checks legality (``IllegalPlacement``) first."""
    rules = rules or _DEFAULT_RULES
    values = _values(rules.tileset)
    placed = 0
    for tile in placement.tiles:
        if tile is not None:
            placed += 1
            if tile.letter not in values:
                raise IllegalPlacement(f"{placement}: the letter {tile.letter} is not in the {rules.tiles.name} "
                                       "tile set")
    letter_mults, word_mults = _multipliers(board.layout)  # once per play, not per word
    size = board.size
    words = tuple([_score_word(w, values, letter_mults, word_mults, size) for w in check(board, placement)])
    sizes = rules.bingo_sizes
    bingo = rules.bingo_bonus if (placed == rules.rack_size if sizes is None else placed in sizes) else 0
    return ScoredPlay(sum([w.score for w in words]) + bingo, words, bingo)
