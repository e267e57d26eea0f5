"""What the scoreboard shows, derived from a folded game: the move list, the board, clocks and the open questions.

Nothing here is stored on its own: the game service recomputes the move list (:func:`move_list`, kept with each
event in the store) and the web's state (:func:`game_state`, see docs/ARCHITECTURE.md, "Device and web") from a
:class:`~tilecam.core.fold.Fold` whenever they are asked for. A blank whose letter nobody has named yet is shown as
``?`` wherever its letter would be (:func:`pending_squares`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tilecam.engine.board import Board
from tilecam.engine.move import Placement
from tilecam.engine.scoring import score
from tilecam.core.fold import Fold, stand_in
from tilecam.core.placements import square_name
from tilecam.core.store import PAUSED, MoveRecord

# The move kinds the scoreboard shows as "the last move" (a card or a Magical Word is shown as its own move).
LAST_MOVE_KINDS = ("play", "pass", "exchange", "withdraw", "card", "magical_word")


def game_state(f: Fold, device: Mapping[str, Any], now: Callable[[], float]) -> dict[str, Any]:
    """Everything the scoreboard shows of a game, JSON-ready; ``device`` is the capture loop's status, ``now`` the
    clock the running player's time is read from."""
    g = f.game
    moves = [m.to_dict() for m in move_list(f)]
    return {
        "game_id": f.game_id,
        "seq": f.last_seq,
        "status": f.status,
        "players": [{"name": n, "score": s} for n, s in zip(f.players, g.scores)],
        "turn": None if g.is_over else g.turn,
        "board": board_rows(f),
        "moves": moves,
        "last_move": last_move(f),
        "bag": g.bag_count,
        "racks": g.rack_counts,
        "unseen": unseen(f),
        "is_over": g.is_over,
        "winners": g.winners() if g.is_over else [],
        "finished_reason": None if g.is_over else g.finished_reason,
        "settings": f.settings.to_dict(),
        "size": g.board.size,
        "target": g.target,
        "to_target": g.to_target() if g.target is not None else None,
        "progress": g.progress() if g.target is not None else None,
        "cards": f.rules.cards,
        "magical_words": bool(f.rules.magical_words),
        "clocks": clocks(f, now),
        "pending": questions(f),
        "can_undo": bool(f.actions),
        "device": dict(device),
    }


def move_list(f: Fold) -> list[MoveRecord]:
    """The scoreboard's move list, recomputed from the engine history (word scores re-scored on a scratch
    board, so each word carries its own breakdown)."""
    board = Board(f.rules.board_layout)
    history = f.game.history
    pending = pending_squares(f)
    play_actions = [i for i, a in enumerate(f.actions) if a["kind"] == "play"]
    plays_seen = 0
    rows: list[MoveRecord] = []
    withdrawn: set[int] = set()
    for index, ev in enumerate(history):
        words: tuple[dict[str, Any], ...] = ()
        flags: list[str] = []
        if ev.kind == "play":
            p = ev.placement
            scored = score(board, p, f.rules)
            words = tuple({"word": masked(w.word, w.squares, pending), "score": w.score,
                           "breakdown": w.breakdown} for w in scored.words)
            if scored.bingo:
                words += ({"word": "(bingo)", "score": scored.bingo, "breakdown": f"bingo {scored.bingo}"},)
            for r, c, tile in p.new_tiles():
                board[r, c] = tile
            action_index = play_actions[plays_seen] if plays_seen < len(play_actions) else -1
            plays_seen += 1
            word = f.actions[action_index]["word"] if action_index >= 0 else ev.word
            said_phony = action_index >= 0 and bool(f.actions[action_index].get("phony"))
            if "?" in word:
                flags.append("blank-pending")
            elif said_phony or (f.lexicon is not None and not all(f.game.is_word(w) for w in ev.words)):
                flags.append("phony")
            if action_index in f.corrected:
                flags.append("corrected")
        elif ev.kind == "withdraw":
            for r, c, _tile in ev.placement.new_tiles():
                board[r, c] = None
            for j in range(len(rows) - 1, -1, -1):
                if rows[j].kind == "play" and j not in withdrawn:
                    withdrawn.add(j)
                    rows[j] = MoveRecord(**{**rows[j].to_dict(), "words": rows[j].words,
                                            "flags": (*rows[j].flags, "withdrawn")})
                    break
        word = ev.word
        if ev.kind in ("play", "withdraw"):
            squares = [(r, c) for r, c, _t in ev.placement.squares()]
            word = masked(ev.word, squares, pending) if ev.kind == "play" else ev.word
        rows.append(MoveRecord(index=index, player=ev.player, kind=ev.kind, position=ev.position, word=word,
                               words=words, score=ev.score, cumulative=ev.total, flags=tuple(flags)))
    return rows


def last_move(f: Fold) -> dict[str, Any] | None:
    """The move the scoreboard highlights (one of :data:`LAST_MOVE_KINDS`), with the squares a play filled."""
    for ev in reversed(f.game.history):
        if ev.kind in LAST_MOVE_KINDS:
            d = {"player": ev.player, "kind": ev.kind, "position": ev.position, "word": ev.word,
                 "score": ev.score, "squares": []}
            if ev.kind == "play":
                d["squares"] = [[r, c] for r, c, _t in ev.placement.new_tiles()]
            return d
    return None


def pending_squares(f: Fold) -> set[tuple[int, int]]:
    """Squares holding a blank whose letter nobody has named yet (``?`` in the play that put it there)."""
    stack: list[set[tuple[int, int]]] = []
    for a in f.actions:
        if a["kind"] == "play":
            p = Placement.from_gcg(a["position"], a["word"].replace("?", stand_in(f.rules)))
            stack.append({(r, c) for (r, c, _t), ch in zip(p.squares(), a["word"]) if ch == "?"})
        elif a["kind"] == "withdraw" and stack:
            stack.pop()
    return set().union(*stack) if stack else set()


def board_rows(f: Fold) -> list[str]:
    """The board as text rows, ``?`` on a blank not named yet."""
    rows = [list(r) for r in f.game.board.rows()]
    for r, c in pending_squares(f):
        rows[r][c] = "?"
    return ["".join(r) for r in rows]


def unseen(f: Fold) -> dict[str, int]:
    """Every letter of the tile set (and ``?`` for blanks) with how many are not on the board, zeros kept."""
    not_on_board = f.game.unseen()
    letters = list(f.rules.tiles.letters) + ["?"]
    return {letter: not_on_board.get(letter, 0) for letter in letters}


def questions(f: Fold) -> list[dict[str, Any]]:
    """Questions for the players: blanks whose letter is unknown, an end of game waiting for racks."""
    out: list[dict[str, Any]] = []
    for r, c in sorted(pending_squares(f)):
        out.append({"kind": "blank", "row": r, "col": c, "square": square_name(r, c),
                    "question": f"Which letter is the blank on {square_name(r, c)}?"})
    reason = None if f.game.is_over else f.game.finished_reason
    if reason == "target":  # Finish Line: the game stops as it stands, no racks are counted
        out.append({"kind": "end", "reason": reason,
                    "question": f"The target of {f.game.target} is reached: end the game (no racks count)."})
    elif reason:
        out.append({"kind": "end", "reason": reason, "question": "The game is over: enter the racks left."})
    return out


def clocks(f: Fold, now: Callable[[], float]) -> dict[str, Any]:
    """Time used and left per seat; the running player's time counts up to ``now()`` (asked only while one runs)."""
    used = list(f.clock_used)
    running = None
    if f.status != PAUSED and not f.game.is_over:
        running = f.game.turn
        used[running] += max(0.0, now() - f.turn_started)
    limit = f.settings.clock_seconds
    return {"running": running, "paused": f.status == PAUSED, "used": [round(u, 1) for u in used],
            "remaining": [round(limit - u, 1) for u in used] if limit else None}


def overtime_penalties(f: Fold, now: Callable[[], float]) -> list[tuple[int, int]]:
    """(seat, points) for each player over the clock: the settings' penalty per started minute over."""
    limit = f.settings.clock_seconds
    if not limit:
        return []
    shown = clocks(f, now)
    out = []
    for seat, used in enumerate(shown["used"]):
        over = used - limit
        if over > 0:
            minutes = int(-(-over // 60))
            out.append((seat, minutes * f.settings.overtime_penalty))
    return out


def masked(word: str, squares: Sequence[tuple[int, int]], pending: set[tuple[int, int]]) -> str:
    """``word`` with ``?`` on the squares whose blank is not named yet."""
    return "".join("?" if sq in pending else ch for ch, sq in zip(word, squares))
