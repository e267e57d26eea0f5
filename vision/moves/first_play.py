"""The game's first play, decided in each of the board's four turns: which edge is row 1.

The reader tells row 1 from the look of a few tiles (``orient.upright_turn``: N, I, O, S, Z, H and X look alike upside
down); the first play is the last chance to tell it before every later play is read by it, and the decision weighs
the words too (DJINN read upside down is NNITG, a phony). The tracker reads the settled board in each turn and
decides it there; :func:`best_turn` chooses among those decisions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from tilecam.engine.board import Board
from tilecam.vision.moves.interpret import Interpretation, diff_board
from tilecam.vision.moves.reach import unreachable
from tilecam.vision.moves.reading import EMPTY, Reading

#: The game's first play is taken in another turn of the board than the reader's when its decision there is this
#: much more probable (log-probability, nats): as ``orient.TURN_MARGIN``, so that a play reading alike both ways
#: (NOON, SIS) keeps the reader's turn. Where another turn makes another play within this of the best (LOB upside
#: down reads HOT as surely, both words), row 1 is not told yet: the first play waits for the next one, and the two
#: are decided together in each turn (the second play's words tell). So too where another turn's play reads its
#: letters this much more surely than the best's and only the words chose the best (``lexicon_cost`` added
#: back).
FIRST_PLAY_TURN_MARGIN = 0.5


def best_turn(board: Board, readings: Sequence[Reading], decisions: Sequence[Interpretation], clear: float,
              changed: Iterable[tuple[int, int]], phony_odds: float) -> tuple[int, Interpretation]:
    """The turn of the board (quarter turns from the reader's, ``readings[k]`` the board so read) whose first play
    to take, and its decision (``decisions[k]``; turn 0's a play): another turn's when it is more probable by
    ``FIRST_PLAY_TURN_MARGIN`` judged on the same squares (:func:`on_the_same_squares`), else the reader's. Where
    another turn makes another play about as probable (within the margin), or reads its letters more surely by the
    margin where only the words (each the lexicon rejects costing ``phony_odds``) made the best more probable,
    ``(0, unclear)``: row 1 is not told yet, and the first play waits for the next one (the two are then decided
    together, in each turn)."""
    score = on_the_same_squares(board, readings, decisions, clear, changed)
    letters = [s + lexicon_cost(d, phony_odds) for s, d in zip(score, decisions)]
    best, best_k = decisions[0], 0
    for k in (1, 2, 3):
        other = decisions[k]
        if other.kind == "play" and score[k] > score[best_k] + (FIRST_PLAY_TURN_MARGIN if best_k == 0 else 0):
            best, best_k = other, k
    rivals = [o for k, o in enumerate(decisions) if k != best_k and o.kind == "play" and not best.earlier
              and (score[k] > score[best_k] - FIRST_PLAY_TURN_MARGIN
                   or letters[k] > letters[best_k] + FIRST_PLAY_TURN_MARGIN) and plays(o) != plays(best)]
    if rivals:
        return 0, Interpretation("unclear", reason=f"row 1 not told yet: the first play reads {plays(best)} one way, "
                                                   f"{plays(rivals[0])} another; waiting for the next play")
    return best_k, best


def lexicon_cost(decision: Interpretation, phony_odds: float) -> float:
    """What the lexicon took off ``decision``'s score: ``log(phony_odds)`` for each word of its plays it rejects.
    Added back, the score is the letters' alone (OB read upright, a phony in ENABLE, against BO upside down, its B
    read 0.55: the words chose BO, the letters OB)."""
    return math.log(phony_odds) * sum(len(c.phony) for c in (*decision.earlier, decision.candidate) if c is not None)


def on_the_same_squares(board: Board, readings: Sequence[Reading], decisions: Sequence[Interpretation],
                         clear: float, changed: Iterable[tuple[int, int]]) -> list[float]:
    """Each turn's decision's score (``readings[k]``: the board read turned ``k`` quarter turns, as ``np.rot90``)
    judged on the same squares. A square whose pixels changed since the board was last decided (``changed``, in turn
    0's squares) and that some turn reads as a new tile is a tile: a letter lying sideways may read surely bare (the
    model learnt letters upright), a bare square reads bare whichever way it is turned. A turn that reads it bare
    pays the probability that it is bare where it reads most surely a tile. Without it, a turn that read most of a
    change bare made a short play of the rest, more probable alone than two plays read in the right turn (seed 24003:
    LOB and a paused MEGARAD read a quarter turn round as SFS, and the game read in that turn, 0/25). A glare lying
    still that one turn reads as blanks did not change in pixels: it costs no turn (seed 21800). Squares no play can
    reach are left out, as in each turn's decision (``clear``: as ``diff_board``'s)."""
    n = board.size
    tiles, bare = [], []
    for k, reading in enumerate(readings):
        added = diff_board(board, reading, clear).added
        strays = set(unreachable(board, added))
        mask = np.zeros((n, n), bool)
        for r, c in added:
            mask[r, c] = (r, c) not in strays
        probs = np.array([[reading.probability(r, c, EMPTY) for c in range(n)] for r in range(n)])
        tiles.append(np.rot90(mask, -k))          # in turn 0's squares
        bare.append(np.rot90(probs, -k))
    moved = np.zeros((n, n), bool)
    for r, c in changed:
        moved[r, c] = True
    anywhere = np.logical_or.reduce(tiles) & moved
    least_bare = np.maximum(np.minimum.reduce(bare), 1e-9)
    return [decision.score + float(np.log(least_bare[anywhere & ~tiles[k]]).sum())
            for k, decision in enumerate(decisions)]


def plays(result: Interpretation) -> str:
    """The plays a decision makes, as written (to tell two decisions of the same board apart)."""
    return ", ".join(str(c.placement) for c in (*result.earlier, result.candidate) if c is not None)


__all__ = ["FIRST_PLAY_TURN_MARGIN", "best_turn", "lexicon_cost", "on_the_same_squares", "plays"]
