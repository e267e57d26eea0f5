"""The engine's errors: every one a ``ValueError`` subclass, split by cause so callers can catch what they mean."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error the engine raises on bad input."""


class DataFileError(EngineError):
    """A layout, tile-set or other rules data file is missing or malformed."""


class BoardTextError(EngineError):
    """Board text (15 strings of 15 characters) is malformed."""


class RulesError(EngineError):
    """A ``Rules`` value that makes no sense (unknown challenge rule, rack of 0 tiles …)."""


class CoordinateError(EngineError):
    """A GCG coordinate such as ``8D`` or ``D8`` cannot be read or lies off the board."""


class IllegalPlacement(EngineError):
    """Tiles are not placed legally: not in one line, not contiguous, not connected, on occupied squares …"""


class IllegalMove(EngineError):
    """A move the game state does not allow now: wrong turn, exchange with too few tiles in the bag, game over …"""


class PhonyWord(EngineError):
    """A play formed words that are not in the lexicon (raised only where the challenge rule refuses them at once)."""

    def __init__(self, words: list[str] | tuple[str, ...]):
        self.words = tuple(words)
        super().__init__("not in the lexicon: " + ", ".join(self.words))


class LexiconError(EngineError):
    """A word list cannot be loaded: missing, empty, or holding characters outside the alphabet."""


class GcgSyntaxError(EngineError):
    """A GCG file line cannot be read. ``line_no`` is 1-based; ``problems`` lists every problem the reader found."""

    def __init__(self, line_no: int, message: str, problems: list["GcgSyntaxError"] | None = None):
        self.line_no = line_no
        self.message = message
        self.problems = problems if problems is not None else [self]
        more = len(self.problems) - 1
        suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more > 0 else ""
        super().__init__(f"line {line_no}: {message}{suffix}")


class GcgReplayError(EngineError):
    """A GCG record reads fine but cannot be replayed: the move on ``line_no`` is illegal on the board so far."""

    def __init__(self, line_no: int, message: str):
        self.line_no = line_no
        self.message = message
        super().__init__(f"line {line_no}: {message}")
