"""A game's history turned into what the review page shows: one frame per event, the score progression, statistics.

The input is the engine's event list (``Event.to_dict()`` dicts: kind, player, score, total, position, word, …), so
a stored game and an imported GCG file are reviewed the same way. The board of each frame is rebuilt by laying
down each play's new tiles (and lifting a withdrawn play's); scores are taken from the events, never recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.layout import Layout
from tilecam.engine.move import Placement

BINGO_TILES = 7


def _placement(event: Mapping[str, Any]) -> Placement:
    return Placement.from_gcg(str(event["position"]), str(event["word"]))


def build_review(players: Sequence[str], events: Sequence[Mapping[str, Any]], layout: str = "standard15",
                 tileset: str = "english") -> dict[str, Any]:
    """Frames (frame 0 = the empty board before the first event), totals per frame and statistics, on the game's
    ``layout`` (Super Scrabble's 21x21); ``layout`` and ``tileset`` are in the result for drawing the boards.

    >>> r = build_review(["Ann", "Ben"], [
    ...     {"kind": "play", "player": 0, "score": 24, "total": 24, "position": "8D", "word": "ZA"},
    ...     {"kind": "pass", "player": 1, "score": 0, "total": 0}])
    >>> [f["totals"] for f in r["frames"]], r["frames"][1]["rows"][7]
    ([[0, 0], [24, 0], [24, 0]], '...ZA..........')
    >>> r["stats"]["players"][0]["best"]["score"], r["stats"]["players"][1]["plays"]
    (24, 0)
    """
    board = Board(Layout.load(layout))
    totals = [0] * len(players)
    frames: list[dict[str, Any]] = [
        {"index": 0, "event": None, "rows": board.rows(), "totals": list(totals), "last": None}
    ]
    stats = [
        {"name": name, "plays": 0, "points_from_plays": 0, "bingos": 0, "best": None, "phonies": 0,
         "exchanges": 0, "passes": 0, "turns": 0}
        for name in players
    ]
    plays: list[dict[str, Any]] = []  # plays still on the board, newest last
    for i, raw in enumerate(events, start=1):
        event = dict(raw)
        kind = event.get("kind", "")
        player = int(event.get("player", 0))
        if not 0 <= player < len(players):
            raise ValueError(f"event {i}: player {player} is not one of the {len(players)} players")
        st = stats[player]
        last = None
        if kind == "play":
            placement = _placement(event)
            for r, c, tile in placement.new_tiles():
                board[r, c] = tile
            event["bingo"] = placement.tile_count >= BINGO_TILES
            plays.append(event)
            last = {"position": event["position"], "word": event["word"]}
            st["plays"] += 1
            st["turns"] += 1
            st["points_from_plays"] += int(event.get("score", 0))
            st["bingos"] += int(event["bingo"])
            if st["best"] is None or int(event.get("score", 0)) > st["best"]["score"]:
                st["best"] = {"score": int(event.get("score", 0)), "position": event["position"],
                              "word": event["word"], "frame": i}
        elif kind == "withdraw":
            # GCG's "--" line names no play: it takes back the last play on the board.
            if not plays:
                raise ValueError(f"event {i}: a withdrawal with no play before it")
            taken = plays.pop()
            event.setdefault("position", taken["position"])
            event["position"] = event["position"] or taken["position"]
            event["word"] = event.get("word") or taken["word"]
            for r, c, _tile in _placement(taken).new_tiles():
                board[r, c] = None
            st["phonies"] += 1
            st["plays"] -= 1
            st["points_from_plays"] += int(event.get("score", 0))
            st["bingos"] -= int(bool(frames[-1]["event"] and frames[-1]["event"].get("bingo")))
            if st["best"] is not None and st["best"]["frame"] == i - 1:
                st["best"] = _best_play(frames[1:-1], player)
        elif kind == "exchange":
            st["exchanges"] += 1
            st["turns"] += 1
        elif kind == "pass":
            st["passes"] += 1
            st["turns"] += 1
        elif kind == "lose_turn":
            st["turns"] += 1
        totals[player] = int(event.get("total", totals[player] + int(event.get("score", 0))))
        frames.append({"index": i, "event": event, "rows": board.rows(), "totals": list(totals), "last": last})
    for st in stats:
        st["average_per_turn"] = round(st["points_from_plays"] / st["turns"], 1) if st["turns"] else 0.0
        st["final"] = totals[stats.index(st)]
    return {"players": list(players), "frames": frames, "stats": {"players": stats}, "layout": layout,
            "tileset": tileset}


def _best_play(frames: Sequence[Mapping[str, Any]], player: int) -> dict[str, Any] | None:
    """The highest-scoring play of ``player`` among ``frames`` still on the board (withdrawn ones excluded)."""
    best = None
    withdrawn = {f["index"] - 1 for f in frames if f["event"] and f["event"]["kind"] == "withdraw"}
    for f in frames:
        e = f["event"]
        if e and e["kind"] == "play" and int(e["player"]) == player and f["index"] not in withdrawn:
            if best is None or int(e["score"]) > best["score"]:
                best = {"score": int(e["score"]), "position": e["position"], "word": e["word"], "frame": f["index"]}
    return best
