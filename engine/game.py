"""Game state: players, turns, plays, passes, exchanges, challenges, the end of the game, and undo/redo.

The game is kept as an observer who sees only the board: it never needs to know what is on a rack. It still
knows how many tiles each rack and the bag hold (every play draws as many tiles as it used while the bag lasts),
so it can tell when an exchange is allowed and when a player has gone out. Racks, when known, are recorded with
each event. Every public method that changes the game is one undo step.

>>> from tilecam.engine.move import Placement
>>> g = Game(["Ann", "Ben"])
>>> g.play(Placement.from_gcg("8D", "QUANT")).score
48
>>> g.play(Placement.from_gcg("D8", ".AT")).score, g.scores, g.turn
(12, [48, 12], 0)
>>> g.undo(); g.scores, g.turn
([48, 0], 1)
>>> g.unseen()["Q"], sum(g.unseen().values())
(0, 95)

Variants (``Rules``): Finish Line ends the game when a player reaches ``rules.target_score`` (:attr:`Game.target`,
:meth:`Game.to_target`, no rack adjustment at that end); the Harry Potter edition enters a card's effect
(:meth:`Game.card`) and a Magical Word bonus (:meth:`Game.magical_word`) as their own scored events after the play;
Clabbers judges words as anagrams (:meth:`Game.is_word`); blanks may score their letter (``variant_scoring``).
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping, Sequence

from .board import Board, fast_init
from .errors import IllegalMove, PhonyWord
from .coords import format_coord
from .move import Placement
from .rules import Rules
from .scoring import ScoredPlay, score
from .tiles import TileSet
from .variant_scoring import score_play
from .variants import magical_word_bonus

EVENT_KINDS = (
    "play",             # tiles placed; score as scored
    "pass",
    "exchange",         # letters (when known) or count
    "withdraw",         # the previous play taken back (phony challenged off or withdrawn); score = -its score
    "challenge_bonus",  # a wrong challenge earned the challenged player points (points rule)
    "lose_turn",        # a wrong challenger loses the next turn (double challenge)
    "end_rack",         # points for the tiles left on another player's rack (``letters``) at the end
    "end_penalty",      # own rack (``letters``) deducted at the end
    "time_penalty",     # overtime, recorded as given
    "card",             # Harry Potter: a card's effect on the player's play (``word``: the card's name)
    "magical_word",     # Harry Potter: the Magical Word bonus (``word``: the word, ``count``: its length)
)
_EVENT_KIND_SET = frozenset(EVENT_KINDS)
AFTER_PLAY_KINDS = ("card", "magical_word")  # events that belong to the play before them, in the same turn
TURN_KINDS = ("play", "pass", "exchange", "lose_turn")


@functools.lru_cache(maxsize=None)
def _set_counts(tileset: str) -> dict[str, int]:
    """How many tiles of each letter (``"?"``: blanks) a tile set holds, by its name: made once, as every play
    checks the letters it lays against it."""
    return dict(TileSet.load(tileset).bag())


@fast_init
@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened, with the score change and the player's total after it (the store's record).

    ``position``/``word`` are the GCG coordinate and word of a play (``.`` for played-through squares);
    ``letters`` the tiles exchanged or counted at the end; ``count`` how many were exchanged. A ``card`` event
    carries the card's name in ``word``; a ``magical_word`` event the word in ``word`` and its length in ``count``.
    """

    kind: str
    player: int
    score: int = 0
    total: int = 0
    rack: str = ""
    position: str = ""
    word: str = ""
    letters: str = ""
    count: int = 0
    words: tuple[str, ...] = ()
    breakdown: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.kind not in _EVENT_KIND_SET:
            raise IllegalMove(f"unknown event kind {self.kind!r}")

    @property
    def placement(self) -> Placement:
        """The play's placement (``kind`` ``play`` or ``withdraw``)."""
        return Placement.from_gcg(self.position, self.word)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["words"] = list(self.words)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Event":
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise IllegalMove(f"unknown event fields: {', '.join(sorted(unknown))}")
        values = dict(data)
        values["words"] = tuple(values.get("words", ()))
        return cls(**values)


@dataclass(slots=True)
class _State:
    """One state of the game (the current one, or one kept for undo/redo).

    The history is not copied from state to state: the states of a game share one append-only ``log`` and each
    reads its first ``length`` events; ``play_info`` is shared with it. A state that records an event where the
    log already goes on (after an undo) first takes its own copy of both, so the states still on the redo stack
    keep theirs.
    """

    board: Board
    scores: list[int]
    turn: int
    bag_count: int
    rack_counts: list[int]
    scoreless_turns: int
    passes: int
    log: list[Event]
    length: int  # this state's history is log[:length]
    play_info: dict[int, tuple[int, int, int]]  # history index of a play -> (drawn, scoreless before, passes before)
    skip: list[int]
    ended: bool

    @property
    def history(self) -> list[Event]:
        return self.log[:self.length]

    @property
    def last(self) -> Event | None:
        return self.log[self.length - 1] if self.length else None

    def record(self, event: Event) -> int:
        """Append ``event`` to this state's history; returns its index."""
        if len(self.log) != self.length:  # the log goes on in a state undone (or one that failed): branch off
            self.log = self.log[:self.length]
            self.play_info = dict(self.play_info)
        self.log.append(event)
        self.length += 1
        return self.length - 1

    def copy(self) -> "_State":
        """A working copy: its own board and counts, the log and play_info shared (see the class)."""
        return _State(self.board.copy(), list(self.scores), self.turn, self.bag_count, list(self.rack_counts),
                      self.scoreless_turns, self.passes, self.log, self.length, self.play_info,
                      list(self.skip), self.ended)

    def detached(self, memo: dict[int, Any]) -> "_State":
        """A copy sharing nothing with this game's states (``memo``: the log and play_info copies made so far,
        so that the copied states share them with each other as the originals do)."""
        other = self.copy()
        for name in ("log", "play_info"):
            shared = getattr(self, name)
            if id(shared) not in memo:
                memo[id(shared)] = (shared, type(shared)(shared))  # the original kept alive while its id is in use
            setattr(other, name, memo[id(shared)][1])
        return other


class Game:
    """A game of 2–4 players under ``rules``; ``lexicon`` (optional) answers challenges and the void rule."""

    def __init__(self, players: Sequence[str], rules: Rules | None = None, lexicon: Any = None):
        self.rules = rules or Rules()
        self.players = list(players)
        self.lexicon = lexicon
        n = len(self.players)
        if not self.rules.min_players <= n <= self.rules.max_players:
            raise IllegalMove(f"{n} players; this game takes {self.rules.min_players} to {self.rules.max_players}")
        tiles = self.rules.tiles
        drawn = [min(self.rules.rack_size, max(0, tiles.total - i * self.rules.rack_size)) for i in range(n)]
        self._s = _State(Board(self.rules.board_layout), [0] * n, 0, tiles.total - sum(drawn), drawn,
                         0, 0, [], 0, {}, [], False)
        self._undo: list[_State] = []
        self._redo: list[_State] = []

    # --- read-only views -------------------------------------------------------------------------------------
    board = property(lambda self: self._s.board)
    scores = property(lambda self: list(self._s.scores))
    turn = property(lambda self: self._s.turn, doc="index of the player to move")
    history = property(lambda self: self._s.history)  # a new list each time
    bag_count = property(lambda self: self._s.bag_count, doc="tiles in the bag (known without seeing racks)")
    rack_counts = property(lambda self: list(self._s.rack_counts), doc="tiles on each rack")
    scoreless_turns = property(lambda self: self._s.scoreless_turns)
    is_over = property(lambda self: self._s.ended)

    def unseen(self) -> Counter:
        """Tiles an observer who sees only the board has not seen (bag plus all racks); blanks as ``"?"``."""
        return self.rules.tiles.bag() - self._s.board.tile_counts()

    @property
    def finished_reason(self) -> str | None:
        """Why the game should end now (call :meth:`end`): ``"target"`` (Finish Line), ``"out"``,
        ``"scoreless"``, ``"passes"``, or None."""
        s, r = self._s, self.rules
        if r.target_score is not None and max(s.scores) >= r.target_score:
            return "target"
        if s.bag_count == 0 and 0 in s.rack_counts and s.length and s.log[s.length - 1].kind == "play":
            return "out"
        if r.max_scoreless_turns and s.scoreless_turns >= r.max_scoreless_turns:
            return "scoreless"
        if r.end_on_passes and s.passes >= 2 * len(self.players):
            return "passes"
        if r.passes_to_end and s.passes >= r.passes_to_end:
            return "passes"
        return None

    @property
    def target(self) -> int | None:
        """The Finish Line target score (None in a game without one)."""
        return self.rules.target_score

    def to_target(self) -> list[int]:
        """Points each player still needs to reach the target (0 once reached); ``IllegalMove`` without one."""
        if self.rules.target_score is None:
            raise IllegalMove("this game has no target score")
        return [max(0, self.rules.target_score - sc) for sc in self._s.scores]

    def progress(self) -> list[float]:
        """How far each player is towards the target, 0.0 to 1.0 (a negative score counts as 0)."""
        target = self.rules.target_score
        return [min(1.0, max(0, target - need) / target) for need in self.to_target()]

    def winners(self) -> list[int]:
        """Indices of the players with the top score (more than one on a tie)."""
        top = max(self._s.scores)
        return [i for i, sc in enumerate(self._s.scores) if sc == top]

    def is_word(self, word: str) -> bool:
        """Whether the lexicon holds ``word`` (any case); a ``?`` (a blank not named yet) matches any letter that
        makes a word. Under Clabbers (``rules.word_rule == "anagram"``) a word is good when it is an anagram of a
        word in the lexicon. Raises ``IllegalMove`` without a lexicon."""
        if self.lexicon is None:
            raise IllegalMove("no lexicon to judge words")
        word = word.upper()
        anagram = self.rules.word_rule == "anagram"
        if "?" not in word:
            return self.lexicon.has_anagram(word) if anagram else word in self.lexicon
        head, _, tail = word.partition("?")
        if not anagram and not self.lexicon.has_prefix(head):
            return False
        return any(self.is_word(head + letter + tail) for letter in self.rules.tiles.letters)

    def copy(self) -> "Game":
        """An independent copy (undo and redo stacks included) to try commands on."""
        other = Game.__new__(Game)
        other.rules, other.players, other.lexicon = self.rules, list(self.players), self.lexicon
        memo: dict[int, Any] = {}
        other._s = self._s.detached(memo)
        other._undo = [s.detached(memo) for s in self._undo]
        other._redo = [s.detached(memo) for s in self._redo]
        return other

    def score_play(self, placement: Placement) -> ScoredPlay:
        """Score a placement on the current board without playing it (checks legality, not words)."""
        return score_play(self._s.board, placement, self.rules)

    # --- undo / redo ------------------------------------------------------------------------------------------
    def _begin(self) -> _State:
        """Push the current state for undo and return a working copy that the caller commits with _commit."""
        return self._s.copy()

    def _commit(self, new: _State) -> None:
        self._undo.append(self._s)
        self._redo.clear()
        self._s = new

    def undo(self) -> None:
        """Take back the last action (a play, pass, exchange, challenge, end …). Raises ``IllegalMove`` if none."""
        if not self._undo:
            raise IllegalMove("nothing to undo")
        self._redo.append(self._s)
        self._s = self._undo.pop()

    def redo(self) -> None:
        if not self._redo:
            raise IllegalMove("nothing to redo")
        self._undo.append(self._s)
        self._s = self._redo.pop()

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    # --- turns ------------------------------------------------------------------------------------------------
    def _check_turn(self, player: int | None) -> int:
        if self._s.ended:
            raise IllegalMove("the game is over")
        reason = self.finished_reason
        if reason:
            raise IllegalMove(f"the game has reached its end ({reason}); challenge the last play or call end()")
        if player is not None and player != self._s.turn:
            raise IllegalMove(f"it is {self.players[self._s.turn]}'s turn, not {self.players[player]}'s")
        return self._s.turn

    def _advance(self, s: _State) -> None:
        s.turn = (s.turn + 1) % len(self.players)
        while s.turn in s.skip:
            s.skip.remove(s.turn)
            s.turn = (s.turn + 1) % len(self.players)

    def _record(self, s: _State, event: Event) -> Event:
        s.record(event)
        return event

    def play(self, placement: Placement, rack: str = "", player: int | None = None, note: str = "") -> Event:
        """Play tiles: legality and score checked here; under the void rule (with a lexicon) phonies are refused."""
        p = self._check_turn(player)
        s = self._s.copy()  # self._begin()
        rules = self.rules
        board = s.board
        scored = score_play(board, placement, rules) if rules.blanks_score_letter else score(board, placement, rules)
        # placement.rack_letters(), .new_tiles() and .gcg()'s word in one pass over its squares
        row, col, across = placement.row, placement.col, placement.across
        played, new_tiles, chars = [], [], []
        for i, tile in enumerate(placement.tiles):
            if tile is None:
                chars.append(".")
                continue
            letter = tile.letter
            if tile.is_blank:
                played.append("?")
                chars.append(letter.lower())
            else:
                played.append(letter)
                chars.append(letter)
            new_tiles.append((row, col + i, tile) if across else (row + i, col, tile))
        in_set = _set_counts(rules.tileset)  # only the letters played are checked
        n = len(played)  # placement.tile_count
        if n > s.rack_counts[p]:
            raise IllegalMove(f"{placement}: {self.players[p]} has only {s.rack_counts[p]} tiles")
        on_board = s.board._counts  # Board.count(ch) without a call per letter
        short = [ch for ch in set(played) if played.count(ch) > in_set.get(ch, 0) - on_board.get(ch, 0)]
        if short:
            raise IllegalMove(f"{placement}: no {', '.join(sorted(short))} left unseen (the set holds no more)")
        if rules.challenge == "void" and self.lexicon is not None:
            phonies = [w.word.upper() for w in scored.words if not self.is_word(w.word)]
            if phonies:
                raise PhonyWord(phonies)
        board.place(new_tiles)
        drawn = min(n, s.bag_count)
        info = (drawn, s.scoreless_turns, s.passes)
        s.bag_count -= drawn
        s.rack_counts[p] += drawn - n
        s.scores[p] += scored.score
        s.scoreless_turns = 0 if scored.score else s.scoreless_turns + 1
        s.passes = 0
        event = Event("play", p, scored.score, s.scores[p], rack, format_coord(row, col, across), "".join(chars),
                      words=tuple([w.word for w in scored.words]), breakdown=scored.breakdown, note=note)
        s.play_info[s.record(event)] = info  # after record: it may give s its own play_info
        self._advance(s)
        self._commit(s)
        return event

    def pass_turn(self, rack: str = "", player: int | None = None, note: str = "") -> Event:
        p = self._check_turn(player)
        s = self._begin()
        s.scoreless_turns += 1
        s.passes += 1
        event = self._record(s, Event("pass", p, 0, s.scores[p], rack, note=note))
        self._advance(s)
        self._commit(s)
        return event

    def exchange(self, n_or_letters: int | str, rack: str = "", player: int | None = None, note: str = "") -> Event:
        """Exchange tiles (a count, or the letters when known); needs ``rules.exchange_min_bag`` tiles in the bag."""
        p = self._check_turn(player)
        letters = "" if isinstance(n_or_letters, int) else n_or_letters
        count = n_or_letters if isinstance(n_or_letters, int) else len(n_or_letters)
        if self._s.bag_count < self.rules.exchange_min_bag:
            raise IllegalMove(f"exchange needs {self.rules.exchange_min_bag} tiles in the bag; "
                              f"{self._s.bag_count} left")
        if not 1 <= count <= self._s.rack_counts[p]:
            raise IllegalMove(f"cannot exchange {count} tiles from a rack of {self._s.rack_counts[p]}")
        s = self._begin()
        s.scoreless_turns += 1
        s.passes = 0
        event = self._record(s, Event("exchange", p, 0, s.scores[p], rack, letters=letters, count=count, note=note))
        self._advance(s)
        self._commit(s)
        return event

    # --- challenges -------------------------------------------------------------------------------------------
    def _last_play(self) -> tuple[int, Event]:
        last = self._s.last
        if last is None or last.kind != "play":
            raise IllegalMove("there is no play to challenge or withdraw (it must be the last event)")
        return self._s.length - 1, last

    def withdraw(self, note: str = "") -> Event:
        """Take back the last play (a phony challenged off, or withdrawn): tiles off, score off, turn still lost."""
        index, last = self._last_play()
        s = self._begin()
        drawn, scoreless_before, _passes = s.play_info[index]  # kept (shared with the states before)
        for r, c, _tile in last.placement.new_tiles():
            s.board[r, c] = None
        n = last.placement.tile_count
        s.bag_count += drawn
        s.rack_counts[last.player] += n - drawn
        s.scores[last.player] -= last.score
        s.scoreless_turns = scoreless_before + 1
        s.passes = 0
        event = self._record(s, Event("withdraw", last.player, -last.score, s.scores[last.player], last.rack,
                                      last.position, last.word, words=last.words, note=note))
        self._commit(s)
        return event

    def challenge(self, valid: bool | None = None, challenger: int | None = None, words: int = 1) -> Event | None:
        """Challenge the last play. ``valid`` None asks the lexicon whether every word it formed is good.

        Invalid: the play is withdrawn (returns the ``withdraw`` event). Valid: under ``double`` the challenger
        (default: the player to move) loses the next turn; under ``points`` the challenged player earns
        ``rules.challenge_points`` per word challenged (``words``); under ``single`` and ``void`` nothing
        happens (returns None).
        """
        _index, last = self._last_play()
        if not 1 <= words <= max(1, len(last.words)):
            raise IllegalMove(f"{words} words challenged, but the play formed {len(last.words)}")
        if valid is None:
            if self.lexicon is None:
                raise IllegalMove("no lexicon to judge the challenge: say whether the play is valid")
            valid = all(self.is_word(w) for w in last.words)
        if not valid:
            return self.withdraw(note="challenged off")
        rule = self.rules.challenge
        if rule == "points":
            return self.challenge_bonus(last.player, words=words)
        if rule == "double":
            who = self._s.turn if challenger is None else challenger
            if who == last.player:
                raise IllegalMove("a player cannot challenge their own play")
            s = self._begin()
            s.scoreless_turns += 1
            event = self._record(s, Event("lose_turn", who, 0, s.scores[who], note="lost challenge"))
            if s.turn == who:
                self._advance(s)
            else:
                s.skip.append(who)
            self._commit(s)
            return event
        return None

    def challenge_bonus(self, player: int | None = None, words: int = 1, rack: str = "") -> Event:
        """Award the bonus for a wrong challenge: ``rules.challenge_points`` per word challenged (``words``, at
        most as many as the last play formed) to ``player`` (default: the player of the last play)."""
        if self._s.ended:
            raise IllegalMove("the game is over")
        last = self._last_play()[1]
        if player is None:
            player = last.player
        if not 1 <= words <= max(1, len(last.words)):
            raise IllegalMove(f"{words} words challenged, but the last play formed {len(last.words)}")
        points = self.rules.challenge_points * words
        s = self._begin()
        s.scores[player] += points
        event = self._record(s, Event("challenge_bonus", player, points, s.scores[player], rack))
        self._commit(s)
        return event

    def time_penalty(self, player: int, points: int, rack: str = "") -> Event:
        """Deduct an overtime penalty of ``points`` (positive) from ``player``; allowed after the end too."""
        s = self._begin()
        s.scores[player] -= points
        event = self._record(s, Event("time_penalty", player, -points, s.scores[player], rack))
        self._commit(s)
        return event

    # --- Harry Potter edition: cards and Magical Words -----------------------------------------------------------
    def _turn_play(self, player: int | None) -> tuple[int, Event]:
        """The play this turn's after-play events belong to: the last turn event, which must be a play."""
        h = self._s.log
        i = self._s.length - 1
        while i >= 0 and h[i].kind in AFTER_PLAY_KINDS:
            i -= 1
        if i < 0 or h[i].kind != "play" or (player is not None and h[i].player != player):
            raise IllegalMove("a card or a Magical Word belongs to the play just made, before the next turn")
        return i, h[i]

    def _after_play(self, player: int, event: Event) -> Event:
        if self._s.ended:
            raise IllegalMove("the game is over")
        s = self._begin()
        s.scores[player] += event.score
        event = self._record(s, replace(event, total=s.scores[player]))
        self._commit(s)
        return event

    def card(self, name: str, multiplier: int | None = None, points: int | None = None,
             player: int | None = None, note: str = "") -> Event:
        """A Harry Potter card's effect on the play just made, as its own scored event named ``name``.

        ``multiplier`` re-multiplies the play's score after its premiums (×3: ``First-years o'er here``), the
        bingo bonus and any Magical Word bonus left out, earlier cards of the play in (so cards re-double);
        ``points`` adds a flat number; neither is a card without points (``Obliviate``). The material's order is
        word, card, Magical Word bonus: the bonus is never multiplied, whichever is entered first.
        """
        if not self.rules.cards:
            raise IllegalMove("this game is played without Harry Potter cards")
        if not name.strip():
            raise IllegalMove("a card needs its name")
        if multiplier is not None and points is not None:
            raise IllegalMove("a card either multiplies the score or adds points, not both")
        index, play = self._turn_play(player)
        gained = points or 0
        if multiplier is not None:
            if multiplier < 1:
                raise IllegalMove(f"a card's multiplier must be 1 or more, not {multiplier}")
            bingo = self.rules.bingo_bonus if play.placement.tile_count in self.rules.bingo_tile_counts else 0
            cards = sum(e.score for e in self._s.history[index + 1:] if e.kind == "card")
            gained = (play.score - bingo + cards) * (multiplier - 1)
        return self._after_play(play.player, Event("card", play.player, gained, word=name.strip(), note=note))

    def magical_word(self, word: str | None = None, player: int | None = None, note: str = "") -> Event:
        """Mark a word of the play just made a Magical Word: the bonus for its length (in tiles) from the game's
        table (``rules.magical_words``), as its own event. ``word`` defaults to the play's main word; each word
        of a play earns it once."""
        if not self.rules.magical_words:
            raise IllegalMove("this game has no Magical Word bonus")
        index, play = self._turn_play(player)
        formed = [w.upper() for w in play.words]
        chosen = (word or formed[0]).upper()
        if chosen not in formed:
            raise IllegalMove(f"{chosen} is not a word of the play {play.position} {play.word} ({', '.join(formed)})")
        done = [e.word.upper() for e in self._s.history[index + 1:] if e.kind == "magical_word"]
        if chosen in done:
            raise IllegalMove(f"{chosen} already earned its Magical Word bonus")
        bonus = magical_word_bonus(self.rules.magical_words, len(chosen))
        return self._after_play(play.player, Event("magical_word", play.player, bonus, word=chosen,
                                                   count=len(chosen), note=note))

    # --- the end ----------------------------------------------------------------------------------------------
    def end(self, racks: Mapping[int, str] | None = None, out: int | None = None) -> list[Event]:
        """End the game and adjust scores by the racks left.

        ``out`` is the player who went out (found from the tile counts when None); ``racks`` maps player index
        to the tiles left on that rack (``"?"`` for a blank). A rack not given is inferred when it can be: an
        empty rack, or the one rack nobody named once the bag is empty (it is the unseen pool). Tournament
        scoring: the player who went out earns twice each other rack, nobody deducts; casual: earns each other
        rack once, and each other player deducts their own. Without anyone out every player deducts their own.
        A Finish Line game that reached its target ends as it stands (no racks counted).
        """
        if self._s.ended:
            raise IllegalMove("the game is already over")
        s = self._begin()
        n = len(self.players)
        if self.finished_reason == "target":  # Finish Line: the game stops there, racks are not counted
            s.ended = True
            self._commit(s)
            return []
        if out is None:
            finished_out = [p for p in range(n) if s.rack_counts[p] == 0] if s.bag_count == 0 else []
            out = finished_out[0] if finished_out else None
        known = {p: str(r) for p, r in (racks or {}).items()}
        for p in range(n):
            if p not in known and (p == out or s.rack_counts[p] == 0):
                known[p] = ""
        missing = [p for p in range(n) if p not in known]
        if len(missing) == 1 and s.bag_count == 0:
            rest = self.unseen() - Counter("".join(known.values()))
            known[missing[0]] = "".join(sorted(rest.elements()))
        elif missing:
            raise IllegalMove("the racks of " + ", ".join(self.players[p] for p in missing)
                              + " are needed to end the game")
        tiles = self.rules.tiles
        events: list[Event] = []

        def add(kind: str, player: int, points: int, letters: str) -> None:
            s.scores[player] += points
            events.append(self._record(s, Event(kind, player, points, s.scores[player], letters=letters)))

        if out is not None:
            factor = 2 if self.rules.end_scoring == "tournament" else 1
            order = [(out + k) % n for k in range(1, n)]
            for p in order:
                if known[p]:
                    add("end_rack", out, factor * tiles.rack_value(known[p]), known[p])
            if self.rules.end_scoring == "casual":
                for p in order:
                    if known[p]:
                        add("end_penalty", p, -tiles.rack_value(known[p]), known[p])
        else:
            for p in range(n):
                if known[p]:
                    add("end_penalty", p, -tiles.rack_value(known[p]), known[p])
        s.ended = True
        self._commit(s)
        return events
