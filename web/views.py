"""The scoreboard's view model: the service's state plus what the page draws from it.

static/js/live.js reads only the keys below; this module is where :meth:`GameService.state` is mapped onto them,
so a change in the service touches one function.

- ``seq``, ``game_id``, ``status`` (``none`` | ``active`` | ``paused`` | ``finished`` | ``abandoned``), ``turn``
- ``players``: ``[{"name", "score", "rack_count", "clock"}]``; ``clock`` is None without clocks, else
  ``{"remaining_s", "running", "penalty", "penalty_per_minute"}`` (remaining goes negative in overtime; the penalty
  is ``penalty_per_minute`` for every started minute over)
- ``board`` (15 rows of board text), ``board_svg`` (the engine's drawing, the last play outlined, blanks marked)
- ``last_move``: the service's last move with its ``words`` (word, score, breakdown), ``flags`` and ``bingo``
- ``moves`` (the store's move records), ``bag``, ``unseen`` (letter → count), ``unseen_total``, ``pending``
- the variant's: ``size`` (15, Super Scrabble 21), ``target`` / ``to_target`` / ``progress`` (Finish Line, else
  None), ``cards`` / ``magical_words`` (Harry Potter: the control page offers them), ``variant_title``
- a tile set with two-letter tiles (Spanish) is shown in its faces: the move list's words in macondo's GCG spelling
  (``[CH]ICO``), ``unseen`` keyed by face (``CH``); ``board`` stays board text (one symbol a square)
"""

from __future__ import annotations

import math
from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.errors import EngineError
from tilecam.engine.layout import Layout
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet

DEFAULT_LAYOUT, DEFAULT_TILESET = "standard15", "english"  # what a page with no game draws


def board_svg(rows: list[str] | None, last_move: dict[str, Any] | None, layout: str = DEFAULT_LAYOUT,
              tileset: str = DEFAULT_TILESET) -> str:
    """The engine's drawing of the board on the game's ``layout`` (Super Scrabble's 21x21), tiles as the
    ``tileset`` shows them, the last play highlighted (blanks are marked by the engine)."""
    from tilecam.engine import svg

    board_layout = Layout.load(layout)
    board = Board.from_rows(rows, board_layout) if rows else Board(board_layout)
    placement = None
    if last_move and last_move.get("kind") == "play" and last_move.get("position") and last_move.get("word"):
        placement = Placement.from_gcg(last_move["position"], last_move["word"])
    return svg.render_svg(board, last_move=placement, tileset=tileset)


def _tiles(name: str) -> TileSet | None:
    try:
        return TileSet.load(name)
    except EngineError:
        return None


def shown_in_faces(view: dict[str, Any], tiles: TileSet) -> None:
    """Words and unseen tiles of a set with two-letter tiles spelt as people read them (in place)."""
    def word(text: Any) -> Any:
        return tiles.decode(text) if isinstance(text, str) else text

    moves = []
    for move in view.get("moves") or []:
        move = {**move, "word": word(move.get("word"))}
        move["words"] = [{**w, "word": word(w.get("word"))} for w in move.get("words") or []]
        moves.append(move)
    view["moves"] = moves
    last = view.get("last_move")
    if last:
        view["last_move"] = {**last, "word": word(last.get("word")),
                             "words": [{**w, "word": word(w.get("word"))} for w in last.get("words") or []]}
    view["unseen"] = {tiles.face(k) if k in tiles.letters else k: n for k, n in (view.get("unseen") or {}).items()}


def player_clocks(state: dict[str, Any]) -> list[dict[str, Any] | None]:
    """Each player's clock for the page, from the service's ``clocks`` and the game's overtime penalty."""
    n = len(state.get("players") or [])
    clocks = state.get("clocks") or {}
    remaining = clocks.get("remaining")
    if not remaining:
        return [None] * n
    per_minute = int((state.get("settings") or {}).get("overtime_penalty", 10))
    out = []
    for seat in range(n):
        left = float(remaining[seat])
        out.append({
            "remaining_s": left,
            "running": clocks.get("running") == seat,
            "penalty": math.ceil(-left / 60) * per_minute if left < 0 else 0,
            "penalty_per_minute": per_minute,
        })
    return out


def _last_move(state: dict[str, Any]) -> dict[str, Any] | None:
    """The service's last move joined with its move record (words with breakdowns, flags)."""
    last = state.get("last_move")
    if not last:
        return None
    view = dict(last)
    for record in reversed(state.get("moves") or []):
        if (record.get("kind"), record.get("position"), record.get("word")) == (
            last.get("kind"), last.get("position"), last.get("word")
        ):
            words = [w for w in record.get("words", []) if w.get("word") != "(bingo)"]
            view["words"] = words
            view["bingo"] = len(words) != len(record.get("words", []))
            view["flags"] = list(record.get("flags", []))
            break
    return view


def decorate_state(state: dict[str, Any]) -> dict[str, Any]:
    """The service's ``state()`` made into the view model (a new dict; the service's is not changed)."""
    view = dict(state)
    if view.get("game_id") is None:
        view["status"] = "none"
    view.setdefault("status", "none")
    view["players"] = [dict(p) for p in view.get("players") or []]
    racks = view.get("racks") or []
    for seat, (player, clock) in enumerate(zip(view["players"], player_clocks(view))):
        player["clock"] = clock
        player["rack_count"] = racks[seat] if seat < len(racks) else None
    view.setdefault("moves", [])
    view["last_move"] = _last_move(view)
    unseen = view.get("unseen") or {}
    view["unseen_total"] = sum(unseen.values()) if unseen else (0 if view["status"] != "none" else None)
    settings = view.get("settings") or {}
    layout, tileset = settings.get("layout", DEFAULT_LAYOUT), settings.get("tileset", DEFAULT_TILESET)
    view["board_svg"] = board_svg(view.get("board"), view.get("last_move"), layout, tileset)
    tiles = _tiles(tileset)
    if tiles is not None and tiles.multi_letter:
        shown_in_faces(view, tiles)
    view["variant_title"] = _variant_title(settings.get("variant"))
    return view


def _variant_title(name: str | None) -> str | None:
    """The registry's title of the game's variant (None without a game or for a variant it does not know)."""
    from tilecam.engine.variants import variant

    try:
        return variant(name).title if name else None
    except EngineError:
        return None
