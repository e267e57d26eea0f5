"""What every stage of board localisation (:mod:`tilecam.vision.locate`) shares: its settings and its failure.

They live apart from the pipeline so that the stages (:mod:`~tilecam.vision.outlines`,
:mod:`~tilecam.vision.lattice`, :mod:`~tilecam.vision.layoutcheck`) can take them without importing it.
"""

from __future__ import annotations

from dataclasses import dataclass


class BoardNotFound(ValueError):
    """No Scrabble grid could be found in the frame."""


@dataclass(frozen=True)
class LocateConfig:
    work_px: int = 512            # the outline is searched on a frame downscaled to this longer side
    lattice_px: int = 480         # side of the square the outline is warped to for the lattice search
    min_board_fraction: float = 0.08   # the outline must cover at least this share of the frame
    min_score: float = 1.6        # lattice response / off-lattice response below this: no board
    hint_min_score: float = 1.8   # a previous location is kept only if it still scores this well
    size: int = 15
    refinements: int = 2         # line-by-line passes on the grid found so far
