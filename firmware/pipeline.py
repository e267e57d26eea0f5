"""The one path from frames to a stored game: source → capture loop → move tracker → game service → store.

``tilecam run`` (the daemon), ``tilecam replay`` and ``tilecam bench moves`` go this one way, so a replay measures
what the Pi does. :func:`record_event` is the one place where a detected event becomes a game action;
:func:`run_recording` runs a recorded source through it (replay and the bench give it a temporary store) and says what
happened — frames, reads, boards settled, and when nothing settled, why (frames without a board, a hand over it):
:class:`RunReport`, whose :meth:`~RunReport.line` is also what the scoreboard's status line shows.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tilecam.core.service import CommandRefused, GameService, rules_for, settings_for
from tilecam.core.store import GameSettings, GameStore
from tilecam.engine.rules import Rules
from tilecam.firmware.loop import CaptureLoop, LoopConfig, LoopStatus
from tilecam.firmware.sources import EndOfStream, Frame, FrameSource, frame_from_image
from tilecam.vision.moves.replay import External

CAMERA = "camera"          # the actor of what the camera saw, in the store
EVENTS = "events"          # the actor of what an events file says (the buttons or the web, in a replay)


def record_event(service: GameService, event: Any, snapshot: Callable[[], bytes | None] = lambda: None) -> str:
    """One detected event as a game action (``snapshot()``: the frame's JPEG, asked for plays only); a line saying
    what was recorded. Raises :class:`CommandRefused` when the game does not allow it (nothing is stored then)."""
    kind = getattr(event, "kind", None)
    phony = tuple(getattr(event, "phony", ()) or ())
    if kind == "play":
        stored = service.play(event.placement, actor=CAMERA, snapshot_jpeg=snapshot(),
                              player=getattr(event, "player", None), phony=phony)
        return f"move {stored.payload['position']} {stored.payload['word']} = {stored.payload.get('score')}"
    if kind == "amend":
        stored = service.amend_last_play(event.placement, actor=CAMERA, phony=phony)
        return f"the last move is now {stored.payload['position']} {stored.payload['word']} = " \
               f"{stored.payload.get('score')}"
    if kind == "correct":
        row, col = event.square
        service.correct_tile(row, col, event.letter, actor=CAMERA)      # "." : the play never put a tile there
        return f"{event.note}: corrected"
    if kind == "withdraw":
        service.withdraw(actor=CAMERA)
        return "the last play was taken back"
    if kind == "pass":
        service.pass_turn(actor=CAMERA, player=getattr(event, "player", None))
        return "a scoreless turn"
    if kind == "exchange":
        service.exchange(int(getattr(event, "count", 0) or 0) or 1, actor=CAMERA, player=getattr(event, "player", None))
        return "an exchange"
    raise CommandRefused(f"unknown detected event {kind!r}")


@dataclass
class RunReport:
    """What a run did: the loop's ``status``, the events ``recorded`` and ``refused`` (with the game's reason), the
    tracker's counts (``tracker_stats``: frames read, boards settled, frames without a board and why)."""

    status: LoopStatus
    recorded: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    tracker_stats: Any = None
    tracker_status: str = ""

    def line(self) -> str:
        """One line: frames, reads, settled boards, events; and why, when nothing settled or frames were unread."""
        s, st = self.status, self.tracker_stats
        text = f"{s.frames} frames, {s.reads} read, "
        if st is not None:
            text += f"{st.settles} settled boards, "
        text += f"{len(self.recorded)} events recorded" + (f", {len(self.refused)} refused" if self.refused else "")
        turns = getattr(st, "turns", 0)
        if turns:
            text += f"; the board was turned on the table {turns} time{'s' if turns > 1 else ''} (no move made of it)"
        return text + "".join(f"; {why}" for why in self.problems())

    def problems(self) -> list[str]:
        """Why the board did not settle or a frame was not read, with counts (empty when all went well)."""
        st, out = self.tracker_stats, []
        if st is None:
            return out
        if st.unreadable:
            reasons = ", ".join(f"{why} ×{n}" for why, n in sorted(st.unreadable_why.items(), key=lambda kv: -kv[1]))
            out.append(f"{st.unreadable} frames without a board found ({reasons})")
        if st.occluded:
            out.append(f"{st.occluded} reads with something over the board")
        if self.status.reads and not st.settles:
            out.append(f"the board never settled (tracker: {self.tracker_status})")
        if self.status.consumer_errors:
            out.append(f"{self.status.consumer_errors} frames the tracker failed on ({self.status.last_error})")
        return out


class _Announced:
    """A source that, as each frame is read, lets ``before(frame)`` act first (an events file's passes and clocks)."""

    def __init__(self, source: FrameSource, before: Callable[[Frame], None]) -> None:
        self._source, self._before = source, before

    def __getattr__(self, name: str) -> Any:
        return getattr(self._source, name)

    def read(self) -> Frame:
        frame = self._source.read()
        self._before(frame)
        return frame


def run_recording(source: FrameSource, tracker: Any, service: GameService, *, externals: Sequence[External] = (),
                  loop_config: LoopConfig | None = None, on_event: Callable[[Any, Frame, bool], None] | None = None,
                  max_frames: int | None = None) -> RunReport:
    """Run a recorded ``source`` through the capture loop into ``tracker`` and the detected events into ``service``'s
    current game. ``externals`` happen as their frame is read (a ``clock`` asks the loop to read that frame);
    ``on_event(event, frame, recorded)`` hears of every detected event. A refused event re-syncs the tracker to the
    game's board once the frame's events are all recorded, as on the device."""
    report = RunReport(LoopStatus())
    by_frame: dict[int, list[External]] = {}
    for ext in externals:
        by_frame.setdefault(ext.frame, []).append(ext)
    scoreless_at: set[int] = set()
    loop: CaptureLoop

    def before(frame: Frame) -> None:
        for ext in by_frame.pop(frame.index + 1, []):
            if ext.kind == "clock":
                tracker.clock(frame.t, ext.player)
                loop.request_read()
            else:
                _record(service, report, ext, lambda: service.pass_turn(actor=EVENTS, player=ext.player)
                        if ext.kind == "pass" else service.exchange(ext.count or 1, actor=EVENTS, player=ext.player))
                scoreless_at.add(frame.index)
                tracker.sync(service.state()["board"])

    def on_events(events: list[Any], frame: Frame) -> None:
        refused = False
        for event in events:
            if event.kind == "pass" and frame.index in scoreless_at:
                continue                 # the still of an announced pass or exchange: recorded already
            ok = _record(service, report, event, lambda: record_event(service, event))
            refused = refused or not ok
            if on_event is not None:
                on_event(event, frame, ok)
        if refused:
            # after the frame's last event: a sync between two would take from the tracker the events after the
            # refused one that the game then records, and the tracker would find their tiles new again
            tracker.sync(service.state()["board"])

    loop = CaptureLoop(_Announced(source, before), tracker, on_events, loop_config)
    report.status = loop.run(max_frames=max_frames)
    for frame_no in sorted(by_frame):              # what the file says after the last frame (a final pass)
        for ext in by_frame[frame_no]:
            if ext.kind != "clock":
                _record(service, report, ext, lambda: service.pass_turn(actor=EVENTS, player=ext.player)
                        if ext.kind == "pass" else service.exchange(ext.count or 1, actor=EVENTS, player=ext.player))
    report.tracker_stats = getattr(tracker, "stats", None)
    report.tracker_status = str(getattr(tracker, "status", ""))
    return report


def _record(service: GameService, report: RunReport, what: Any, act: Callable[[], Any]) -> bool:
    try:
        line = act()
    except CommandRefused as exc:
        report.refused.append(f"{what}: {exc.reason}")
        return False
    report.recorded.append(line if isinstance(line, str) else str(getattr(what, "kind", what)))
    return True


def recording_settings(variant: str | None = None, tiles: str | None = None, lexicon: str | None = None,
                       players: int = 2) -> tuple[GameSettings, Rules]:
    """A recorded game's settings and rules (``tilecam replay``, ``tilecam bench moves``, ``bench stills``): what
    is not given comes from the variant (Super Scrabble's board and tiles), then the classic game's; the lexicon
    setting defaults to ``enable1``. Raises :class:`CommandRefused` for an unknown variant or tile set, before any
    frame is read."""
    settings = settings_for({"variant": variant, "tileset": tiles, "lexicon": lexicon or "enable1"})
    return settings, rules_for(settings, players)


@contextmanager
def temporary_game(players: Sequence[str], tileset: str, lexicon: Any = None, lexicon_name: str = "enable1",
                   settings: GameSettings | None = None) -> Iterator[GameService]:
    """A game service with a new game over a store in a temporary folder, deleted afterwards (replay, the bench).
    The game's rules are ``settings`` where given (a variant's board and tiles), else the device's default
    (``tournament``) with ``tileset``."""
    with tempfile.TemporaryDirectory(prefix="tilecam-replay-") as tmp:
        store = GameStore(Path(tmp) / "games.sqlite")
        try:
            service = GameService(store, lexicon=lexicon)
            service.new_game(list(players), settings or GameSettings(tileset=tileset, lexicon=lexicon_name),
                             actor="replay")
            yield service
        finally:
            store.close()


class ItemsSource:
    """A recording made of images (or of readings: move inference alone, no pixels) in memory or made on the fly,
    ``fps`` of them a second of source time."""

    live = False

    def __init__(self, items: Iterable[Any], fps: float = 10.0, name: str = "frames") -> None:
        self._items, self.fps, self.name = items, fps, name
        self._it: Iterator[Any] | None = None
        self._index = 0

    def open(self) -> None:
        self._it, self._index = iter(self._items), 0

    def read(self) -> Frame:
        assert self._it is not None
        item = next(self._it, None)
        if item is None:
            raise EndOfStream(f"{self.name}: {self._index} frames")
        index, self._index = self._index, self._index + 1
        if isinstance(item, np.ndarray):
            return frame_from_image(item, index, index / self.fps)
        return Frame(index=index, t=index / self.fps, lores=_NO_PIXELS, _full=item)

    def close(self) -> None:
        pass


_NO_PIXELS = np.zeros((1, 1), np.uint8)     # a reading has no picture: the loop sees no motion in it
