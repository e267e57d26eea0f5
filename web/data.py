"""The web's one door to the game data: reads go to the store, changes and the current state to the game service.

Views call these functions and never the service or store directly, so the contract with core/service.py and
core/store.py lives in this one module. Unknown games become 404, refused commands 409, bad values 400.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import abort, current_app, url_for

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
    """Every stored game, newest first, with each player's score after its last move."""
    games = []
    for record in store().games():
        item = record.to_dict()
        scores = [0] * len(record.players)
        for move in store().moves(record.id):
            if 0 <= move.player < len(scores):
                scores[move.player] = move.cumulative
        item["scores"] = scores
        games.append(item)
    return games


def game_record(game_id: int) -> Any:
    from tilecam.core.store import UnknownGame

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


def render_board(rows: list[str], position: str | None = None, word: str | None = None,
                 layout: str = "standard15", tileset: str = "english") -> str:
    """The engine's SVG of ``rows`` on ``layout`` (a bundled layout's name) with ``tileset``'s faces, the play
    ``position word`` highlighted when given."""
    from tilecam.engine import svg
    from tilecam.engine.layout import DATA_DIR, Layout
    from tilecam.engine.tiles import TileSet

    # only bundled names: a query string must not name a file to read
    if layout not in {p.stem for p in DATA_DIR.glob("*.txt")} or tileset not in TileSet.bundled():
        raise ValueError(f"no bundled layout {layout!r} or tile set {tileset!r}")
    board = Board.from_rows(rows, Layout.load(layout))
    last = None
    if position and word:
        last = Placement.from_gcg(position, word)
        off = [(r, c) for r, c, _t in last.squares() if not board.in_bounds(r, c)]
        if off:
            raise ValueError(f"the play {position} {word} runs off the board")
    return svg.render_svg(board, last_move=last, tileset=tileset)


# ------------------------------------------------------------------------------------------------ stored games


def engine_game(game_id: int) -> Any:
    """The engine ``Game`` of a stored game, rebuilt from its events by a private service on the same store (so
    the live service's current game is not switched)."""
    from tilecam.core.service import GameService

    game_record(game_id)
    reviewer = GameService(store(), lexicon=getattr(service(), "lexicon", None))
    reviewer.load(game_id)
    return reviewer.game


def game_review(game_id: int) -> dict[str, Any]:
    """Review frames for a stored game, each play frame with the URL of the photo taken then (if one was kept)."""
    record = game_record(game_id)
    game = engine_game(game_id)
    review = build_review(list(record.players), [e.to_dict() for e in game.history], layout=game.rules.layout,
                          tileset=game.rules.tileset)
    for frame in review["frames"][1:]:
        index = frame["index"] - 1  # the history index the store files snapshots under
        if frame["event"]["kind"] == "play" and store().snapshot(game_id, index) is not None:
            frame["snapshot"] = url_for("api.snapshot", game_id=game_id, move_index=index)
    review["game"] = record.to_dict()
    return review


def game_gcg(game_id: int) -> str:
    from tilecam.engine.gcg import write_gcg

    return write_gcg(engine_game(game_id))


def service_check() -> dict[str, Any]:
    """The web's own health check: the store answers and the service has (or has no) current game."""
    try:
        last = store().last_seq()
        game_id = service().game_id
    except (OSError, ValueError) as exc:  # sqlite3.Error is not a ValueError: caught by the caller's 500 handler
        return {"name": "web", "ok": False, "detail": f"store not readable: {exc}", "essential": True}
    detail = f"last event {last}; " + (f"game {game_id} in progress" if game_id else "no game in progress")
    return {"name": "web", "ok": True, "detail": detail, "essential": True}


# ------------------------------------------------------------------------------------------------ commands


def _square(body: Mapping[str, Any]) -> tuple[int, int]:
    """A square from ``{"row", "col"}`` (0-based) or ``{"square": "H8"}`` / ``"8H"`` (on a 21x21 board to U21)."""
    from tilecam.engine.coords import parse_coord

    if "square" in body:
        text = str(body["square"]).strip()
        game = service().game
        try:
            row, col, _across = parse_coord(text, size=game.board.size if game is not None else 15)
        except ValueError:
            abort(400, description=f"not a square: {text[:10]!r} (write it like H8)")
        return row, col
    try:
        return int(body["row"]), int(body["col"])
    except (KeyError, TypeError, ValueError):
        abort(400, description='give the square as {"square": "H8"} or {"row": 7, "col": 7}')


def _text(body: Mapping[str, Any], key: str, what: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        abort(400, description=f'"{key}" ({what}) is required')
    return value.strip()


def _settings(body: Mapping[str, Any]) -> dict[str, Any]:
    allowed = ("variant", "tileset", "layout", "lexicon", "challenge_rule", "challenge_points", "clock_seconds",
               "overtime_penalty", "level", "target")
    settings = {k: body[k] for k in allowed if k in body and body[k] not in ("", None)}
    for key in ("challenge_points", "clock_seconds", "overtime_penalty", "target"):
        if key in settings:
            try:
                settings[key] = int(settings[key])
            except (TypeError, ValueError):
                abort(400, description=f"{key} must be a whole number")
    if settings.get("clock_seconds") == 0:
        del settings["clock_seconds"]
    return settings


def _new(svc: Any, body: Mapping[str, Any], actor: str) -> dict[str, Any]:
    players = body.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        abort(400, description='"players" must be a list of names, in turn order')
    game_id = svc.new_game([p.strip() for p in players if p.strip()], _settings(body), actor=actor)
    return {"game_id": game_id, "message": f"Game {game_id} started."}


def _play(svc: Any, body: Mapping[str, Any], actor: str):
    position = _text(body, "position", "e.g. 8D across or D8 down")
    word = _text(body, "word", "the tiles, '.' for a played-through square, lower case for a blank")
    return svc.play((position, word), actor=actor)


def _exchange(svc: Any, body: Mapping[str, Any], actor: str):
    raw = body.get("tiles", body.get("count"))
    if isinstance(raw, int) and not isinstance(raw, bool):
        return svc.exchange(raw, actor)
    if not isinstance(raw, str) or not raw.strip():
        abort(400, description='"tiles" (the letters, or how many) is required')
    raw = raw.strip().replace(" ", "")
    if raw.isdigit():
        return svc.exchange(int(raw), actor)
    if not all(ch.isalpha() or ch == "?" for ch in raw):
        abort(400, description='"tiles" must be letters ("?" for a blank) or a number of tiles')
    return svc.exchange(raw.upper(), actor)


def _challenge(svc: Any, body: Mapping[str, Any], actor: str):
    valid = body.get("valid")
    if valid is not None and not isinstance(valid, bool):
        abort(400, description='"valid" must be true, false or left out (the lexicon decides)')
    return svc.challenge(actor, valid=valid)


def _letter(body: Mapping[str, Any]) -> str:
    letter = _text(body, "letter", "one letter")
    if len(letter) != 1:
        abort(400, description='"letter" must be one character')
    return letter


def _end(svc: Any, body: Mapping[str, Any], actor: str):
    racks = body.get("racks") or {}
    if not isinstance(racks, dict):
        abort(400, description='"racks" must map a seat (0, 1, …) to the tiles left on that rack')
    cleaned = {}
    for seat, rack in racks.items():
        if not str(seat).isdigit() or not isinstance(rack, str):
            abort(400, description='"racks" must map a seat (0, 1, …) to the tiles left on that rack')
        cleaned[int(seat)] = rack.strip()  # "" = nothing left on that rack
    return svc.end_game(cleaned or None, actor)


def _whole(body: Mapping[str, Any], key: str) -> int | None:
    """An optional whole number of the body (a form sends it as text); 400 for anything else."""
    value = body.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        abort(400, description=f'"{key}" must be a whole number')
    return value


def _card(svc: Any, body: Mapping[str, Any], actor: str):
    return svc.card(_text(body, "name", "the card's name"), actor, multiplier=_whole(body, "multiplier"),
                    points=_whole(body, "points"))


def _magical_word(svc: Any, body: Mapping[str, Any], actor: str):
    word = body.get("word")
    if word is not None and not isinstance(word, str):
        abort(400, description='"word" must be a word of the play, or left out (its main word)')
    return svc.magical_word(actor, word=word or None)


def _pause(svc: Any, body: Mapping[str, Any], actor: str):
    paused = body.get("paused", True)
    if not isinstance(paused, bool):
        abort(400, description='"paused" must be true or false')
    return svc.pause(actor, paused=paused)


ACTIONS = {
    "new": _new,
    "play": _play,
    "pass": lambda svc, body, actor: svc.pass_turn(actor),
    "exchange": _exchange,
    "challenge": _challenge,
    "withdraw": lambda svc, body, actor: svc.withdraw(actor),
    "set_blank": lambda svc, body, actor: svc.set_blank(*_square(body), _letter(body), actor),
    "correct_tile": lambda svc, body, actor: svc.correct_tile(*_square(body), _letter(body), actor),
    "undo": lambda svc, body, actor: svc.undo(actor),
    "end": _end,
    "pause": _pause,
    "card": _card,
    "magical_word": _magical_word,
}
# The control page's names for the same actions.
ALIASES = {"end_game": "end", "new_game": "new", "pass_turn": "pass"}


def perform(action: str, body: Mapping[str, Any], actor: str) -> dict[str, Any]:
    """Run one players' command; the service's refusal becomes 409 with its reason."""
    from tilecam.core.service import CommandRefused

    handler = ACTIONS.get(ALIASES.get(action, action))
    if handler is None:
        abort(404, description=f"no action {action!r}; one of {', '.join(ACTIONS)}")
    try:
        result = handler(service(), body, actor)
    except CommandRefused as exc:
        abort(409, description=exc.reason)
    except ValueError as exc:  # the typed errors of engine and store: a value the game cannot take
        abort(400, description=str(exc))
    if isinstance(result, dict):
        return result
    return {"seq": result.seq, "kind": result.kind, "payload": result.payload, "message": "Done."}
