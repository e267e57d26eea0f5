"""Resolution of new tiles into one play: the letters, the blanks, the words and the phonies.

Every cell the model read clearly keeps its letter; each unclear cell brings its top alternatives. Combinations are
filtered by the tile distribution (no fifth ``S``: the tiles already on the board plus the new ones never exceed the
set) and ranked by the model's probability. With a lexicon, a combination that differs from the model's favourite
only on cells the model was unsure of (and is not far less probable) wins when the lexicon rejects fewer of its words
and none that the favourite's words did not already include; otherwise the model's favourite stands, and a word the
lexicon rejects is reported as a phony for the players to challenge — a phony read clearly is never hidden.

A blank tile (model label ``?``) stands for the one letter the lexicon allows in the words through it; when none or
several fit, it stays ``?`` and is listed in ``pending_blanks`` for the players to say (the web asks them).

>>> from tilecam.vision.moves.reading import Reading
>>> rows = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
>>> cand = resolve_move(Board(), Reading.from_rows(rows), [(7, 7), (7, 8), (7, 9)], TileSet.load("english"))
>>> str(cand.placement), cand.words
('8H CAT', ('CAT',))
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.legality import FormedWord, check
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.reading import BLANK, InferenceError, Reading


class NotAMove(InferenceError):
    """The new tiles do not make a legal placement (not one line, a gap, not connected, the first move off the
    centre); ``reason`` says which. The tracker waits: players may still be moving tiles."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


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
