"""Each square as the decision weighs it: the reader's calibrated probabilities over the labels still possible.

A label is possible on a square that was empty when the board last settled when it is ``.`` or a tile still unseen
(the tile set less what is on the board: no fifth ``S``, no third blank). The reader's probabilities of the possible
labels, divided by their sum, are the square's probabilities given what the tile counts allow; ``#`` (covered) is
no label a square settles on: its share goes to the tiles the reader sees there (a doubt between a tile and nothing). A square the reader reads as a tile no tile could be (a
fifth ``S`` read clearly) is still a tile: a misread one, any unseen letter alike.

>>> from collections import Counter
>>> from tilecam.vision.moves.reading import Reading
>>> reading = Reading.from_rows(["." * 15] * 15, uncertain={(7, 7): [("S", 0.8), ("H", 0.15), ("B", 0.05)]})
>>> probs = square_probs(reading, 7, 7, Counter({"H": 2, "B": 2}), ("B", "H", "S"))
>>> {k: round(v, 2) for k, v in probs.items()}
{'H': 0.75, 'B': 0.25}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading

#: The probability each unseen letter gets on a square read as a tile that no unseen tile can be: small and even,
#: so that the lexicon and the other squares choose among them.
MISREAD_FLOOR = 0.003


def square_probs(reading: Reading, r: int, c: int, unseen: Counter, tile_labels: Sequence[str]) -> dict[str, float]:
    """``{label: probability}`` on an empty square (see the module doc); ``tile_labels``: the set's letters and
    ``?``."""
    options = reading.options(r, c)
    raw = {a: p for a, p in options if p > 0 and (a == EMPTY or (a in tile_labels and unseen[a] > 0))}
    first = reading.label(r, c)
    if first not in (EMPTY, OCCLUDED) and not any(a != EMPTY for a in raw):
        # (a blank is an unprinted tile the reader tells from letters: it is not guessed for a misread letter)
        raw.update({a: MISREAD_FLOOR for a in tile_labels if a != BLANK and unseen[a] > 0})
    tiles = sum(p for a, p in raw.items() if a != EMPTY)
    covered = sum(p for a, p in options if a == OCCLUDED)
    if covered and tiles:
        # "covered" on a still board is the reader's doubt between the tiles it sees and nothing: a tile's share
        raw = {a: p if a == EMPTY else p * (1 + covered / tiles) for a, p in raw.items()}
    total = sum(raw.values())
    if total <= 0:
        return {EMPTY: 1.0}
    return {a: p / total for a, p in raw.items()}


def tile_probability(probs: dict[str, float]) -> float:
    """The probability that a tile lies on the square (any letter, or a blank)."""
    return 1.0 - probs.get(EMPTY, 0.0)


def letter_options(probs: dict[str, float], least: float) -> list[tuple[str, float]]:
    """The tile labels worth trying on a square, most probable first: those at ``least`` or more, or the best one."""
    tiles = sorted(((a, p) for a, p in probs.items() if a != EMPTY), key=lambda o: -o[1])
    return [o for o in tiles if o[1] >= least] or tiles[:1]
