"""Replays: detected events applied to an engine game, frames fed through a tracker."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from tilecam.engine.coords import square_name
from tilecam.vision.moves.events import DetectedEvent, TrackerError
from tilecam.vision.moves.reading import EMPTY
from tilecam.vision.moves.tracker import MoveTracker


class GameRecorder:
    """Detected events → an engine :class:`~tilecam.engine.game.Game` (what ``tilecam replay`` and the benchmark
    keep; on the device the game service does this). A refused event is logged in ``problems`` and skipped."""

    def __init__(self, players: Sequence[str], rules: Any) -> None:
        from tilecam.engine.game import Game

        self.game = Game(list(players), rules)
        self.problems: list[str] = []
        self.flags: dict[int, str] = {}          # history index -> "phony?" / "blank?" notes for the summary

    def apply(self, event: DetectedEvent) -> bool:
        """Apply one event; False (and a line in ``problems``) when the game refuses it."""
        from tilecam.engine.errors import EngineError

        g = self.game
        try:
            if event.kind in ("play", "amend"):
                assert event.placement is not None
                if event.kind == "amend":
                    if not g.history or g.history[-1].kind != "play":
                        self.problems.append(f"t={event.t:.1f}s {event}: the last move is not a play")
                        return False
                    self.flags.pop(len(g.history) - 1, None)
                    g.undo()
                notes = ["amended: " + event.note] if event.kind == "amend" else []
                if event.phony:
                    notes.append("phony? " + " ".join(event.phony))
                if event.pending_blanks:
                    notes.append("blank letter not known")
                try:
                    g.play(event.placement, note="; ".join(notes))
                except EngineError:
                    if event.kind == "amend":
                        g.redo()        # the amended play is refused: the one recorded stands
                    raise
                if event.phony or event.pending_blanks:
                    self.flags[len(g.history) - 1] = "; ".join(notes[1:] if event.kind == "amend" else notes)
            elif event.kind == "correct":
                assert event.square is not None
                self.game = g = _with_tile(g, event.square, event.letter)
            elif event.kind == "withdraw":
                g.withdraw()
            elif event.kind == "pass":
                g.pass_turn(note=event.note)
            elif event.kind == "exchange":
                try:
                    g.exchange(event.count or 1, note=event.note)
                except EngineError:
                    g.pass_turn(note="exchange seen as a scoreless turn")
            else:
                raise TrackerError(f"unknown event kind {event.kind!r}")
        except EngineError as exc:
            self.problems.append(f"t={event.t:.1f}s {event}: {exc}")
            return False
        return True


def _with_tile(game: Any, square: tuple[int, int], letter: str) -> Any:
    """``game`` played again from the start with the tile on ``square`` as ``letter`` in the play that put it there
    (scores of that play and the later ones follow). Raises ``EngineError`` when the game refuses it."""
    from tilecam.engine.errors import IllegalMove
    from tilecam.engine.game import Game
    from tilecam.engine.gcg import replay_event
    from tilecam.engine.move import word_without

    history = game.history
    for target in range(len(history) - 1, -1, -1):
        e = history[target]
        withdrawn = target + 1 < len(history) and history[target + 1].kind == "withdraw"
        k = e.placement.new_tile_index(*square) if e.kind == "play" and not withdrawn else None
        if k is not None:
            if letter == EMPTY:                    # a tile the play never put down
                position, word = word_without(e.position, e.word, k)
                history[target] = replace(e, position=position, word=word)
            else:
                history[target] = replace(e, word=e.word[:k] + letter + e.word[k + 1:])
            break
    else:
        raise IllegalMove(f"no play put the tile on {square_name(*square)}")
    new = Game(game.players, game.rules, game.lexicon)
    for e in history:
        replay_event(new, e)
    return new


@dataclass(frozen=True, slots=True)
class External:
    """Something a camera cannot see, at a frame (1-based): ``pass``, ``exchange`` or ``clock``."""

    frame: int
    kind: str
    player: int | None = None
    count: int = 0


def replay_frames(frames: Any, tracker: MoveTracker, recorder: GameRecorder, *, stills: bool = False,
                  externals: Sequence[External] = (), progress: Callable[[int], None] | None = None,
                  on_event: Callable[[DetectedEvent, int, bool], None] | None = None) -> int:
    """Feed ``frames`` (an iterable of ``(t, image_or_reading)``; frame numbers count from 1) through the tracker
    into the recorder. ``stills``: every frame is a settled board and a turn of its own (as a clock-button rig
    photographs), so an unchanged one is a scoreless turn. External events at frame N happen just before frame N
    is looked at; a ``clock`` one ends the turn with that frame's board. ``on_event(event, frame, recorded)`` hears
    about every detected event. Returns the number of frames read."""
    by_frame: dict[int, list[External]] = {}
    for ext in externals:
        by_frame.setdefault(ext.frame, []).append(ext)
    n = 0
    for n, (t, frame) in enumerate(frames, 1):
        scoreless_here = False
        for ext in by_frame.pop(n, []):
            if ext.kind == "clock":
                tracker.clock(t, ext.player)
            else:
                for event in tracker.external(ext.kind, t, ext.player, ext.count):
                    recorder.apply(event)
                scoreless_here = True
        if stills and not tracker.config.stills:
            tracker.clock(t)
        for event in tracker.feed(frame, t):
            if stills and scoreless_here and event.kind == "pass":
                continue           # the still of an announced pass/exchange: already recorded
            recorded = recorder.apply(event)
            if not recorded:
                tracker.sync(recorder.game.board.rows())
            if on_event is not None:
                on_event(event, n, recorded)
        if progress is not None:
            progress(n)
    for frame_no in sorted(by_frame):      # events after the last frame (a final pass)
        for ext in by_frame[frame_no]:
            if ext.kind != "clock":
                for event in tracker.external(ext.kind, float(n), ext.player, ext.count):
                    recorder.apply(event)
    return n
