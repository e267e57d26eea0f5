"""One scored decision: the new tiles of a settled board become the most probable event.

    new squares + the squares around them that may hold a tile ──which are tiles──▶ tile sets
        ──how they were laid──▶ one play | two plays in turn | the last play read short, amended, + the next play
        ──which letters──▶ combinations the tile counts allow ──score──▶ the best candidate

Every candidate gets one score, a log-probability: the reader's calibrated probability of what the candidate says
lies on each square in question (a tile with this letter, or nothing; :mod:`.squares`), plus the log prior odds of
its kind of event (:class:`Weights`), less ``log(phony_odds)`` for each word the lexicon rejects. The rules are not
weighed: a candidate whose plays are not each one line, connected (``engine.legality``) and within a rack is no
candidate. The highest score wins; when no candidate is left, the board is ``unclear`` (the players are still at it).

Two plays in one change (a turn made before the last was committed) are ordered by the frames where they tell: each
new square's pixels first changed at some time since the board was last decided (the tracker records it), and the
play whose squares changed clearly earlier (:func:`.order.seen_order`) was put down first; where the rules allow both
orders, the other costs ``log(seen_order_odds)``, and so does a tile given to the play it was not seen going down
with (:func:`.order.went_with_the_other`). Where the frames do not tell (both plays first seen in one frame),
the order is the search's default (the larger play first) and the note says it is a guess.

A hand reaches in from its player's side of the board (:mod:`.hands`; the capture loop's motion shows it). New tiles
that extend the last play in its line, put down from the side the last play's hand came from, are its player going
on after a pause mid-word (the last play amended, ``hand_side_odds`` for it); from another side, the next player's
play (as much against the amendment). A change whose arms all came from one side is one player's: never two plays.
Where no hand was seen (stills, a corner of the board, a turn passed since: a pass, a clock press), the extension is
a misread's (``amend_odds``) — unless its pixels first changed within a second of the last play's commit, too soon for
the next player's turn: then the tracker takes it as the same hand's (``tracker.GOING_ON_S``).

Once the players went on past a board with no legal reading (``went_on``: more tiles down since, or a clock press),
a gap between tiles may hold a tile the reader read surely bare — a blank (``hidden_blank_odds``) or, rarer, a letter
(``hidden_letter_odds``, the words through it choosing among the letters the bag holds) — and a tile read where no
play can reach (:mod:`.reach`: nothing within a square's gap of it in its row or column) is left out, each costing
every candidate alike (a premium print read as a blank under a lamp switched on mid-game), and again while it stays
so. Where no reading is legal even so — nor as two boards in turn (the tracker's last resort) —, the fewest new
squares that leave one (``misread_tiles`` at most), each beside a new tile, are taken for bare squares the reader
misread, however surely (a tile's face seen over the bare square beyond it by a camera low over the board), and left
out again while they read as tiles. Before, a gap or a far tile may be a word still going down: the board waits.

A word the lexicon lacks costs odds, it is never forbidden: a phony read clearly (its letter ``phony_odds`` times
surer than any letter that makes it a word) is the best candidate and is reported as a phony. A blank's letter comes
out of the same search: the one letter under which every word through it is good is named; none or several, it
stays ``?`` and the players are asked.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.errors import IllegalPlacement
from tilecam.engine.legality import check
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves.letters import best_letters, candidates, word_templates
from tilecam.vision.moves.order import seen_order, went_with_the_other
from tilecam.vision.moves.reach import in_line_with, unreachable
from tilecam.vision.moves.reading import BLANK, Reading
from tilecam.vision.moves.resolve import Candidate, NotAMove, unseen_tiles, word_is_valid
from tilecam.vision.words import LEAST_LETTER, PHONY_ODDS
from tilecam.vision.moves.squares import square_probs, tile_probability

Square = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Weights:
    """The decision's weights, each what it means (also importable as ``ResolvePolicy``)."""

    #: A committed tile read as another label at least this probably has changed (below: the tile is trusted).
    clear: float = 0.9
    #: A square is taken as a tile (or as empty) against its reading only if the reader left that at least this
    #: much: below, the candidate would explain the board by calling a clear reading wrong.
    explained: float = 0.05
    #: A letter the reader gives less than this on a square is not tried there (no word's odds make up for it).
    min_alternative: float = LEAST_LETTER
    #: A word in the lexicon is this many times as probable as one outside it (players mostly play words; a phony
    #: read with its letters this many times surer than a word's is reported as a phony). The single photo's reading
    #: weighs a board's words with the same odds (``vision.words``).
    phony_odds: float = PHONY_ODDS
    #: A word through a new blank that no letter makes good is this many times less probable than a word: the
    #: player names the blank, so it is a bluff made on purpose, or a bare square read as a blank.
    blank_phony_odds: float = 100.0
    #: One settled change is one play this many times as often as two (a turn made before the last was seen).
    two_plays_odds: float = 20.0
    #: Two plays in one change went down in the order the frames show (:func:`.order.seen_order`) this many times as often
    #: as the other way round: the other way needs the earlier play's tiles hidden (under the next player's hand)
    #: until the later play was down.
    seen_order_odds: float = 50.0
    #: Seconds the median first changes of two plays' squares must lie apart for the frames to tell their order.
    #: One hand's tiles may first show a frame or so apart (a tile uncovered as the hand withdraws); the next
    #: player reaches in, takes tiles from the rack and lays them well after the first let go. Closer than this
    #: (both first seen in one frame: the camera never saw one without the other) the order is a guess.
    order_margin_s: float = 0.5
    #: One settled change is a new play this many times as often as the last play read short and made whole.
    amend_odds: float = 30.0
    #: A hand reaches in from its player's side of the board (:mod:`.hands`): new tiles that extend the last play in
    #: its line, put down now by a hand from the side the last play's came from, are its player's going on after a
    #: pause this many times as often as the next player's; from another side, the other way round. Where the
    #: hands tell, nothing else is weighed between the two (the misread's ``amend_odds`` is for a tile that was
    #: there all along). The side told is the player's own in 24 plays of 25 (136 of 142 on rendered games,
    #: ``tilecam bench moves``), so two plays told the same side are two players' about one time in twelve.
    hand_side_odds: float = 10.0
    #: At most this many squares are left open between tile and empty (the most doubtful ones); others take the
    #: likelier state.
    max_doubtful: int = 6
    #: Letter combinations tried per candidate at most (the surest squares lose their alternatives first).
    max_combinations: int = 2048
    #: Blanks in one play named by the search at most (more are left to the players).
    max_blank_assignments: int = 2
    #: Committed tiles read empty away from the new tiles taken as misreadings, at most (photos: glare).
    tolerate_missing: int = 0
    #: More new tiles than a rack holds are not one play.
    rack_size: int = 7
    #: Once the players went on past a board with no legal reading (``went_on``), an empty square between
    #: tiles holds a blank the reader took for the bare board this many times less often than it is bare: an
    #: unprinted tile on a pale board is the tile a reader misses surely most often.
    hidden_blank_odds: float = 10.0
    #: … and a printed letter this many times less often (each letter as often as the bag still holds it): a
    #: letter read surely bare is rare (a shadow or glare over it when its play settled, the last tile of a word
    #: laid as the hand withdrew), but once it is, every later play through it has a gap and the game stalls.
    hidden_letter_odds: float = 100.0
    #: Once the players went on past a board with no legal reading, at most this many of its new squares read as
    #: tiles, however surely, are taken for bare squares misread — the fewest that leave a legal reading, each at
    #: the cost of its reading, each beside a new tile (whose face a camera low over the board sees over it).
    #: They were bare: the players went on, so the board they went past was legal. More than that is not one
    #: misread but a board the tracker does not understand, and it waits.
    misread_tiles: int = 2


ResolvePolicy = Weights


@dataclass(frozen=True, slots=True)
class Interpretation:
    """What a settled board says happened since the committed one.

    ``kind``: ``"none"`` (nothing changed), ``"play"`` (``earlier``: a play before ``candidate``, not seen settled on
    its own), ``"amend"`` (``amended``: the last play, ``withdrawn``, as it really was; ``candidate``: the play after
    it, or None), ``"withdraw"`` / ``"withdraw+play"`` (the last play's tiles taken back), ``"disturbed"`` (tiles
    missing or moved that are not the last play), ``"unclear"`` (new tiles that make no legal candidate).
    ``ignored``: squares read as tiles that the decision took as empty (``unreachable``: those no play could include,
    :mod:`.reach`, and those left out before; ``misread``: those no legal reading held once the players went on,
    taken for bare squares misread, ``Weights.misread_tiles``); ``note``: what is a guess; ``score``: the winner's
    log-probability."""

    kind: str
    candidate: Candidate | None = None
    withdrawn: Placement | None = None
    reason: str = ""
    earlier: tuple[Candidate, ...] = ()
    ignored: tuple[Square, ...] = ()
    amended: Candidate | None = None
    note: str = ""
    score: float = 0.0
    unreachable: tuple[Square, ...] = ()
    misread: tuple[Square, ...] = ()


@dataclass(frozen=True, slots=True)
class _Layout:
    """How a tile set was laid: ``plays`` in turn (squares each; ``fixed`` tiles are the last play's, kept as
    committed), on ``board``, with the log prior of that kind of event (and of the order the frames showed);
    ``seen``: two plays' order as the frames showed it (:func:`.order.seen_order`); ``went_on``: an amended play's player
    went on after a pause (the same side's hand put the rest down)."""

    kind: str
    plays: tuple[tuple[Square, ...], ...]
    board: Board
    prior: float
    fixed: tuple[tuple[Square, Tile], ...] = ()
    seen: int = 0
    went_on: bool = False


def decide(board: Board, reading: Reading, new: Iterable[Square], tileset: TileSet, lexicon: Any = None,
           weights: Weights | None = None, last_play: Placement | None = None,
           first_changed: Mapping[Square, float] | None = None, went_on: bool = False,
           same_hand: bool | None = None, one_player: bool = False, strays: Iterable[Square] = (),
           misread: bool = False, bare: Iterable[Square] = ()) -> Interpretation:
    """The most probable event that put tiles on ``new`` (squares empty on ``board`` read as tiles).
    ``first_changed``: seconds at which new squares' pixels first changed with a tile on them since the board was
    last looked at (the tracker's record; a square missing from it, or no record: the frames do not tell).
    ``went_on``: the players went on past this board unclear: a gap may hold a blank read bare, and new tiles no
    play can reach are left out (:mod:`.reach`); ``misread`` (the tracker's last resort, with ``went_on``): where no
    reading is legal even so, the fewest new squares taken for bare ones misread (``Weights.misread_tiles``).
    ``strays``: squares left out so when the board was last decided (the tracker's memory): left out again while no
    play can reach them; ``bare``: squares taken for bare ones misread then: left out again while they read as tiles.
    ``same_hand``: whether this change's hand came from the side of the board the last play's did (None: a hand
    not seen in one of them); ``one_player``: every arm over the board in this change came from one side (no two
    plays in it)."""
    w = weights or Weights()
    new = sorted(set(new))
    far = unreachable(board, new)
    left_before = set(strays)
    # left out, each costing every candidate alike: those left out before, and once the players went on the rest —
    # but a word laid from its far end, or with its middle still to come (in line with a tile within reach), is no stray
    to_come = set(in_line_with(far, [s for s in new if s not in far], w.rack_size - 1))
    strays = tuple(s for s in far if s in left_before or (went_on and len(far) < len(new) and s not in to_come))
    bare_before = tuple(s for s in new if s in set(bare) and s not in strays)
    left_out = (*strays, *bare_before)
    new = [s for s in new if s not in left_out]
    if not new:
        return Interpretation("none", ignored=tuple(sorted(left_out)), unreachable=strays, misread=bare_before)
    unseen = unseen_tiles(board, tileset)
    labels = tuple(tileset.letters) + ((BLANK,) if tileset.blanks else ())
    extra = _around(board, reading, new, unseen, labels, w)
    probs = {s: square_probs(reading, *s, unseen, labels) for s in [*new, *extra]}
    hidden = [s for s in _gaps(board, new) if s not in probs][:w.max_doubtful] if went_on else []
    for s in hidden:
        probs[s] = _missed_tile(square_probs(reading, *s, unseen, labels), unseen, labels, w)
    tile_p = {s: tile_probability(p) for s, p in probs.items()}
    sure = [s for s in new if 1 - tile_p[s] < w.explained]
    open_ = [s for s in [*new, *extra] if tile_p[s] >= w.explained and 1 - tile_p[s] >= w.explained]
    open_.sort(key=lambda s: abs(tile_p[s] - 0.5))
    room = max(w.max_doubtful - len(hidden), 0)
    sure += [s for s in open_[room:] if tile_p[s] >= 0.5]
    open_ = hidden + open_[:room]
    last_phony = _phony_count(board, last_play, lexicon, tileset.letters)
    reasons: list[str] = []

    def search(sure: list[Square], open_: list[Square]) -> tuple[float, int, Interpretation] | None:
        best: tuple[float, int, Interpretation] | None = None
        for pick in itertools.product((True, False), repeat=len(open_)):
            tiles = sorted(sure + [s for s, on in zip(open_, pick) if on])
            empty_logp = sum(math.log(max(1 - tile_p[s], 1e-12)) for s in probs if s not in tiles)
            ignored = tuple(sorted([s for s in new if s not in tiles] + list(left_out)))
            if not tiles:
                if _better(empty_logp, 0, best):
                    best = (empty_logp, 0, Interpretation("none", ignored=ignored, score=empty_logp))
                continue
            for layout in _layouts(board, tiles, last_play, w, first_changed or {}, same_hand, one_player):
                try:
                    found = _best_letters(layout, probs, unseen, tileset, lexicon, w, hidden)
                except NotAMove as exc:
                    reasons.append(exc.reason)
                    continue
                if found is None:
                    continue
                score = empty_logp + layout.prior + found[0] - (last_phony if layout.kind != "amend" else 0) * \
                    math.log(w.phony_odds)
                if _better(score, layout.seen, best):
                    best = (score, layout.seen, _interpretation(layout, found[1], probs, reading, tileset, lexicon,
                                                                w, last_play, ignored, score))
        return best

    best = search(sure, open_)
    taken: tuple[Square, ...] = ()         # new squares read as tiles, taken for bare ones misread
    if best is None and misread and not _one_line(new) and len(new) <= 2 * w.rack_size + w.misread_tiles:
        # (new tiles in one line with a gap are a word whose middle is still to come, not a misread; more than two
        # racks' tiles and the misread ones are no two plays, whichever are left out)
        best, taken = _without_misread(new, sure, open_, search, w.misread_tiles)
    if best is None:
        return Interpretation("unclear", reason=reasons[0] if reasons else "the new tiles make no play",
                              unreachable=strays, misread=bare_before)
    return replace(best[2], unreachable=strays, misread=tuple(sorted((*bare_before, *taken))))


def _one_line(squares: Sequence[Square]) -> bool:
    return len({r for r, _ in squares}) == 1 or len({c for _, c in squares}) == 1


def _without_misread(new: Sequence[Square], sure: list[Square], open_: list[Square], search, most: int
                     ) -> tuple[tuple[float, int, "Interpretation"] | None, tuple[Square, ...]]:
    """The best of ``search`` with the fewest of ``new`` (``most`` at most) taken for bare squares misread as
    tiles, and those squares; (None, ()) where no such few leave a legal reading (``Weights.misread_tiles``). Only
    a square beside a new tile kept is taken so: what misleads the reader there is that tile (its face seen over
    the square beyond it); a tile read away from the new ones was put down by a hand, and the board waits."""
    for k in range(1, min(most, len(new) - 1) + 1):
        best, left = None, ()
        for out in itertools.combinations(new, k):
            kept = set(new) - set(out)
            if not all(any((r + dr, c + dc) in kept for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)))
                       for r, c in out):
                continue
            found = search([s for s in sure if s not in out], [s for s in open_ if s not in out])
            if found is not None and found[2].kind != "none" and _better(found[0], found[1], best):
                best, left = found, out
        if best is not None:
            return best, left
    return None, ()


def _better(score: float, seen: int, best: tuple[float, int, Interpretation] | None) -> bool:
    """Whether a candidate scoring ``score`` beats ``best``; of two equally probable (the same letters split into
    plays two ways: NO then OAK, or OAK then N), the one in the order the frames show (``seen``)."""
    if best is None:
        return True
    if abs(score - best[0]) > 1e-9:
        return score > best[0]
    return seen > best[1]


def best_play(board: Board, reading: Reading, squares: Iterable[Square], tileset: TileSet, lexicon: Any = None,
              weights: Weights | None = None) -> Candidate:
    """The most probable letters for one play on exactly ``squares``; :class:`NotAMove` when it is no legal play."""
    w = weights or Weights()
    cells = tuple(sorted(set(squares)))
    if not cells:
        raise NotAMove("no new tiles")
    if len(cells) > w.rack_size:
        raise NotAMove(f"{len(cells)} new tiles: more than a rack holds ({w.rack_size})")
    unseen = unseen_tiles(board, tileset)
    labels = tuple(tileset.letters) + ((BLANK,) if tileset.blanks else ())
    probs = {s: square_probs(reading, *s, unseen, labels) for s in cells}
    found = _best_letters(_Layout("play", (cells,), board, 0.0), probs, unseen, tileset, lexicon, w)
    if found is None:
        raise NotAMove("the tile counts leave no letters for these tiles")
    return candidates(board, (cells,), {}, found[1], probs, reading, tileset, lexicon, w.max_blank_assignments)[0]


# ------------------------------------------------------------------------------------------------ tile sets


def _around(board: Board, reading: Reading, new: Sequence[Square], unseen: Counter, labels: Sequence[str],
            w: Weights) -> list[Square]:
    """Empty squares in the new tiles' line that may hold a tile the reader took for an empty square: the gaps
    between them and the square just past either end (through tiles already down)."""
    rows, cols = {r for r, _ in new}, {c for _, c in new}
    dirs = ([(0, 1)] if len(rows) == 1 else []) + ([(1, 0)] if len(cols) == 1 else [])
    n, cells, out = board.size, set(new), []
    for dr, dc in dirs:
        (r0, c0), (r1, c1) = min(cells), max(cells)
        while 0 <= r0 - dr and 0 <= c0 - dc and (board[r0 - dr, c0 - dc] is not None or (r0 - dr, c0 - dc) in cells):
            r0, c0 = r0 - dr, c0 - dc
        while r1 + dr < n and c1 + dc < n and (board[r1 + dr, c1 + dc] is not None or (r1 + dr, c1 + dc) in cells):
            r1, c1 = r1 + dr, c1 + dc
        line = [(r0 + dr * k, c0 + dc * k) for k in range(-1, max(r1 - r0, c1 - c0) + 2)]
        out += [s for s in line if 0 <= s[0] < n and 0 <= s[1] < n and s not in cells and board[s] is None
                and s not in out]
    return [s for s in out if tile_probability(square_probs(reading, *s, unseen, labels)) >= w.explained]


def _gaps(board: Board, new: Sequence[Square]) -> list[Square]:
    """Empty squares with a tile on either side in a row or a column, one of the two new: where a blank read as
    the bare board leaves a play with a hole (a hole of two squares is two blanks: the set has only two)."""
    n, tiles, out = board.size, set(new), []
    for r, c in new:
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            gap, far = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if not (0 <= far[0] < n and 0 <= far[1] < n) or gap in tiles or board[gap] is not None:
                continue
            if (far in tiles or board[far] is not None) and gap not in out:
                out.append(gap)
    return sorted(out)


def _layouts(board: Board, tiles: Sequence[Square], last_play: Placement | None, w: Weights,
             first_changed: Mapping[Square, float], same_hand: bool | None = None, one_player: bool = False
             ) -> list[_Layout]:
    """The ways ``tiles`` may have been laid: one play, two plays in either order (where both are legal, the one
    the frames showed against costing ``seen_order_odds``), the last play amended (its player going on after a
    pause, where the hands tell: ``hand_side_odds``). Two plays are two players' turns: none where every arm came from
    one side (``one_player``; part of a word with a gap, the rest still to come, is then no move yet)."""
    out = [_Layout("play", (tuple(tiles),), board, 0.0)]
    two = -math.log(w.two_plays_odds)
    if 2 <= len(tiles) <= 2 * w.rack_size and not one_player:
        for part in _parts(board, tiles):
            rest = tuple(s for s in tiles if s not in part)
            if rest:
                for plays in ((tuple(sorted(part)), rest), (rest, tuple(sorted(part)))):
                    seen = seen_order(plays, first_changed, w.order_margin_s)
                    # the frames choose between two legal orders; where the rules allow one, a frame that shows
                    # the other only had a tile hidden for longer
                    against = seen < 0 and _legal(board, plays[::-1], w.rack_size)
                    # a tile first seen with the other play's tiles, well apart from its own play's, went down with them
                    astray = went_with_the_other(plays, first_changed, w.order_margin_s)
                    prior = two - math.log(w.seen_order_odds) * (against + astray)
                    out.append(_Layout("two", plays, board, prior, seen=seen))
    if last_play is not None:
        last = [(r, c) for r, c, _ in last_play.new_tiles()]
        before = board.copy()
        for s in last:
            before[s] = None
        fixed = tuple((s, board[s]) for s in last)
        for axis in (0, 1):
            if len({s[axis] for s in last}) != 1:
                continue
            value = last[0][axis]
            ext = tuple(s for s in tiles if s[axis] == value)
            rest = tuple(s for s in tiles if s[axis] != value)
            if ext:
                plays = (tuple(sorted(last + list(ext))),) + ((rest,) if rest else ())
                # The hand seen put the extension down now (its squares changed in pixels, or a stream of readings
                # that has no pixels): whose hand it was says whose play it is. A square that never changed was
                # there all along (the last play read short): the hand seen was the next play's.
                put_now = not first_changed or all(s in first_changed for s in ext)
                if one_player and put_now and rest:
                    continue        # the last play's player going on and a next play: two players' hands
                went_on = same_hand is True and put_now and not rest
                if same_hand is not None and put_now:      # whose hands put it down decides, not a misread's odds
                    prior = math.log(w.hand_side_odds) * (1 if same_hand else -1)
                else:
                    prior = -math.log(w.amend_odds)
                out.append(_Layout("amend", plays, before, prior, fixed, went_on=went_on))
    return out


def _parts(board: Board, cells: Sequence[Square]) -> list[frozenset[Square]]:
    """Candidate first (or second) plays among ``cells``: each row's and column's squares, and the runs of a line
    that an empty square splits (ZO and then CIT in the same row)."""
    lines = {frozenset(s for s in cells if s[0] == r) for r, _ in cells}
    lines |= {frozenset(s for s in cells if s[1] == c) for _, c in cells}
    parts = set(lines)
    for line in lines:
        seq = sorted(line)
        run = [seq[0]]
        for a, b in zip(seq, seq[1:]):
            between = [(r, c) for r in range(a[0], b[0] + 1) for c in range(a[1], b[1] + 1) if (r, c) not in (a, b)]
            if all(board[s] is not None for s in between):
                run.append(b)
            else:
                parts.add(frozenset(run))
                run = [b]
        if len(run) < len(seq):
            parts.add(frozenset(run))
    return sorted(parts, key=lambda p: (-len(p), sorted(p)))


# ------------------------------------------------------------------------------------------------ letters, result


def _best_letters(layout: _Layout, probs: dict, unseen: Counter, tileset: TileSet, lexicon: Any, w: Weights,
                  hidden: Sequence[Square] = ()) -> tuple[float, dict[Square, str]] | None:
    return best_letters(layout.board, layout.plays, dict(layout.fixed), probs, unseen, tileset, lexicon,
                        (w.phony_odds, w.blank_phony_odds), w.min_alternative, w.max_combinations, w.rack_size,
                        every_letter=hidden)


def _missed_tile(read: dict[str, float], unseen: Counter, labels: Sequence[str], w: Weights) -> dict[str, float]:
    """A gap's square once the players went on: what the reader read there, less the share of a tile it missed —
    a blank (``hidden_blank_odds``) or a letter (``hidden_letter_odds``, spread over the letters as the bag still
    holds them: the words through the gap choose among them)."""
    letters = {a: unseen[a] for a in labels if a != BLANK and unseen[a] > 0}
    q_blank = 1.0 / (1.0 + w.hidden_blank_odds) if unseen[BLANK] > 0 and BLANK in labels else 0.0
    q_letter = 1.0 / (1.0 + w.hidden_letter_odds) if letters else 0.0
    out = {a: p * (1.0 - q_blank - q_letter) for a, p in read.items()}
    total = sum(letters.values())
    for a, n in letters.items():
        out[a] = out.get(a, 0.0) + q_letter * n / total
    if q_blank:
        out[BLANK] = out.get(BLANK, 0.0) + q_blank
    return out


def _interpretation(layout: _Layout, labels: dict[Square, str], probs: dict, reading: Reading, tileset: TileSet,
                    lexicon: Any, w: Weights, last_play: Placement | None, ignored: tuple[Square, ...],
                    score: float) -> Interpretation:
    cands = candidates(layout.board, layout.plays, dict(layout.fixed), labels, probs, reading, tileset, lexicon,
                       w.max_blank_assignments)
    if layout.kind == "amend":
        # why the last play is amended (the tracker's event says which play it was)
        note = ("its player went on after a pause (the hand came from the same side)" if layout.went_on else
                "a tile of it was read as an empty square then")
        return Interpretation("amend", candidate=cands[1] if len(cands) > 1 else None, withdrawn=last_play,
                              amended=cands[0], ignored=ignored, score=score, note=note)
    if layout.kind == "two":
        note = "two plays in one settled change (the first was never committed on its own)"
        if _legal(layout.board, layout.plays[::-1], w.rack_size):
            note += ("; their order is a guess" if layout.seen == 0 else
                     "; in the order their tiles were first seen" if layout.seen > 0 else
                     "; the frames showed the other first, the words this order")
        return Interpretation("play", candidate=cands[1], earlier=(cands[0],), ignored=ignored, note=note,
                              score=score)
    return Interpretation("play", candidate=cands[0], ignored=ignored, score=score)


def _legal(board: Board, plays: Sequence[Sequence[Square]], rack_size: int) -> bool:
    try:
        word_templates(board, plays, {}, rack_size)
    except NotAMove:
        return False
    return True


def _phony_count(board: Board, last_play: Placement | None, lexicon: Any, letters: Sequence[str]) -> int:
    """How many words of the last play (on the board before it) the lexicon rejects."""
    if last_play is None or lexicon is None:
        return 0
    before = board.copy()
    for r, c, _ in last_play.new_tiles():
        before[r, c] = None
    try:
        words = check(before, last_play)
    except IllegalPlacement:
        return 0
    return sum(not word_is_valid(lexicon, fw.word, letters) for fw in words)
