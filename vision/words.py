"""A game's words are words: the single photo's letters judged by the game's lexicon, as move inference judges a play.

On a photo of a game's board every run of two or more tiles is a word the players accepted. A run the lexicon
rejects was either played as a phony and left unchallenged, or read wrong: an I read as an L on a glossy board, a
worn P as a B. Each word the lexicon rejects costs the board ``PHONY_ODDS`` (the odds move inference weighs a play's
words with), each letter taken against the reader's first what its probabilities say: of the letters the reader
gave the run's squares, those that make the board likeliest are taken — the run a word, and the runs crossing a
changed square counted too (one I read as L can spoil two words, and one letter must not mend one word by breaking
another). Like the tile counts
(``tilecounts``) and the joined tiles (``connected``), a rule of the game applied to the labels; probabilities are not
rewritten, and a square relabelled keeps its low confidence (flagged unsure).

>>> from tilecam.engine.lexicon import Lexicon
>>> lex = Lexicon.from_words(["IT", "TIN"])
>>> in_lexicon(lex, "T?N", "ABI"), in_lexicon(lex, "LT", "ABI")
(True, False)
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Sequence

import numpy as np

from tilecam.vision.classify import BLANK, EMPTY, OCCLUDED, letter_mask

#: A word in the lexicon is this many times as probable as one outside it: players mostly play words. Move inference
#: weighs a play's words with the same odds (``vision.moves.decide.Weights.phony_odds``). On the 75 real games of
#: ``shared/data/gcg`` 2,891 of the 3,800 words the plays formed are in ENABLE (most were played under CSW or NWL:
#: 3.2 to 1), and 29 of 1,785 plays were withdrawn as phonies: the odds lie between, nearer a word list other than
#: the players' own.
PHONY_ODDS = 5.0
#: A letter the reader gives a square less than this is not tried there (as ``Weights.min_alternative``): no word's
#: odds make up for it.
LEAST_LETTER = 0.03
#: Whole words tried for one run at most: a bound on the search's time, whatever the lexicon and the reading.
MOST_TRIALS = 4096


def in_lexicon(lexicon: Any, word: str, letters: Sequence[str]) -> bool:
    """``word`` (upper case; ``?`` = a blank of unknown letter, matching any of ``letters``) is in ``lexicon``."""
    if BLANK not in word:
        return word in lexicon
    head, _, tail = word.partition(BLANK)
    if not lexicon.has_prefix(head):
        return False
    return any(in_lexicon(lexicon, head + letter + tail, letters) for letter in letters)


def runs(labels: Sequence[Sequence[str]]) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every run of two or more tiles (letters, blanks or covered squares) along a row or a column, as squares."""
    size = len(labels)
    for across in (True, False):
        for a in range(size):
            run: list[tuple[int, int]] = []
            for b in range(size + 1):
                sq = (a, b) if across else (b, a)
                if b < size and labels[sq[0]][sq[1]] != EMPTY:
                    run.append(sq)
                    continue
                if len(run) >= 2:
                    yield tuple(run)
                run = []


def as_words(probs: np.ndarray, choice: np.ndarray, classes: Sequence[str], lexicon: Any,
             caps: dict[int, int] | None = None) -> np.ndarray:
    """``choice`` (a class index a square, row-major) with each run the lexicon rejects given the letters that make
    the board likeliest: each word the lexicon rejects costs ``PHONY_ODDS``, each letter taken against the reading
    what the reader's probabilities say (the runs crossing a changed square counted as well, no letter beyond its
    tile count, ``caps``). Runs through a covered square are not judged."""
    if lexicon is None:
        return choice
    size = int(round(math.sqrt(len(choice))))
    choice = np.array(choice, copy=True)
    letters = [c for c, is_letter in zip(classes, letter_mask(classes)) if is_letter]
    index = {c: i for i, c in enumerate(classes)}
    labels = [[classes[choice[r * size + c]] for c in range(size)] for r in range(size)]
    every = list(runs(labels))          # mending letters moves no run: which squares hold tiles stays
    run_through = {(sq, run[0][0] == run[-1][0]): run for run in every for sq in run}
    for run in every:
        if _judged(labels, run, lexicon, letters) is not False:
            continue
        best = _likeliest_word(run, labels, probs, index, letters, lexicon, caps, choice, size, run_through)
        if best is not None:
            for (r, c), letter in zip(run, best):
                labels[r][c] = letter
                choice[r * size + c] = index[letter]
    return choice


def _judged(labels, squares, lexicon, letters, change: dict | None = None) -> bool | None:
    """Whether the run on ``squares`` (with ``change``: square → letter) is a word; None: not judged (one square,
    or a covered one)."""
    if len(squares) < 2:
        return None
    word = "".join((change or {}).get(sq, labels[sq[0]][sq[1]]) for sq in squares)
    return None if OCCLUDED in word else in_lexicon(lexicon, word, letters)


def _likeliest_word(run, labels, probs, index, letters, lexicon, caps, choice, size, run_through):
    """The letters for ``run`` that gain the board the most (phonies made words, less the letters' cost), if any
    gains; None else. ``run_through``: (square, across) → the run of two or more tiles it lies in that way."""
    across = run[0][0] == run[-1][0]
    crossings = {sq: run_through.get((sq, not across), ()) for sq in run}
    phony = math.log(PHONY_ODDS)
    # at most every run through the run's squares made a word: no letters costing more are worth trying
    budget = phony * (1 + sum(_judged(labels, cross, lexicon, letters) is False for cross in crossings.values()))
    options = []
    for r, c in run:
        now = labels[r][c]
        if now not in letters:
            options.append([(now, 0.0)])
            continue
        p = probs[r * size + c]
        here = float(p[index[now]])
        opts = [(a, math.log(here / float(p[index[a]]))) for a in letters
                if a != now and float(p[index[a]]) >= LEAST_LETTER]
        options.append([(now, 0.0)] + sorted(o for o in opts if o[1] < budget))
    found: list[tuple[float, tuple[str, ...]]] = []
    trials = [0]

    def walk(i: int, prefix: str, cost: float, chosen: tuple[str, ...]) -> None:
        if cost >= budget or trials[0] >= MOST_TRIALS:
            return
        if prefix and BLANK not in prefix and not lexicon.has_prefix(prefix):
            return
        if i == len(run):
            trials[0] += 1
            if cost > 0 and in_lexicon(lexicon, prefix, letters):
                found.append((cost, chosen))
            return
        for letter, extra in options[i]:
            walk(i + 1, prefix + letter, cost + extra, chosen + (letter,))

    walk(0, "", 0.0, ())
    best, best_gain = None, 0.0
    for cost, word in found:
        change = {sq: letter for sq, letter in zip(run, word) if labels[sq[0]][sq[1]] != letter}
        before = after = 0
        for sq in change:
            was, now = _judged(labels, crossings[sq], lexicon, letters), _judged(labels, crossings[sq], lexicon,
                                                                                    letters, change)
            before, after = before + (was is False), after + (now is False)
        gain = phony * (1 + before - after) - cost
        if gain > best_gain and _within_caps(change, labels, caps, choice, index):
            best, best_gain = word, gain
    return best


def _within_caps(change, labels, caps, choice, index) -> bool:
    if not caps:
        return True
    counts = np.bincount(choice, minlength=len(index))
    for (r, c), letter in change.items():
        counts[index[labels[r][c]]] -= 1
        counts[index[letter]] += 1
    return all(counts[k] <= cap for k, cap in caps.items())


__all__ = ["PHONY_ODDS", "LEAST_LETTER", "in_lexicon", "runs", "as_words"]
