"""The scoreboard's view model: the service's state plus what the page draws from it (board SVG, tracking sheet).

The page script (static/js/live.js) reads only the keys listed in :data:`VIEW_KEYS`; this module is where the
service's state is mapped onto them, so a change in the service touches one function.
"""

from __future__ import annotations

from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.move import Placement

VIEW_KEYS = ("seq", "game_id", "status", "players", "turn", "board", "board_svg", "last_move", "moves", "bag",
             "unseen", "unseen_total")


def board_svg(rows: list[str] | None, last_move: dict[str, Any] | None) -> str:
    """The engine's drawing of the board, the last play highlighted (blanks are marked by the engine)."""
    from tilecam.engine import svg

    board = Board.from_rows(rows) if rows else Board()
    placement = None
    if last_move and last_move.get("kind") == "play" and last_move.get("position") and last_move.get("word"):
        placement = Placement.from_gcg(last_move["position"], last_move["word"])
    return svg.render_svg(board, last_move=placement)


def decorate_state(state: dict[str, Any]) -> dict[str, Any]:
    """The service's ``state()`` made into the view model (a new dict; the service's is not changed)."""
    view = dict(state)
    view.setdefault("status", "none")
    view.setdefault("players", [])
    view.setdefault("moves", [])
    unseen = view.get("unseen") or {}
    view["unseen_total"] = sum(unseen.values()) if unseen else view.get("unseen_total")
    view["board_svg"] = board_svg(view.get("board"), view.get("last_move"))
    return view
