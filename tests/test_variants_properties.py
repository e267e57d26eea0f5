"""Property tests: a variant's score is the classic score plus its rule (blanks scoring their letter, 9-tile
bingos, Harry Potter cards and Magical Words), and Clabbers accepts exactly the anagrams of words.

Hypothesis runs derandomized; each game draws from ``random.Random(seed)`` with the placement generator of
``test_engine_properties``.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tilecam.engine.game import Game
from tilecam.engine.legality import check
from tilecam.engine.lexicon import Lexicon
from tilecam.engine.rules import Rules
from tilecam.engine.scoring import score
from tilecam.engine.variants import magical_word_bonus

# pytest imports test modules by path (--import-mode=importlib), so the shared generator is loaded the same way
_spec = importlib.util.spec_from_file_location("engine_properties", Path(__file__).with_name("test_engine_properties.py"))
_properties = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_properties)
random_placement = _properties.random_placement

PLAYS_PER_GAME = 12  # enough to cover the board's premiums and cross words without slowing the suite
SEEDS = st.integers(min_value=0, max_value=10**6)


def blank_letter_rule(board, placement, rules) -> int:
    """What the blanks add when they score their letter, worked out from the board and layout alone."""
    layout, tiles, extra = board.layout, rules.tiles, 0
    for word in check(board, placement):
        word_mult, points = 1, 0
        for (r, c), tile, new in zip(word.squares, word.tiles, word.new):
            if new:
                word_mult *= layout.word_multiplier(r, c)
            if tile.is_blank:
                points += tiles.value(tile.letter) * (layout.letter_multiplier(r, c) if new else 1)
        extra += points * word_mult
    return extra


def random_plays(seed: int, rules: Rules):
    """(game before the play, placement) pairs of one random game under ``rules``."""
    rng, game = random.Random(seed), Game(["a", "b"], rules)
    for _ in range(PLAYS_PER_GAME):
        placement = random_placement(rng, game)
        if placement is None:
            return
        yield game, placement
        game.play(placement)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(SEEDS)
def test_blanks_scoring_their_letter_add_exactly_their_letters(seed):
    variant = Rules.preset("blanks-score")
    for game, placement in random_plays(seed, variant):
        if any(t is not None and t.letter == "?" for t in placement.tiles):
            continue
        classic = score(game.board, placement, Rules())
        assert game.score_play(placement).score == classic.score + blank_letter_rule(game.board, placement, variant)


@settings(derandomize=True, max_examples=25, deadline=None)
@given(SEEDS)
def test_nine_tile_is_classic_plus_the_bingo_for_eight_or_nine(seed):
    for game, placement in random_plays(seed, Rules.preset("nine-tile")):
        classic = score(game.board, placement, Rules()).score
        extra = 50 if placement.tile_count in (8, 9) else 0
        assert game.score_play(placement).score == classic + extra


@settings(derandomize=True, max_examples=25, deadline=None)
@given(SEEDS, st.sampled_from([1, 2, 3]), st.booleans())
def test_harry_potter_turn_is_word_times_card_plus_bonus(seed, multiplier, magical):
    for game, placement in random_plays(seed, Rules.preset("harry-potter")):
        trial = game.copy()
        play = trial.play(placement)
        bingo = 50 if placement.tile_count == 7 else 0
        before = trial.scores[play.player]
        trial.card("a card", multiplier=multiplier)
        bonus = trial.magical_word().score if magical else 0
        assert trial.scores[play.player] - before == (play.score - bingo) * (multiplier - 1) + bonus
        assert bonus == (magical_word_bonus("harry-potter", len(play.words[0])) if magical else 0)


WORDS = ["QI", "ZA", "QAT", "TAE", "EAT", "ETA", "RATE", "TEAR"]


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.text(alphabet="AEIQRTZ", min_size=2, max_size=4))
def test_clabbers_accepts_exactly_the_anagrams_of_words(word):
    lex = Lexicon.from_words(WORDS)
    clabbers = Game(["a", "b"], Rules.preset("clabbers"), lex)
    classic = Game(["a", "b"], Rules(), lex)
    expected = sorted(word) in [sorted(w) for w in WORDS]
    assert clabbers.is_word(word) == expected
    assert not classic.is_word(word) or clabbers.is_word(word)
