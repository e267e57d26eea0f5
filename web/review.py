"""Review pages: the list of recorded games, the move-by-move replay, and viewing an imported GCG file.

The replay page is static HTML plus static/js/review.js, which loads the frames from the JSON API
(``/api/games/<id>/review``, or ``/review/imported/<key>.json`` for an imported file).
An imported file is parsed, kept in memory for viewing (a few at most, oldest dropped) and never written to the
store: importing is for looking at a game, not for changing the record.
"""

from __future__ import annotations

import datetime as dt
import secrets
import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, redirect, render_template, request, url_for

from tilecam.engine.errors import EngineError
from tilecam.engine.gcg import read_gcg
from tilecam.web import data
from tilecam.web.auth import same_origin
from tilecam.web.replay import build_review

bp = Blueprint("review", __name__, url_prefix="/review")

MAX_IMPORTS = 20


class ImportedGames:
    """Imported GCG games by random key, newest kept (at most ``limit``)."""

    def __init__(self, limit: int = MAX_IMPORTS) -> None:
        self.limit = limit
        self._games: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: dict[str, Any]) -> str:
        key = secrets.token_urlsafe(9)
        with self._lock:
            self._games[key] = item
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
        return key

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            return self._games.get(key)


def parse_gcg_upload(text: str) -> dict[str, Any]:
    """An uploaded GCG as review data plus the text itself; raises ``EngineError`` (a ValueError) if unreadable."""
    game = read_gcg(text)
    if len(game.players) < 2:
        raise EngineError("a GCG game needs #player1 and #player2 lines")
    names = [p.name or p.nick for p in game.players]
    rules = game.rules()
    review = build_review(names, [e.to_dict() for e in game.events], layout=rules.layout, tileset=rules.tileset)
    return {"names": names, "review": review, "gcg": text}


@bp.get("/")
def games():
    rows = []
    for g in data.list_games():
        item = dict(g)
        created = item.get("created")
        item["created_text"] = (
            dt.datetime.fromtimestamp(created).strftime("%Y-%m-%d %H:%M") if isinstance(created, (int, float)) else ""
        )
        rows.append(item)
    return render_template("games.html", games=rows)


@bp.get("/<int:game_id>")
def game(game_id: int):
    info = data.game_info(game_id)
    return render_template(
        "review.html",
        title=f"Game {game_id}: " + " vs ".join(info["players"]),
        review_url=url_for("api.game_review", game_id=game_id),
        snapshot_url=None,
        exports=[("GCG", url_for("api.game_gcg", game_id=game_id)),
                 ("JSON", url_for("api.game_json", game_id=game_id))],
    )


@bp.post("/import")
def import_gcg():
    if not same_origin():
        abort(403, description="cross-origin request refused")
    upload = request.files.get("file")
    text = ""
    if upload is not None and upload.filename:
        raw = upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")
    if not text.strip():
        text = request.form.get("text", "")
    if not text.strip():
        abort(400, description="choose a GCG file or paste its text")
    try:
        item = parse_gcg_upload(text)
    except ValueError as exc:
        abort(400, description=f"not a readable GCG game: {exc}")
    key = current_app.extensions["tilecam.imports"].add(item)
    return redirect(url_for("review.imported", key=key), code=303)


def _imported_or_404(key: str) -> dict[str, Any]:
    item = current_app.extensions["tilecam.imports"].get(key)
    if item is None:
        abort(404, description="that imported game is no longer kept; import the file again")
    return item


@bp.get("/imported/<key>")
def imported(key: str):
    item = _imported_or_404(key)
    return render_template(
        "review.html",
        title="Imported: " + " vs ".join(item["names"]),
        review_url=url_for("review.imported_json", key=key),
        snapshot_url=None,
        exports=[("GCG", url_for("review.imported_gcg", key=key)),
                 ("JSON", url_for("review.imported_json", key=key))],
    )


@bp.get("/imported/<key>.json")
def imported_json(key: str):
    return jsonify(_imported_or_404(key)["review"])


@bp.get("/imported/<key>.gcg")
def imported_gcg(key: str):
    item = _imported_or_404(key)
    return current_app.response_class(
        item["gcg"], mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="imported-{key}.gcg"'},
    )
