"""The order two plays in one settled change went down in, as the frames show it.

Each square's first change in pixels since the board was last decided (``belief.FirstChanges``) dates it; a play's
squares' median dates the play. Move inference (``decide``) weighs both orders the rules allow with these.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence

Square = tuple[int, int]


def seen_order(plays: Sequence[Sequence[Square]], first_changed: Mapping[Square, float], margin_s: float) -> int:
    """Which of two plays the frames show down first: 1 the first of ``plays`` (the median of its squares' first
    changes ``margin_s`` or more before the second's), -1 the second, 0 the frames do not tell (closer than that,
    or a play none of whose squares was seen changing).

    >>> seen_order([[(7, 10)], [(8, 7), (9, 7)]], {(7, 10): 3.0, (8, 7): 5.0, (9, 7): 6.0}, 0.5)
    1
    >>> seen_order([[(8, 7), (9, 7)], [(7, 10)]], {(7, 10): 3.0, (8, 7): 3.0, (9, 7): 3.2}, 0.5)
    0
    """
    medians = median_first_changes(plays, first_changed)
    if medians is None:
        return 0
    gap = medians[1] - medians[0]
    return 0 if abs(gap) < margin_s else 1 if gap > 0 else -1


def went_with_the_other(plays: Sequence[Sequence[Square]], first_changed: Mapping[Square, float],
                        margin_s: float) -> bool:
    """Whether a tile of one of two plays first changed ``margin_s`` or more from its play's median first change and
    within it of the other play's: the frames show it put down with the other play (LOB, then MEGARAD's M, E and the
    G beside LOB's L: the G is MEGARAD's, not GLOB's).

    >>> went_with_the_other([[(7, 5), (7, 6), (7, 7), (7, 8)], [(5, 5), (6, 5)]],
    ...                     {(7, 5): 5.3, (7, 6): 3.2, (7, 7): 3.2, (7, 8): 3.2, (5, 5): 5.3, (6, 5): 5.3}, 0.5)
    True
    >>> went_with_the_other([[(7, 6), (7, 7), (7, 8)], [(5, 5), (6, 5), (7, 5)]],
    ...                     {(7, 5): 5.3, (7, 6): 3.2, (7, 7): 3.2, (7, 8): 3.2, (5, 5): 5.3, (6, 5): 5.3}, 0.5)
    False
    """
    medians = median_first_changes(plays, first_changed)
    if medians is None:
        return False
    for own, other, squares in ((medians[0], medians[1], plays[0]), (medians[1], medians[0], plays[1])):
        for s in squares:
            t = first_changed.get(s)
            if t is not None and abs(t - own) >= margin_s and abs(t - other) < margin_s:
                return True
    return False


def median_first_changes(plays: Sequence[Sequence[Square]], first_changed: Mapping[Square, float]
                          ) -> list[float] | None:
    """Each play's median first change of its squares; None where a play has no square seen changing."""
    medians = []
    for squares in plays:
        times = [first_changed[s] for s in squares if s in first_changed]
        if not times:
            return None
        medians.append(statistics.median(times))
    return medians


__all__ = ["median_first_changes", "seen_order", "went_with_the_other"]
