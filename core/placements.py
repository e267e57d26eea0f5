"""Plays and squares as people and callers write them, read into the engine's terms and said back.

A play comes to the game service as a ``Placement``, ``"8D CAT"`` or ``("8D", "CAT")``, possibly in macondo's
brackets for a multi-letter tile (``8D [CH]ICO``); a square is said back as players say it (``8H``). What cannot
be read is refused with :class:`~tilecam.core.errors.CommandRefused`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tilecam.engine.board import Board
from tilecam.engine.coords import format_coord
from tilecam.engine.errors import EngineError
from tilecam.engine.move import Placement
from tilecam.engine.rules import Rules
from tilecam.core.errors import CommandRefused


def parse_placement(placement: Placement | str | Sequence[str], board: Board | None = None) -> Placement:
    """A placement from a ``Placement``, ``"8D CAT"`` or ``("8D", "CAT")``; with the ``board``, letters written
    over tiles already there count as played through (``H11 ALGAE`` as GCG files write it)."""
    if isinstance(placement, Placement):
        return placement
    try:
        if isinstance(placement, str):
            coord, _, word = placement.strip().partition(" ")
            return Placement.from_gcg(coord, word.strip(), board=board)
        coord, word = placement
        return Placement.from_gcg(coord, word, board=board)
    except (EngineError, ValueError) as exc:
        raise CommandRefused(str(exc), "play") from exc


def encoded(placement: Placement | str | Sequence[str], rules: Rules) -> Placement | str | Sequence[str]:
    """A play written with macondo's brackets (``8D [CH]ICO``, ``[ch]`` a blank for it) in the tile set's
    one-character symbols, which the engine plays; anything else as given."""
    try:
        if isinstance(placement, str) and "[" in placement:
            return rules.tiles.encode(placement)
        if isinstance(placement, (tuple, list)) and len(placement) == 2 and "[" in str(placement[1]):
            return placement[0], rules.tiles.encode(str(placement[1]))
    except EngineError as exc:
        raise CommandRefused(str(exc), "play") from exc
    return placement


def square_name(row: int, col: int) -> str:
    """A square as players say it: ``8H`` (row number, column letter).

    >>> square_name(7, 7), square_name(0, 3)
    ('8H', '1D')
    """
    return format_coord(row, col, True)
