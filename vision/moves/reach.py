"""New tiles that no play can reach: read as tiles where the rules leave no move that could have put them.

Every play is one line of tiles touching the tiles already down (the first covers the centre square), so each of a
play's tiles lies, in its row or its column, next to another tile of the play or of the board — or one square from
one, where a blank read as the bare board leaves a gap (``decide``'s hidden blanks). A tile read on the board with
no tile, old or new, within ``REACH`` squares of it in its row and its column, and no chain of such tiles leading to
the board's, can be in no legal play: a premium print read as a blank under a lamp switched on mid-game, a coin, a
tile dropped off to the side. The decision leaves them out (each one would make every candidate illegal, and the
game would stall for as long as it reads so) and says so; a play that later reaches them takes them in. A tile in
the line of a reachable new tile, within a rack's span of it, is not so judged (``in_line_with``): it may be the far
end of a word whose middle is still to come (CAULD's C and A, its D down first by INCLINE).

>>> from tilecam.engine.board import Board
>>> board = Board.from_rows(["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7)
>>> unreachable(board, [(8, 7), (9, 7), (3, 0)])
[(3, 0)]
>>> unreachable(board, [(7, 10), (2, 2), (2, 3)])
[(2, 2), (2, 3)]
>>> unreachable(Board(board.layout), [(7, 6), (7, 7), (7, 8), (0, 0)])
[(0, 0)]
"""

from __future__ import annotations

from collections.abc import Iterable

from tilecam.engine.board import Board

Square = tuple[int, int]

#: How far along its row or column a play's tile may lie from the next tile of the play or the board: next to it
#: (1), or past one square a blank read bare may hold (2: the decision looks for a hidden blank in a gap of one).
REACH = 2


def unreachable(board: Board, new: Iterable[Square]) -> list[Square]:
    """The squares of ``new`` (empty on ``board``, read as tiles) that no legal play could include (module doc),
    sorted."""
    new = set(new)
    anchors = {(r, c) for r, c, _ in board.tiles()} or {board.layout.center}
    reached = {s for s in new if s in anchors or _near(s, anchors)}
    frontier = list(reached)
    while frontier:
        s = frontier.pop()
        for t in new - reached:
            if _near(t, (s,)):
                reached.add(t)
                frontier.append(t)
    return sorted(new - reached)


def in_line_with(far: Iterable[Square], near: Iterable[Square], span: int) -> list[Square]:
    """The squares of ``far`` in the row or column of a square of ``near`` within ``span`` squares of it: the far end
    of a word whose middle is still to come (a rack's tiles span at most a rack's length), sorted.

    >>> in_line_with([(13, 1), (3, 0)], [(13, 5), (10, 4)], 6)
    [(13, 1)]
    """
    near = list(near)
    return sorted(s for s in far if any((s[0] == r and abs(s[1] - c) <= span) or (s[1] == c and abs(s[0] - r) <= span)
                                        for r, c in near))


def touching(squares: Iterable[Square], others: Iterable[Square]) -> bool:
    """Whether a square of ``squares`` shares a side or a corner with one of ``others``: a committed tile read bare
    beside a new one may be that tile slid a square aside, not a misread.

    >>> touching([(7, 10)], [(8, 11)]), touching([(7, 10)], [(7, 12)])
    (True, False)
    """
    others = list(others)
    return any(abs(r - ar) <= 1 and abs(c - ac) <= 1 for r, c in squares for ar, ac in others)


def _near(square: Square, others: Iterable[Square]) -> bool:
    """Whether one of ``others`` lies within ``REACH`` squares of ``square`` in its row or its column."""
    r, c = square
    return any((r == r2 and 0 < abs(c - c2) <= REACH) or (c == c2 and 0 < abs(r - r2) <= REACH) for r2, c2 in others)
