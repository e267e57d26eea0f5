"""The web's one door to the game data: reads go to the store, changes and the current state to the game service.

Views call these functions and never the service or store directly, so the contract with firmware/service.py and
firmware/store.py lives in this one module. Unknown games become 404, refused commands 409, bad values 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, current_app

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.web.replay import build_review


def service() -> Any:
    return current_app.extensions["tilecam.service"]


def store() -> Any:
    return service().store


def _unknown_game(game_id: int):
    abort(404, description=f"no game {game_id}")


def list_games() -> list[dict[str, Any]]:
    return [g.to_dict() for g in store().games()]


def game_record(game_id: int) -> Any:
    from tilecam.firmware.store import UnknownGame

    try:
        return store().game(game_id)
    except UnknownGame:
        _unknown_game(game_id)


def game_info(game_id: int) -> dict[str, Any]:
    return game_record(game_id).to_dict()


def game_moves(game_id: int) -> list[dict[str, Any]]:
    return [m.to_dict() for m in store().moves(game_id)]


def game_store_events(game_id: int, after: int) -> list[Any]:
    return store().events(game_id, after_seq=after)


def events_after(after: int, limit: int) -> list[Any]:
    return store().events(after_seq=after, limit=limit)


def snapshot(game_id: int, move_index: int) -> bytes | None:
    game_record(game_id)
    return store().snapshot(game_id, move_index)


def render_board(rows: list[str], position: str | None = None, word: str | None = None) -> str:
    """The engine's SVG of ``rows``, with the play ``position word`` highlighted when given."""
    from tilecam.engine import svg

    board = Board.from_rows(rows)
    last = Placement.from_gcg(position, word) if position and word else None
    return svg.render_svg(board, last_move=last)
