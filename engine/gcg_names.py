"""The names other programs use in GCG: the pragmas that say which game a record is, read and written.

macondo (and so Woogles) names a game by ``#tile-distribution`` (``english``, ``english_super``, ``french``,
``german``, ``spanish``, ``polish``, ``dutch`` …), ``#board-layout`` (``CrosswordGame``, ``SuperCrosswordGame``)
and ``#game-type`` (``classic``, ``classic_super``, ``wordsmog`` for Clabbers); ``nine-tile`` and ``romanian`` are
the project's own names where macondo has none. The names live in the variant registry
(:mod:`tilecam.engine.variants`); this module only maps between them and :class:`~tilecam.engine.rules.Rules`.
``#lexicon`` may name anything: a lexicon the project does not know means no word judgement, never a refusal.

>>> rules_from_pragmas({"tile-distribution": "english_super", "board-layout": "SuperCrosswordGame"}).layout
'super21'
>>> pragmas_for(rules_from_pragmas({"game-type": "nine-tile"}))["game-type"]
'nine-tile'
>>> pragmas_for(Rules())
{}
"""

from __future__ import annotations

import functools
from typing import Any

from .errors import GcgSyntaxError, RulesError
from .layout import DATA_DIR as LAYOUT_DIR
from .rules import Rules
from .tiles import TileSet
from .variants import layout_gcg_name, tileset_info, tilesets, variants

STANDARD = Rules()  # what a record without these pragmas is played under (English tiles, the 15x15 board)
CLASSIC = "classic"  # macondo's game type of the plain game: never written, as it is what a reader assumes


@functools.lru_cache(maxsize=None)
def _layouts_by_gcg() -> dict[str, str]:
    names = {}
    for path in sorted(LAYOUT_DIR.glob("*.txt")):
        try:
            names[layout_gcg_name(path.stem)] = path.stem
        except RulesError:  # a layout file the registry does not list has no GCG name
            continue
    return names


def tileset_name(distribution: str) -> str:
    """The project's tile set for a ``#tile-distribution`` name (``english_super`` → ``english-super``)."""
    for info in tilesets():
        if distribution.lower() in (info.gcg.lower(), info.name):
            return info.name
    known = ", ".join(info.gcg for info in tilesets())
    raise GcgSyntaxError(0, f"unknown #tile-distribution {distribution!r}; one of {known}")


def tileset_of(pragmas: dict[str, str]) -> TileSet | None:
    """The tile set the record's ``#tile-distribution`` names, or None without the pragma."""
    name = pragmas.get("tile-distribution")
    return TileSet.load(tileset_name(name)) if name else None


def rules_from_pragmas(pragmas: dict[str, str], tileset: str | None = None, **changes: Any) -> Rules:
    """The rules a record's pragmas name: ``#game-type`` picks the variant, ``#tile-distribution`` the tile set
    (else ``tileset``, else English), ``#board-layout`` the board (else the variant's); ``changes`` last.
    Raises ``GcgSyntaxError`` for a name the project does not know, saying which it knows."""
    fields: dict[str, Any] = {}
    game_type = pragmas.get("game-type", "").strip()
    if game_type and game_type != CLASSIC:
        found = [v for v in variants() if v.gcg_game_type == game_type]
        if not found:
            known = sorted({v.gcg_game_type for v in variants()})
            raise GcgSyntaxError(0, f"unknown #game-type {game_type!r}; one of {', '.join(known)}")
        fields.update(found[0].rules)
    if "tile-distribution" in pragmas:
        fields["tileset"] = tileset_name(pragmas["tile-distribution"].strip())
    elif tileset is not None:
        fields["tileset"] = tileset
    if "board-layout" in pragmas:
        layout = pragmas["board-layout"].strip()
        if layout not in _layouts_by_gcg():
            known = ", ".join(_layouts_by_gcg())
            raise GcgSyntaxError(0, f"unknown #board-layout {layout!r}; one of {known}")
        fields["layout"] = _layouts_by_gcg()[layout]
    return Rules(**{**fields, **changes})


def _same(value: Any, wanted: Any) -> bool:
    return tuple(value) == tuple(wanted) if isinstance(wanted, (list, tuple)) else value == wanted


def pragmas_for(rules: Rules) -> dict[str, str]:
    """The pragmas that name ``rules`` for another program: only what differs from the standard English game.

    A name macondo lacks (``nine-tile``, ``romanian``) is written all the same, with the registry's sentence
    saying so under ``"note"``; each multi-letter tile gets its ``#tile [CH] [ch]`` line (under ``"tile"``, one
    line per tile)."""
    out: dict[str, str] = {}
    notes = []
    # a variant's game type is written when the rules have all its fields but the tile set (Super Scrabble is
    # its board, whatever the tiles)
    game_types = [v for v in variants() if v.gcg_game_type != CLASSIC
                  and all(_same(getattr(rules, k), x) for k, x in v.rules.items() if k != "tileset")]
    if game_types:
        out["game-type"] = game_types[0].gcg_game_type
        notes.append(game_types[0].gcg_note)
    if rules.tileset != STANDARD.tileset:
        try:
            info = tileset_info(rules.tileset)
            out["tile-distribution"] = info.gcg
            notes.append(info.gcg_note)
        except RulesError:  # a user's .tsv by path: no name another program would know
            notes.append(f"tiles from {rules.tileset}, a tile set other programs do not know")
        tiles = rules.tiles
        faces = [f for f in tiles.faces if len(f) > 1]
        if faces:
            out["tile"] = "\n".join(f"[{f}] [{f.lower()}]" for f in faces)
    if rules.layout != STANDARD.layout:
        try:
            out["board-layout"] = layout_gcg_name(rules.layout)
        except RulesError:
            notes.append(f"board {rules.layout}, a layout other programs do not know")
    notes = [n for n in notes if n]
    if notes:
        out["note"] = "\n".join(notes)
    return out
