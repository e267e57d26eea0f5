"""The move tracker: a stream of still frames (or readings) in, detected game events out.

    feed(image, t) ──reader──▶ Reading + rectified image ──belief (pixels against the last settle)──▶ Reading
    feed(reading, t) ─────────────────────────────────────────────────────────────────────────────▶ Reading
        Reading ──something over the board?──▶ (not settled; nothing)
                └──▶ settled ──interpret() against the committed board──commit policy──▶ [DetectedEvent]

* An image comes from the capture loop once the board has been still (``firmware/loop.py``): only the squares whose
  pixels changed since the last settle are believed anew (:mod:`tilecam.vision.moves.belief`); a hand is covered
  squares that changed and touch; a few scattered squares the reader doubts keep what they were, so they never keep
  the board from settling. Readings without pixels (tests, labelled photos, simulated streams) settle on
  ``settle_readings`` that agree, their probabilities averaged; any occluded square starts the count again.
* The settled board is compared with the committed one (:func:`~tilecam.vision.moves.interpret.interpret`): new
  tiles → a play (or two, made before the first was committed: ordered by when their squares' pixels first
  changed, :class:`~tilecam.vision.moves.belief.FirstChanges`, a guess where the frames do not tell); the last
  play's tiles gone → a withdrawal (a phony taken back), possibly with the next play already down; new tiles that
  only make sense as part of the last play → the last play amended; tiles missing or moved that are not the last
  play → no move until it is put right, or until the players went on past them: they were bare squares misread as
  tiles → a ``correct`` to bare (:meth:`~.corrections.Corrections.gone_past`). A new square read as a tile whose
  picture is still the one a decided board read bare (a lamp's glare lying still, read as a tile on and off) is
  bare: the board is decided without it first, and with it only where no legal reading holds without it
  (:class:`~tilecam.vision.moves.belief.BareLooks`). A committed tile of an earlier play that settled boards since
  show clearly as another letter, twice in a row, was misread → a ``correct`` event. A
  board with no legal reading waits; once the players went on past it, a gap may hold a blank read bare, a tile no
  play can reach is left out, two boards are decided in turn, and, the last resort, a square read as a tile beside
  a new one is taken for a bare square misread (``decide``'s ``misread``). A board
  turned on the table (a turntable) is no move: the board read in its other turns matches the committed letters
  (:mod:`tilecam.vision.moves.turned`), the reader reads it its new way from then on, and ``status`` says so.
* Whose hand: the capture loop tells :meth:`MoveTracker.note_motion` where its small image moved, the tracker lays
  that on the board's squares and notes which edge the arm crossed (:mod:`tilecam.vision.moves.hands`); the side
  of the last play's hand against this change's tells a player going on after a pause mid-word from the next
  player extending the word (``decide``).
* Commit policy ``settle`` (default): a settled change is committed at once. ``clock``: settled boards are only
  looked at when a clock is pressed (:meth:`MoveTracker.clock`); a press that finds the board unchanged is a
  scoreless turn. ``stills``: every frame is a turn of its own (one photo per turn, a clock-button rig).

The image → reading step is injected (``reader``); the default is the vision pipeline, loaded lazily
(:mod:`tilecam.vision.moves.reader`). :func:`make_tracker` is the one factory (the daemon, ``tilecam replay`` and
``tilecam bench moves``), :func:`~tilecam.vision.moves.config.device_config` the one configuration. The daemon's
side: ``tracker.feed(image, t) -> list[DetectedEvent]``; ``tracker.sync(board_rows)`` after the game's board changed
other than by the camera; ``tracker.clock(t, player=None)`` when a clock button ends a turn; ``wants_every_frame``,
``wants_another_read`` and ``status`` for the capture loop (:mod:`tilecam.vision.moves.events` for the events'
kinds). Its parts, each a module: the configuration (:mod:`.config`), committed tiles put right
(:mod:`.corrections`), a board left unclear (:mod:`.unclear`), the first play's turn (:mod:`.first_play`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tilecam.engine.board import Board, Tile
from tilecam.engine.coords import square_name
from tilecam.engine.layout import Layout
from tilecam.engine.move import Placement
from tilecam.engine.tiles import TileSet
from tilecam.vision.moves import first_play
from tilecam.vision.moves.config import TrackerConfig, TrackerStats, board_layout, device_config
from tilecam.vision.moves.corrections import Corrections
from tilecam.vision.moves.events import DetectedEvent, TrackerError
from tilecam.vision.moves.hands import HandSides, moving_squares
from tilecam.vision.moves.interpret import Interpretation, diff_board, interpret, interpret_in_turn, read_surely
from tilecam.vision.moves.letters import named_again
from tilecam.vision.moves.reach import unreachable
from tilecam.vision.moves import reader as readers
from tilecam.vision.moves import turned
from tilecam.vision.moves.belief import BareLooks, BoardMemory, FirstChanges, Look
from tilecam.vision.moves.blanks import BlankMemory
from tilecam.vision.moves.reader import Reader
from tilecam.vision.moves.reading import (BLANK, EMPTY, Reading, ReadingError, as_reading, merge_readings,
                                          readings_agree, turned_square)
from tilecam.vision.moves.resolve import Candidate
from tilecam.vision.moves.turned import BoardTurn
from tilecam.vision.moves.unclear import UnclearBoard

log = logging.getLogger(__name__)

#: New tiles whose pixels first changed within this many seconds of the last play's commit are its player's, going
#: on after a pause mid-word, where no hand was seen to say whose they are (sparse frames, a corner of the board):
#: the next player's turn — the clock pressed, the board looked at, a reach to the rack and over the board — takes
#: longer than that.
GOING_ON_S = 1.0

class MoveTracker:
    """Board-state tracker over a frame/reading stream (see the module doc). ``layout``: the game's board (a
    ``Layout`` or a bundled layout's name); None: the classic board, or Super Scrabble's when ``board_rows`` has
    21 rows. Its own reader, when none is given, reads a board of that size."""

    def __init__(self, tileset: TileSet | str = "english", lexicon: Any = None, reader: Reader | None = None,
                 board_rows: Sequence[str] | None = None, config: TrackerConfig | None = None,
                 unreadable: tuple[type[BaseException], ...] = (ValueError,),
                 layout: Layout | str | None = None) -> None:
        self.tileset = TileSet.load(tileset) if isinstance(tileset, str) else tileset
        self.lexicon = lexicon
        self.config = config or TrackerConfig()
        self._reader = reader
        self._unreadable = unreadable
        self.board = Board(board_layout(layout, board_rows))
        self.last_play: Placement | None = None
        self.rotation = 0
        self.status = "watching"
        self.stats = TrackerStats()
        self._window: list[tuple[np.ndarray, Reading, float]] = []
        self._settled: Reading | None = None
        self._settled_key: tuple[str, ...] | None = None
        self._settled_t = 0.0
        self._settled_handled = True       # the current settled board has been looked at
        self._clock: list[tuple[float, int | None]] = []
        self._raw: Any = None              # the reader's own result for the last frame (its rectified image)
        self._lingering = False            # the last look saw a hand leaving its play (the next frame is wanted)
        self._why_unreadable = "no board found in the frame"
        self.memory = BoardMemory()
        self.first_changes = FirstChanges()   # when new squares first changed: the order of two plays in one change
        self._picture: Any = None          # the last frame's picture (``change.Signature``; None: a reading stream)
        self.bare_looks = BareLooks()      # each square's picture when a decided board last read it bare (``_still``)
        self._still_left: tuple[tuple[int, int], ...] = ()   # new squares the last decision read as decided
        self.hand_sides = HandSides()      # the sides this change's hands came from (whose play it is)
        self._board_at: tuple[np.ndarray, tuple[int, int]] | None = None   # the grid as located in the last image
                                                                            # read (unturned), its (height, width)
        self._last_side: int | None = None  # the side the last play's hand came from (None: not seen, or a turn
                                            # has passed since: a clock press, a pass, an exchange)
        self._last_play_t: float | None = None  # when the last play was committed (None: a turn has passed since)
        self.blanks = BlankMemory()        # bare squares that read as blanks, blanks that read bare (.blanks)
        self.corrections = Corrections()   # what settled boards said of the committed tiles since
        self._named_from_words: frozenset[tuple[int, int]] = frozenset()  # the last play's blanks its words named
        self.unclear = UnclearBoard()      # the last board left unclear, and whether the players went on past it
        self._strays: frozenset[tuple[int, int]] = frozenset()   # read as tiles no play can reach, left out when the
                                                                 # board was last decided (moves.reach) …
        self._misread: frozenset[tuple[int, int]] = frozenset()  # … or no legal reading held (decide: misread)
        self.turns_seen: list[tuple[float, BoardTurn]] = []   # (t, turn): the board turned on the table, no move
        self._turn_news = ""               # a turn seen in the frame being tracked, said before its status
        if board_rows is not None:
            self.sync(board_rows)

    @property
    def wants_every_frame(self) -> bool:
        return self.config.wants_every_frame or self.config.stills

    @property
    def wants_another_read(self) -> bool:
        """The last image showed no board, or a hand leaving the play it just made (``Look.lingering``): the capture
        loop then reads the next frame too, though the board is still."""
        return (self._raw is None and self.status.startswith("unreadable")) or self._lingering

    # ------------------------------------------------------------------------------------------ outside world

    def sync(self, board_rows: Sequence[str]) -> None:
        """The game's board, as the game service has it (after an undo, a correction, a resume, a refusal)."""
        board = Board.from_rows(list(board_rows), self.board.layout)
        if board.size != self.board.size:
            raise TrackerError(f"a {board.size}x{board.size} board")
        # someone other than the camera changed the game (a pass or an exchange from the web or a button, an undo):
        # a turn may have gone by, so the next hand from the last play's side is no sign of its player going on
        self._last_side = self._last_play_t = None
        if board == self.board:
            return
        self.board = board
        self.last_play = None   # whatever the last play now is, the camera did not see it made
        self._named_from_words = frozenset()
        self.blanks.forget()
        self.corrections.forget()      # letters read against the old board count for nothing now
        self.unclear.decided()
        self._strays = self._misread = frozenset()
        self.bare_looks.forget()
        # The board the camera last saw settled is not looked at again: after an undo or a refused play the tiles
        # are usually still down, and re-reading them would undo the players' decision. The next change counts.

    def clock(self, t: float, player: int | None = None) -> list[DetectedEvent]:
        """A clock press ends a turn: under the ``clock`` policy the next settled board is committed (a board with
        nothing new is a scoreless turn). Under ``settle`` the press is only a hint to look now."""
        self._clock.append((t, player))
        self._settled_handled = False
        self._last_side = self._last_play_t = None   # the turn is over: what is put down next is the next player's
        return []          # the next settled reading (the read the press asks for) decides

    def external(self, kind: str, t: float, player: int | None = None, count: int = 0) -> list[DetectedEvent]:
        """A pass or an exchange reported by a button or the web page (a camera cannot see them)."""
        if kind not in ("pass", "exchange"):
            raise TrackerError(f"unknown external event {kind!r}; pass or exchange")
        self._last_side = self._last_play_t = None   # a turn passed since the last play
        return [DetectedEvent(kind, t=t, player=player, count=count)]

    # ------------------------------------------------------------------------------------------ frames

    def feed(self, frame: Any, t: float) -> list[DetectedEvent]:
        """One frame (a BGR image, given to the reader) or one reading; returns the events it completes. An image is
        a still frame (the capture loop waited for the board to be still): it is read, and only the squares whose
        pixels changed since the last settle are believed anew (:mod:`tilecam.vision.moves.belief`)."""
        t0 = time.perf_counter()
        self.stats.frames += 1
        if self.config.stills:
            self.clock(t)
        look = None
        sig = None
        if isinstance(frame, np.ndarray) and hasattr(self.reader, "read_changed"):
            reading, sig = self._read_changed(frame)
        else:
            reading = self._read(frame)
        if isinstance(frame, np.ndarray):
            self.stats.read_s.append(time.perf_counter() - t0)
            location = getattr(self._raw, "location", None)
            if location is not None:
                self._board_at = (location.corners, frame.shape[:2])
            if reading is not None and getattr(self._raw, "warped", None) is not None:
                committed = self._committed_reading()
                look = self.memory.look(reading, self._raw.warped, committed, sig)
                self.first_changes.note(look, committed, t)
                reading = look.reading
                self.stats.changed.append(int(look.changed.sum()))
                self.stats.kept += len(look.kept)
        self._lingering = bool(look is not None and look.lingering)
        t1 = time.perf_counter()
        events = self._track(reading, t, look)
        if self._turn_news:                # the scoreboard and the device panel say it, whatever came next
            self.status, self._turn_news = f"{self._turn_news}; {self.status}", ""
        t2 = time.perf_counter()
        self.stats.track_s.append(t2 - t1)
        self.stats.frame_s.append(t2 - t0)
        if events:
            self.stats.latency_s.append(t2 - t0)
        return events

    def note_motion(self, moving: np.ndarray, t: float) -> None:
        """Where the capture loop's small image moved since its last frame (a bool mask): an arm reaching over the
        board, whose side of the board tells whose hand it is (:mod:`.hands`). The still frames the tracker reads
        seldom show it."""
        if self._board_at is not None:
            self.hand_sides.note(moving_squares(moving, *self._board_at, self.board.size))

    def _reader_turn(self) -> int:
        """Quarter turns from the board as located in the picture to the reader's reading (row 1 told from the
        letters; 0 until it is told)."""
        return getattr(self._reader, "rotation", None) or 0

    def _in_picture(self, squares: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
        """Squares of the board (its orientation) where they lie in the picture's grid (as located, unturned):
        the hands' sides are the camera's, where the players sit, whichever edge is row 1 or however the board
        was turned on the table."""
        n = self.board.size
        mask = np.zeros((n, n), bool)
        for r, c in squares:
            mask[r, c] = True
        turn = self._reader_turn() + self.rotation
        return [(int(r), int(c)) for r, c in np.argwhere(np.rot90(mask, -turn))]

    def _read(self, frame: Any) -> Reading | None:
        self._raw = None
        try:
            if isinstance(frame, _Unreadable):
                raise frame.error
            raw = self.reader(frame) if isinstance(frame, np.ndarray) else frame
            self._raw = raw
            return None if raw is None else as_reading(raw)
        except ReadingError:
            raise
        except self._unreadable as exc:          # no board found: a head over it, the board off the picture
            log.debug("unreadable frame: %s", exc)
            why = str(exc)[:80]
            self.stats.unreadable += 1
            self.stats.unreadable_why[why] = self.stats.unreadable_why.get(why, 0) + 1
            self._why_unreadable = why
            return None

    def _read_changed(self, frame: np.ndarray) -> tuple[Reading | None, Any]:
        """The reader reads only the squares the memory wants read again (changed pixels, doubtful belief)."""
        self._raw = None
        try:
            raw, sig = self.reader.read_changed(frame, self.memory.wanted)
        except ReadingError:
            raise
        except self._unreadable as exc:
            return self._read(_Unreadable(exc)), None
        self._raw = raw
        return as_reading(raw), sig

    def _committed_rows(self) -> list[str]:
        """The committed board as rows of labels (``.`` bare, a letter, ``?`` a blank), in its own orientation."""
        return ["".join(BLANK if t is not None and t.is_blank else t.letter if t is not None else EMPTY
                        for t in (self.board[r, c] for c in range(self.board.size))) for r in range(self.board.size)]

    def _committed_reading(self) -> Reading:
        """The committed board as a reading in the camera's orientation (what a square holds before it settled)."""
        return Reading.from_rows(self._committed_rows(), confidence=1.0).rotated(-self.rotation)

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = readers.default_reader(self.tileset.name, size=self.board.size)
        return self._reader

    def _track(self, reading: Reading | None, t: float, look: Look | None = None) -> list[DetectedEvent]:
        if reading is None:
            self._interrupted()
            self.status = f"unreadable: {self._why_unreadable} ({self.stats.unreadable} frames so far)"
            return []
        if self.config.occlusion_blocks and (reading.any_occluded or self._looks_covered(reading, look)):
            self.stats.occluded += 1
            self._interrupted()
            self.hand_sides.note(np.rot90(_under_hand(reading, look), -self._reader_turn()))   # the camera's picture
            hand = f" ({len(look.hand)} squares)" if look is not None and look.hand else ""
            self.status = f"occluded: something over the board{hand}"
            return []
        if look is not None:
            self.memory.settle(look)          # the reference the next frame's change is seen against
        self._picture = None if look is None else look.signature
        reading = self._orient(reading, t)
        policy = self.config.resolve
        occ = reading.occupancy(policy.clear, policy.min_alternative)
        # readings agree where both are sure; a square read doubtfully in one frame (a stray, a glint) does not
        # break the run, and the merged letters outvote it
        keep = len(self._window)
        while keep and readings_agree(occ, self._window[keep - 1][0]):
            keep -= 1
        del self._window[:keep]            # only the latest run of readings that agree with this one
        self._window.append((occ, reading, t))
        if len(self._window) < self.config.settle_readings:
            self.status = "settling"
            return []
        del self._window[:-self.config.settle_readings]
        reading = merge_readings([rd for _, rd, _ in self._window])
        key = reading.occupancy_key()
        if self._settled is None or self._settled_key != key:
            self.stats.settles += 1
            self._settled_handled = False
        self._settled, self._settled_key, self._settled_t = reading, key, t
        if self._settled_handled and not self._clock:
            return []
        return self._on_settled(reading, t)

    def _interrupted(self) -> None:
        """Something moved or covered the board: the run of agreeing readings starts again, and the next settled
        board is looked at even if it looks the same (a tile may have been swapped in place)."""
        self._window.clear()
        self._settled_key = None

    def _looks_covered(self, reading: Reading, look: Look | None) -> bool:
        """Many squares read with little confidence at once: something is over the board that the reader did not
        flag (a sleeve, a shadow). Readings only: with the pixels, a hand is what changed and reads as covered."""
        n = self.config.unsure_squares
        return look is None and n > 0 and int((reading.confidence < self.config.unsure_below).sum()) >= n

    def _on_settled(self, reading: Reading, t: float) -> list[DetectedEvent]:
        t0 = time.perf_counter()
        clock = self._clock.pop(0) if self._clock else None
        if self.config.commit == "clock" and clock is None:
            self.status = "settled (waiting for a clock)"
            return []
        self._learn_board()
        reading = self.blanks.apply(reading, self.board, self.last_play)
        # first: the play is judged on them
        events = self.corrections.found(self.board, reading, self.last_play, self.tileset, self.config, t)
        result, side = self._decide(reading, clock is not None)
        if result.kind == "disturbed" and self.config.remove_after <= 0:     # (photos: remove_after does it)
            gone = self._gone_past(reading, clock is not None, t)
            if gone:
                events += gone
                result, side = self._decide(reading, clock is not None)
        else:
            self.corrections.missing = None
        if result.kind == "play" and self.config.rotations and next(iter(self.board.tiles()), None) is None:
            reading, result = self._first_play_turn(reading, result)
        later_side = self._later_play_side(result)
        if result.kind not in ("disturbed", "unclear"):
            self.first_changes.forget()     # decided: what changes next belongs to the next move (pending: kept)
            self._bare_looks(reading)
            self.hand_sides.forget()
            self._strays, self._misread = frozenset(result.unreachable), frozenset(result.misread)
        if result.kind in ("play", "withdraw+play", "none"):
            self.blanks.judged_bare(result.ignored, reading)
        if result.unreachable:
            self.stats.unreachable += 1
        if result.misread:
            self.stats.misread += 1
        self._settled_handled = True
        player = clock[1] if clock else None
        if result.kind == "none":
            if clock is not None and self.config.commit == "clock":
                events.append(DetectedEvent("pass", t=t, player=player,
                                            note="board unchanged at the clock press (a pass or an exchange)"))
            self.status = "watching"
        elif result.kind in ("disturbed", "unclear"):
            self.stats.disturbed += 1
            self.status = f"{result.kind}: {result.reason}"
            log.info("no move: %s", self.status)
            if result.kind == "unclear":
                # The change in pixels can miss a tile whose face looks like the square it covers: its square keeps
                # its bare belief, and every later play adds to a board with no legal reading. The squares such a
                # tile can lie on, in and beside the new tiles' lines, are read again on the next frame (once a
                # board: the same board read again settles as handled), and what reads otherwise is decided anew.
                added = diff_board(self.board, reading, self.config.resolve.clear).added
                self.memory.doubt(np.rot90(_around(added, reading.size), -self.rotation))
            if clock is not None:
                self._clock.insert(0, clock)   # the press still waits for a board that makes sense
        else:
            if result.amended is not None:
                events.append(self._amend(result, t))
            elif result.withdrawn is not None:
                events.append(self._withdraw(result, t))
            # the side of the hand that put the last play down, where one player's hand made this change
            one_hand = (result.kind == "play" and not result.earlier) or (result.kind == "amend"
                                                                          and result.candidate is None)
            self._last_side = side if one_hand else later_side
            if one_hand and side is not None:
                self.hand_sides.seated(side)
            self._last_play_t = t if result.candidate is not None or result.amended is not None else None
            for earlier in result.earlier:      # two plays in one change: each says so (and how their order is known)
                events.append(replace(self._play(earlier, t, None), note=result.note))
            if result.candidate is not None:
                play = self._play(result.candidate, t, player)
                events.append(replace(play, note=result.note) if result.earlier else play)
            for e in events:
                if e.kind in ("play", "amend") and e.placement is not None:
                    self.stats.sides.append((tuple((r, c) for r, c, _ in e.placement.new_tiles()),
                                             side if one_hand else None))
                    self.corrections.committed(e.placement, reading)
                    self.blanks.committed(e.placement, reading)
            self.corrections.keep_to(self.board)
            self.status = "committed " + "; ".join(str(e) for e in events)
        if result.unreachable or result.misread or self._still_left:
            self.status += f" ({_left_out_note(result.unreachable, result.misread, self._still_left)})"
        if self._still_left:
            self.stats.still += 1
        if events:
            self.stats.commits += len(events)
            self.stats.commit_s.append(time.perf_counter() - t0)
        return events

    def _gone_past(self, reading: Reading, pressed: bool, t: float) -> list[DetectedEvent]:
        """The committed tiles read bare on this disturbed board (none of the last play) taken out once the
        players went on past them (``Corrections.gone_past``)."""
        diff = diff_board(self.board, reading, self.config.resolve.clear)
        last = {(r, c) for r, c, _ in self.last_play.new_tiles()} if self.last_play is not None else set()
        missing = set(diff.removed) - last
        if not missing or (set(diff.removed) & last):
            return []
        return self.corrections.gone_past(self.board, missing, diff.added, pressed, t)

    def _decide(self, reading: Reading, pressed: bool) -> tuple[Interpretation, int | None]:
        """``interpret`` the settled board; when it is unclear and the players went on past it (more tiles put down
        since it was last unclear, none of those taken away; or a clock press said the play is done), again,
        allowing a blank read as the bare board in a gap and leaving out new tiles no play can reach (``decide``'s
        ``went_on``), then as two boards in turn, then, the last resort, with the fewest squares read as tiles taken
        for bare ones misread (``decide``'s ``misread``: a tile's face over the square beyond it at 45 degrees):
        else one blank read bare, one premium print read as a tile under a new lamp, or one lifted face, stalls the
        game for good, every later play adding to a board that has no legal reading. With it, the side of the board this
        change's hand came from (``hands``; None: not told)."""
        added = diff_board(self.board, reading, self.config.resolve.clear).added
        still = self._still(added)
        added = [s for s in added if s not in still]     # what the players put down (the hands, the unclear board)
        in_picture = self._in_picture(added)
        side = self.hand_sides.side(in_picture)
        same_hand = None if side is None or self._last_side is None else side == self._last_side
        if same_hand is None and self._soon_after_last_play(added):
            same_hand = True        # no hand seen, but too soon after the last play for the next player's turn
        one_player = self.hand_sides.one_side(in_picture)
        as_decided = read_surely(reading, dict.fromkeys(still, EMPTY)) if still else None

        def first_as_decided(decision) -> Interpretation | None:
            # the squares whose picture did not change read as the board was decided (bare) first; read as tiles
            # only where no legal reading holds without them (a tile whose face looks like its square)
            if as_decided is not None:
                result = decision(as_decided)
                if result is not None and result.kind != "unclear":
                    self._still_left = still
                    return result
            self._still_left = ()
            return decision(reading)

        def once(went_on: bool, misread: bool = False) -> Interpretation:
            return first_as_decided(lambda rd: interpret(
                self.board, rd, self.tileset, self.lexicon, self.last_play, self.config.resolve,
                self.first_changes.squares(self.rotation), went_on=went_on, same_hand=same_hand,
                one_player=one_player, strays=self._strays, misread=misread, bare=self._misread))

        def in_turn(misread: bool) -> Interpretation | None:
            # more plays than one change holds: the board they went on past first, then what came since
            if previous is None or not previous < new:
                return None
            return first_as_decided(lambda rd: interpret_in_turn(
                self.board, rd, previous, self.tileset, self.lexicon, self.last_play, self.config.resolve,
                self.first_changes.squares(self.rotation), one_player=one_player, strays=self._strays,
                misread=misread, bare=self._misread))

        result = once(False)
        if result.kind != "unclear":
            self.unclear.decided()
            return result, side
        # the tiles within reach (a stray read on and off is no tile taken away), or all when none is
        new = frozenset(added) - set(unreachable(self.board, added)) or frozenset(added)
        previous = self.unclear.left_unclear(new, pressed)
        if self.unclear.went_on:
            again = once(True)
            if again.kind == "unclear":
                again = in_turn(False) or again
            if again.kind == "unclear":
                # the last resort: the fewest squares read as tiles, however surely, were bare (decide.misread_tiles)
                again = in_turn(True) or once(True, misread=True)
            if again.kind != "unclear":
                self.unclear.decided()
                log.info("the players went on past an unclear board: a gap may hold a blank read bare, a tile "
                         "out of reach is left out")
                return again, side
        return result, side

    def _bare_looks(self, reading: Reading) -> None:
        """A decided board (``reading``, in the board's orientation): each square it reads bare has its picture now
        as its bare look (``_still``)."""
        if self._picture is not None:
            bare = np.array([[ch == EMPTY for ch in row] for row in reading.grid])
            self.bare_looks.note(self._picture, np.rot90(bare, -self.rotation), self._reader_turn())

    def _still(self, added: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """Of ``added`` (squares read as new tiles), those whose picture is still their bare look
        (:class:`~.belief.BareLooks`): still bare. None where there is no picture to tell (a reading stream)."""
        if self._picture is None or not added:
            return ()
        free = np.array([[ch == EMPTY for ch in row] for row in self._committed_reading().grid])
        same = np.rot90(self.bare_looks.still(self._picture, free, self._reader_turn()), self.rotation)
        return tuple(s for s in added if same[s])

    def _later_play_side(self, result: Interpretation) -> int | None:
        """Two plays in one change: the side of the arms over the later play's tiles (its player may go on with
        it after a pause); None otherwise, or not told."""
        if not result.earlier or result.candidate is None:
            return None
        squares = [(r, c) for r, c, _ in result.candidate.placement.new_tiles()]
        return self.hand_sides.side_of_play(self._in_picture(squares))

    def _soon_after_last_play(self, added: Sequence[tuple[int, int]]) -> bool:
        """The first of ``added`` changed in pixels within ``GOING_ON_S`` of the last play's commit."""
        first = self.first_changes.squares(self.rotation)
        times = [first[s] for s in added if s in first]
        return self._last_play_t is not None and bool(times) and min(times) - self._last_play_t < GOING_ON_S

    def _learn_board(self) -> None:
        """At a settle, the committed tiles were not corrected since they were committed (a correction comes back
        through ``sync``): the reader, where it can, learns this board's tiles from them (``VisionReader.learn``)."""
        learn = getattr(self._reader, "learn", None)
        if self.config.learn and learn is not None and next(iter(self.board.tiles()), None) is not None:
            learn(self._committed_reading().grid)

    def _withdraw(self, result: Interpretation, t: float) -> DetectedEvent:
        withdrawn = result.withdrawn
        assert withdrawn is not None
        for r, c, _tile in withdrawn.new_tiles():
            self.board[r, c] = None
        self.last_play = None
        return DetectedEvent("withdraw", placement=withdrawn, t=t, note="the last play's tiles were taken back")

    def _amend(self, result: Interpretation, t: float) -> DetectedEvent:
        amended, short = result.amended, result.withdrawn
        assert amended is not None and short is not None
        for r, c, _tile in short.new_tiles():
            self.board[r, c] = None
        # the blanks the short play's words named are named again by the whole play's (or the players are asked)
        again = self._named_from_words & {(r, c) for r, c, _ in short.new_tiles()}
        if again:
            amended = named_again(self.board, amended, again, self.lexicon, self.tileset.letters,
                                  self.config.resolve.max_blank_assignments)
        return replace(self._play(amended, t, None), kind="amend", note=f"the last play was {short}: {result.note}")

    def _play(self, cand: Candidate, t: float, player: int | None) -> DetectedEvent:
        for r, c, tile in cand.placement.new_tiles():
            self.board[r, c] = tile
        self.last_play = cand.placement
        self._named_from_words = frozenset((r, c) for r, c, _ in cand.inferred_blanks)
        return DetectedEvent("play", placement=cand.placement, t=t, player=player, confidence=cand.probability,
                             words=cand.words, phony=cand.phony, pending_blanks=cand.pending_blanks,
                             corrected=cand.corrected)

    def _orient(self, reading: Reading, t: float) -> Reading:
        """The reading in the board's own orientation. A board turned on the table since (a turntable, a quarter or
        half turn between turns) is told by reading it in its other three turns and matching each against the
        committed tiles (:mod:`.turned`); it is then read its new way from here on (the vision reader turned, or
        the readings turned here), and the turn is reported: logged, ``status`` and ``turns_seen``. No move comes
        of it; new tiles put down with it are found in the board's own squares."""
        reading = reading.rotated(self.rotation)
        if not self.config.rotations:
            return reading
        committed = self._committed_rows()
        classes = turned.committed_labels(committed)
        if not turned.could_be_turned(committed, turned.probabilities_of(reading, classes), classes):
            return reading
        readings, raws = self._read_turned(reading)
        turn = turned.board_turn(committed, [turned.probabilities_of(rd, classes) for rd in readings], classes)
        if not turn.turned:
            return reading
        reading = readings[turn.turn]
        self._read_from_now_on(turn.turn, reading, raws)
        self._interrupted()            # readings before the turn say nothing of the board as it lies now
        self.stats.turns += 1
        self.turns_seen.append((t, turn))
        self._turn_news = f"the board was turned {turn.describe()}"
        log.info("%s (the committed tiles fit %.2f nats a tile turned, %.2f as they were read)", self._turn_news,
                 turn.fits[turn.turn], turn.fits[0])
        return reading

    def _read_from_now_on(self, k: int, reading: Reading, raws: list[Any]) -> None:
        """The board is read turned ``k`` quarter turns more from now on; ``reading``: the settled board so read."""
        if raws:      # the vision reader reads the board its new way; the memory is of the picture so turned
            self._reader.turn(k, raws[k])
            self.memory.forget()
            self.first_changes.forget()
            self.memory.settle(self.memory.look(reading, raws[k].warped, self._committed_reading()))
            self._picture = self.memory.reference
            self.bare_looks.forget()          # the squares lie elsewhere in the picture now
        else:
            self.rotation = (self.rotation + k) % 4

    def _first_play_turn(self, reading: Reading, result: Interpretation) -> tuple[Reading, Interpretation]:
        """The game's first play decided in each of the board's four turns (:mod:`.first_play`): the turn its
        decision chooses is read from now on, or the board is left unclear until the next play tells row 1. Only for
        a vision reader that told the turn from the tiles itself (its ``rotation_given`` false), read again in each
        turn."""
        if getattr(self._reader, "rotation_given", True):
            return reading, result          # a reading stream, or row 1 set by the calibration: not the tiles' to tell
        readings, raws = self._read_turned(reading)
        if not raws:
            return reading, result          # the reader's turn not known yet: nothing read in the other turns
        # the squares the decision read as still bare (``_still``) are bare in every turn
        readings = [read_surely(rd, {turned_square(sq, k, rd.size): EMPTY for sq in self._still_left})
                    if self._still_left else rd for k, rd in enumerate(readings)]

        def decided(k: int) -> Interpretation:
            # squares no play can reach are left out in every turn: read as a blank one way and bare another (a
            # premium print, a glare by the edge), they would choose the turn, and they say nothing of the play
            added = diff_board(self.board, readings[k], self.config.resolve.clear).added
            return interpret(self.board, readings[k], self.tileset, self.lexicon, None, self.config.resolve,
                             self.first_changes.squares((self.rotation + k) % 4),
                             strays=unreachable(self.board, added))

        others = [decided(k) for k in range(4)]
        if others[0].kind != "play":
            others[0] = result
        best_k, best = first_play.best_turn(self.board, readings, others, self.config.resolve.clear,
                                            self.first_changes.squares(self.rotation), self.config.resolve.phony_odds)
        if best.kind == "unclear":
            return reading, best
        if best_k:
            log.info("the first play reads %s turned %d quarter turns (log-probability %.1f against %.1f): the "
                     "board is read so from now on", best.candidate.placement if best.candidate else "?", best_k,
                     best.score, result.score)
            self._read_from_now_on(best_k, readings[best_k], raws)
        return readings[best_k], best

    def _read_turned(self, reading: Reading) -> tuple[list[Reading], list[Any]]:
        """The settled board read in each of its four turns from the way it is read now (``reading``, turn 0), and
        the vision reader's readings of them (empty when the frame was a reading, not a picture this reader read:
        the reading is turned as it is, letters and all, and read sideways they may be poor)."""
        reader = self._reader
        if (self.rotation == 0 and self._raw is not None and self._raw is getattr(reader, "last", None)
                and hasattr(reader, "turned") and getattr(reader, "rotation", None) is not None):
            raws = [self._raw] + [reader.turned(k) for k in (1, 2, 3)]
            return [reading] + [as_reading(raw) for raw in raws[1:]], raws
        return [reading.rotated(k) for k in range(4)], []

    def set_named_blank(self, row: int, col: int, letter: str) -> None:
        """The players named a blank (the web's answer): the committed board follows."""
        self.board[row, col] = Tile(letter.upper(), True)
        self._named_from_words -= {(row, col)}       # the players' name stands


def _around(squares: Sequence[tuple[int, int]], n: int) -> np.ndarray:
    """The squares of the rectangle that holds ``squares``, one square wider on every side (n x n booleans): where
    a tile of the play they belong to may lie."""
    out = np.zeros((n, n), bool)
    if squares:
        rows, cols = zip(*squares)
        out[max(min(rows) - 1, 0):max(rows) + 2, max(min(cols) - 1, 0):max(cols) + 2] = True
    return out


def _left_out_note(far: Sequence[tuple[int, int]], bare: Sequence[tuple[int, int]],
                   still: Sequence[tuple[int, int]] = ()) -> str:
    """What the status says of squares read as tiles and left out: where no play can reach (``far``,
    ``moves.reach``), taken for bare squares misread (``bare``: no legal reading held them once the players went
    on), or whose picture did not change since the board was last decided (``still``)."""
    def names(group: Sequence[tuple[int, int]]) -> str:
        return ", ".join(square_name(r, c) for r, c in group[:4]) + (" …" if len(group) > 4 else "")

    notes = ([f"read as a tile at {names(far)}, where no play can reach"] if far else []) + \
        ([f"read as a tile at {names(bare)}, taken for a bare square misread (no legal reading holds it)"]
         if bare else []) + \
        ([f"read as a tile at {names(still)}, whose picture did not change since the board was last decided"]
         if still else [])
    return "left out: " + "; ".join(notes)


def _under_hand(reading: Reading, look: Look | None) -> np.ndarray:
    """The squares under a hand in a covered frame (camera orientation): the pixels' hand where the frame was
    seen against the last settle, else the squares read as covered."""
    if look is not None and look.hand:
        mask = np.zeros((reading.size, reading.size), bool)
        mask[tuple(np.array(look.hand).T)] = True
        return mask
    return reading.occluded


@dataclass(frozen=True)
class _Unreadable:
    """A frame the reader found no board in (its error), counted as :meth:`MoveTracker._read` counts one."""

    error: BaseException


def make_tracker(board_rows: Sequence[str], tileset: str, *, lexicon: Any = None, stills: bool = False,
                 commit: str | None = None, rack_size: int = 7, reader: Reader | None = None,
                 layout: Layout | str | None = None) -> MoveTracker:
    """The one tracker factory (the daemon, replay, the bench): :func:`device_config` over the game's board.
    ``lexicon``: the game's word list (it resolves doubtful letters, names blanks and tells phonies; the game core
    decides which, ``tilecam.core.lexicons``); ``reader``: None = the vision pipeline, reading a board of the
    game's size; ``layout``: the game's (None: told from the rows' size, :func:`board_layout`)."""
    config = device_config(stills=stills, commit=commit, rack_size=rack_size)
    return MoveTracker(tileset, lexicon=lexicon, reader=reader, board_rows=board_rows, config=config, layout=layout)


# TrackerConfig and TrackerStats are the tracker's own types, defined with its configuration (.config)
__all__ = ["MoveTracker", "TrackerConfig", "TrackerStats", "GOING_ON_S", "make_tracker"]
