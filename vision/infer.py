"""Moved to :mod:`tilecam.vision.moves`; these names stay importable from here for modules not yet changed."""

from tilecam.vision.moves.interpret import diff_board, interpret
from tilecam.vision.moves.reading import BLANK, EMPTY, OCCLUDED, Reading, ReadingError, as_reading
from tilecam.vision.moves.decide import ResolvePolicy
from tilecam.vision.moves.resolve import NotAMove, resolve_move

__all__ = ["BLANK", "EMPTY", "OCCLUDED", "NotAMove", "Reading", "ReadingError", "ResolvePolicy", "as_reading",
           "diff_board", "interpret", "resolve_move"]
