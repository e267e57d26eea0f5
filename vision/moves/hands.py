"""Which side of the board a hand reaches in from: the side its player sits at.

    the capture loop's motion between two small frames ──moving_squares──▶ the squares an arm passed over
    each such frame (or a frame read with a hand over it) ──HandSides.note──▶ the board's edges they touch
    the change's new tiles ──HandSides.side──▶ 0 bottom | 1 top | 2 left | 3 right | None

A hand over the board is the end of an arm that crosses the board's edge where its player sits, so the squares it
covers touch that edge; and the hand is over the tiles it puts down. Where the covered squares touch two edges (an
arm from the top reaching a tile by the right edge, or down to the bottom row) the arm came in across the one
farther from the new tiles. Two plays put down from the same side are one player's: a player who stopped part-way
through a word, took the hand away long enough for the board to settle, and went on. From another side they are two
players' turns — and a change whose arms all came from one side is one player's, never two plays. Without a clock
nothing else tells a pause mid-word from the next player extending the word (``hand_side_odds`` of
:class:`~tilecam.vision.moves.decide.Weights` weighs it). Sides are the picture's: the players sit where they sit,
whichever edge of the board is row 1.

Over a game the sides the plays came from are the seats (``HandSides.seated``). An arm reaching a square near a
corner, or along the edge row, may cross the board's edge beside its player's seat rather than at it: once the seats
are known, an arm told from a side where nobody sits does not outvote one from a seat, and one that touched a seat's
edge too came in across it. An arm whose body lies over the board came in on the side it lies towards (an arm along
the top rows from the right to the top left corner touches the top and the left edge, not the right); a hand in a
corner with the arm mostly off the board is the one seat's of the two. Where two plays were put down
in one change, each play's own side is told from the arms whose hand covered its tiles (``HandSides.side_of_play``;
an arm that passed over them on its way farther in put down the other play).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import numpy as np

SIDES = ("bottom", "top", "left", "right")

Edges = tuple[bool, bool, bool, bool]

#: A square is under a moving arm when at least this share of its pixels changed between two small frames: a quarter
#: of a square is an arm's edge passing; less is noise, or a shadow's soft edge.
MOVING_SHARE = 0.25

#: Pixels a square in the grid the motion is warped to (enough to take a share of a square's pixels).
MOTION_CELL_PX = 4

#: An arm covers at most this share of the board's squares (one reaching across a 15x15 board along its middle
#: covers about a sixth): more at once is the light changing or the camera shaken, no hand's side.
ARM_SHARE = 0.4

#: Two touched edges whose distances from the hand differ by less than this many squares tell nothing: a hand in a
#: corner of the board, which an arm from either side reaches the same way.
CORNER_SQUARES = 1.0

#: A side is a seat once this many plays of one hand were told from it: one play could be an arm misjudged.
SEAT_PLAYS = 2

#: The hand is the end of the arm: a square of a play lies under the hand when it is at most this many squares
#: nearer the arm's edge than the arm reaches (a hand and a tile held in it cover about two squares). An arm that
#: covers a play's tiles only on its way farther in put down another play.
HAND_SQUARES = 2


def touched_edges(covered: np.ndarray) -> Edges:
    """Whether the ``covered`` squares (an n x n bool array, row 0 at the top) touch the bottom, top, left and right
    edge of the board."""
    n = covered.shape[0]
    return (bool(covered[n - 1].any()), bool(covered[0].any()), bool(covered[:, 0].any()),
            bool(covered[:, n - 1].any()))


def entry_side(edges: Edges, hand_at: tuple[float, float], n: int) -> int | None:
    """The side (index into :data:`SIDES`) an arm touching ``edges`` came in from, its hand at ``hand_at`` (row,
    column): the touched edge farthest from the hand; None when it touches none, or two about as far
    (``CORNER_SQUARES``).

    >>> SIDES[entry_side((True, True, False, False), (13.0, 7.0), 15)]     # down the board to row 14
    'top'
    >>> SIDES[entry_side((False, True, False, True), (2.0, 14.0), 15)]     # from the top along the right edge
    'top'
    >>> entry_side((True, False, False, True), (14.0, 13.5), 15) is None   # a corner: either
    True
    """
    sides = entry_sides(edges, hand_at, n)
    return sides[0] if len(sides) == 1 else None


def entry_sides(edges: Edges, hand_at: tuple[float, float], n: int) -> tuple[int, ...]:
    """The sides an arm touching ``edges`` may have come in from, its hand at ``hand_at``: the touched edge farthest
    from the hand, and any other touched edge within ``CORNER_SQUARES`` as far (a hand near a corner).

    >>> [SIDES[s] for s in entry_sides((True, False, False, True), (14.0, 13.5), 15)]
    ['right', 'bottom']
    """
    far = sorted(((d, i) for i, (t, d) in enumerate(zip(edges, _inward(*hand_at, n))) if t), reverse=True)
    return tuple(i for d, i in far if far[0][0] - d < CORNER_SQUARES) if far else ()


def moving_squares(moving: np.ndarray, corners: np.ndarray, frame_shape: tuple[int, int], size: int) -> np.ndarray:
    """The squares (``size`` x ``size`` bool, in the grid's order) a motion mask of a small frame (``moving``: where
    its pixels changed since the last small frame) covers by ``MOVING_SHARE`` or more; ``corners``: the grid's, in
    the full frame's pixels (``CORNER_ORDER``), ``frame_shape``: the full frame's (height, width).

    >>> grid = np.float32([[200, 20], [440, 20], [440, 260], [200, 260]])  # the board in a 640x360 frame
    >>> moving = np.zeros((90, 160), bool); moving[45:, 78:82] = True    # an arm up from the bottom, quarter size
    >>> squares = moving_squares(moving, grid, (360, 640), 15)
    >>> [int(c) for c in np.unique(np.argwhere(squares)[:, 1])], [int(r) for r in np.argwhere(squares)[:, 0]]
    ([7], [10, 11, 12, 13, 14])
    """
    import cv2

    scale = np.float32([moving.shape[1] / frame_shape[1], moving.shape[0] / frame_shape[0]])
    src = np.asarray(corners, np.float32).reshape(4, 2) * scale
    side = size * MOTION_CELL_PX
    dst = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    grid = cv2.warpPerspective(moving.astype(np.float32), cv2.getPerspectiveTransform(src, dst), (side, side),
                               flags=cv2.INTER_LINEAR)
    share = grid.reshape(size, MOTION_CELL_PX, size, MOTION_CELL_PX).mean(axis=(1, 3))
    return share >= MOVING_SHARE


class HandSides:
    """The edges the hands over the board touched since the tracker last decided what the board shows, and the
    seats: the sides the game's plays came from. Squares are the picture's (the grid as located, unturned): the
    players sit where they sit, whichever edge of the board is row 1 and however the board is turned on the table."""

    def __init__(self) -> None:
        # (edges, the squares covered, packed): frames
        self._seen: Counter[tuple[Edges, bytes]] = Counter()
        self._size = 15
        self._seats: Counter[int] = Counter()     # side → plays of one hand told from it, this game

    def note(self, covered: np.ndarray) -> None:
        """One frame's squares under a hand."""
        self._size = covered.shape[0]
        edges = touched_edges(covered)
        if any(edges) and covered.mean() <= ARM_SHARE:
            self._seen[edges, np.packbits(covered).tobytes()] += 1

    def _covered(self, packed: bytes) -> np.ndarray:
        n = self._size
        return np.unpackbits(np.frombuffer(packed, np.uint8), count=n * n).reshape(n, n).astype(bool)

    def votes(self, new: Iterable[tuple[int, int]], over_only: bool = False) -> Counter[int]:
        """Frames whose arm came from each side, the hand over the ``new`` tiles (their middle) — but for an arm
        that spans the board (two opposite edges), over the new tiles it covers: between its two ends, the middle of
        two plays far apart says nothing of which end is the hand. ``over_only``: only the frames whose hand covered
        one of the ``new`` tiles (the arm that put them down, not another player's over other tiles or on its way
        past them: ``HAND_SQUARES``). Once the seats
        are known, the votes of sides where nobody sits are left out beside a seat's."""
        new = list(new)
        votes: Counter[int] = Counter()
        if not new:
            return votes
        n = self._size
        seats = {side for side, plays in self._seats.items() if plays >= SEAT_PLAYS}
        for (edges, packed), frames in self._seen.items():
            covered = self._covered(packed)
            over = [s for s in new if covered[s]]
            if over_only and not over:
                continue
            spans = (edges[0] and edges[1]) or (edges[2] and edges[3])     # two opposite edges
            sides = entry_sides(edges, _middle(over if spans and over else new), n)
            # the arm's body lies over the board towards where it came in, told where its hand is seen over the
            # play's tiles (the middle of a long play is not where the hand is)
            toward = None if spans or not over else _stretches_toward(covered, _middle(over))
            if toward is not None:
                sides = (toward,)
            if len(sides) > 1:      # a corner: the one side of the two where a player sits, if only one
                sides = tuple(side for side in sides if side in seats)
            elif seats and not spans and not seats & set(sides):
                # told from where nobody sits, but across a seat's edge too: the arm came in there (a hand by the
                # corner reaching a tile along the seat's edge row). Not for what spans the board: its two ends say
                # nothing of where it came in (a change of light touching every edge is no arm at all)
                sides = tuple(side for side, touched in enumerate(edges) if touched and side in seats) or sides
            if len(sides) == 1 and over_only and not spans and not _at_the_hand(covered, over, sides[0]):
                continue
            if len(sides) == 1:
                votes[sides[0]] += frames
        if seats & set(votes):
            votes = Counter({side: v for side, v in votes.items() if side in seats})
        return votes

    def one_side(self, new: Iterable[tuple[int, int]]) -> bool:
        """Whether every arm seen came from one side: the change was one player's. (One frame from another side is
        enough to doubt it: two plays in one change are then weighed as before.)"""
        return len(self.votes(new)) == 1

    def side(self, new: Iterable[tuple[int, int]]) -> int | None:
        """The side most frames' hands came from, the hand over the ``new`` tiles (their middle); None when no hand
        was seen, nothing was put down, or two sides tie."""
        return _most(self.votes(new))

    def side_of_play(self, squares: Iterable[tuple[int, int]]) -> int | None:
        """The side of the arms that covered the play's ``squares`` (one of two plays put down in one change);
        None as :meth:`side`."""
        return _most(self.votes(squares, over_only=True))

    def seated(self, side: int) -> None:
        """A play of one hand was told to come from ``side``: a player sits there."""
        self._seats[side] += 1

    def forget(self) -> None:
        """The board was decided: the next change's hands count from the next frame (the seats are kept)."""
        self._seen.clear()


def _stretches_toward(covered: np.ndarray, hand_at: tuple[float, float]) -> int | None:
    """The side an arm whose hand is at ``hand_at`` came in on, told by its body over the board: the direction in
    which its covered squares reach farthest from the hand, more than ``HAND_SQUARES`` (more than a hand holding a
    tile) and ``CORNER_SQUARES`` beyond any other, and to that edge of the board or a square short of it (its last
    square may not show moving); None otherwise (the arm lies mostly off the board, over its near edge, or what lies
    beyond the hand is the arm reaching farther in that frame).

    >>> arm = np.zeros((15, 15), bool); arm[0:2, 0:14] = True     # along the top rows to the top left corner
    >>> SIDES[_stretches_toward(arm, (0.0, 0.0))]
    'right'
    >>> arm = np.zeros((15, 15), bool); arm[9:15, 4:7] = True     # up from the bottom, past the tile at row 13
    >>> _stretches_toward(arm, (13.0, 5.0)) is None
    True
    """
    n = covered.shape[0]
    to_edge = np.min(_inward(*np.nonzero(covered), n), axis=1)      # how far short of each edge the arm stops
    reach = np.asarray(_inward(*hand_at, n)) - to_edge                # how far beyond the hand towards each edge
    ranked = sorted(range(4), key=lambda side: -reach[side])
    far, second = reach[ranked[0]], reach[ranked[1]]
    if far > HAND_SQUARES and far - second >= CORNER_SQUARES and to_edge[ranked[0]] <= CORNER_SQUARES:
        return ranked[0]
    return None


def _inward(row, col, n: int) -> tuple:
    """How far a square (row, column; or arrays of them) lies in from the board's bottom, top, left and right edge
    (``SIDES``' order), in squares."""
    return (n - 1 - row, row, col, n - 1 - col)


def _middle(squares: Sequence[tuple[int, int]]) -> tuple[float, float]:
    """The mean (row, column) of ``squares``."""
    return float(np.mean([r for r, _ in squares])), float(np.mean([c for _, c in squares]))


def _at_the_hand(covered: np.ndarray, over: list[tuple[int, int]], side: int) -> bool:
    """Whether some of the squares ``over`` (covered by the arm) lie under its hand: within ``HAND_SQUARES`` of
    the farthest square in from ``side`` that the arm covers."""
    n = covered.shape[0]
    reach = _inward(*np.nonzero(covered), n)[side].max()
    return bool((_inward(*np.array(over).T, n)[side] >= reach - HAND_SQUARES).any())


def _most(votes: Counter[int]) -> int | None:
    ranked = votes.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]
