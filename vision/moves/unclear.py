"""A board left unclear, and whether the players went on past it.

A settled board with no legal reading is left unclear and waits. Once the players went on past it — more tiles put
down since, none of them into its own word's line; or a clock press said the play is done — a gap between its tiles
may hold a blank read bare and a tile no play can reach may be left out (``decide``'s ``went_on``): else one blank
read bare stalls the game for good, every later play adding to a board that has no legal reading.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

Square = tuple[int, int]


@dataclass
class UnclearBoard:
    """The new squares of the last board left unclear (None: the last board was decided) and whether the players
    went on past it since."""

    squares: frozenset[Square] | None = None
    went_on: bool = False

    def decided(self) -> None:
        """The board was decided: nothing is left unclear."""
        self.squares, self.went_on = None, False

    def left_unclear(self, new: frozenset[Square], pressed: bool) -> frozenset[Square] | None:
        """A board with ``new`` tiles (those within reach) was left unclear, a clock ``pressed`` or not: whether the
        players went on past the one before is updated (``went_on``); returns that one's squares (None: none)."""
        previous, self.squares = self.squares, new
        self.went_on = self.went_on or pressed or (previous is not None and new > previous
                                                   and not word_still_going_down(previous, new - previous))
        return previous


def word_still_going_down(unclear: Iterable[Square], since: Iterable[Square]) -> bool:
    """The tiles put down ``since`` a board was left ``unclear`` all lie in the one line its new tiles lie in, in its
    gaps or at its ends: its word still going down after a pause, not the players going on past it (a gap is then
    a square still to be filled, not a tile read bare).

    >>> word_still_going_down([(0, 8), (0, 10), (0, 12)], [(0, 11)])          # into a gap
    True
    >>> word_still_going_down([(0, 8), (0, 10), (0, 12)], [(0, 13), (1, 13)])  # another line: a play
    False
    """
    unclear, since = list(unclear), list(since)
    for axis in (0, 1):
        line = {square[axis] for square in unclear}
        if len(line) == 1 and all(square[axis] in line for square in since):
            along = [square[1 - axis] for square in unclear]
            return all(min(along) - 1 <= square[1 - axis] <= max(along) + 1 for square in since)
    return False


__all__ = ["UnclearBoard", "word_still_going_down"]
