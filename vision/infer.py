"""Move inference: a settled board reading against the committed board → what happened (pure functions).

    committed board + settled Reading ──diff_board──▶ BoardDiff (added / removed / changed squares)
                                      ──interpret──▶ Interpretation: nothing | play | withdraw | withdraw+play |
                                                     disturbed (tiles gone that were not the last play, a shift)
    new squares ──resolve_move──▶ Candidate (Placement + words + phonies + blanks to ask about)

Only squares that changed are ever resolved: a tile already committed is trusted over a new misreading of it.

Resolution of the new tiles (``resolve_move``): every cell the model read clearly keeps its letter; each unclear
cell brings its top alternatives. Combinations are filtered by the tile distribution (no fifth ``S``: the tiles
already on the board plus the new ones never exceed the set) and ranked by the model's probability. With a lexicon,
a combination that differs from the model's favourite only on cells the model was unsure of (and is not far less
probable) wins when the lexicon rejects fewer of its words and none that the favourite's words did not already
include (a word of another lexicon crossing the play stays as it is; trading one phony for another is no reason);
otherwise the model's favourite stands, and a word the lexicon rejects is reported as a phony for the players to
challenge — a phony read clearly is never hidden. A phony play also takes in a square just past an end of its line
that the model read as empty but doubted (a tile close to the board's colour), when that makes its word good.

A blank tile (model label ``?``) stands for the one letter the lexicon allows in the words through it; when none or
several fit, it stays ``?`` and is listed in ``pending_blanks`` for the players to say (the web asks them).

>>> rows = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
>>> r = Reading.from_rows(rows)
>>> cand = resolve_move(Board(), r, [(7, 7), (7, 8), (7, 9)], TileSet.load("english"))
>>> str(cand.placement), cand.words
('8H CAT', ('CAT',))
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import square_name
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.legality import FormedWord, check
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet

EMPTY = "."
BLANK = "?"
OCCLUDED = "#"


class InferenceError(ValueError):
    """Base class of move-inference errors."""


class NotAMove(InferenceError):
    """The new tiles do not make a legal placement (not one line, a gap, not connected, the first move off the
    centre); ``reason`` says which. The tracker waits: players may still be moving tiles."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class ReadingError(InferenceError):
    """A reading that cannot be used (wrong size, unknown label)."""


# ------------------------------------------------------------------------------------------------ readings


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
        alts = {}
        for (r, c), v in self.alternatives.items():
            rr, cc = r, c
            for _ in range(k):          # one counter-clockwise quarter turn: (r, c) -> (n-1-c, r)
                rr, cc = n - 1 - cc, rr
            alts[(rr, cc)] = v
        return Reading(tuple("".join(row) for row in chars), conf, occ, alts)

    def with_empty(self, squares: Iterable[tuple[int, int]], doubt: float = 0.1) -> "Reading":
        """The reading with ``squares`` read as empty, what they were read as kept as a ``doubt`` alternative: what
        a tracker knows better than one frame (a gap in a later play can still take the tile in)."""
        squares = set(squares)
        if not squares:
            return self
        grid = [list(row) for row in self.grid]
        conf = self.confidence.copy()
        alts = dict(self.alternatives)
        for r, c in squares:
            alts[(r, c)] = ((EMPTY, 1 - doubt), (grid[r][c], doubt))
            grid[r][c] = EMPTY
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


# ------------------------------------------------------------------------------------------------ resolution


@dataclass(frozen=True, slots=True)
class ResolvePolicy:
    """How sure is sure. ``clear``: a letter read at least this probably is taken as read (no alternatives);
    ``min_alternative``: alternatives below this are not considered; ``max_ratio``: the lexicon may pick a
    reading at most this many times less probable than the model's favourite for each word it makes good;
    ``max_combinations`` bounds the search (the least sure cells keep their alternatives)."""

    clear: float = 0.9
    min_alternative: float = 0.03
    max_ratio: float = 4.0
    max_combinations: int = 4096
    max_blank_assignments: int = 2
    unsure_blank_weight: float = 0.25   # a doubtful "blank" yields to a letter also seen (2 blanks in 100 tiles)
    tolerate_missing: int = 0      # committed tiles read empty (away from new tiles) taken as misreadings, at most
    rack_size: int = 7             # more new tiles than a rack holds are not one play
    doubted_end: float = 0.3       # a square read empty joins the end of a phony play only if a tile had this much
    doubted_gap: float = 0.05      # … and a gap between new tiles, if the model left this much to "not empty"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A resolved play: the placement (blanks lower case; ``?`` = letter not known), the words it forms, the words
    the lexicon rejects (``phony``; empty without a lexicon), the blanks the players must name
    (``pending_blanks``), the blanks the lexicon named (``inferred_blanks``), the squares where the model's first
    reading was overruled (``corrected``: row, col, model's letter, letter taken) and the model's probability of
    the letters taken."""

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


def word_is_valid(lexicon: Any, word: str, letters: Sequence[str]) -> bool:
    """``word`` (upper case; ``?`` = a blank of unknown letter, matching any of ``letters``) is in ``lexicon``."""
    if BLANK not in word:
        return word in lexicon
    head, _, tail = word.partition(BLANK)
    if not lexicon.has_prefix(head):
        return False
    return any(word_is_valid(lexicon, head + letter + tail, letters) for letter in letters)


def _tile_for(label: str) -> Tile:
    return Tile(BLANK, True) if label == BLANK else Tile(label)


def _cell_options(reading: Reading, r: int, c: int, tileset: TileSet, policy: ResolvePolicy,
                  unseen: Counter) -> list[tuple[str, float]]:
    allowed = set(tileset.letters) | ({BLANK} if tileset.blanks else set())
    opts = [(a, p) for a, p in reading.options(r, c) if a in allowed]
    if opts and opts[0][1] >= policy.clear and unseen[opts[0][0]] > 0:
        return opts[:1]
    kept = [(a, p * policy.unsure_blank_weight if a == BLANK else p) for a, p in opts
            if p >= policy.min_alternative and unseen[a] > 0]
    if kept:
        return sorted(kept, key=lambda o: -o[1])
    # Nothing the model offers is still unseen (a fifth S read clearly): every unseen tile stays possible, at the
    # probability floor; the model's other readings rank them first.
    floor = policy.min_alternative / 10
    rest = [(a, max(p, floor)) for a, p in opts if unseen[a] > 0]
    seen = {a for a, _ in rest}
    # (a blank is an unprinted tile the model tells from letters; it is not guessed for a misread letter)
    rest += [(a, floor / 2) for a in sorted(allowed - {BLANK}) if unseen[a] > 0 and a not in seen]
    return rest or opts[:1]


def resolve_move(board: Board, reading: Reading, squares: Iterable[tuple[int, int]], tileset: TileSet,
                 lexicon: Any = None, policy: ResolvePolicy | None = None) -> Candidate:
    """Resolve the tiles newly read on ``squares`` into the play they make on ``board`` (see the module doc).

    Raises :class:`NotAMove` when the squares cannot be one legal placement."""
    policy = policy or ResolvePolicy()
    cells = sorted(set(squares))
    if not cells:
        raise NotAMove("no new tiles")
    if len(cells) > policy.rack_size:
        raise NotAMove(f"{len(cells)} new tiles: more than a rack holds ({policy.rack_size})")
    unseen = unseen_tiles(board, tileset)
    # Geometry first: it does not depend on the letters.
    probe = [(r, c, Tile(BLANK, True)) for r, c in cells]
    try:
        placement0 = Placement.from_squares(board, probe)
        check(board, placement0)
    except IllegalPlacement as exc:
        raise NotAMove(str(exc)) from None

    options = [_cell_options(reading, r, c, tileset, policy, unseen) for r, c in cells]
    _trim(options, policy.max_combinations)
    letters = tuple(tileset.letters)

    scored: list[tuple[float, tuple[str, ...]]] = []
    for combo in itertools.product(*options):
        labels = tuple(a for a, _ in combo)
        need = Counter(labels)
        if any(need[a] > unseen[a] for a in need):
            continue
        scored.append((sum(math.log(max(p, 1e-9)) for _, p in combo), labels))
    if not scored:
        # The new tiles cannot all be unseen whatever they are (more tiles than the set holds): keep the reading.
        scored = [(0.0, tuple(o[0][0] for o in options))]
    scored.sort(key=lambda s: -s[0])
    best_logp, best = scored[0]

    chosen, judged = best, False
    if lexicon is not None:
        judged = True
        # Another reading is taken only where the lexicon rejects fewer of its words and no word the favourite's
        # words did not already include (a word of another lexicon crossing the play, left as it is, does not
        # stop the lexicon from choosing the letters of the others; trading one phony for another is no reason).
        # Each word of the favourite's that the lexicon rejects and another reading makes good is worth
        # ``max_ratio`` of the model's odds: BEI with OII (I 0.70, L 0.15) yields to BEL with OIL, not to one word.
        rejected = first = _phonies(board, cells, best, lexicon, letters)
        step = math.log(policy.max_ratio)
        floor = best_logp - len(first) * step
        for logp, labels in scored[1:]:
            if not rejected or logp < floor:
                break
            fewer = _phonies(board, cells, labels, lexicon, letters)
            if fewer < rejected and logp >= best_logp - len(first - fewer) * step:
                chosen, rejected = labels, fewer

    tiles = {(r, c): _tile_for(a) for (r, c), a in zip(cells, chosen)}
    inferred: list[tuple[int, int, str]] = []
    pending: list[tuple[int, int]] = []
    blank_cells = [rc for rc, t in tiles.items() if t.letter == BLANK]
    if blank_cells:
        named = _name_blanks(board, tiles, blank_cells, lexicon, letters, policy) if lexicon is not None else None
        if named:
            for rc, letter in named.items():
                tiles[rc] = Tile(letter, True)
                inferred.append((rc[0], rc[1], letter))
        else:
            pending = blank_cells
    placement = Placement.from_squares(board, [(r, c, t) for (r, c), t in tiles.items()])
    words = check(board, placement)
    phony: tuple[str, ...] = ()
    if lexicon is not None:
        phony = tuple(w.text for w in words if not word_is_valid(lexicon, w.word, letters))
    prob = math.exp(sum(math.log(max(dict(o).get(a, 1e-9), 1e-9)) for o, a in zip(options, chosen)))
    corrected = tuple((r, c, m, a) for (r, c), m, a in zip(cells, best, chosen) if m != a)
    model_first = tuple((r, c, reading.label(r, c), a) for (r, c), a in zip(cells, chosen)
                        if reading.label(r, c) != a and (r, c, reading.label(r, c), a) not in corrected)
    return Candidate(placement, tuple(w.text for w in words), phony, tuple(sorted(pending)), tuple(sorted(inferred)),
                     corrected + model_first, prob, judged)


def _trim(options: list[list[tuple[str, float]]], limit: int) -> None:
    """Cut alternatives from the surest cells until the number of combinations is within ``limit``."""
    def total() -> int:
        return math.prod(len(o) for o in options)
    while total() > limit:
        # the cell whose second option is least likely loses its tail
        i = max((i for i, o in enumerate(options) if len(o) > 1), key=lambda i: options[i][0][1] - options[i][1][1])
        options[i] = options[i][:-1] if len(options[i]) > 2 else options[i][:1]


def _words_for(board: Board, cells: Sequence[tuple[int, int]], labels: Sequence[str]) -> list[FormedWord]:
    tiles = [(r, c, _tile_for(a)) for (r, c), a in zip(cells, labels)]
    return check(board, Placement.from_squares(board, tiles))


def _phonies(board: Board, cells: Sequence[tuple[int, int]], labels: Sequence[str], lexicon: Any,
             letters: Sequence[str]) -> frozenset[str]:
    return frozenset(w.word for w in _words_for(board, cells, labels) if not word_is_valid(lexicon, w.word, letters))


def _name_blanks(board: Board, tiles: Mapping[tuple[int, int], Tile], blank_cells: Sequence[tuple[int, int]],
                 lexicon: Any, letters: Sequence[str], policy: ResolvePolicy) -> dict[tuple[int, int], str] | None:
    """The one assignment of letters to the new blanks under which every word through them is good, or None (none,
    several, or too many blanks to try)."""
    if len(blank_cells) > policy.max_blank_assignments:
        return None
    found: dict[tuple[int, int], str] | None = None
    blanks = set(blank_cells)
    for assignment in itertools.product(letters, repeat=len(blank_cells)):
        trial = dict(tiles)
        for rc, letter in zip(blank_cells, assignment):
            trial[rc] = Tile(letter, True)
        words = check(board, Placement.from_squares(board, [(r, c, t) for (r, c), t in trial.items()]))
        if all(word_is_valid(lexicon, w.word, letters) for w in words if not blanks.isdisjoint(w.squares)):
            if found is not None:
                return None
            found = dict(zip(blank_cells, assignment))
    return found


# ------------------------------------------------------------------------------------------------ board diff


@dataclass(frozen=True, slots=True)
class BoardDiff:
    """Squares where a settled reading differs from the committed board: ``added`` (a tile read on an empty
    square), ``removed`` (an empty square read where a tile was), ``changed`` (a tile read clearly as another
    letter where one was — a misreading, or a new tile on a square just vacated)."""

    added: tuple[tuple[int, int], ...]
    removed: tuple[tuple[int, int], ...]
    changed: tuple[tuple[int, int], ...]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed)


#: How sure an empty reading must be to say a committed blank tile was taken away.
BLANK_GONE = 0.98


def diff_board(board: Board, reading: Reading, clear: float = 0.9) -> BoardDiff:
    """Compare a settled reading with the committed board, square by square."""
    if reading.size != board.size:
        raise ReadingError(f"a {reading.size}x{reading.size} reading for a {board.size}x{board.size} board")
    added, removed, changed = [], [], []
    for r in range(board.size):
        row = reading.grid[r]
        for c in range(board.size):
            ch = row[c]
            tile = board[r, c]
            if ch == OCCLUDED:
                continue
            if tile is None:
                if ch != EMPTY:
                    added.append((r, c))
            elif ch == EMPTY:
                # A doubtful "empty" over a committed tile: trust the tile. A blank must read empty beyond doubt:
                # on a white board a bare tile and a bare square look alike, and it was often found by its gap.
                if reading.confidence[r, c] >= (BLANK_GONE if tile.is_blank else clear):
                    removed.append((r, c))
            elif reading.confidence[r, c] >= clear and not _same_tile(tile, ch):
                changed.append((r, c))
    return BoardDiff(tuple(added), tuple(removed), tuple(changed))


def _same_tile(tile: Tile, label: str) -> bool:
    if tile.is_blank:
        return label == BLANK           # a blank reads as an unprinted tile whatever it stands for
    return tile.letter == label


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a settled board says happened since the committed one.

    ``kind``: ``"none"`` (nothing changed), ``"play"``, ``"withdraw"`` (the last play's tiles taken back),
    ``"withdraw+play"`` (taken back and the next play made, seen at once), ``"disturbed"`` (tiles missing or moved
    that are not the last play: no move; wait for the board to be put right), ``"unclear"`` (new tiles that do not
    make a legal placement yet). ``reason`` says why for the last two."""

    kind: str
    candidate: Candidate | None = None
    withdrawn: Placement | None = None
    reason: str = ""
    earlier: tuple[Candidate, ...] = ()     # a play made before ``candidate`` and not seen settled on its own
    ignored: tuple[tuple[int, int], ...] = ()   # doubtful squares left out (read as tiles, maybe empty)
    amended: Candidate | None = None        # the last play again, with tiles it was missing (read empty before)


def interpret(board: Board, reading: Reading, tileset: TileSet, lexicon: Any = None,
              last_play: Placement | None = None, policy: ResolvePolicy | None = None) -> Interpretation:
    """What the settled ``reading`` means against the committed ``board`` (whose last play was ``last_play``)."""
    policy = policy or ResolvePolicy()
    diff = diff_board(board, reading, policy.clear)
    if diff.empty:
        return Interpretation("none")
    if not diff.removed:
        return _as_play(board, reading, diff.added, tileset, lexicon, policy, last_play)

    last_squares = {(r, c) for r, c, _ in last_play.new_tiles()} if last_play is not None else set()
    removed = set(diff.removed)
    missing = removed - last_squares
    if missing and len(missing) <= policy.tolerate_missing and not any(
            abs(r - ar) <= 1 and abs(c - ac) <= 1 for r, c in missing for ar, ac in diff.added):
        # A committed tile read empty far from anything new: a misreading (glare), not a move; trust the tile.
        removed -= missing
        if not removed:
            return _as_play(board, reading, diff.added, tileset, lexicon, policy) if diff.added \
                else Interpretation("none")
    if last_squares and removed <= last_squares:
        before = board.copy()
        for r, c in last_squares:
            before[r, c] = None
        kept = last_squares - removed
        # Tiles of the last play still down are either part of it (a withdrawal half done, or a tile lifted:
        # wait) or new tiles of the next play on squares just vacated (a changed letter, or other new tiles
        # beside them, says so).
        relaid = any(rc in diff.changed for rc in kept)
        if kept and not (relaid or diff.added):
            return Interpretation("disturbed", reason="some tiles of the last play were lifted; waiting")
        new = sorted(set(diff.added) | kept)
        if not new:
            return Interpretation("withdraw", withdrawn=last_play)
        result = _as_play(before, reading, new, tileset, lexicon, policy)
        if result.kind != "play":
            return result
        return Interpretation("withdraw+play", candidate=result.candidate, withdrawn=last_play,
                              earlier=result.earlier, ignored=result.ignored)
    names = ", ".join(square_name(r, c) for r, c in sorted(removed - last_squares)[:6])
    return Interpretation("disturbed", reason=f"tiles missing from {names} (moved or lifted): no move")


def _as_play(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet, lexicon: Any,
             policy: ResolvePolicy, last_play: Placement | None = None) -> Interpretation:
    """The new squares as a play (:func:`_as_play_of`), less the squares read as a blank when every blank is
    already down and the model's next guess is an empty square: on a white board a bare square and a bare tile
    look alike, and the set leaves no doubt which this is."""
    unseen = unseen_tiles(board, tileset)
    phantoms = {rc for rc in squares if _blank_beyond_the_set(reading, rc, unseen)}
    if not phantoms:
        return _as_play_of(board, reading, squares, tileset, lexicon, policy, last_play)
    rest = [rc for rc in squares if rc not in phantoms]
    if not rest:
        return Interpretation("none", ignored=tuple(sorted(phantoms)))
    result = _as_play_of(board, reading, rest, tileset, lexicon, policy, last_play)
    return dataclasses.replace(result, ignored=tuple(sorted(set(result.ignored) | phantoms)))


def _blank_beyond_the_set(reading: Reading, rc: tuple[int, int], unseen: Counter) -> bool:
    r, c = rc
    if reading.grid[r][c] != BLANK or unseen[BLANK] > 0:
        return False
    rest = [a for a, _ in reading.options(r, c) if a != BLANK and (a == EMPTY or unseen[a] > 0)]
    return bool(rest) and rest[0] == EMPTY


def _as_play_of(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet,
                lexicon: Any, policy: ResolvePolicy, last_play: Placement | None = None) -> Interpretation:
    """The new squares as one play; failing that, without the squares that may be empty after all, or with the
    gaps in their line that may hold a tile after all; failing that, as the last play read short plus the next
    one, or as two plays in turn (one of them never seen settled on its own: a photo missed, a turn made
    quickly)."""
    try:
        cand = resolve_move(board, reading, squares, tileset, lexicon, policy)
    except NotAMove as exc:
        first_reason = exc.reason
    else:
        if cand.is_phony:
            longer = _with_doubtful_ends(board, reading, squares, cand.phony, tileset, lexicon, policy)
            if longer is not None:
                return Interpretation("play", candidate=longer)
            shorter = _without_bare_ends(board, reading, squares, cand.phony, tileset, lexicon, policy)
            if shorter is not None:
                return Interpretation("play", candidate=shorter[0], ignored=shorter[1])
        return Interpretation("play", candidate=cand)
    # Left out as strays: first the squares the model also saw empty, then also those read doubtfully (a letter
    # read at 0.8 with only other letters beside it is a tile: leaving it out with the strays loses it).
    seen_empty = [rc for rc in squares if _seen_empty(reading, rc, policy)]
    doubtful = [rc for rc in squares if _maybe_empty(reading, rc, policy)]
    for strays in ([seen_empty] if seen_empty != doubtful else []) + [doubtful]:
        sure = [rc for rc in squares if rc not in strays]
        if strays and sure:
            try:
                cand = resolve_move(board, reading, sure, tileset, lexicon, policy)
                return Interpretation("play", candidate=cand, ignored=tuple(sorted(strays)))
            except NotAMove:
                pass
    # "Blanks" the model also saw empty, left out when the rest is one play: a bare square beside a play reads
    # like a bare tile on a white board (tried before splitting the tiles into two plays, which would take such
    # a square with its neighbour for a two-letter word: a blank can be any letter).
    # Fewest first, the likeliest empty first among as many (a real blank in the play may be doubted too).
    empty = {rc: reading.probability(*rc, EMPTY) for rc in squares
             if reading.grid[rc[0]][rc[1]] == BLANK}
    bare = [rc for rc in empty if empty[rc] > 0][:4]
    drops = [d for k in range(1, len(bare) + 1) for d in sorted(itertools.combinations(bare, k),
                                                                 key=lambda d: -sum(empty[rc] for rc in d))]
    for drop in drops:
        if len(drop) == len(squares):
            continue
        try:
            cand = resolve_move(board, reading, [rc for rc in squares if rc not in drop], tileset, lexicon, policy)
            return Interpretation("play", candidate=cand, ignored=tuple(sorted(drop)))
        except NotAMove:
            continue
    gaps = _doubtful_gaps(board, reading, squares, policy)
    full = sorted(set(squares) | set(gaps))
    if gaps:
        try:
            return Interpretation("play", candidate=resolve_move(board, reading, full, tileset, lexicon, policy))
        except NotAMove:
            pass
    amend = _amend_last(board, reading, full, last_play, tileset, lexicon, policy) if last_play else None
    if amend is not None and lexicon is not None and not amend.amended.phony:
        return amend      # the last play with its missing tile makes good words: that is what happened
    split = _split_in_two(board, reading, squares, tileset, lexicon, policy)
    if split is not None:
        return Interpretation("play", candidate=split[1], earlier=(split[0],))
    return amend or Interpretation("unclear", reason=first_reason)


def _with_doubtful_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], phony: Sequence[str],
                       tileset: TileSet, lexicon: Any, policy: ResolvePolicy) -> Candidate | None:
    """The play with one more tile just past an end of its line, on a square the model read as empty but doubted
    (a tile close to the board's colour, or a blank put down off its square's middle), when that turns a phony
    into a word and makes no new one (the words the lexicon lacks that the tile does not touch are the players'
    business)."""
    for extra in _doubtful_ends(board, reading, squares, policy):
        try:
            cand = resolve_move(board, reading, [*squares, *extra], tileset, lexicon, policy)
        except NotAMove:
            continue
        if set(cand.phony) < set(phony):
            return cand
    return None


def _without_bare_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], phony: Sequence[str],
                       tileset: TileSet, lexicon: Any, policy: ResolvePolicy
                       ) -> tuple[Candidate, tuple[tuple[int, int], ...]] | None:
    """The play without a "blank" at an end of its line, when the model also saw an empty square there and
    leaving it out turns a phony into a word and makes no new one: on a white board a bare square beside a play
    reads like a bare tile, and a blank that makes no word with any letter is seldom played."""
    cells = sorted(set(squares))
    if len(cells) < 2:
        return None
    for end in (cells[0], cells[-1]):
        r, c = end
        if reading.grid[r][c] != BLANK or not any(a == EMPTY for a, _ in reading.options(r, c)):
            continue
        rest = [rc for rc in cells if rc != end]
        try:
            cand = resolve_move(board, reading, rest, tileset, lexicon, policy)
        except NotAMove:
            continue
        if set(cand.phony) < set(phony):
            return cand, (end,)
    return None


def _doubtful_ends(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], policy: ResolvePolicy
                   ) -> list[tuple[tuple[int, int], ...]]:
    """Sets of squares just past either end of the new tiles' line (through tiles already down) that may hold a
    tile after all: one end, the other, both."""
    cells = set(squares)
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    directions = ([(0, 1)] if len(rows) == 1 else []) + ([(1, 0)] if len(cols) == 1 else [])
    n = board.size

    def held(r: int, c: int) -> bool:
        return (r, c) in cells or board[r, c] is not None

    def doubtful(r: int, c: int) -> bool:
        # (a blank there would turn many a phony into a word: the model must have given a tile a fair chance)
        return (0 <= r < n and 0 <= c < n and board[r, c] is None and reading.grid[r][c] == EMPTY
                and sum(p for a, p in reading.options(r, c) if a not in (EMPTY, OCCLUDED)) >= policy.doubted_end)

    out: list[tuple[tuple[int, int], ...]] = []
    for dr, dc in directions:
        r0, c0 = min(cells)
        while 0 <= r0 - dr and 0 <= c0 - dc and held(r0 - dr, c0 - dc):
            r0, c0 = r0 - dr, c0 - dc
        r1, c1 = max(cells)
        while r1 + dr < n and c1 + dc < n and held(r1 + dr, c1 + dc):
            r1, c1 = r1 + dr, c1 + dc
        ends = [rc for rc in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)) if doubtful(*rc)]
        out += [(rc,) for rc in ends] + ([tuple(ends)] if len(ends) == 2 else [])
    return out


def _doubtful_gaps(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], policy: ResolvePolicy
                   ) -> list[tuple[int, int]]:
    """Empty squares between new tiles in one line that the model thought might hold a tile (a tile read as an
    empty square leaves a gap, and a play never has one); [] when any gap has no such doubt. A little doubt is
    enough (``policy.doubted_gap``): a blank on a white board reads as a bare square with a few per cent left to
    the tile, and the gap is what says it is there."""
    cells = sorted(set(squares))
    if len(cells) < 2:
        return []
    rows, cols = {r for r, _ in cells}, {c for _, c in cells}
    if len(rows) == 1:
        r = cells[0][0]
        line = [(r, c) for c in range(min(cols), max(cols) + 1)]
    elif len(cols) == 1:
        c = cells[0][1]
        line = [(r, c) for r in range(min(rows), max(rows) + 1)]
    else:
        return []
    gaps = [rc for rc in line if rc not in cells and board[rc] is None]
    for r, c in gaps:
        empty = reading.probability(r, c, EMPTY)
        if 1 - empty < policy.doubted_gap:
            return []
    return gaps


def _amend_last(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], last_play: Placement,
                tileset: TileSet, lexicon: Any, policy: ResolvePolicy) -> Interpretation | None:
    """The last play with those new squares in its line that extend it (a tile of it read empty at the time),
    and the rest of the new squares as the play after it."""
    last = [(r, c) for r, c, _ in last_play.new_tiles()]
    before = board.copy()
    for rc in last:
        before[rc] = None
    lines = []
    if len({r for r, _ in last}) == 1:
        lines.append(lambda rc, r0=last[0][0]: rc[0] == r0)
    if len({c for _, c in last}) == 1:
        lines.append(lambda rc, c0=last[0][1]: rc[1] == c0)
    for on_line in lines:
        extra = [rc for rc in squares if on_line(rc)]
        if not extra:
            continue
        try:
            amended = resolve_move(before, reading, last + extra, tileset, lexicon, policy)
        except NotAMove:
            continue
        rest = [rc for rc in squares if rc not in extra]
        cand = None
        if rest:
            after = before.copy()
            for r, c, tile in amended.placement.new_tiles():
                after[r, c] = tile
            try:
                cand = resolve_move(after, reading, rest, tileset, lexicon, policy)
            except NotAMove:
                continue
        return Interpretation("amend", candidate=cand, withdrawn=last_play, amended=amended)
    return None


def _seen_empty(reading: Reading, rc: tuple[int, int], policy: ResolvePolicy) -> bool:
    return reading.probability(*rc, EMPTY) >= policy.min_alternative


def _maybe_empty(reading: Reading, rc: tuple[int, int], policy: ResolvePolicy) -> bool:
    return reading.confidence[rc] < policy.clear or _seen_empty(reading, rc, policy)


def _runs(board: Board, line: Sequence[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """The new squares of one row or column (sorted) in runs that tiles already down join; [] for one run."""
    runs, run = [], [line[0]]
    for (r0, c0), (r1, c1) in zip(line, line[1:]):
        between = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (r, c) not in ((r0, c0), (r1, c1))]
        if all(board[rc] is not None for rc in between):
            run.append((r1, c1))
        else:
            runs.append(frozenset(run))
            run = [(r1, c1)]
    runs.append(frozenset(run))
    return runs if len(runs) > 1 else []


def _split_in_two(board: Board, reading: Reading, squares: Sequence[tuple[int, int]], tileset: TileSet,
                  lexicon: Any, policy: ResolvePolicy) -> tuple[Candidate, Candidate] | None:
    """Two plays, one after the other, that together place exactly ``squares`` (each part one row or column)."""
    cells = sorted(set(squares))
    if not 2 <= len(cells) <= 2 * 9:
        return None
    lines = {frozenset(rc for rc in cells if rc[0] == r) for r, _ in cells}
    lines |= {frozenset(rc for rc in cells if rc[1] == c) for _, c in cells}
    # A line may hold both plays, apart (ZO and then CIT in the same row, an empty square between): its runs too.
    parts = lines | {run for line in lines for run in _runs(board, sorted(line))}
    for part in sorted(parts, key=lambda p: (-len(p), sorted(p))):
        rest = [rc for rc in cells if rc not in part]
        if not rest:
            continue
        for first, second in ((sorted(part), rest), (rest, sorted(part))):
            try:
                a = resolve_move(board, reading, first, tileset, lexicon, policy)
                after = board.copy()
                for r, c, t in a.placement.new_tiles():
                    after[r, c] = t
                b = resolve_move(after, reading, second, tileset, lexicon, policy)
            except NotAMove:
                continue
            return a, b
    return None

