"""Which word list judges a game: decided here, from the game's settings, and nowhere else.

``tilecam run`` (the daemon: its service and its move tracker), ``tilecam serve`` and the web (the service they
open), and ``tilecam replay`` all ask :func:`lexicon_for`. A game's ``lexicon`` setting is one of:

* the name of a word list shipped with the engine (``enable1``): used only for the tile sets it is written for.
  ENABLE is English, so a German game whose settings say ``enable1`` (the default) has no lexicon — its plays are
  never judged against English words; challenges are then decided by the players;
* ``none``: no word list, whatever the tile set;
* the path of a plain word list (one word a line, UTF-8): used for any tile set, read in that set's tiles (Spanish
  ``CHICO`` is the CH tile + ``ICO``, an accent the set lacks is dropped: see :mod:`tilecam.engine.lexicon`).

>>> lexicon_for("german", "enable1") is None
True
>>> "QUANT" in lexicon_for("english", "enable1")
True
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from tilecam.engine.errors import EngineError, LexiconError
from tilecam.engine.lexicon import Lexicon
from tilecam.engine.tiles import TileSet

#: The word lists shipped with the engine, by the name a game's settings use, with the tile sets whose games they
#: can judge (a list judges only games in its own language).
BUNDLED: dict[str, tuple[str, ...]] = {"enable1": ("english", "english-super")}

#: The setting that asks for no word list at all.
NO_LEXICON = "none"

#: The setting of a game that does not say (the stored default; it means "the shipped list if it fits").
DEFAULT_NAME = "enable1"


class LexiconChoiceError(ValueError):
    """A lexicon setting that names neither a shipped word list nor a readable word-list file."""


def lexicon_for(tileset: str, name: str | None = None) -> Lexicon | None:
    """The word list for a game with this tile set and ``lexicon`` setting (None: :data:`DEFAULT_NAME`), or None
    when the game has none. Loaded once per process (the compiled form is cached on disk too)."""
    return _load(tileset, (name or DEFAULT_NAME).strip())


def lexicon_for_settings(settings: Any) -> Lexicon | None:
    """:func:`lexicon_for` of a game's settings (anything with ``tileset`` and ``lexicon``, or their dict)."""
    if isinstance(settings, dict):
        return lexicon_for(settings.get("tileset", "english"), settings.get("lexicon"))
    return lexicon_for(settings.tileset, settings.lexicon)


@functools.lru_cache(maxsize=8)
def _load(tileset: str, name: str) -> Lexicon | None:
    if name.lower() == NO_LEXICON:
        return None
    if name in BUNDLED:
        return Lexicon.load() if tileset in BUNDLED[name] else None
    path = Path(name).expanduser()
    if not path.is_file() and (path.suffix or len(path.parts) > 1):
        raise LexiconChoiceError(f"word list {path} does not exist")
    if not path.is_file():
        raise LexiconChoiceError(f"unknown lexicon {name!r}: neither a shipped word list "
                                 f"({', '.join(BUNDLED)}), {NO_LEXICON!r}, nor a word-list file")
    try:
        tiles = TileSet.load(tileset)
    except EngineError:
        tiles = None  # a tile set the engine cannot load is refused by the game's rules, not here
    try:
        return Lexicon.load(path, tileset=tiles)
    except LexiconError as exc:
        raise LexiconChoiceError(str(exc)) from exc
