"""The game service: the one place where commands become engine calls, stored events and notifications.

The daemon (moves seen by the camera), the clock buttons and the web (corrections, challenges, the end) all call the
same :class:`GameService`. Every command is checked against a ``tilecam.engine`` game first; a refused command
raises :class:`CommandRefused` with the reason and stores nothing. An accepted command is appended to the store as
one event (with the recomputed move list and an optional snapshot, in the same transaction) and only after that
commit are listeners woken (:meth:`GameService.wait_for_event`), so what the web announces is already on disk.

Event-sourced: the game is the fold of its stored events. ``play``, ``pass``, ``exchange``, ``challenge``,
``withdraw``, ``end`` and ``time_penalty`` are game actions (each one undo step); ``undo`` takes back the last action;
``set_blank``, ``correct_tile`` and ``remove_tile`` rewrite the tile of an earlier play and the game is rebuilt
from the rewritten actions (scores of later plays follow); ``pause`` stops and restarts the clocks. Clocks are
derived from event times: the player to move uses time from the event that gave them the turn.

This module holds the service: its commands, the store and the announcements. How an event changes a game is
:mod:`tilecam.core.fold`; what the scoreboard shows of a game, :mod:`tilecam.core.scoreboard`; settings and the
engine rules they stand for, :mod:`tilecam.core.game_rules`; plays as callers write them,
:mod:`tilecam.core.placements`; the refusals, :mod:`tilecam.core.errors`. The public names that moved there are
still importable from here (``__all__``).

>>> import tempfile
>>> from tilecam.core.store import GameStore
>>> svc = GameService(GameStore(tempfile.mkdtemp()))
>>> gid = svc.new_game(["Ann", "Ben"])
>>> svc.play("8D QUANT", actor="doctest").payload["score"]
48
>>> s = svc.state(); s["players"][0], s["turn"], s["board"][7]
({'name': 'Ann', 'score': 48}, 1, '...QUANT.......')
>>> svc.undo(actor="doctest").kind, svc.state()["players"][0]["score"]
('undo', 0)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tilecam.engine.board import Tile
from tilecam.engine.errors import EngineError
from tilecam.engine.game import Game
from tilecam.engine.move import Placement
from tilecam.core.errors import CommandRefused, NoGame
from tilecam.core.fold import ACTIONS, CORRECTIONS, Fold, apply_event, clone, turn_player
from tilecam.core.game_rules import rules_for, settings_for
from tilecam.core.placements import encoded, parse_placement, square_name
from tilecam.core.scoreboard import LAST_MOVE_KINDS, game_state, move_list, overtime_penalties
from tilecam.core.store import (
    ABANDONED,
    ACTIVE,
    FINISHED,
    PAUSED,
    GameSettings,
    GameStore,
    MoveRecord,
    StoredEvent,
    StoreError,
)

__all__ = [
    "ACTIONS",
    "CORRECTIONS",
    "LAST_MOVE_KINDS",
    "CommandRefused",
    "GameService",
    "NoGame",
    "parse_placement",
    "rules_for",
    "settings_for",
]


class GameService:
    """Commands in, engine + store + notifications out. Thread-safe; one per process.

    ``lexicon`` judges challenges and marks phonies: one word list for every game (anything with
    ``word in lexicon``), or a function of a game's settings that returns one or None
    (:func:`tilecam.core.lexicons.lexicon_for_settings`, what ``run`` and ``serve`` pass). A game without one must be
    told whether a challenged play is valid. ``now`` is the clock (tests pass a fake one).
    """

    def __init__(self, store: GameStore, lexicon: Any = None, *, now: Any = time.time,
                 poll_interval_s: float = 0.25) -> None:
        self.store = store
        self.lexicon = lexicon
        self._now = now
        self._poll = poll_interval_s
        self._lock = threading.RLock()
        self._announce = threading.Condition()
        self._announced_seq = store.last_seq()
        self._fold: Fold | None = None
        self._seen_seq = -1  # the store's newest seq when _refresh last looked
        self.device: dict[str, Any] = {}  # the daemon's loop status, shown by the web; never stored

    # ----------------------------------------------------------------------------------------------- games

    def new_game(self, players: Sequence[str], settings: GameSettings | Mapping[str, Any] | None = None,
                 actor: str = "web") -> int:
        """Start a game (an unfinished one is marked abandoned first); returns its id."""
        if not isinstance(settings, GameSettings):
            settings = settings_for(dict(settings or {}))
        rules = rules_for(settings, len(players))
        self._lexicon_of(settings)  # a lexicon setting that names no word list is refused before anything is stored
        try:
            Game(list(players), rules)
        except EngineError as exc:
            raise CommandRefused(str(exc), "new_game") from exc
        with self._lock:
            self._refresh()
            if self._fold is not None and self._fold.status in (ACTIVE, PAUSED):
                self._commit("abandon", {"reason": "a new game was started"}, actor, status=ABANDONED)
            try:
                game_id, event = self.store.create_game(players, settings, actor=actor, now=self._now())
            except StoreError as exc:
                raise CommandRefused(str(exc), "new_game") from exc
            self._fold = self._replay(game_id)
        self._notify(event.seq)
        return game_id

    def resume(self) -> int | None:
        """Load the newest unfinished game from the store, exactly where it was; returns its id (None: no game)."""
        with self._lock:
            record = self.store.unfinished_game()
            self._fold = self._replay(record.id) if record else None
            return record.id if record else None

    def load(self, game_id: int) -> None:
        """Make ``game_id`` (finished or not) the service's current game, e.g. for review."""
        with self._lock:
            self._fold = self._replay(game_id)

    @property
    def game_id(self) -> int | None:
        with self._lock:
            self._refresh()
            return self._fold.game_id if self._fold else None

    @property
    def game(self) -> Game | None:
        """The engine game of the current game (do not change it: go through the commands)."""
        with self._lock:
            self._refresh()
            return self._fold.game if self._fold else None

    # ----------------------------------------------------------------------------------------------- commands

    def play(self, placement: Placement | str | Sequence[str], actor: str, snapshot_jpeg: bytes | None = None, *,
             player: int | None = None, rack: str = "", phony: Sequence[str] = ()) -> StoredEvent:
        """Tiles placed (``Placement``, ``"8D CAT"`` or ``("8D", "CAT")``; ``?`` for a blank whose letter is not
        known yet — it scores 0 and becomes a pending question). ``player`` defaults to the player to move.
        ``phony``: words the caller's lexicon rejects (the camera's tracker): stored with the play, and the move gets
        the ``phony`` flag even when this service has no lexicon of its own (only a challenge decides)."""
        with self._lock:
            f = self._current("play")
            p = parse_placement(encoded(placement, f.rules), f.game.board)
            position, word = p.gcg()
            payload = {"position": position, "word": word, "player": f.game.turn if player is None else player,
                       "rack": rack}
            if phony:
                payload["phony"] = [str(w).upper() for w in phony]
            event = self._act(f, "play", payload, actor, snapshot=snapshot_jpeg)
        return event

    def amend_last_play(self, placement: Placement | str | Sequence[str], actor: str, *,
                        phony: Sequence[str] = ()) -> StoredEvent:
        """Record the last play again as ``placement`` (the camera read it short: a tile of it was taken for an
        empty square), by the same player: the old one is undone and the new one played, as two stored events."""
        with self._lock:
            f = self._current("play")
            history = f.game.history
            if not f.actions or f.actions[-1]["kind"] != "play" or not history or history[-1].kind != "play":
                raise CommandRefused("the last move is not a play: nothing to amend", "play")
            player = history[-1].player
            # Tried on a copy first: the undo is stored only if the amended play will be accepted after it.
            trial = clone(f, self._new_fold)
            apply_event(trial, "undo", {"undone": "play"}, self._now(), self._new_fold)
            p = parse_placement(placement, trial.game.board)
            position, word = p.gcg()
            payload: dict[str, Any] = {"position": position, "word": word, "player": player, "rack": "",
                                       "amends": True}
            if phony:
                payload["phony"] = [str(w).upper() for w in phony]
            try:
                apply_event(trial, "play", payload, self._now(), self._new_fold)
            except EngineError as exc:
                raise CommandRefused(str(exc), "play") from exc
            self._act(f, "undo", {"undone": "play"}, actor)
            return self._act(self._current("play"), "play", payload, actor)

    def pass_turn(self, actor: str, *, player: int | None = None) -> StoredEvent:
        with self._lock:
            f = self._current("pass")
            return self._act(f, "pass", {"player": f.game.turn if player is None else player}, actor)

    def exchange(self, count_or_letters: int | str, actor: str, *, player: int | None = None) -> StoredEvent:
        if isinstance(count_or_letters, bool) or not isinstance(count_or_letters, (int, str)):
            raise CommandRefused(f"exchange takes a count or the letters, got {count_or_letters!r}", "exchange")
        with self._lock:
            f = self._current("exchange")
            key = "count" if isinstance(count_or_letters, int) else "letters"
            payload = {"player": f.game.turn if player is None else player, key: count_or_letters}
            return self._act(f, "exchange", payload, actor)

    def challenge(self, actor: str, *, valid: bool | None = None, challenger: int | None = None) -> StoredEvent:
        """Challenge the last play. ``valid`` None asks the lexicon (stored as decided, so a replay agrees)."""
        with self._lock:
            f = self._current("challenge")
            history = f.game.history
            if not history or history[-1].kind != "play":
                raise CommandRefused("there is no play to challenge (it must be the last move)", "challenge")
            last = history[-1]
            if valid is None:
                if f.lexicon is None:
                    raise CommandRefused("this game has no lexicon: say whether the play is valid", "challenge")
                if "?" in last.word:
                    raise CommandRefused("say which letter the blank is before challenging", "challenge")
                valid = all(f.game.is_word(w) for w in last.words)  # Clabbers: anagrams of words are good
            payload = {"valid": bool(valid), "challenger": f.game.turn if challenger is None else challenger,
                       "words": list(last.words)}
            return self._act(f, "challenge", payload, actor)

    def card(self, name: str, actor: str, *, multiplier: int | None = None, points: int | None = None
             ) -> StoredEvent:
        """A Harry Potter card played on the play just made, stored as its own scored event named ``name``:
        ``multiplier`` re-multiplies the play's score, ``points`` adds a flat number (see ``Game.card``)."""
        for what, value in (("multiplier", multiplier), ("points", points)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise CommandRefused(f"a card's {what} is a whole number, not {value!r}", "card")
        if not isinstance(name, str):
            raise CommandRefused(f"a card's name is text, not {name!r}", "card")
        with self._lock:
            f = self._current("card")
            payload: dict[str, Any] = {"name": name.strip(), "player": turn_player(f)}
            if multiplier is not None:
                payload["multiplier"] = multiplier
            if points is not None:
                payload["points"] = points
            return self._act(f, "card", payload, actor)

    def magical_word(self, actor: str, *, word: str | None = None) -> StoredEvent:
        """Mark a word of the play just made a Magical Word (default: its main word; ``[CH]`` spells a
        two-letter tile): the bonus for its length, stored as its own scored event (see ``Game.magical_word``)."""
        if word is not None and not isinstance(word, str):
            raise CommandRefused(f"a Magical Word is text, not {word!r}", "magical_word")
        with self._lock:
            f = self._current("magical_word")
            chosen = f.rules.tiles.encode(word.strip().upper()) if word and word.strip() else None
            payload = {"word": chosen, "player": turn_player(f)}
            return self._act(f, "magical_word", payload, actor)

    def withdraw(self, actor: str) -> StoredEvent:
        """The last play is taken back (a phony the player withdraws); its score comes off, the turn is lost."""
        with self._lock:
            return self._act(self._current("withdraw"), "withdraw", {}, actor)

    def set_blank(self, row: int, col: int, letter: str, actor: str) -> StoredEvent:
        """Say which letter the blank at (row, col) stands for (also changes an already-named blank)."""
        if not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha():
            raise CommandRefused(f"a blank stands for one letter, got {letter!r}", "set_blank")
        with self._lock:
            f = self._current("set_blank")
            tile = _tile_at(f, row, col, "set_blank")
            if not tile.is_blank:
                raise CommandRefused(f"the tile at {square_name(row, col)} is {tile}, not a blank", "set_blank")
            return self._correct(f, "set_blank", row, col, letter.lower(), actor)

    def correct_tile(self, row: int, col: int, letter: str, actor: str) -> StoredEvent:
        """Fix a misread tile of an earlier play: ``letter`` in board text (``A`` a tile, ``a`` a blank as A, ``?``
        a blank not yet named, ``.`` no tile: :meth:`remove_tile`). Scores of that play and later ones are
        recomputed."""
        if letter == ".":
            return self.remove_tile(row, col, actor)
        try:
            Tile.from_char(letter)
        except (EngineError, TypeError) as exc:
            raise CommandRefused(f"not a tile: {letter!r}", "correct_tile") from exc
        with self._lock:
            f = self._current("correct_tile")
            _tile_at(f, row, col, "correct_tile")
            return self._correct(f, "correct_tile", row, col, letter, actor)

    def remove_tile(self, row: int, col: int, actor: str) -> StoredEvent:
        """Take out a tile an earlier play never put down (a bare square misread as a tile when it was committed):
        the play loses it, and its score and later ones are recomputed. Only a tile at either end of its play's
        word can go (one inside would split the play in two), and never a play's only tile (that play was none:
        undo it)."""
        with self._lock:
            f = self._current("remove_tile")
            _tile_at(f, row, col, "remove_tile")
            return self._correct(f, "remove_tile", row, col, "", actor)

    def undo(self, actor: str) -> StoredEvent:
        """Take back the last game action (a play, pass, exchange, challenge, the end …)."""
        with self._lock:
            f = self._current("undo", allow_finished=True)
            if not f.actions:
                raise CommandRefused("nothing to undo", "undo")
            undone = f.actions[-1]["kind"]
            return self._act(f, "undo", {"undone": undone}, actor)

    def end_game(self, racks: Mapping[int, str] | Sequence[str] | None, actor: str, *,
                 out: int | None = None) -> StoredEvent:
        """End the game with the tiles left on the racks (``{seat: "AEQ"}`` or a list per seat; a rack the engine
        can infer may be left out). Overtime penalties are applied first when the game has clocks."""
        if racks is None:
            rack_map: dict[int, str] = {}
        elif isinstance(racks, Mapping):
            rack_map = {int(k): str(v).upper().replace(" ", "") for k, v in racks.items()}
        else:
            rack_map = {i: str(v).upper().replace(" ", "") for i, v in enumerate(racks) if v is not None}
        with self._lock:
            f = self._current("end")
            payload = {"racks": {str(k): v for k, v in rack_map.items()}, "out": out,
                       "penalties": [list(p) for p in overtime_penalties(f, self._now)]}
            return self._act(f, "end", payload, actor)

    def pause(self, actor: str, paused: bool = True) -> StoredEvent:
        """Stop (``paused=True``) or restart the clocks."""
        with self._lock:
            f = self._current("pause")
            if (f.status == PAUSED) == paused:
                raise CommandRefused("the game is already " + ("paused" if paused else "running"), "pause")
            return self._commit("pause", {"paused": paused}, actor, status=PAUSED if paused else ACTIVE)

    # ----------------------------------------------------------------------------------------------- events

    def events_since(self, seq: int, game_id: int | None = None) -> list[StoredEvent]:
        """Committed events with ``seq`` greater than the one given (all games unless ``game_id``)."""
        return self.store.events(game_id, after_seq=seq)

    def wait_for_event(self, after_seq: int, timeout: float) -> list[StoredEvent]:
        """Block until an event newer than ``after_seq`` is committed (or ``timeout`` seconds pass); returns the new
        events (empty on timeout). Wakes within milliseconds of a commit in this process, and within
        ``poll_interval_s`` of one made by another process on the same store."""
        deadline = time.monotonic() + timeout
        with self._announce:
            while self._announced_seq <= after_seq:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._announce.wait(min(left, self._poll))
                if self._announced_seq <= after_seq:
                    self._announced_seq = max(self._announced_seq, self.store.last_seq())
        return self.store.events(after_seq=after_seq) if self._announced_seq > after_seq else []

    # ----------------------------------------------------------------------------------------------- state

    def state(self) -> dict[str, Any]:
        """Everything the scoreboard shows, JSON-ready (see docs/ARCHITECTURE.md, "Device and web")."""
        with self._lock:
            self._refresh()
            f = self._fold
            if f is None:
                return {"game_id": None, "seq": self.store.last_seq(), "device": dict(self.device)}
            return game_state(f, self.device, self._now)

    def moves(self) -> list[MoveRecord]:
        with self._lock:
            self._refresh()
            return move_list(self._fold) if self._fold else []

    # ----------------------------------------------------------------------------------------------- inside

    def _current(self, command: str, allow_finished: bool = False) -> Fold:
        self._refresh()
        f = self._fold
        if f is None or f.status == ABANDONED:
            raise NoGame("no game in progress: start one first", command)
        if f.game.is_over and not allow_finished:
            raise CommandRefused("the game is over", command)
        return f

    def _refresh(self) -> None:
        """Catch up with what another process (the daemon, the web) committed: events of the current game, or a
        new game started there (taken up when this one has none in progress)."""
        last = self.store.last_seq()
        if last == self._seen_seq:
            return
        self._seen_seq = last
        f = self._fold
        if f is not None and self.store.game(f.game_id).last_seq != f.last_seq:
            f = self._fold = self._replay(f.game_id)
        if f is None or f.status == ABANDONED:
            record = self.store.unfinished_game()
            if record is not None and (f is None or record.id != f.game_id):
                self._fold = self._replay(record.id)

    def _replay(self, game_id: int) -> Fold:
        record = self.store.game(game_id)
        f = self._new_fold(game_id, list(record.players), record.settings)
        for event in self.store.events(game_id):
            if event.kind == "game_started":
                f.turn_started = event.time
            else:
                apply_event(f, event.kind, event.payload, event.time, self._new_fold)
            f.last_seq = event.seq
        f.status = record.status
        return f

    def _lexicon_of(self, settings: GameSettings) -> Any:
        """The word list for a game with these settings; a setting that names none is refused."""
        if not callable(self.lexicon):
            return self.lexicon
        try:
            return self.lexicon(settings)
        except ValueError as exc:
            raise CommandRefused(str(exc), "new_game") from exc

    def _new_fold(self, game_id: int, players: list[str], settings: GameSettings) -> Fold:
        rules = rules_for(settings, len(players))
        lexicon = self._lexicon_of(settings)
        return Fold(game_id, players, settings, rules, Game(players, rules, lexicon), lexicon,
                    clock_used=[0.0] * len(players), turn_started=self._now())

    def _act(self, f: Fold, kind: str, payload: dict[str, Any], actor: str,
             snapshot: bytes | None = None) -> StoredEvent:
        """Apply a game action to the engine; if it is accepted, store it (with moves and snapshot) and announce."""
        t = self._now()
        trial = clone(f, self._new_fold)
        try:
            extra = apply_event(trial, kind, payload, t, self._new_fold)
        except EngineError as exc:
            raise CommandRefused(str(exc), kind) from exc
        payload = {**payload, **extra}
        status = FINISHED if trial.game.is_over else (PAUSED if f.status == PAUSED else ACTIVE)
        snapshot_move = len(trial.game.history) - 1 if snapshot is not None else None
        event = self.store.append_event(f.game_id, kind, payload, actor, moves=move_list(trial),
                                        snapshot=snapshot, snapshot_move=snapshot_move, status=status, now=t)
        trial.last_seq = event.seq
        trial.status = status
        self._fold = trial
        self._notify(event.seq)
        return event

    def _commit(self, kind: str, payload: dict[str, Any], actor: str, status: str | None = None) -> StoredEvent:
        """Store an event that changes no game action (pause, abandon) and announce it."""
        f = self._fold
        assert f is not None
        t = self._now()
        event = self.store.append_event(f.game_id, kind, payload, actor, status=status, now=t)
        self._fold = self._replay(f.game_id)
        self._notify(event.seq)
        return event

    def _correct(self, f: Fold, kind: str, row: int, col: int, char: str, actor: str) -> StoredEvent:
        return self._act(f, kind, {"row": row, "col": col, "letter": char}, actor)

    def _notify(self, seq: int) -> None:
        with self._announce:
            self._announced_seq = max(self._announced_seq, seq)
            self._announce.notify_all()


def _tile_at(f: Fold, row: int, col: int, command: str) -> Tile:
    """The tile on (row, col) that a correction is about; refused when the square is off the board or bare."""
    board = f.game.board
    if not isinstance(row, int) or not isinstance(col, int) or not board.in_bounds(row, col):
        raise CommandRefused(f"square ({row}, {col}) is off the board", command)
    tile = board[row, col]
    if tile is None:
        raise CommandRefused(f"there is no tile on {square_name(row, col)}", command)
    return tile
