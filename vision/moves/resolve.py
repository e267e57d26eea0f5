"""What a decided play is, and the rules its letters answer to: the tile counts and the lexicon.

:class:`Candidate` is one play as move inference decided it; :func:`unseen_tiles` is what new tiles can still be
(no fifth ``S``); :func:`word_is_valid` asks the lexicon about a word with blanks not named yet. The decision itself
(which squares, which letters, which event) is :mod:`tilecam.vision.moves.decide`; :func:`resolve_move` asks it for
the one play on given squares.

>>> from tilecam.vision.moves.reading import Reading
>>> rows = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
>>> cand = resolve_move(Board(), Reading.from_rows(rows), [(7, 7), (7, 8), (7, 9)], TileSet.load("english"))
>>> str(cand.placement), cand.words
('8H CAT', ('CAT',))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.reading import InferenceError, Reading
from tilecam.vision.words import in_lexicon


class NotAMove(InferenceError):
    """The new tiles do not make a legal placement (not one line, a gap, not connected, the first move off the
    centre); ``reason`` says which. The tracker waits: players may still be moving tiles."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Candidate:
    """A decided play: the placement (blanks lower case; ``?`` = letter not known), the words it forms, the words
    the lexicon rejects (``phony``; empty without a lexicon), the blanks the players must name
    (``pending_blanks``), the blanks the search named (``inferred_blanks``), the squares where the letter taken is
    not the reader's first label (``corrected``: row, col, reader's label, letter taken) and the reader's
    probability of the letters taken."""

    placement: Placement
    words: tuple[str, ...]
    phony: tuple[str, ...] = ()
    pending_blanks: tuple[tuple[int, int], ...] = ()
    inferred_blanks: tuple[tuple[int, int, str], ...] = ()
    corrected: tuple[tuple[int, int, str, str], ...] = ()
    probability: float = 1.0
    judged: bool = False

    @property
    def is_phony(self) -> bool:
        return bool(self.phony)


def unseen_tiles(board: Board, tileset: TileSet) -> Counter:
    """Tiles not on the board (bag + racks), blanks as ``?``: what new tiles can be."""
    return tileset.bag() - board.tile_counts()


#: ``word`` (upper case; ``?`` = a blank of unknown letter, matching any of ``letters``) is in ``lexicon``: the one
#: test, shared with the single photo's reading (``vision.words``).
word_is_valid = in_lexicon


def resolve_move(board: Board, reading: Reading, squares: Iterable[tuple[int, int]], tileset: TileSet,
                 lexicon: Any = None, policy: Any = None) -> Candidate:
    """The most probable single play on exactly ``squares`` (the letters, the blanks, the phonies), by the one
    scored decision (:func:`tilecam.vision.moves.decide.best_play`). Raises :class:`NotAMove` when the squares
    cannot be one legal placement."""
    from tilecam.vision.moves.decide import best_play

    return best_play(board, reading, squares, tileset, lexicon, policy)
