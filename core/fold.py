"""The fold: a game rebuilt from its stored events, one event at a time.

The game service is event-sourced: a game is the fold of its stored events over a fresh ``tilecam.engine`` game.
:func:`apply_event` folds one event into a :class:`Fold`: a game action (:data:`ACTIONS`) is one engine undo step,
``undo`` takes the last one back, a correction (:data:`CORRECTIONS`) rewrites the tile of an earlier play and
rebuilds the game from the rewritten actions (:func:`rewrite`), ``pause`` stops and restarts the clocks. Clocks
are kept from event times (:func:`tick_clock`): the player to move uses time from the event that gave them the turn.

Nothing here touches the store: the service stores an event only after folding it into a copy (:func:`clone`)
was accepted. A fresh fold needs the game's rules and word list, which the service decides, so the functions that
start a game again take the service's ``new_fold(game_id, players, settings)``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tilecam.engine.errors import EngineError
from tilecam.engine.game import Game
from tilecam.engine.move import Placement, word_without
from tilecam.engine.rules import Rules
from tilecam.core.errors import CommandRefused
from tilecam.core.placements import square_name
from tilecam.core.store import ACTIVE, PAUSED, GameSettings

# Stored event kinds that are game actions (one engine undo step each, replayed in order); ``card`` and
# ``magical_word`` are the Harry Potter edition's scored events after a play.
ACTIONS = ("play", "pass", "exchange", "challenge", "withdraw", "end", "time_penalty", "card", "magical_word")
CORRECTIONS = ("set_blank", "correct_tile", "remove_tile")


@dataclass
class Fold:
    """A game rebuilt from its events: the engine game, the actions it is made of, clock bookkeeping."""

    game_id: int
    players: list[str]
    settings: GameSettings
    rules: Rules
    game: Game
    lexicon: Any = None  # the word list that judges this game (None: the players decide challenges)
    actions: list[dict[str, Any]] = field(default_factory=list)  # one per engine undo step, in order
    corrected: set[int] = field(default_factory=set)            # indices into actions of plays a correction changed
    last_seq: int = 0
    status: str = ACTIVE
    clock_used: list[float] = field(default_factory=list)
    turn_started: float = 0.0


#: The service's way to start a game again with nothing played: ``new_fold(game_id, players, settings)``.
NewFold = Callable[[int, list[str], GameSettings], Fold]


def apply_event(f: Fold, kind: str, payload: dict[str, Any], t: float, new_fold: NewFold) -> dict[str, Any]:
    """Fold one stored event into ``f``; returns fields worth adding to a new event's payload (its score)."""
    if kind == "pause":
        tick_clock(f, t)
        f.status = PAUSED if payload.get("paused") else ACTIVE
        return {}
    if kind in ("abandon", "note"):
        return {}
    if kind == "undo":
        if not f.actions:
            raise CommandRefused("nothing to undo", "undo")
        tick_clock(f, t)
        undone = f.actions.pop()
        f.game.undo()
        f.corrected.discard(len(f.actions))
        # The overtime penalties an end applied go with it.
        while undone["kind"] == "end" and f.actions and f.actions[-1].get("with_end"):
            f.actions.pop()
            f.game.undo()
        return {}
    if kind in CORRECTIONS:
        rewrite(f, int(payload["row"]), int(payload["col"]), str(payload["letter"]), kind, new_fold)
        return {}
    if kind not in ACTIONS:
        return {}  # an event kind from a newer tilecam: kept in the store, ignored here
    tick_clock(f, t)
    before = len(f.game.history)
    run_action(f, {"kind": kind, **payload})
    new_events = f.game.history[before:]
    if kind in ("play", "card", "magical_word") and new_events:
        return {"score": new_events[-1].score}
    if kind == "end":
        return {"scores": f.game.scores}
    return {}


def run_action(f: Fold, action: dict[str, Any]) -> bool:
    """Run one game action on the engine; True when it made an undo step (recorded in ``f.actions``)."""
    g, kind = f.game, action["kind"]
    if kind == "play":
        # The engine refuses a blank without a letter; a pending blank is played as a stand-in letter (a blank
        # scores 0 whatever it stands for, and legality ignores letters) and shown as ``?`` (see
        # scoreboard.pending_squares).
        word = action["word"].replace("?", stand_in(f.rules))
        g.play(Placement.from_gcg(action["position"], word), rack=action.get("rack", ""),
               player=action.get("player"))
    elif kind == "pass":
        g.pass_turn(player=action.get("player"))
    elif kind == "exchange":
        g.exchange(action["letters"] if action.get("letters") else int(action.get("count", 0)),
                   player=action.get("player"))
    elif kind == "challenge":
        if g.challenge(valid=bool(action["valid"]), challenger=action.get("challenger")) is None:
            return False  # a good play under single/void challenge: nothing changes, nothing to undo
    elif kind == "withdraw":
        g.withdraw()
    elif kind == "time_penalty":
        g.time_penalty(int(action["player"]), int(action["points"]))
    elif kind == "card":
        g.card(action["name"], multiplier=action.get("multiplier"), points=action.get("points"),
               player=action.get("player"))
    elif kind == "magical_word":
        g.magical_word(action.get("word"), player=action.get("player"))
    elif kind == "end":
        for seat, points in action.get("penalties", ()):
            g.time_penalty(int(seat), int(points))
            f.actions.append({"kind": "time_penalty", "player": seat, "points": points, "with_end": True})
        racks = {int(k): v for k, v in (action.get("racks") or {}).items()}
        g.end(racks or None, out=action.get("out"))
    f.actions.append({k: v for k, v in action.items() if k not in ("score", "scores", "penalties")})
    return True


def rewrite(f: Fold, row: int, col: int, char: str, command: str, new_fold: NewFold) -> None:
    """Change the character of the play that put the tile now on (row, col), then rebuild the game."""
    target = None
    for i in range(len(f.actions) - 1, -1, -1):
        a = f.actions[i]
        if a["kind"] != "play":
            continue
        k = Placement.from_gcg(a["position"], a["word"].replace("?", stand_in(f.rules))).new_tile_index(row, col)
        if k is not None:
            target = (i, k)
            break
    if target is None:
        raise CommandRefused(f"no play put the tile on {square_name(row, col)}", command)
    i, k = target
    word = f.actions[i]["word"]
    # the camera's "phony?" was about the word as read; once players have corrected it, only a lexicon says
    kept = {key: v for key, v in f.actions[i].items() if key != "phony"}
    if char:
        f.actions[i] = {**kept, "word": word[:k] + char + word[k + 1:]}
    else:
        try:
            position, rest = word_without(kept["position"], word, k)
        except EngineError as exc:
            raise CommandRefused(str(exc), command) from exc
        f.actions[i] = {**kept, "position": position, "word": rest}
    actions = f.actions
    rebuilt = new_fold(f.game_id, f.players, f.settings)
    for action in actions:
        run_action(rebuilt, action)  # EngineError propagates: the caller refuses the correction
    f.game, f.actions = rebuilt.game, rebuilt.actions
    f.corrected.add(i)


def clone(f: Fold, new_fold: NewFold) -> Fold:
    """A copy to try a command on (rebuilt from the actions: the engine game has no public copy)."""
    c = new_fold(f.game_id, f.players, f.settings)
    c.status, c.last_seq = f.status, f.last_seq
    c.clock_used, c.turn_started = list(f.clock_used), f.turn_started
    c.corrected = set(f.corrected)
    for action in f.actions:
        run_action(c, action)
    return c


def tick_clock(f: Fold, t: float) -> None:
    """Charge the player to move with the time up to ``t`` (not while paused or over); their turn restarts at ``t``."""
    if f.status != PAUSED and not f.game.is_over:
        f.clock_used[f.game.turn] += max(0.0, t - f.turn_started)
    f.turn_started = t


def turn_player(f: Fold) -> int | None:
    """Who made the play a card or a Magical Word belongs to: the player of the last play (None: no play)."""
    for ev in reversed(f.game.history):
        if ev.kind == "play":
            return ev.player
    return None


def stand_in(rules: Rules) -> str:
    """The letter a pending blank is played as inside the engine (lower case: a blank)."""
    return rules.tiles.letters[0].lower()
