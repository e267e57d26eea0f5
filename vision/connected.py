"""The most probable board the rules allow: a game's tiles hang together.

    each square's class (squares x classes, after the tile counts) ──joined──▶ the same, its tiles one group

Every play touches the tiles already down (the first covers the centre), so on a photo of a game's board every tile
is joined to every other through tiles — a square read as covered (``#``: a hand, glare) may hide a joining tile
and joins too. A group of tiles that is not joined to the game's group (the one over the centre square, else the
largest) was read wrong somewhere: either its squares are not tiles (a premium print, glare read as a blank) or
squares between it and the game's group are tiles read bare (a blank read as the bare board). The cheaper of the
two in the squares' own probabilities is taken: the loss of reading the group's squares as their likeliest class
that is not a tile, against the least loss of reading a path of squares to the game's group as tiles (a shortest
path, each square costing what it loses by being read as its likeliest tile). No parameter: a rule of the game and
the reader's probabilities, like ``tilecounts``.

A board seen mid-play is not held to it (the tracker: a hand lays a word's far tile first): only settled boards.
Before it, ``hands_only``: a square read as covered is something over the board only where enough of them touch to
be a hand (``HAND_SQUARES``, as the tracker holds); a lone one is the reader's doubt (glare along a glossy board's
edge) and takes its likeliest other class.
"""

from __future__ import annotations

import heapq
from typing import Sequence

import cv2
import numpy as np

from tilecam.vision.classify import EMPTY, OCCLUDED
from tilecam.vision.median import distinct


def tile_columns(classes: Sequence[str]) -> np.ndarray:
    """Which classes are tiles (letters and the blank): not the bare board, not covered."""
    return np.array([c not in (EMPTY, OCCLUDED) for c in classes])


def one_group(board: Sequence[str]) -> bool:
    """Whether the tiles of ``board`` (rows of labels, ``.`` bare, ``#`` covered) are one joined group, or none
    (a covered square joins: a tile may be under it)."""
    labels = np.array([list(row) for row in board])
    tiles = (labels != EMPTY) & (labels != OCCLUDED)
    return len(distinct(groups_of(labels != EMPTY)[tiles])) <= 1


#: Squares read as covered (``#``), touching one another (diagonals count), that a hand, an arm or a sleeve covers at
#: the least: fewer, scattered, are the reader's doubt (glare, a print), not something over the board.
HAND_SQUARES = 4


def hand(squares: np.ndarray, covered: np.ndarray) -> np.ndarray:
    """The ``squares`` (a board's mask) that lie in groups of ``HAND_SQUARES`` or more touching (diagonals count)
    with at least one ``covered`` square among them: what a hand, an arm or a sleeve may be over."""
    count, labels = cv2.connectedComponents(squares.astype(np.uint8), connectivity=8)
    sizes = np.bincount(labels.ravel(), minlength=count)
    seen = np.bincount(labels[covered & squares], minlength=count)
    big = [k for k in range(1, count) if sizes[k] >= HAND_SQUARES and seen[k]]
    return np.isin(labels, big) & squares


def hands_only(probs: np.ndarray, choice: np.ndarray, classes: Sequence[str]) -> np.ndarray:
    """``choice`` with the squares read as covered kept only where they make a ``hand``; each other one takes its
    likeliest class that is not covered."""
    covered_column = [i for i, c in enumerate(classes) if c == OCCLUDED]
    if not covered_column:
        return choice
    size = int(round(len(choice) ** 0.5))
    covered = (choice == covered_column[0]).reshape(size, size)
    lone = np.flatnonzero((covered & ~hand(covered, covered)).ravel())
    if not len(lone):
        return choice
    choice = choice.copy()
    others = probs[lone].copy()
    others[:, covered_column[0]] = -1.0
    choice[lone] = others.argmax(axis=1)
    return choice


def groups_of(joining: np.ndarray) -> np.ndarray:
    """Each square's group (0: none; 1, 2, …) of the squares ``joining`` (a board's mask), joined side to side."""
    return cv2.connectedComponents(joining.astype(np.uint8), connectivity=4)[1]


def joined(probs: np.ndarray, choice: np.ndarray, classes: Sequence[str],
           caps: dict[int, int] | None = None) -> np.ndarray:
    """``choice`` (each square's class index, row-major over a square board) with every group of tiles joined to
    the game's group, or no longer read as tiles, whichever the probabilities ``probs`` find likelier (module
    doc). A joining square takes only a tile the set has left (``caps``: class index → the set's count, as
    ``tilecounts.tile_caps``). Squares of the game's group are never changed."""
    choice = choice.copy()
    size = int(round(len(choice) ** 0.5))
    logp = np.log(np.maximum(probs, 1e-30))
    is_tile = tile_columns(classes)
    best_other = np.where(is_tile, -np.inf, logp).argmax(axis=1)
    for _ in range(len(choice)):            # each round joins or removes one group: it ends
        chosen = logp[np.arange(len(choice)), choice]
        counts = left_counts(choice, caps or {})
        left = is_tile.copy()
        left[list(counts)] &= np.array([n > 0 for n in counts.values()], bool)
        best_tile = np.where(left, logp, -np.inf).argmax(axis=1)
        tiles = is_tile[choice]
        covered = np.asarray(classes)[choice] == OCCLUDED
        groups = groups_of((tiles | covered).reshape(size, size)).ravel()
        count = int(groups.max())
        sizes = np.bincount(groups[tiles], minlength=count + 1)
        if (sizes[1:] > 0).sum() <= 1:
            return choice
        centre = groups[(size // 2) * size + size // 2]
        game = centre if centre and sizes[centre] else int(sizes[1:].argmax()) + 1
        stray = [g for g in range(1, count + 1) if g != game and sizes[g]]
        g = min(stray, key=lambda g: sizes[g])           # the smallest first: most often a misread alone
        members = np.flatnonzero(groups == g)
        loss_away = float(sum(chosen[i] - logp[i, best_other[i]] for i in members if tiles[i]))
        # the path is the cheapest with each square its own best tile left; the join's loss is counted once its
        # squares share out what the set has left
        path, _ = _cheapest_path(groups == g, groups == game, chosen - logp[np.arange(len(choice)), best_tile], size)
        path_tiles = None if path is None else _tiles_left(logp[path], counts, is_tile)
        if path_tiles is not None and float((chosen[path] - logp[path, path_tiles]).sum()) < loss_away:
            choice[path] = path_tiles
        else:
            away = members[tiles[members]]
            choice[away] = best_other[away]
    return choice


def left_counts(choice: np.ndarray, caps: dict[int, int]) -> dict[int, int]:
    """Class index → how many more of that tile the set has, beyond those ``choice`` reads."""
    return {c: cap - int((choice == c).sum()) for c, cap in caps.items()}


def _tiles_left(logp: np.ndarray, left: dict[int, int], is_tile: np.ndarray) -> np.ndarray | None:
    """Each of the squares ``logp`` (squares x classes) read as its likeliest tile the set still has (``left``),
    the squares that lose least by it served first; None when the set has too few tiles left."""
    left = dict(left)
    out = np.zeros(len(logp), int)
    allowed = np.tile(is_tile, (len(logp), 1))
    todo = list(range(len(logp)))
    while todo:
        options = np.where(allowed[todo], logp[todo], -np.inf)
        if not np.isfinite(options.max()):
            return None
        k = int(options.max(axis=1).argmax())        # the square whose best tile is likeliest
        i, c = todo[k], int(options[k].argmax())
        if left.get(c, 1) <= 0:
            allowed[:, c] = False
            continue
        out[i] = c
        if c in left:
            left[c] -= 1
        todo.pop(k)
    return out


def _cheapest_path(start: np.ndarray, goal: np.ndarray, cost: np.ndarray, size: int):
    """The squares (not of ``start`` or ``goal``) of the cheapest 4-connected path from ``start`` to ``goal``,
    each square costing ``cost``, and its total; (None, inf) when there is none."""
    dist = np.full(size * size, np.inf)
    came = np.full(size * size, -1)
    heap = []
    for i in np.flatnonzero(start):
        dist[i] = 0.0
        heapq.heappush(heap, (0.0, int(i)))
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist[i]:
            continue
        if goal[i]:
            path = []
            j = came[i]
            while j >= 0 and not start[j]:
                path.append(int(j))
                j = came[j]
            return np.array(path, int), d
        r, c = divmod(i, size)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < size and 0 <= cc < size:
                j = rr * size + cc
                step = 0.0 if goal[j] else max(float(cost[j]), 0.0)
                if d + step < dist[j]:
                    dist[j], came[j] = d + step, i
                    heapq.heappush(heap, (d + step, j))
    return None, float("inf")


__all__ = ["HAND_SQUARES", "groups_of", "hand", "hands_only", "joined", "left_counts", "one_group",
           "tile_columns"]
