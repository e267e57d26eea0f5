"""Which letters: the best combination for plays whose squares are decided, and the plays it makes.

The squares' letters are tried together (every play of a candidate at once: the tile counts hold across them), the
most probable combination first; each is scored by its log-probability less ``log(phony_odds)`` for each word the
lexicon rejects, and the search stops once no combination left can beat the best (a word can only cost). Blanks are
named afterwards, play by play: the one letter (or pair) under which every word through them is good.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.legality import check
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.reading import BLANK, Reading
from tilecam.vision.moves.resolve import Candidate, NotAMove, word_is_valid
from tilecam.vision.moves.squares import letter_options

Square = tuple[int, int]
MAX_LEXICON_TRIALS = 512      # combinations judged by the lexicon at most per candidate (cost bound)


def word_templates(board: Board, plays: Sequence[Sequence[Square]], fixed: Mapping[Square, Tile],
                   rack_size: int) -> list[list[tuple[Square, ...]]]:
    """The squares of every word each play forms, the plays made in turn on ``board`` (``fixed``: squares whose
    tile is known). Raises :class:`NotAMove` when a play is not one legal placement or more than a rack."""
    b = board.copy()
    out = []
    for play in plays:
        if len(play) > rack_size:
            raise NotAMove(f"{len(play)} new tiles: more than a rack holds ({rack_size})")
        probe = [(r, c, fixed.get((r, c), Tile(BLANK, True))) for r, c in play]
        try:
            words = check(b, Placement.from_squares(b, probe))
        except IllegalPlacement as exc:
            raise NotAMove(str(exc)) from None
        out.append([fw.squares for fw in words])
        for r, c, t in probe:
            b[r, c] = t
    return out


def best_letters(board: Board, plays: Sequence[Sequence[Square]], fixed: Mapping[Square, Tile],
                 probs: Mapping[Square, Mapping[str, float]], unseen: Counter, tileset: TileSet, lexicon: Any,
                 phony_odds: tuple[float, float], least: float, limit: int, rack_size: int,
                 every_letter: Collection[Square] = ()) -> tuple[float, dict[Square, str]] | None:
    """The best-scoring letters for the free squares of ``plays`` and their score; None when the tile counts allow
    none. ``phony_odds``: a word's odds against a phony, and against a word through a new blank no letter makes
    good; ``least``: a letter less probable on a square is not tried there, but on the squares ``every_letter`` (a
    tile the reader missed: its letters are the bag's, the words choose). Raises :class:`NotAMove` when the plays
    are not legal."""
    templates = word_templates(board, plays, fixed, rack_size)
    free = [s for play in plays for s in play if s not in fixed]
    options = [letter_options(probs[s], 0.0 if s in every_letter else least) for s in free]
    _trim(options, limit)
    combos = []
    for combo in itertools.product(*options):
        need = Counter(a for a, _ in combo)
        if all(need[a] <= unseen[a] for a in need):
            combos.append((sum(math.log(p) for _, p in combo), tuple(a for a, _ in combo)))
    if not combos:
        return None
    combos.sort(key=lambda x: -x[0])
    if lexicon is None:
        return combos[0][0], dict(zip(free, combos[0][1]))
    cost, blank_cost = math.log(phony_odds[0]), math.log(phony_odds[1])
    valid: dict[str, bool] = {}
    best: tuple[float, dict[Square, str]] | None = None
    for logp, labels in combos[:MAX_LEXICON_TRIALS]:
        if best is not None and logp <= best[0]:
            break
        chosen = dict(zip(free, labels))
        penalty = 0.0
        for words in templates:
            for squares in words:
                text = "".join(chosen[s] if s in chosen else _letter(board, fixed, s) for s in squares)
                if text not in valid:
                    valid[text] = word_is_valid(lexicon, text, tileset.letters)
                if not valid[text]:
                    penalty += blank_cost if any(chosen.get(s) == BLANK for s in squares) else cost
        if best is None or logp - penalty > best[0]:
            best = (logp - penalty, chosen)
    return best


def _letter(board: Board, fixed: Mapping[Square, Tile], s: Square) -> str:
    tile = fixed.get(s) or board[s]
    return tile.letter


def _trim(options: list[list[tuple[str, float]]], limit: int) -> None:
    """Cut alternatives from the surest squares until the number of combinations is within ``limit``."""
    while math.prod(len(o) for o in options) > limit:
        i = max((i for i, o in enumerate(options) if len(o) > 1), key=lambda i: options[i][0][1] - options[i][1][1])
        options[i] = options[i][:-1] if len(options[i]) > 2 else options[i][:1]


def candidates(board: Board, plays: Sequence[Sequence[Square]], fixed: Mapping[Square, Tile],
               labels: Mapping[Square, str], probs: Mapping[Square, Mapping[str, float]], reading: Reading,
               tileset: TileSet, lexicon: Any, max_blanks: int) -> list[Candidate]:
    """The plays, made in turn on ``board``, with ``labels`` on their free squares and the blanks named."""
    b = board.copy()
    out = []
    for play in plays:
        tiles = {s: fixed.get(s) or Tile(labels[s], labels[s] == BLANK) for s in play}
        blanks = [s for s in play if s not in fixed and labels[s] == BLANK]
        named = _name_blanks(b, tiles, blanks, lexicon, tileset.letters, max_blanks) if blanks and lexicon else None
        for s, letter in (named or {}).items():
            tiles[s] = Tile(letter, True)
        placement, words, phony = _judged(b, tiles, lexicon, tileset.letters)
        free = [s for s in play if s not in fixed]
        out.append(Candidate(
            placement, words, phony,
            pending_blanks=tuple(sorted(blanks)) if not named else (),
            inferred_blanks=tuple(sorted((r, c, letter) for (r, c), letter in (named or {}).items())),
            corrected=tuple((r, c, reading.label(r, c), labels[(r, c)]) for r, c in free
                            if reading.label(r, c) != labels[(r, c)]),
            probability=math.prod(probs[s][labels[s]] for s in free), judged=lexicon is not None))
        for (r, c), t in tiles.items():
            b[r, c] = t
    return out


def named_again(board: Board, cand: Candidate, squares: Collection[Square], lexicon: Any, letters: Sequence[str],
                max_blanks: int) -> Candidate:
    """``cand`` (its play made on ``board``) with its blanks on ``squares`` named again from its own words: the one
    letter under which every word through them is good, else left to the players (``pending_blanks``). A blank
    named from the words of a play read short — its player went on after a pause — was named on words the play
    did not end with (Fa of FA, then FiQH: no letter makes FxQH a word of the list, so the players say)."""
    tiles = {(r, c): t for r, c, t in cand.placement.new_tiles()}
    blanks = [s for s in sorted(squares) if s in tiles and tiles[s].is_blank]
    if not blanks or lexicon is None:
        return cand
    named = _name_blanks(board, tiles, blanks, lexicon, letters, max_blanks) or {}
    for s in blanks:
        tiles[s] = Tile(named.get(s, BLANK), True)
    placement, words, phony = _judged(board, tiles, lexicon, letters)
    kept = [b for b in cand.inferred_blanks if (b[0], b[1]) not in blanks]
    return replace(cand, placement=placement, words=words, phony=phony,
                   pending_blanks=tuple(sorted(set(cand.pending_blanks) | {s for s in blanks if s not in named})),
                   inferred_blanks=tuple(sorted(kept + [(r, c, letter) for (r, c), letter in named.items()])))


def _judged(board: Board, tiles: Mapping[Square, Tile], lexicon: Any, letters: Sequence[str]
            ) -> tuple[Placement, tuple[str, ...], tuple[str, ...]]:
    """``tiles`` placed on ``board``: the placement, the words it forms and those ``lexicon`` rejects (none without
    one)."""
    placement = Placement.from_squares(board, [(r, c, t) for (r, c), t in tiles.items()])
    words = check(board, placement)
    phony = tuple(w.text for w in words if not word_is_valid(lexicon, w.word, letters)) if lexicon else ()
    return placement, tuple(w.text for w in words), phony


def _name_blanks(board: Board, tiles: Mapping[Square, Tile], blanks: Sequence[Square], lexicon: Any,
                 letters: Sequence[str], max_blanks: int) -> dict[Square, str] | None:
    """The one assignment of letters to the new blanks under which every word through them is good, or None (none,
    several, or more blanks than ``max_blanks``)."""
    if len(blanks) > max_blanks:
        return None
    found = None
    for assignment in itertools.product(letters, repeat=len(blanks)):
        trial = dict(tiles)
        trial.update({s: Tile(letter, True) for s, letter in zip(blanks, assignment)})
        words = check(board, Placement.from_squares(board, [(r, c, t) for (r, c), t in trial.items()]))
        if all(word_is_valid(lexicon, w.word, letters) for w in words if not set(blanks).isdisjoint(w.squares)):
            if found is not None:
                return None
            found = dict(zip(blanks, assignment))
    return found
