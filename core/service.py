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
from dataclasses import dataclass, field
from typing import Any

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import format_coord
from tilecam.engine.errors import EngineError
from tilecam.engine.game import Game
from tilecam.engine.move import Placement, word_without
from tilecam.engine.rules import Rules
from tilecam.engine.scoring import score
from tilecam.engine import variants
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

# Stored event kinds that are game actions (one engine undo step each, replayed in order); ``card`` and
# ``magical_word`` are the Harry Potter edition's scored events after a play.
ACTIONS = ("play", "pass", "exchange", "challenge", "withdraw", "end", "time_penalty", "card", "magical_word")
CORRECTIONS = ("set_blank", "correct_tile", "remove_tile")
# The move kinds the scoreboard shows as "the last move" (a card or a Magical Word is shown as its own move).
LAST_MOVE_KINDS = ("play", "pass", "exchange", "withdraw", "card", "magical_word")


class CommandRefused(ValueError):
    """A command the game does not allow now; ``reason`` says why (shown to the person or logged)."""

    def __init__(self, reason: str, command: str = "") -> None:
        self.reason = reason
        self.command = command
        super().__init__(f"{command}: {reason}" if command else reason)


class NoGame(CommandRefused):
    """A command that needs a game in progress, while there is none."""


def rules_for(settings: GameSettings, players: int = 2) -> Rules:
    """The engine rules for stored settings: the engine registry's variant
    (:func:`tilecam.engine.variants.rules_for`) with the settings' tile set, board and challenge rule, and for
    Finish Line the target of ``level`` and ``players`` (or ``target``). Raises :class:`CommandRefused` for an
    unknown variant, tile set or rule, and for a level or target given to a variant that has none."""
    try:
        needs_target = variants.variant(settings.variant).needs_target
        if not needs_target and (settings.level is not None or settings.target is not None):
            raise CommandRefused(f"variant {settings.variant!r} has no target score (only finish-line has)",
                                 "new_game")
        changes: dict[str, Any] = {"layout": settings.layout, "challenge": settings.challenge_rule,
                                   "challenge_points": settings.challenge_points}
        if settings.target is not None:
            changes["target_score"] = settings.target
        rules = variants.rules_for(settings.variant, settings.tileset, players=players,
                                   level=settings.level if needs_target else None, **changes)
        rules.tiles, rules.board_layout  # load the data files now: a missing tile set is refused here, not later
    except EngineError as exc:
        raise CommandRefused(str(exc), "new_game") from exc
    return rules


def settings_for(data: Mapping[str, Any]) -> GameSettings:
    """Settings of a new game from what the caller chose (the web form, the API); what it left out comes from the
    variant: its board, tile set and challenge rule (Super Scrabble brings ``super21`` and ``english-super``),
    then the store's defaults. A tile set chosen without a board keeps the variant's board."""
    chosen = {k: v for k, v in data.items() if v is not None}
    try:
        fields = variants.variant(str(chosen.get("variant", GameSettings.variant))).rules
    except EngineError:
        fields = {}  # an unknown variant: refused by rules_for with the list of known ones
    for setting, field_name in (("tileset", "tileset"), ("layout", "layout"), ("challenge_rule", "challenge")):
        if setting not in chosen and field_name in fields:
            chosen[setting] = fields[field_name]
    try:
        return GameSettings.from_dict(chosen)
    except (StoreError, TypeError) as exc:
        raise CommandRefused(str(exc), "new_game") from exc


def parse_placement(placement: Placement | str | Sequence[str], board: Board | None = None) -> Placement:
    """A placement from a ``Placement``, ``"8D CAT"`` or ``("8D", "CAT")``; with the ``board``, letters written
    over tiles already there count as played through (``H11 ALGAE`` as GCG files write it)."""
    if isinstance(placement, Placement):
        return placement
    try:
        if isinstance(placement, str):
            coord, _, word = placement.strip().partition(" ")
            return Placement.from_gcg(coord, word.strip(), board=board)
        coord, word = placement
        return Placement.from_gcg(coord, word, board=board)
    except (EngineError, ValueError) as exc:
        raise CommandRefused(str(exc), "play") from exc


# --------------------------------------------------------------------------------------------------- the fold


@dataclass
class _Fold:
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
        self._fold: _Fold | None = None
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
            p = parse_placement(_encoded(placement, f.rules), f.game.board)
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
            trial = self._clone(f)
            self._apply(trial, "undo", {"undone": "play"}, self._now(), seq=0)
            p = parse_placement(placement, trial.game.board)
            position, word = p.gcg()
            payload: dict[str, Any] = {"position": position, "word": word, "player": player, "rack": "",
                                       "amends": True}
            if phony:
                payload["phony"] = [str(w).upper() for w in phony]
            try:
                self._apply(trial, "play", payload, self._now(), seq=0)
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
            payload: dict[str, Any] = {"name": name.strip(), "player": self._turn_player(f)}
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
            payload = {"word": chosen, "player": self._turn_player(f)}
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
            tile = self._tile_at(f, row, col, "set_blank")
            if not tile.is_blank:
                raise CommandRefused(f"the tile at {_square(row, col)} is {tile}, not a blank", "set_blank")
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
            self._tile_at(f, row, col, "correct_tile")
            return self._correct(f, "correct_tile", row, col, letter, actor)

    def remove_tile(self, row: int, col: int, actor: str) -> StoredEvent:
        """Take out a tile an earlier play never put down (a bare square misread as a tile when it was committed):
        the play loses it, and its score and later ones are recomputed. Only a tile at either end of its play's
        word can go (one inside would split the play in two), and never a play's only tile (that play was none:
        undo it)."""
        with self._lock:
            f = self._current("remove_tile")
            self._tile_at(f, row, col, "remove_tile")
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
                       "penalties": [list(p) for p in self._overtime_penalties(f)]}
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
            g = f.game
            moves = [m.to_dict() for m in self._moves(f)]
            return {
                "game_id": f.game_id,
                "seq": f.last_seq,
                "status": f.status,
                "players": [{"name": n, "score": s} for n, s in zip(f.players, g.scores)],
                "turn": None if g.is_over else g.turn,
                "board": self._board_rows(f),
                "moves": moves,
                "last_move": self._last_move(f),
                "bag": g.bag_count,
                "racks": g.rack_counts,
                "unseen": self._unseen(f),
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
                "clocks": self._clocks(f),
                "pending": self._pending(f),
                "can_undo": bool(f.actions),
                "device": dict(self.device),
            }

    def moves(self) -> list[MoveRecord]:
        with self._lock:
            self._refresh()
            return self._moves(self._fold) if self._fold else []

    # ----------------------------------------------------------------------------------------------- inside

    def _current(self, command: str, allow_finished: bool = False) -> _Fold:
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

    def _replay(self, game_id: int) -> _Fold:
        record = self.store.game(game_id)
        f = self._new_fold(game_id, list(record.players), record.settings)
        for event in self.store.events(game_id):
            if event.kind == "game_started":
                f.turn_started = event.time
            else:
                self._apply(f, event.kind, event.payload, event.time, event.seq)
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

    def _new_fold(self, game_id: int, players: list[str], settings: GameSettings) -> _Fold:
        rules = rules_for(settings, len(players))
        lexicon = self._lexicon_of(settings)
        return _Fold(game_id, players, settings, rules, Game(players, rules, lexicon), lexicon,
                     clock_used=[0.0] * len(players), turn_started=self._now())

    def _act(self, f: _Fold, kind: str, payload: dict[str, Any], actor: str,
             snapshot: bytes | None = None) -> StoredEvent:
        """Apply a game action to the engine; if it is accepted, store it (with moves and snapshot) and announce."""
        t = self._now()
        trial = self._clone(f)
        try:
            extra = self._apply(trial, kind, payload, t, seq=0)
        except EngineError as exc:
            raise CommandRefused(str(exc), kind) from exc
        payload = {**payload, **extra}
        status = FINISHED if trial.game.is_over else (PAUSED if f.status == PAUSED else ACTIVE)
        snapshot_move = len(trial.game.history) - 1 if snapshot is not None else None
        event = self.store.append_event(f.game_id, kind, payload, actor, moves=self._moves(trial),
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

    def _correct(self, f: _Fold, kind: str, row: int, col: int, char: str, actor: str) -> StoredEvent:
        return self._act(f, kind, {"row": row, "col": col, "letter": char}, actor)

    def _notify(self, seq: int) -> None:
        with self._announce:
            self._announced_seq = max(self._announced_seq, seq)
            self._announce.notify_all()

    def _clone(self, f: _Fold) -> _Fold:
        """A copy to try a command on (rebuilt from the actions: the engine game has no public copy)."""
        c = self._new_fold(f.game_id, f.players, f.settings)
        c.status, c.last_seq = f.status, f.last_seq
        c.clock_used, c.turn_started = list(f.clock_used), f.turn_started
        c.corrected = set(f.corrected)
        for action in f.actions:
            self._run_action(c, action)
        return c

    def _apply(self, f: _Fold, kind: str, payload: dict[str, Any], t: float, seq: int) -> dict[str, Any]:
        """Fold one stored event into ``f``; returns fields worth adding to a new event's payload (its score)."""
        if kind == "pause":
            self._tick_clock(f, t)
            f.status = PAUSED if payload.get("paused") else ACTIVE
            return {}
        if kind in ("abandon", "note"):
            return {}
        if kind == "undo":
            if not f.actions:
                raise CommandRefused("nothing to undo", "undo")
            self._tick_clock(f, t)
            undone = f.actions.pop()
            f.game.undo()
            f.corrected.discard(len(f.actions))
            # The overtime penalties an end applied go with it.
            while undone["kind"] == "end" and f.actions and f.actions[-1].get("with_end"):
                f.actions.pop()
                f.game.undo()
            return {}
        if kind in CORRECTIONS:
            self._rewrite(f, int(payload["row"]), int(payload["col"]), str(payload["letter"]), kind)
            return {}
        if kind not in ACTIONS:
            return {}  # an event kind from a newer tilecam: kept in the store, ignored here
        self._tick_clock(f, t)
        before = len(f.game.history)
        self._run_action(f, {"kind": kind, **payload})
        new_events = f.game.history[before:]
        if kind in ("play", "card", "magical_word") and new_events:
            return {"score": new_events[-1].score}
        if kind == "end":
            return {"scores": f.game.scores}
        return {}

    def _run_action(self, f: _Fold, action: dict[str, Any]) -> bool:
        """Run one game action on the engine; True when it made an undo step (recorded in ``f.actions``)."""
        g, kind = f.game, action["kind"]
        if kind == "play":
            # The engine refuses a blank without a letter; a pending blank is played as a stand-in letter (a blank
            # scores 0 whatever it stands for, and legality ignores letters) and shown as ``?`` (see _pending_squares).
            word = action["word"].replace("?", _stand_in(f.rules))
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

    def _rewrite(self, f: _Fold, row: int, col: int, char: str, command: str) -> None:
        """Change the character of the play that put the tile now on (row, col), then rebuild the game."""
        target = None
        for i in range(len(f.actions) - 1, -1, -1):
            a = f.actions[i]
            if a["kind"] != "play":
                continue
            k = Placement.from_gcg(a["position"], a["word"].replace("?", _stand_in(f.rules))).new_tile_index(row, col)
            if k is not None:
                target = (i, k)
                break
        if target is None:
            raise CommandRefused(f"no play put the tile on {_square(row, col)}", command)
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
        rebuilt = self._new_fold(f.game_id, f.players, f.settings)
        for action in actions:
            self._run_action(rebuilt, action)  # EngineError propagates: the caller refuses the correction
        f.game, f.actions = rebuilt.game, rebuilt.actions
        f.corrected.add(i)

    @staticmethod
    def _turn_player(f: _Fold) -> int | None:
        """Who made the play a card or a Magical Word belongs to: the player of the last play (None: no play)."""
        for ev in reversed(f.game.history):
            if ev.kind == "play":
                return ev.player
        return None

    def _tile_at(self, f: _Fold, row: int, col: int, command: str) -> Tile:
        board = f.game.board
        if not isinstance(row, int) or not isinstance(col, int) or not board.in_bounds(row, col):
            raise CommandRefused(f"square ({row}, {col}) is off the board", command)
        tile = board[row, col]
        if tile is None:
            raise CommandRefused(f"there is no tile on {_square(row, col)}", command)
        return tile

    # -- clocks

    def _tick_clock(self, f: _Fold, t: float) -> None:
        if f.status != PAUSED and not f.game.is_over:
            f.clock_used[f.game.turn] += max(0.0, t - f.turn_started)
        f.turn_started = t

    def _clocks(self, f: _Fold) -> dict[str, Any]:
        used = list(f.clock_used)
        running = None
        if f.status != PAUSED and not f.game.is_over:
            running = f.game.turn
            used[running] += max(0.0, self._now() - f.turn_started)
        limit = f.settings.clock_seconds
        return {"running": running, "paused": f.status == PAUSED, "used": [round(u, 1) for u in used],
                "remaining": [round(limit - u, 1) for u in used] if limit else None}

    def _overtime_penalties(self, f: _Fold) -> list[tuple[int, int]]:
        limit = f.settings.clock_seconds
        if not limit:
            return []
        clocks = self._clocks(f)
        out = []
        for seat, used in enumerate(clocks["used"]):
            over = used - limit
            if over > 0:
                minutes = int(-(-over // 60))
                out.append((seat, minutes * f.settings.overtime_penalty))
        return out

    # -- derived rows

    def _moves(self, f: _Fold) -> list[MoveRecord]:
        """The scoreboard's move list, recomputed from the engine history (word scores re-scored on a scratch
        board, so each word carries its own breakdown)."""
        board = Board(f.rules.board_layout)
        history = f.game.history
        pending = self._pending_squares(f)
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
                words = tuple({"word": _masked(w.word, w.squares, pending), "score": w.score,
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
                word = _masked(ev.word, squares, pending) if ev.kind == "play" else ev.word
            rows.append(MoveRecord(index=index, player=ev.player, kind=ev.kind, position=ev.position, word=word,
                                   words=words, score=ev.score, cumulative=ev.total, flags=tuple(flags)))
        return rows

    def _last_move(self, f: _Fold) -> dict[str, Any] | None:
        for ev in reversed(f.game.history):
            if ev.kind in LAST_MOVE_KINDS:
                d = {"player": ev.player, "kind": ev.kind, "position": ev.position, "word": ev.word,
                     "score": ev.score, "squares": []}
                if ev.kind == "play":
                    d["squares"] = [[r, c] for r, c, _t in ev.placement.new_tiles()]
                return d
        return None

    def _pending_squares(self, f: _Fold) -> set[tuple[int, int]]:
        """Squares holding a blank whose letter nobody has named yet (``?`` in the play that put it there)."""
        stack: list[set[tuple[int, int]]] = []
        for a in f.actions:
            if a["kind"] == "play":
                p = Placement.from_gcg(a["position"], a["word"].replace("?", _stand_in(f.rules)))
                stack.append({(r, c) for (r, c, _t), ch in zip(p.squares(), a["word"]) if ch == "?"})
            elif a["kind"] == "withdraw" and stack:
                stack.pop()
        return set().union(*stack) if stack else set()

    def _board_rows(self, f: _Fold) -> list[str]:
        rows = [list(r) for r in f.game.board.rows()]
        for r, c in self._pending_squares(f):
            rows[r][c] = "?"
        return ["".join(r) for r in rows]

    def _unseen(self, f: _Fold) -> dict[str, int]:
        """Every letter of the tile set (and ``?`` for blanks) with how many are not on the board, zeros kept."""
        unseen = f.game.unseen()
        letters = list(f.rules.tiles.letters) + ["?"]
        return {letter: unseen.get(letter, 0) for letter in letters}

    def _pending(self, f: _Fold) -> list[dict[str, Any]]:
        """Questions for the players: blanks whose letter is unknown, an end of game waiting for racks."""
        out: list[dict[str, Any]] = []
        for r, c in sorted(self._pending_squares(f)):
                out.append({"kind": "blank", "row": r, "col": c, "square": _square(r, c),
                            "question": f"Which letter is the blank on {_square(r, c)}?"})
        reason = None if f.game.is_over else f.game.finished_reason
        if reason == "target":  # Finish Line: the game stops as it stands, no racks are counted
            out.append({"kind": "end", "reason": reason,
                        "question": f"The target of {f.game.target} is reached: end the game (no racks count)."})
        elif reason:
            out.append({"kind": "end", "reason": reason, "question": "The game is over: enter the racks left."})
        return out


def _encoded(placement: Placement | str | Sequence[str], rules: Rules) -> Placement | str | Sequence[str]:
    """A play written with macondo's brackets (``8D [CH]ICO``, ``[ch]`` a blank for it) in the tile set's
    one-character symbols, which the engine plays; anything else as given."""
    try:
        if isinstance(placement, str) and "[" in placement:
            return rules.tiles.encode(placement)
        if isinstance(placement, (tuple, list)) and len(placement) == 2 and "[" in str(placement[1]):
            return placement[0], rules.tiles.encode(str(placement[1]))
    except EngineError as exc:
        raise CommandRefused(str(exc), "play") from exc
    return placement


def _stand_in(rules: Rules) -> str:
    """The letter a pending blank is played as inside the engine (lower case: a blank)."""
    return rules.tiles.letters[0].lower()


def _masked(word: str, squares: Sequence[tuple[int, int]], pending: set[tuple[int, int]]) -> str:
    """``word`` with ``?`` on the squares whose blank is not named yet."""
    return "".join("?" if sq in pending else ch for ch, sq in zip(word, squares))


def _square(row: int, col: int) -> str:
    """A square as players say it: ``8H`` (row number, column letter)."""
    return format_coord(row, col, True)

