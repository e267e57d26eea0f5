"""The most probable board a tile set allows: no more of a tile on the board than the set holds.

    calibrated probabilities (squares x classes) + the tile set ──within_tile_counts──▶ each square's class

A board cannot hold a third blank of an English set or a fourth G: where the most probable class of every square,
taken alone, reads more of a tile than there are, the squares read least surely as that tile (the least lost by
taking their next class instead) take their next class, until every tile is within its count. Bare squares, hands
and letters the set lacks a count for are not limited. Nothing of the probabilities is changed: this is the one
place a single photo's squares are decided jointly, by the rules of the game rather than by a threshold.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from tilecam.vision.classify import BLANK


def tile_caps(classes: Sequence[str], tileset) -> dict[int, int]:
    """Class index → how many tiles of it the set ``tileset`` (a ``TileSet`` or its name; None: no limit) holds,
    for the model's letter classes of that set and its blank."""
    if tileset is None:
        return {}
    if isinstance(tileset, str):
        from tilecam.engine.tiles import TileSet

        tileset = TileSet.load(tileset)
    held = dict(zip(tileset.letters, tileset.counts))
    held[BLANK] = tileset.blanks
    return {i: held[c] for i, c in enumerate(classes) if c in held}


def within_tile_counts(probs: np.ndarray, caps: dict[int, int]) -> np.ndarray:
    """Each square's class index (``probs``: squares x classes): its most probable class, except that no class of
    ``caps`` is read on more squares than its count there; the extra squares read least surely as it (smallest
    drop in log-probability to their next class) take their next class, and so on while any class is over."""
    choice = probs.argmax(axis=1)
    if not caps:
        return choice
    logp = np.log(np.maximum(probs, 1e-30))
    barred = np.zeros(probs.shape, bool)
    while True:
        moved = False
        for c, cap in caps.items():
            over = np.flatnonzero(choice == c)
            if len(over) <= cap:
                continue
            others = np.where(barred[over], -np.inf, logp[over])
            others[:, c] = -np.inf
            loss = logp[over, c] - others.max(axis=1)
            give_up = over[np.argsort(loss, kind="stable")[:len(over) - cap]]
            barred[give_up, c] = True
            choice[give_up] = np.where(barred[give_up], -np.inf, logp[give_up]).argmax(axis=1)
            moved = True
        if not moved:
            return choice
