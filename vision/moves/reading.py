"""Board readings as move inference takes them: per square a label, its probability and the model's alternatives.

A :class:`Reading` is made from the vision reader's ``BoardReading`` (per-square class probabilities, used as they
are), from 15 rows of text (tests, replays of labelled photos) or by hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

EMPTY = "."
BLANK = "?"
OCCLUDED = "#"


def turned_square(square: tuple[int, int], k: int, n: int) -> tuple[int, int]:
    """Where ``square`` of a board of ``n`` squares a side lies once the board is turned ``k`` quarter turns
    counter-clockwise (as ``np.rot90``: each turn (r, c) -> (n-1-c, r)).

    >>> turned_square((7, 10), 1, 15), turned_square((7, 10), 4, 15)
    ((4, 7), (7, 10))
    """
    r, c = square
    for _ in range(k % 4):
        r, c = n - 1 - c, r
    return r, c


class InferenceError(ValueError):
    """Base class of move-inference errors."""


class ReadingError(InferenceError):
    """A reading that cannot be used (wrong size, unknown label)."""


@dataclass(frozen=True, eq=False)
class Reading:
    """One board reading as move inference needs it.

    ``grid``: one string per row (``.`` empty, a letter, ``?`` a blank tile, ``#`` occluded/unsure);
    ``confidence[r, c]``: the model's probability of that label; ``occluded[r, c]``: something lies over that
    square (a hand, an arm, a shadow); ``alternatives[(r, c)]``: the model's top labels for that square as
    ``(label, probability)`` best first (squares not listed have only their grid label).
    """

    grid: tuple[str, ...]
    confidence: np.ndarray
    occluded: np.ndarray
    alternatives: Mapping[tuple[int, int], tuple[tuple[str, float], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.grid)
        if n == 0 or any(len(row) != n for row in self.grid):
            raise ReadingError(f"a reading needs a square grid of strings, got {len(self.grid)} rows")
        if self.confidence.shape != (n, n) or self.occluded.shape != (n, n):
            raise ReadingError(f"confidence and occluded must be {n}x{n}")

    @property
    def size(self) -> int:
        return len(self.grid)

    def label(self, r: int, c: int) -> str:
        return self.grid[r][c]

    def occupied(self, r: int, c: int) -> bool:
        """A tile lies there (a letter or a blank; an occluded square counts as unknown, not occupied)."""
        ch = self.grid[r][c]
        return ch != EMPTY and ch != OCCLUDED

    def options(self, r: int, c: int) -> tuple[tuple[str, float], ...]:
        """The model's labels for a square, best first (at least the grid's label)."""
        alts = self.alternatives.get((r, c))
        if alts:
            return tuple(alts)
        return ((self.grid[r][c], float(self.confidence[r, c])),)

    def probability(self, r: int, c: int, label: str) -> float:
        """The model's probability of ``label`` on a square (0 where it is not among the options kept)."""
        return sum(p for a, p in self.options(r, c) if a == label)

    @property
    def any_occluded(self) -> bool:
        return bool(self.occluded.any()) or any(OCCLUDED in row for row in self.grid)

    def occupancy_key(self) -> tuple[str, ...]:
        """Which squares hold a tile (``*``) and which are empty (``.``), as read."""
        return tuple("".join(EMPTY if ch == EMPTY else "*" for ch in row) for row in self.grid)

    def occupancy(self, clear: float = 0.9, min_alternative: float = 0.03) -> np.ndarray:
        """Per square: 1 a tile for sure, 0 empty for sure, -1 doubtful (read with less than ``clear`` confidence
        and the other answer among the model's alternatives)."""
        n = self.size
        occ = np.array([[0 if ch == EMPTY else -1 if ch == OCCLUDED else 1 for ch in row] for row in self.grid],
                       dtype=np.int8)
        for r in range(n):
            for c in range(n):
                if self.confidence[r, c] >= clear:
                    continue
                ch = self.grid[r][c]
                if ch == EMPTY or ch == OCCLUDED or any(a == EMPTY and p >= min_alternative
                                                        for a, p in self.options(r, c)):
                    occ[r, c] = -1
        return occ

    def rotated(self, k: int) -> "Reading":
        """The reading turned by ``k`` quarter turns counter-clockwise (a board turned on the table)."""
        k %= 4
        if k == 0:
            return self
        n = self.size
        chars = np.rot90(np.array([list(row) for row in self.grid]), k)
        conf = np.rot90(self.confidence, k).copy()
        occ = np.rot90(self.occluded, k).copy()
        alts = {turned_square(rc, k, n): v for rc, v in self.alternatives.items()}
        return Reading(tuple("".join(row) for row in chars), conf, occ, alts)

    def with_empty(self, squares: Iterable[tuple[int, int]], doubt: float = 0.1) -> "Reading":
        """The reading with ``squares`` read as empty, what they were read as kept as a ``doubt`` alternative: what
        a tracker knows better than one frame (a gap in a later play can still take the tile in)."""
        return self.with_label(squares, EMPTY, doubt)

    def with_label(self, squares: Iterable[tuple[int, int]], label: str, doubt: float = 0.1) -> "Reading":
        """The reading with ``squares`` read as ``label`` at ``1 - doubt``, what they were read as kept as the
        ``doubt`` alternative (``with_empty``; a blank the tracker knows reads bare, read as the blank it is)."""
        squares = set(squares)
        if not squares:
            return self
        grid = [list(row) for row in self.grid]
        conf = self.confidence.copy()
        alts = dict(self.alternatives)
        for r, c in squares:
            alts[(r, c)] = ((label, 1 - doubt), (grid[r][c], doubt))
            grid[r][c] = label
            conf[r, c] = 1 - doubt
        return Reading(tuple("".join(row) for row in grid), conf, self.occluded, alts)

    # -- constructors

    @classmethod
    def from_rows(cls, rows: Sequence[str], confidence: float = 0.99,
                  uncertain: Mapping[tuple[int, int], Sequence[tuple[str, float]]] | None = None,
                  occluded: Iterable[tuple[int, int]] = ()) -> "Reading":
        """A reading made by hand (tests, replays of text boards): every square read with ``confidence``, except
        ``uncertain`` squares, whose grid label is their first alternative; ``occluded`` squares read ``#``."""
        n = len(rows)
        grid = [list(row) for row in rows]
        conf = np.full((n, n), float(confidence))
        occ = np.zeros((n, n), dtype=bool)
        alts: dict[tuple[int, int], tuple[tuple[str, float], ...]] = {}
        for (r, c), options in (uncertain or {}).items():
            options = tuple(sorted(((str(a), float(p)) for a, p in options), key=lambda o: -o[1]))
            grid[r][c] = options[0][0]
            conf[r, c] = options[0][1]
            alts[(r, c)] = options
        for r, c in occluded:
            grid[r][c] = OCCLUDED
            occ[r, c] = True
        return cls(tuple("".join(row) for row in grid), conf, occ, alts)

    @classmethod
    def from_board_reading(cls, reading: Any, top_k: int = 4, min_p: float = 0.01,
                           lone_unsure: int = 2, lone_other: float = 0.05) -> "Reading":
        """Adapt the vision reader's ``BoardReading`` (``grid``, ``confidence``, ``occluded``, and per-square class
        probabilities ``probs`` over the class labels ``classes``/``labels``) to a :class:`Reading`.

        At most ``lone_unsure`` squares labelled ``#`` (occluded/unsure) in a reading are taken as the model being
        unsure of a tile, not as a hand (a hand covers many squares): each gets its best other label, doubtfully,
        so that one odd tile cannot keep the board from ever settling — when the model left that label at least
        ``lone_other``. A square the model sees nothing but "covered" on is covered (a fingertip still over the
        board's edge while the hand hovers)."""
        grid = tuple(str(row) for row in reading.grid)
        n = len(grid)
        conf = np.asarray(reading.confidence, dtype=float).reshape(n, n)
        occ_src = getattr(reading, "occluded", None)
        occ = np.zeros((n, n), dtype=bool) if occ_src is None else np.array(occ_src, dtype=bool).reshape(n, n)
        alts: dict[tuple[int, int], tuple[tuple[str, float], ...]] = {}
        probs = getattr(reading, "probs", None)
        classes = _class_labels(reading)
        if probs is not None and classes is not None:
            p = np.asarray(probs, dtype=float).reshape(n * n, -1)
            if p.shape[1] == len(classes):
                lone = sum(row.count(OCCLUDED) for row in grid) <= lone_unsure
                rows = [list(row) for row in grid]
                conf = conf.copy()
                order = np.argsort(-p, axis=1)[:, :top_k + 1]
                for i in range(n * n):
                    r, c = divmod(i, n)
                    if conf[r, c] >= 0.999:
                        continue        # (a doubtful empty square keeps its alternatives: a tile the board's colour)
                    opts = tuple((classes[j], float(p[i, j])) for j in order[i] if p[i, j] >= min_p)
                    if grid[r][c] == OCCLUDED and lone:
                        opts = tuple(o for o in opts if o[0] != OCCLUDED)
                        if not opts or opts[0][1] < lone_other:
                            continue
                        rows[r][c], conf[r, c] = opts[0]
                        occ[r, c] = False
                    if opts:
                        alts[(r, c)] = opts[:top_k]
                grid = tuple("".join(row) for row in rows)
        return cls(grid, conf, occ, alts)


def _class_labels(reading: Any) -> tuple[str, ...] | None:
    """The class label of each probability column, from whichever attribute the reader provides."""
    for name in ("classes", "class_labels", "labels"):
        value = getattr(reading, name, None)
        if value is None:
            continue
        if isinstance(value, str):
            return tuple(value)
        seq = list(value)
        if seq and all(isinstance(x, str) and len(x) == 1 for x in seq):
            return tuple(seq)
    return None


def readings_agree(a: np.ndarray, b: np.ndarray) -> bool:
    """Two occupancy maps (:meth:`Reading.occupancy`) agree where both are sure."""
    return bool(((a == b) | (a < 0) | (b < 0)).all())


def merge_readings(readings: Sequence[Reading]) -> Reading:
    """Readings of the same still board as one: each square's label probabilities averaged over the readings
    (a letter read doubtfully once and clearly twice comes out fairly sure)."""
    if len(readings) == 1:
        return readings[0]
    n = readings[0].size
    grid = [list(row) for row in readings[-1].grid]
    conf = readings[-1].confidence.copy()
    alts: dict[tuple[int, int], tuple[tuple[str, float], ...]] = {}
    for r in range(n):
        for c in range(n):
            if all(rd.grid[r][c] == grid[r][c] and rd.confidence[r, c] >= 0.999 for rd in readings):
                continue
            totals: dict[str, float] = {}
            for rd in readings:
                for label, p in rd.options(r, c):
                    totals[label] = totals.get(label, 0.0) + p / len(readings)
            ranked = tuple(sorted(totals.items(), key=lambda kv: -kv[1]))
            grid[r][c], conf[r, c] = ranked[0]
            if len(ranked) > 1:
                alts[(r, c)] = ranked
    occ = np.logical_or.reduce([rd.occluded for rd in readings])
    return Reading(tuple("".join(row) for row in grid), conf, occ, alts)


def as_reading(obj: Any) -> Reading:
    """A :class:`Reading` from a Reading, a vision ``BoardReading``, or 15 rows of board text."""
    if isinstance(obj, Reading):
        return obj
    if isinstance(obj, (list, tuple)) and obj and isinstance(obj[0], str):
        return Reading.from_rows(obj)
    if hasattr(obj, "grid") and hasattr(obj, "confidence"):
        return Reading.from_board_reading(obj)
    raise ReadingError(f"not a board reading: {type(obj).__name__}")
