"""GCG game records (Quackle, cross-tables, Woogles): read, write, replay and verify.

Reading is syntax only: it gives a :class:`GcgGame` of players, pragmas and :class:`~tilecam.engine.game.Event`
values with the scores as recorded. :meth:`GcgGame.replay` plays the events on a board and recomputes every score
from the placements alone; :meth:`GcgGame.verify` compares the two (module :mod:`.verify`).

Event lines understood (``RACK`` may be left out or empty)::

    >nick: RACK 8D WORD +24 24     play (``.`` or the letter itself for a played-through square)
    >nick: RACK - +0 24            pass
    >nick: RACK -ABC +0 24         exchange (``-3``: three tiles, letters unknown)
    >nick: RACK -- -24 0           the previous play withdrawn (phony)
    >nick: RACK (challenge) +5 29  challenge bonus
    >nick: (ABC) +10 39            end of game: twice (tournament) the tiles left on the other rack
    >nick: ABC (ABC) -5 34         end of game: own rack deducted (six scoreless turns, casual rules)
    >nick: RACK (time) -10 24      time penalty

    >nick:  (challenge) +96 144    a Harry Potter card or Magical Word, with ``#note Harry Potter card: NAME``
                                   or ``#note Magical Word: WORD`` under it (CARD_NOTE, MAGICAL_WORD_NOTE)

With the game note ``ORIENTATION_NOTE`` or ``#orientation lettered-rows`` (or ``orientation="lettered-rows"``)
coordinates are read the transposed ScrabScrap way (letter = row, number = column); events always hold standard
coordinates.

>>> g = read_gcg("#player1 ann Ann\\n#player2 ben Ben\\n>ann: AQNTUXY 8D QUANT +48 48\\n")
>>> g.players[0].nick, g.events[0].position, g.events[0].word, g.events[0].score
('ann', '8D', 'QUANT', 48)
>>> g.replay().scores
[48, 0]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .board import Board
from .coords import format_coord, parse_coord
from .errors import CoordinateError, DataFileError, EngineError, GcgReplayError, GcgSyntaxError
from .game import Event, Game
from .gcg_names import pragmas_for, rules_from_pragmas, tileset_name, tileset_of
from .move import Placement
from .rules import Rules

ORIENTATIONS = ("standard", "lettered-rows")
# The rack field of a pass or an exchange whose rack nobody saw: macondo's patterns need a field there, and "-"
# claims no tile (a "?" would claim a blank).
UNSEEN_RACK = "-"
# The game note written when no rack was seen; read back, it turns the racks written in their stead (the tiles
# played, "-") into unknown racks again, so that reading the text gives the same game. Where some racks were seen
# and others not, each rack not seen gets RACK_UNSEEN_NOTE under its line instead.
RACKS_UNSEEN_NOTE = ("racks: the camera sees the board only; a play's rack field holds just the tiles played, "
                     f"{UNSEEN_RACK} stands for a rack not seen")
RACK_UNSEEN_NOTE = f"rack not seen: the rack field holds just the tiles played ({UNSEEN_RACK}: none)"
# macondo has no line for a Harry Potter card or Magical Word: each is written as the one bonus line it has, a
# challenge bonus (a time-penalty line for a card taking points away), with one of these notes first under it
# giving the card's name or the word; read back, the note turns the line into the card or Magical Word again.
CARD_NOTE = "Harry Potter card: "
MAGICAL_WORD_NOTE = "Magical Word: "
_BONUS_NOTES = {"card": CARD_NOTE, "magical_word": MAGICAL_WORD_NOTE}
MAGICAL_WORDS = "harry-potter"  # the bonus table (engine/data/bonuses) a record with Magical Words is read with
# macondo has no #orientation pragma: a record in lettered-rows coordinates says so in this game note (written
# before the events, which it governs), read back as the orientation. Other programs read such coordinates as
# standard ones: the note is for a person, and for tilecam.
ORIENTATION_NOTE = ("orientation lettered-rows: coordinates are ScrabScrap's transposed ones "
                    "(letter = row, number = column)")
_RACK_KINDS = ("play", "pass", "exchange", "withdraw", "lose_turn")  # events whose line needs a rack field
# Pragmas that describe the text rather than the game: not compared when two records are asked to be the same game.
_TEXT_PRAGMAS = ("character-encoding",)
_COORD = re.compile(r"^(\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_INT = re.compile(r"^[+-]?\d+$")
_PLAYER = re.compile(r"^player(\d+)$")


def _is_letters(token: str, extra: str = "") -> bool:
    if token.isalpha():  # the usual case, answered without looking at each character
        return True
    return bool(token) and all(ch.isalpha() or ch == "?" or ch in extra for ch in token)


@dataclass(frozen=True, slots=True)
class GcgPlayer:
    nick: str
    name: str


@dataclass(slots=True)
class GcgGame:
    """A read GCG file. ``event_lines[i]`` is ``(line number, line text)`` of ``events[i]`` (0 when written)."""

    players: list[GcgPlayer]
    pragmas: dict[str, str] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    event_lines: list[tuple[int, str]] = field(default_factory=list)
    orientation: str = "standard"

    def __eq__(self, other: object) -> bool:  # the same game, wherever its lines stood and however encoded
        def game_pragmas(g: GcgGame) -> dict[str, str]:
            return {k: v for k, v in g.pragmas.items() if k not in _TEXT_PRAGMAS}

        return (isinstance(other, GcgGame) and self.players == other.players
                and game_pragmas(self) == game_pragmas(other) and self.events == other.events)

    def rules(self, **changes) -> Rules:
        """The rules the record's pragmas name (``#game-type``, ``#tile-distribution``, ``#board-layout``; the tile
        set guessed from the letters without a ``#tile-distribution``), with ``changes`` laid over them. A record
        with Harry Potter cards or Magical Words is played with them (the bundled bonus table, ``MAGICAL_WORDS``:
        a record does not say which table its game used)."""
        guess = None if "tile-distribution" in self.pragmas else self.guess_tileset()
        rules = rules_from_pragmas(self.pragmas, guess)
        kinds = {ev.kind for ev in self.events}
        if "card" in kinds and not rules.cards:
            rules = replace(rules, cards=True)
        if "magical_word" in kinds and not rules.magical_words:
            rules = replace(rules, magical_words=MAGICAL_WORDS)
        return replace(rules, **changes) if changes else rules

    # --- replay -----------------------------------------------------------------------------------------------
    def replay(self, rules: Rules | None = None, lexicon=None,
               on_event: Callable[[int, list[Event], Board], None] | None = None) -> Game:
        """Play the record on a board, recomputing every score; the recorded scores are ignored.

        ``on_event(i, computed_events, board_before)`` is called after each record event ``i`` (a run of
        end-of-game lines is replayed as one :meth:`Game.end`, reported on its last line); ``board_before`` is the
        game's own board before the event, not a copy: read it, never change it. Raises
        ``GcgReplayError`` naming the line of a move the board does not allow.
        """
        game = Game([p.name for p in self.players], rules or Rules(), lexicon)
        i, n = 0, len(self.events)
        while i < n:
            ev = self.events[i]
            line_no = self.event_lines[i][0] if i < len(self.event_lines) else 0
            # No copy: every Game action works on a copy of the state (Game._begin), so the board before an event
            # is never changed by it; callers of on_event must not change it either.
            board_before = game.board
            try:
                if ev.kind in ("end_rack", "end_penalty"):
                    j = i
                    while j + 1 < n and self.events[j + 1].kind in ("end_rack", "end_penalty"):
                        j += 1
                    made = _replay_end(game, self.events[i:j + 1])
                    i = j
                else:
                    made = replay_event(game, ev)
            except EngineError as exc:
                raise GcgReplayError(line_no, f"{self.event_lines[i][1] if self.event_lines else ev.kind}: {exc}") \
                    from exc
            if on_event:
                on_event(i, made, board_before)
            i += 1
        return game

    def rescored(self, rules: Rules | None = None) -> "GcgGame":
        """The same record with every score and total recomputed from the placements."""
        computed: dict[int, list[Event]] = {}
        self.replay(rules, on_event=lambda i, evs, _b: computed.__setitem__(i, evs))
        events = list(self.events)
        for i, evs in computed.items():
            for j, new in _pair_events(self.events, i, evs):
                events[j] = replace(events[j], score=new.score, total=new.total, position=new.position or
                                    events[j].position, word=new.word or events[j].word)
        return GcgGame(list(self.players), dict(self.pragmas), events, list(self.event_lines), self.orientation)

    def guess_tileset(self) -> str:
        """The tile set ``#tile-distribution`` names; else ``"german"`` when the record uses Ä, Ö or Ü or names a
        German lexicon, else ``"english"``."""
        if "tile-distribution" in self.pragmas:
            return tileset_name(self.pragmas["tile-distribution"])
        lexicon = self.pragmas.get("lexicon", "").upper()
        if lexicon.startswith(("GERMAN", "DEUTSCH", "D25", "DE")):
            return "german"
        for ev in self.events:
            if any(ch in "ÄÖÜäöü" for ch in ev.rack + ev.word + ev.letters):
                return "german"
        return "english"

    def verify(self, rules: Rules | None = None):
        """Compare every recorded score and cumulative total with the recomputed ones (see :mod:`.verify`)."""
        from .verify import verify  # verify builds on this module

        return verify(self, rules)

    @classmethod
    def from_game(cls, game: Game, pragmas: dict[str, str] | None = None) -> "GcgGame":
        """A game as a record, with the pragmas that name its rules for other programs (:mod:`.gcg_names`) and
        its lexicon's name where the game is not standard English; ``pragmas`` given are laid over them (a note
        given is added after the rules' note)."""
        players = [GcgPlayer(name.replace(" ", "_") or f"player{i + 1}", name) for i, name in enumerate(game.players)]
        named = pragmas_for(game.rules)
        source = getattr(game.lexicon, "source", "")
        if named and source:
            named["lexicon"] = Path(source).stem
        given = dict(pragmas or {})
        if "note" in named and "note" in given:
            given["note"] = f"{named['note']}\n{given['note']}"
        return cls(players, {**named, **given}, game.history, [(0, "")] * len(game.history))


def replay_event(game: Game, ev: Event) -> list[Event]:
    """Make the move ``ev`` records on ``game`` again (a play, pass, exchange, withdrawal, challenge bonus, time
    penalty, Harry Potter card or Magical Word) and return the event it made: what loading a record does, and what
    rebuilding a game with one move changed does. A card's points are taken as recorded (a record does not say
    the card's multiplier); a Magical Word's bonus is recomputed from the game's table."""
    if ev.kind == "play":
        placement = Placement.from_gcg(ev.position, ev.word, board=game.board)
        made = game.play(placement, rack=ev.rack, player=ev.player, note=ev.note)
    elif ev.kind == "pass":
        made = game.pass_turn(rack=ev.rack, player=ev.player, note=ev.note)
    elif ev.kind == "exchange":
        made = game.exchange(ev.letters or ev.count, rack=ev.rack, player=ev.player, note=ev.note)
    elif ev.kind == "withdraw":
        made = game.withdraw(note=ev.note)
    elif ev.kind == "challenge_bonus":
        # The record cannot say how many words were challenged; a bonus of k times the rule's points, k no more
        # than the words the play formed, is read as k words challenged. Anything else is rescored as one word.
        per_word = game.rules.challenge_points
        k = ev.score // per_word if per_word and ev.score % per_word == 0 else 1
        last_words = len(game.history[-1].words) if game.history and game.history[-1].kind == "play" else 1
        made = game.challenge_bonus(player=ev.player, words=k if 1 <= k <= last_words else 1, rack=ev.rack)
    elif ev.kind == "time_penalty":
        made = game.time_penalty(ev.player, -ev.score, rack=ev.rack)
    elif ev.kind == "card":
        made = game.card(ev.word, points=ev.score, player=ev.player, note=ev.note)
    elif ev.kind == "magical_word":
        made = game.magical_word(ev.word, player=ev.player, note=ev.note)
    elif ev.kind == "lose_turn":
        raise GcgReplayError(0, "lose_turn events are not part of GCG")
    else:  # pragma: no cover - kinds are checked when events are made
        raise AssertionError(ev.kind)
    return [made]


def _replay_end(game: Game, events: list[Event]) -> list[Event]:
    n = len(game.players)
    outs = [ev.player for ev in events if ev.kind == "end_rack"]
    out = outs[0] if outs else None
    racks: dict[int, str] = {}
    opponents = [(out + k) % n for k in range(1, n)] if out is not None else []
    for ev in events:
        if ev.kind == "end_rack":
            if not opponents:
                raise GcgReplayError(0, "more end-of-game rack lines than opponents")
            racks[opponents.pop(0)] = ev.letters
        else:
            racks[ev.player] = ev.letters
    return game.end(racks=racks, out=out)


def _pair_events(recorded: list[Event], last: int, computed: list[Event]) -> list[tuple[int, Event]]:
    """Pair computed events with the record's: one to one, or by (kind, player) for a run of end-of-game lines."""
    if recorded[last].kind not in ("end_rack", "end_penalty"):
        return [(last, computed[0])] if computed else []
    first = last
    while first > 0 and recorded[first - 1].kind in ("end_rack", "end_penalty"):
        first -= 1
    pool = list(computed)
    pairs = []
    for j in range(first, last + 1):
        for k, ev in enumerate(pool):
            if (ev.kind, ev.player) == (recorded[j].kind, recorded[j].player):
                pairs.append((j, pool.pop(k)))
                break
    return pairs


# --- reading ------------------------------------------------------------------------------------------------------
def decode_gcg(data: bytes) -> str:
    """Bytes of a GCG file as text: the ``#character-encoding`` pragma if present, else UTF-8, else ISO-8859-1."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    m = re.search(rb"^#character-encoding[ \t]+([A-Za-z0-9_.:-]+)", data, re.MULTILINE)
    if m:
        encoding = m.group(1).decode("ascii")
        try:
            return data.decode(encoding)
        except (LookupError, UnicodeDecodeError) as exc:
            line_no = data[:m.start()].count(b"\n") + 1
            raise GcgSyntaxError(line_no, f"cannot decode the file as {encoding}: {exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("iso-8859-1")


def load_gcg(path: str | Path, orientation: str | None = None) -> GcgGame:
    """Read a GCG file from disk (any of the encodings :func:`decode_gcg` understands)."""
    return read_gcg(Path(path).read_bytes(), orientation=orientation)


def read_gcg(text: str | bytes, orientation: str | None = None) -> GcgGame:
    """Read a GCG record. Collects every problem; raises the first as ``GcgSyntaxError`` with ``.problems``.

    ``orientation`` ``"lettered-rows"`` or ``"standard"`` overrides the file's ``#orientation`` pragma.
    """
    game, problems = parse_gcg(text, orientation=orientation)
    if problems:
        first = problems[0]
        raise GcgSyntaxError(first.line_no, first.message, problems)
    return game


def parse_gcg(text: str | bytes, orientation: str | None = None) -> tuple[GcgGame, list[GcgSyntaxError]]:
    """Read what can be read of a GCG record: the game, and the problems found on the way (one per line)."""
    if isinstance(text, bytes):
        try:
            text = decode_gcg(text)
        except GcgSyntaxError as exc:
            return GcgGame([]), [exc]
    if text.startswith("\ufeff"):
        text = text[1:]
    if orientation is not None and orientation not in ORIENTATIONS:
        raise GcgSyntaxError(0, f"unknown orientation {orientation!r}; one of {', '.join(ORIENTATIONS)}")
    game = GcgGame([])
    game.orientation = orientation or "standard"
    problems: list[GcgSyntaxError] = []
    players: dict[int, GcgPlayer] = {}
    nick_index: dict[str, int] = {}
    in_note = False
    for line_no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if in_note and not line.startswith(("#", ">")):
            # a note running on over several lines (Quackle writes them so)
            _read_pragma(game, "#note " + line, line_no, players, orientation)
            continue
        in_note = line.startswith("#note")
        try:
            if line.startswith("#"):
                _read_pragma(game, line, line_no, players, orientation)
            elif line.startswith(">"):
                if not nick_index:
                    if not players:
                        raise GcgSyntaxError(line_no, "event before any #player pragma")
                    numbers = sorted(players)
                    if numbers != list(range(1, len(numbers) + 1)):
                        raise GcgSyntaxError(line_no, f"players must be numbered 1..n, got {numbers}")
                    game.players = [players[k] for k in numbers]
                    nick_index = {p.nick: i for i, p in enumerate(game.players)}
                if "[" in line:  # multi-letter tiles ([CH]) in the set's one-character symbols
                    line = _encoded(game, line, line_no)
                game.events.append(_read_event(line, line_no, nick_index, game.orientation == "lettered-rows"))
                game.event_lines.append((line_no, line))
            else:
                raise GcgSyntaxError(line_no, f"expected a pragma (#…) or an event (>…), got {line[:40]!r}")
        except GcgSyntaxError as exc:
            problems.append(exc)
    if not game.players and players:
        game.players = [players[k] for k in sorted(players)]
    _forget_unseen_racks(game)
    _read_bonus_notes(game)
    if not problems and len(game.players) < 2:
        problems.append(GcgSyntaxError(1, "a game needs at least two #player pragmas"))
    return game, problems


def _read_pragma(game: GcgGame, line: str, line_no: int, players: dict[int, GcgPlayer],
                 orientation: str | None) -> None:
    name, _, value = line[1:].partition(" ")
    name, value = name.strip(), value.strip()
    if not name:
        raise GcgSyntaxError(line_no, "empty pragma name after '#'")
    m = _PLAYER.match(name)
    if m:
        if game.events:
            raise GcgSyntaxError(line_no, f"#{name} after the first event")
        nick, _, full = value.partition(" ")
        if not nick:
            raise GcgSyntaxError(line_no, f"#{name} needs a nickname")
        if any(p.nick == nick for p in players.values()):
            raise GcgSyntaxError(line_no, f"nickname {nick!r} used twice")
        players[int(m.group(1))] = GcgPlayer(nick, full.strip() or nick)
    elif name == "note" and value == ORIENTATION_NOTE and not game.events:
        if orientation is None:
            game.orientation = "lettered-rows"
    elif name == "note":
        if game.events:
            last = game.events[-1]
            game.events[-1] = replace(last, note=f"{last.note}\n{value}" if last.note else value)
        else:
            game.pragmas["note"] = f"{game.pragmas['note']}\n{value}" if "note" in game.pragmas else value
    elif name == "orientation":
        if value not in ORIENTATIONS:
            raise GcgSyntaxError(line_no, f"unknown #orientation {value!r}; one of {', '.join(ORIENTATIONS)}")
        if game.events:
            raise GcgSyntaxError(line_no, "#orientation after the first event")
        if orientation is None:
            game.orientation = value
    elif name == "tile" and "tile" in game.pragmas:  # one line per multi-letter tile
        game.pragmas["tile"] += "\n" + value
    else:
        game.pragmas[name] = value


def _encoded(game: GcgGame, line: str, line_no: int) -> str:
    """An event line with ``[CH]``-style tiles in the symbols of the tile set ``#tile-distribution`` names."""
    try:
        tiles = tileset_of(game.pragmas)
        if tiles is None:
            raise GcgSyntaxError(line_no, "a tile in brackets ([CH]) needs a #tile-distribution pragma naming its set")
        head, colon, rest = line.partition(":")
        return head + colon + tiles.encode(rest)
    except (GcgSyntaxError, DataFileError) as exc:
        raise GcgSyntaxError(line_no, getattr(exc, "message", str(exc))) from None


def _played_tiles(word: str) -> str:
    """The tiles a GCG word took from the rack: every square but the played-through ones, blanks as ``?``."""
    return "".join("?" if ch.islower() else ch for ch in word if ch != ".")


def _without(note: str, line: str) -> tuple[str, bool]:
    """``note`` without its line ``line``, and whether it had it."""
    lines = note.split("\n")
    if line not in lines:
        return note, False
    lines.remove(line)
    return "\n".join(lines), True


def _forget_unseen_racks(game: GcgGame) -> None:
    """Undo what writing does for racks not seen (``RACKS_UNSEEN_NOTE``, ``RACK_UNSEEN_NOTE``): read back, they
    are unknown again."""
    note, none_seen = _without(game.pragmas.get("note", ""), RACKS_UNSEEN_NOTE)
    if none_seen:
        if note:
            game.pragmas["note"] = note
        else:
            del game.pragmas["note"]
    for i, ev in enumerate(game.events):
        ev_note, unseen = _without(ev.note, RACK_UNSEEN_NOTE)
        if ev.kind in _RACK_KINDS and (unseen or none_seen):
            game.events[i] = replace(ev, rack="", note=ev_note)


def _read_bonus_notes(game: GcgGame) -> None:
    """Turn the bonus lines written for Harry Potter cards and Magical Words (``CARD_NOTE``, ``MAGICAL_WORD_NOTE``
    first in their note) back into those events."""
    for i, ev in enumerate(game.events):
        if ev.kind not in ("challenge_bonus", "time_penalty") or not ev.note.startswith(tuple(_BONUS_NOTES.values())):
            continue
        first, _, rest = ev.note.partition("\n")
        kind = next(k for k, prefix in _BONUS_NOTES.items() if first.startswith(prefix))
        name = first[len(_BONUS_NOTES[kind]):].strip()
        count = len(name) if kind == "magical_word" else 0
        game.events[i] = Event(kind, ev.player, ev.score, ev.total, word=name, count=count, note=rest)


def _rack_field(middle: list[str], fields_with_rack: int, line_no: int) -> str:
    """The rack of an event line's fields before the score, when there are ``fields_with_rack`` of them ("" when
    one fewer: no rack field; ``UNSEEN_RACK`` is read as no rack)."""
    if len(middle) > fields_with_rack:
        raise GcgSyntaxError(line_no, f"too many fields before the score: {' '.join(middle)!r}")
    if len(middle) < fields_with_rack:
        return ""
    rack = middle[0]
    if rack == UNSEEN_RACK:
        return ""
    if not _is_letters(rack):
        raise GcgSyntaxError(line_no, f"rack {rack!r} holds characters that are not tiles")
    return rack


def _read_event(line: str, line_no: int, nick_index: dict[str, int], lettered_rows: bool) -> Event:
    nick, colon, rest = line[1:].partition(":")
    nick = nick.strip()
    if not colon:
        raise GcgSyntaxError(line_no, "event line has no ':' after the nickname")
    if nick not in nick_index:
        raise GcgSyntaxError(line_no, f"unknown player {nick!r} (players: {', '.join(nick_index)})")
    player = nick_index[nick]
    tokens = rest.split()
    if len(tokens) < 3:
        raise GcgSyntaxError(line_no, "expected a move, a score and a cumulative total")
    score_tok, total_tok, middle = tokens[-2], tokens[-1], tokens[:-2]
    if not _INT.match(score_tok):
        raise GcgSyntaxError(line_no, f"score {score_tok!r} is not a number like +24 or -6")
    if not _INT.match(total_tok):
        raise GcgSyntaxError(line_no, f"cumulative total {total_tok!r} is not a number")
    points, total = int(score_tok), int(total_tok)

    if len(middle) >= 2 and _COORD.match(middle[-2]):
        coord, word = middle[-2], middle[-1]
        rack = _rack_field(middle, 3, line_no)
        if not _is_letters(word, extra="."):
            raise GcgSyntaxError(line_no, f"word {word!r} holds characters that are not tiles or '.'")
        try:
            row, col, across = parse_coord(coord, lettered_rows=lettered_rows, size=26)
        except CoordinateError as exc:
            raise GcgSyntaxError(line_no, str(exc)) from None
        return Event("play", player, points, total, rack, format_coord(row, col, across), word)
    move = middle[-1]
    if move == "-":
        kind, extra = "pass", {}
    elif move == "--":
        kind, extra = "withdraw", {}
    elif move.startswith("-") and move[1:].isdigit():
        kind, extra = "exchange", {"count": int(move[1:])}
    elif move.startswith("-") and _is_letters(move[1:]):
        kind, extra = "exchange", {"letters": move[1:], "count": len(move) - 1}
    elif move == "(challenge)":
        kind, extra = "challenge_bonus", {}
    elif move == "(time)":
        kind, extra = "time_penalty", {}
    elif move.startswith("(") and move.endswith(")") and _is_letters(move[1:-1]):
        kind, extra = "end_rack", {"letters": move[1:-1]}
    else:
        raise GcgSyntaxError(line_no, f"cannot read the move {' '.join(middle)!r} (expected a coordinate and a "
                                      "word, -, --, -TILES, (challenge), (time) or (TILES))")
    rack = _rack_field(middle, 2, line_no)
    if kind == "end_rack" and (points < 0 or (rack and rack == extra["letters"])):
        kind = "end_penalty"
    return Event(kind, player, points, total, rack, **extra)


# --- writing ------------------------------------------------------------------------------------------------------
def write_gcg(game: GcgGame | Game, orientation: str | None = None) -> str:
    """The game as GCG text (``\\n`` line ends) that the reference parser (macondo/Woogles) reads line by line:
    ``#character-encoding UTF-8`` first when the text is not ASCII, a rack field on every event (what is known of
    a rack nobody saw, with ``RACKS_UNSEEN_NOTE`` saying so), multi-letter tiles as ``[CH]``. Reading it back gives
    the same game (``lose_turn`` events, which GCG cannot say, are written as passes)."""
    gcg = game if isinstance(game, GcgGame) else GcgGame.from_game(game)
    orientation = orientation or gcg.orientation
    lettered = orientation == "lettered-rows"
    pragmas = {k: v for k, v in gcg.pragmas.items() if k not in _TEXT_PRAGMAS}
    tiles = tileset_of(pragmas)
    spelled = tiles.decode if tiles is not None and tiles.multi_letter else None
    lines = [_event_line(gcg.players[ev.player].nick, ev, lettered, spelled) for ev in gcg.events]
    guessed = [g for (_line, g), ev in zip(lines, gcg.events) if ev.kind in _RACK_KINDS]
    none_seen = bool(guessed) and all(guessed)  # then one game note says so; else a note under each line guessed
    events: list[str] = []
    for (line, guess), ev in zip(lines, gcg.events):
        events.append(line)
        note = ev.note + ("\n" if ev.note else "") + RACK_UNSEEN_NOTE if guess and not none_seen else ev.note
        if ev.kind in _BONUS_NOTES:
            note = _BONUS_NOTES[ev.kind] + ev.word + ("\n" + note if note else "")
        if note:
            events.extend(f"#note {part}".rstrip() for part in note.split("\n"))
    out = [f"#player{i} {p.nick} {p.name}" for i, p in enumerate(gcg.players, 1)]
    if lettered:
        out.append(f"#note {ORIENTATION_NOTE}")
    game_note = pragmas.pop("note", None)
    for name, value in pragmas.items():
        out.extend(f"#{name} {part}".rstrip() for part in value.split("\n"))
    notes = ([] if game_note is None else game_note.split("\n")) + ([RACKS_UNSEEN_NOTE] if none_seen else [])
    out.extend(f"#note {part}".rstrip() for part in notes)
    text = "\n".join(out + events) + "\n"
    return text if text.isascii() else "#character-encoding UTF-8\n" + text


def _event_line(nick: str, ev: Event, lettered: bool, spelled: Callable[[str], str] | None) -> tuple[str, bool]:
    """One event as a GCG line, and whether its rack field holds a stand-in for a rack nobody saw."""
    rack, points = ev.rack, f"{ev.score:+d}"
    if ev.kind == "play":
        row, col, across = parse_coord(ev.position)
        move = f"{format_coord(row, col, across, lettered_rows=lettered)} {ev.word}"
        rack = rack or _played_tiles(ev.word)
    elif ev.kind in ("pass", "lose_turn"):
        move = "-"
        rack = rack or UNSEEN_RACK
    elif ev.kind == "exchange":
        move = f"-{ev.letters}" if ev.letters else f"-{ev.count}"
        rack = rack or ev.letters or UNSEEN_RACK
    elif ev.kind == "withdraw":
        move, points = "--", f"-{abs(ev.score)}"
        rack = rack or _played_tiles(ev.word)
    elif ev.kind == "challenge_bonus":
        move = "(challenge)"  # an empty rack field stays empty: two spaces, as the parser's pattern allows
    elif ev.kind == "time_penalty":
        move, points = "(time)", f"-{abs(ev.score)}"
    elif ev.kind in _BONUS_NOTES:  # its note (CARD_NOTE …) is written first under the line by write_gcg
        move, rack = ("(challenge)", "") if ev.score >= 0 else ("(time)", "")
    elif ev.kind == "end_penalty":
        rack, move, points = ev.letters, f"({ev.letters})", f"-{abs(ev.score)}"
    else:  # end_rack: no rack field
        move, rack = f"({ev.letters})", None
    guessed = ev.kind in _RACK_KINDS and rack != ev.rack
    if spelled is not None:
        move, rack = spelled(move), None if rack is None else spelled(rack)
    fields_ = [f">{nick}:"] + ([] if rack is None else [rack]) + [move, points, str(ev.total)]
    return " ".join(fields_), guessed
