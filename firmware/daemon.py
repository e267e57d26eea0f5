"""The scorekeeper process: camera → move tracker → game service → store, with the web scoreboard beside it.

:class:`Daemon` wires the parts from one :class:`~tilecam.firmware.config.Config`:

* the store in ``data_dir`` and a :class:`~tilecam.core.service.GameService` over it; the unfinished game is
  resumed exactly where it was (or a new one is started from ``[game]``);
* the frame source (``--source``) and the capture loop; detected plays become ``service.play(…)`` with a JPEG of the
  settled frame; a refused one is logged and the tracker re-synced to the game's board — never forced;
* the move tracker, told the game's board at start and whenever the board changes other than by the camera (an undo
  from a button, a correction from the web);
* the web's "Learn my tiles" (the set laid out, ``firmware/laidout.py``), answered from the camera's next still
  frame: the looks kept in the data folder and the tracker rebuilt to read with them;
* the web app (``tilecam.web.create_app(service=…)``) served by waitress in a thread; its URL (the LAN address) and a
  QR code are printed;
* the clock buttons, when pins are configured; systemd's READY/WATCHDOG/STATUS (``firmware/sdnotify.py``).

SIGTERM and SIGINT stop the loop, the web server and the buttons cleanly. A SIGKILL loses nothing committed: every
event is durable in SQLite before anyone is told about it, and the next start resumes from the store.
"""

from __future__ import annotations

import importlib
import io
import logging
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tilecam.firmware.calibration import CalibrationView, TeeSource, tap_reader
from tilecam.firmware.config import Config
from tilecam.firmware.laidout import LaidOutTeacher
from tilecam.firmware.loop import WATCHING, CaptureLoop, LoopStatus
from tilecam.firmware.pipeline import CAMERA, record_event
from tilecam.core.lexicons import lexicon_for_settings
from tilecam.core.service import CommandRefused, GameService, rules_for
from tilecam.firmware.sources import Frame, FrameSource, open_source_spec
from tilecam.core.store import GameSettings, GameStore

log = logging.getLogger(__name__)


class StartupError(RuntimeError):
    """The daemon cannot start (the web port is taken, …); the message says what to do."""


class NullTracker:
    """Used when no move tracker is installed: it watches and reports nothing (it never invents a move)."""

    reason = "no move tracker installed (tilecam.vision.moves): watching only"

    def feed(self, image: Any, t: float) -> list[Any]:
        return []

    def sync(self, board_rows: list[str]) -> None:
        pass


def _rack_size(settings: dict[str, Any] | None) -> int:
    """The rack size of the game's rules (the tracker refuses more new tiles than that as one play)."""
    try:
        return rules_for(GameSettings.from_dict(settings)).rack_size
    except (CommandRefused, ValueError, TypeError):
        return 7


def make_tracker(factory: str, board_rows: list[str], tileset: str, stills: bool = False, rack_size: int = 7,
                 lexicon: Any = None, data_dir: Any = None) -> Any:
    """The consumer named by ``module:callable`` (called with the board rows and tile set name), or the project's
    tracker when ``factory`` is empty (``tilecam.vision.moves.tracker.make_tracker``, the one factory replay and the
    bench use too); :class:`NullTracker` when the vision pipeline cannot load (no tile model, a broken install).
    The board's size (15, or 21 in a Super Scrabble game) is its rows': the tracker and its reader read that board.
    ``data_dir``: where ``tilecam calibrate`` keeps the board's profile; the reader uses it when it is there."""
    if factory:
        module_name, _, attr = factory.partition(":")
        module = importlib.import_module(module_name)
        return getattr(module, attr or "make_tracker")(board_rows, tileset)
    from tilecam.vision.moves.tracker import make_tracker as moves_tracker

    try:
        reader = _calibrated_reader(tileset, data_dir, len(board_rows))
        tracker = moves_tracker(board_rows, tileset, lexicon=lexicon, stills=stills, rack_size=rack_size,
                                reader=reader)
        tracker.reader  # load the vision pipeline and the tile model now: fail at start, not at the first move
    except (ImportError, OSError, ValueError) as exc:
        null = NullTracker()
        null.reason = f"the vision pipeline is not available ({exc}): watching only"
        return null
    return tracker


def _calibrated_reader(tileset: str, data_dir: Any, size: int = 15) -> Any:
    """The vision reader of a ``size`` x ``size`` board with what ``tilecam calibrate`` recorded in ``data_dir``
    (each square's bare look; the user's tiles, learnt from a photo of the set laid out), or None (the tracker's own
    reader) where there is neither. Either is left out where it cannot be used — not a profile, one of a board of
    another size, not tile looks — and the log says so."""
    if data_dir is None:
        return None
    from tilecam.vision.laidout import LayoutError, load_tile_looks
    from tilecam.vision.moves.reader import default_reader
    from tilecam.vision.profile import ProfileError, load_profile

    profile = looks = None
    try:
        profile = load_profile(Path(data_dir))
        profile = None if profile is None else profile.fitting(size)
    except ProfileError as exc:
        log.warning("%s: reading without it", exc)
        profile = None
    try:
        looks = load_tile_looks(Path(data_dir))
    except LayoutError as exc:
        log.warning("%s: reading without it", exc)
    if profile is None and looks is None:
        return None
    return default_reader(tileset, profile=profile, size=size, looks=looks)


def encode_snapshot(image: Any, width: int, quality: int) -> bytes | None:
    """The frame as a JPEG at most ``width`` pixels wide (what the review page shows for each move)."""
    import cv2

    h, w = image.shape[:2]
    if w > width:
        image = cv2.resize(image, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    return buf.tobytes() if ok else None


def terminal_qr(text: str) -> str:
    """``text`` as a QR code drawn with block characters, for the terminal."""
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(text)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


class Daemon:
    """``Daemon(config).run(max_seconds=None, max_frames=None) -> exit status``. ``say`` prints progress lines;
    ``source``/``tracker`` replace the configured ones (tests)."""

    def __init__(self, config: Config, *, say: Callable[[str], None] = print, source: FrameSource | None = None,
                 tracker: Any = None) -> None:
        self.config = config
        self.say = say
        self._source_override = source
        self._tracker_override = tracker
        self.service: GameService | None = None
        self.loop: CaptureLoop | None = None
        self.tracker: Any = None
        self.url: str | None = None
        self._stopping = threading.Event()
        self._synced_seq = 0
        self._last_sync_check = 0.0
        self._watchdog: Any = None
        self.calibration: CalibrationView | None = None
        self.laid_out: LaidOutTeacher | None = None
        self._old_handlers: dict[int, Any] = {}

    # ------------------------------------------------------------------------------------------------ run

    def run(self, max_seconds: float | None = None, max_frames: int | None = None) -> int:
        cfg = self.config
        started = time.monotonic()
        store = GameStore(Path(cfg.data_dir) if cfg.data_dir else None)
        web = buttons = None
        try:
            self.service = service = GameService(store, lexicon=lexicon_for_settings)
            game_id = service.resume()
            if game_id is not None:
                state = service.state()
                self.say(f"tilecam: resumed game {game_id} ({', '.join(p['name'] for p in state['players'])}; "
                         f"{len(state['moves'])} moves so far)")
            elif cfg.game.auto_start:
                game_id = service.new_game(list(cfg.game.players), cfg.game.settings(), actor="daemon")
                self.say(f"tilecam: new game {game_id}: {', '.join(cfg.game.players)}")
            else:
                self.say("tilecam: no game in progress; start one on the web page")

            if self._source_override is not None:
                source, reason = self._source_override, "given"
            else:
                choice = open_source_spec(cfg.camera.source, realtime_recordings=cfg.camera.realtime,
                                          realtime_demo=cfg.camera.realtime, fps=cfg.camera.fps,
                                          picamera=self._pi_settings())
                source, reason = choice.source, choice.reason
            self.say(f"tilecam: camera {source.name} — {reason}")

            self.tracker = self._tracker_override or self._tracker_for_game()
            if isinstance(self.tracker, NullTracker):
                self.say(f"tilecam: {self.tracker.reason}")
            self._sync_tracker()

            if cfg.web.enabled:
                web = self._start_web(service)
            if cfg.buttons.pins:
                buttons = self._start_buttons()

            # The calibration view (web page /calibrate): the latest frame with the grid found, the last reading.
            self.calibration = CalibrationView(store.path.parent, size=len(self._board()))
            tap_reader(self.tracker, self.calibration.reading_seen)
            self.laid_out = LaidOutTeacher(store.path.parent, self._learn_laid_out)
            self.loop = CaptureLoop(TeeSource(source, self.calibration.frame_seen), self.tracker, self._on_events,
                                    cfg.loop, on_status=self._on_status, on_tick=self._on_tick)
            self._install_signals()
            self._notify_ready()
            status = self.loop.run(max_seconds=max_seconds, max_frames=max_frames)
            self._write_calibration(force=True)          # the last frame and reading, for the page to keep showing
            self.say(f"tilecam: capture stopped ({status.stop_reason}): {status.line()}")
            if status.stop_reason == "end-of-stream":
                self._recording_ended(source)
                if web is not None and not self._stopping.is_set() and max_frames is None:
                    # Keep the scoreboard up after a recording (the demo) until told to stop or the bound.
                    left = None if max_seconds is None else max_seconds - (time.monotonic() - started)
                    if left is None or left > 0:
                        self.say("tilecam: recording finished; the scoreboard stays up (Ctrl-C to quit)")
                        self._stopping.wait(left)
            return 0
        finally:
            self._restore_signals()
            if buttons is not None:
                buttons.close()
            if web is not None:
                web.stop()
            self._notify_stopping()
            store.close()

    def stop(self) -> None:
        """Stop from another thread or a signal handler."""
        self._stopping.set()
        if self.loop is not None:
            self.loop.stop()

    # ------------------------------------------------------------------------------------------------ events

    def _on_events(self, events: list[Any], frame: Frame) -> None:
        service = self.service
        assert service is not None
        snapshot: list[bytes | None] = []

        def jpeg() -> bytes | None:
            if not snapshot:
                snapshot.append(encode_snapshot(frame.full(), self.config.camera.snapshot_width,
                                                self.config.camera.snapshot_quality))
            return snapshot[0]

        refused = False
        for event in events:
            try:
                self.say(f"tilecam: {record_event(service, event, jpeg)}")      # the one place (firmware/pipeline)
                self._synced_seq = max(self._synced_seq, service.store.last_seq())
            except CommandRefused as exc:
                # The camera saw something the game does not allow (a misread, tiles moved back): say so, re-sync
                # the tracker to the game's board, and let the players correct it on the web.
                self.say(f"tilecam: not recorded ({exc.reason})")
                service.device["last_refused"] = exc.reason
                refused = True
        if refused:
            # after the frame's last event: a sync between two would take from the tracker the events after the
            # refused one that the game then records, and the tracker would find their tiles new again
            self._sync_tracker()

    def _on_status(self, status: LoopStatus) -> None:
        if self.service is not None:
            self.service.device = status.to_dict()
        from tilecam.firmware import sdnotify

        sdnotify.status(status.line())

    def _on_tick(self) -> None:
        if self._watchdog is not None:
            self._watchdog.ping()
        self._write_calibration()
        self._answer_laid_out()
        now = time.monotonic()
        if now - self._last_sync_check >= 0.5:
            self._last_sync_check = now
            self._sync_if_changed_elsewhere()
            if self.service is not None and self.loop is not None:
                # The web's device panel: what the loop and the tracker are doing (never stored).
                device = self.loop.status.to_dict()
                device["tracker"] = str(getattr(self.tracker, "status", "") or "")
                if "last_refused" in self.service.device:
                    device["last_refused"] = self.service.device["last_refused"]
                self.service.device = device

    def _write_calibration(self, force: bool = False) -> None:
        """The calibration picture and reading, at most every 2 s (in the loop's thread: the camera's owner)."""
        if self.calibration is not None and self.loop is not None:
            self.calibration.tick(self.loop.status.to_dict(), str(getattr(self.tracker, "status", "") or ""),
                                  force=force)

    def _answer_laid_out(self) -> None:
        """The web's "Learn my tiles" answered from the newest frame once the board is still (in the loop's thread:
        the camera's and the tracker's owner)."""
        if self.laid_out is None or self.calibration is None or self.loop is None:
            return
        outcome = self.laid_out.tick(self.calibration.frame, self.loop.status.state == WATCHING)
        if outcome is not None:
            self.say(f"tilecam: the tile set laid out: {outcome['message']}")

    def _learn_laid_out(self, image: Any, tileset: str) -> Any:
        """The ``tileset`` laid out in ``image`` learnt with the reader's tile model, kept in the data folder
        (``tile-looks.npz``, replacing the last) and read with from now on; ``LayoutError``/``BoardNotFound`` as
        ``vision.laidout.learn_laid_out``, the looks kept before left as they were."""
        from tilecam.vision.laidout import learn_laid_out, save_tile_looks

        looks = learn_laid_out(image, self._tile_classifier(), tileset, size=len(self._board()))
        save_tile_looks(looks, self._data_dir())
        self._renew_tracker()
        return looks

    def _tile_classifier(self) -> Any:
        """The tile model the tracker's reader reads with (the looks are its embeddings); the shipped one when the
        tracker has no vision reader."""
        inner = getattr(self.tracker, "tracker", self.tracker)
        classifier = getattr(getattr(inner, "_reader", None), "classifier", None)
        if classifier is None:
            from tilecam.vision.classify import TileClassifier

            classifier = TileClassifier.load(None, threads=2)
        return classifier

    def _renew_tracker(self) -> None:
        """A tracker built again for the game, its reader with what the data folder holds now (the tile looks just
        learnt), synced to the game's board; a tracker given by the caller (tests) is kept."""
        if self._tracker_override is None and self.service is not None:
            self._use_tracker(self._tracker_for_game())
            self._sync_tracker()

    def _data_dir(self) -> Path:
        assert self.service is not None
        return Path(self.service.store.path).parent

    def _sync_if_changed_elsewhere(self) -> None:
        """Re-sync the tracker when someone other than the camera changed the game (undo, correction, new game)."""
        service = self.service
        if service is None or service.store.last_seq() <= self._synced_seq:
            return
        events = service.events_since(self._synced_seq)
        if any(e.actor != CAMERA for e in events):
            self._sync_tracker()
        elif events:
            self._synced_seq = events[-1].seq

    def _tracker_for_game(self) -> Any:
        """A tracker for the game now in the store: its board's size, its tile set, its rack, its word list."""
        assert self.service is not None
        cfg = self.config
        settings = self.service.state().get("settings") or cfg.game.settings().to_dict()
        return make_tracker(cfg.tracker.factory, self._board(), settings["tileset"], stills=cfg.camera.stills,
                            rack_size=_rack_size(settings), lexicon=lexicon_for_settings(settings),
                            data_dir=self._data_dir())

    def _fit_tracker_to_game(self) -> None:
        """A new game of another board size or tile set (started from the phone while the camera runs) gets a
        tracker of its own: the one made at start reads the other board and letters, and cannot take its board."""
        inner = getattr(self.tracker, "tracker", self.tracker)
        board, tileset = getattr(inner, "board", None), getattr(getattr(inner, "tileset", None), "name", None)
        settings = self.service.state().get("settings") if self.service is not None else None
        if self._tracker_override is not None or board is None or tileset is None or not settings:
            return
        rows = self._board()
        if board.size == len(rows) and tileset == settings["tileset"]:
            return
        self._use_tracker(self._tracker_for_game())
        self.say(f"tilecam: a new game of a {len(rows)}x{len(rows)} board with {settings['tileset']} tiles: "
                 "the camera reads it so from now on")

    def _use_tracker(self, tracker: Any) -> None:
        """``tracker`` in place of the one the loop feeds, its reader tapped for the calibration view."""
        self.tracker = tracker
        if self.calibration is not None:
            self.calibration.size = len(self._board())
            tap_reader(tracker, self.calibration.reading_seen)
        if self.loop is not None:
            self.loop.consumer = tracker

    def _sync_tracker(self) -> None:
        if self.service is None:
            return
        self._synced_seq = self.service.store.last_seq()
        self._fit_tracker_to_game()
        sync = getattr(self.tracker, "sync", None)
        if sync is not None:
            sync(self._board())

    def _board(self) -> list[str]:
        assert self.service is not None
        state = self.service.state()
        return state.get("board") or ["." * 15] * 15

    def _recording_ended(self, source: FrameSource) -> None:
        """A recording that says how its game ended (the demo's ``end_racks``) ends the game as players would."""
        service = self.service
        racks = getattr(source, "metadata", {}).get("end_racks")
        if service is None or racks is None or service.game_id is None:
            return
        state = service.state()
        if state["is_over"]:
            return
        recorded = getattr(source, "metadata", {}).get("moves")
        played = [f"{m['position']} {m['word']}" for m in state["moves"] if m["kind"] == "play"]
        if recorded is not None and played != list(recorded):
            # Vision did not read the recording's game as recorded: leave the game open for a person to look at.
            self.say(f"tilecam: the recording's game was read as {len(played)} of {len(recorded)} moves; "
                     "the game is left open")
            return
        try:
            service.end_game(racks, actor="recording")
        except CommandRefused as exc:
            self.say(f"tilecam: could not end the recorded game ({exc.reason})")
            return
        final = service.state()
        scores = ", ".join(f"{p['name']} {p['score']}" for p in final["players"])
        self.say(f"tilecam: game {final['game_id']} over — {scores}")

    # ------------------------------------------------------------------------------------------------ parts

    def _pi_settings(self) -> Any:
        from tilecam.firmware.sources import PiCameraSettings

        c = self.config.camera
        return PiCameraSettings(main=c.pi_main, lores=c.pi_lores, autofocus=c.autofocus)

    def _start_web(self, service: GameService) -> Any:
        w = self.config.web
        try:
            from tilecam.web.app import create_app
            from tilecam.web.qr import lan_ip
            from tilecam.web.server import ServerThread
        except ModuleNotFoundError as exc:
            self.say(f"tilecam: web scoreboard not available ({exc.name} missing)")
            return None
        data_dir = service.store.path.parent
        from tilecam.firmware.doctor import health_checks

        app = create_app({"DATA_DIR": str(data_dir), "HEALTH_CHECKS": health_checks}, service=service)
        try:
            server = ServerThread(app, host=w.host, port=w.port, threads=w.threads).start()
        except OSError as exc:
            raise StartupError(f"cannot listen on {w.host}:{w.port}: {exc} (another tilecam running? try --port)"
                               ) from exc
        host = lan_ip() if w.host in ("0.0.0.0", "::", "") else w.host
        self.url = f"http://{host}:{server.port}/"
        self.say(f"tilecam: scoreboard on {self.url}  (players' PIN {app.config.get('PIN', '?')})")
        if w.qr:
            self.say(terminal_qr(self.url))
        return server

    def _start_buttons(self) -> Any:
        from tilecam.firmware.buttons import ButtonsUnavailable, ClockButtons

        b = self.config.buttons
        try:
            buttons = ClockButtons(list(b.pins), self._on_gesture, long_press_s=b.long_press_s,
                                   double_press_s=b.double_press_s)
        except ButtonsUnavailable as exc:
            self.say(f"tilecam: clock buttons off: {exc}")
            return None
        self.say(f"tilecam: clock buttons on GPIO {', '.join(map(str, b.pins))}")
        return buttons

    def _on_gesture(self, seat: int, gesture: str) -> None:
        from tilecam.firmware.buttons import END_TURN, PASS, UNDO

        service = self.service
        if service is None:
            return
        actor = f"button:{seat}"
        try:
            if gesture == END_TURN:
                if service.state().get("turn") != seat:
                    self.say(f"tilecam: button {seat + 1} pressed, but it is not that player's turn")
                    return
                clock = getattr(self.tracker, "clock", None)
                if clock is not None:
                    clock(time.monotonic(), seat)  # the tracker decides at the next settled read
                if self.loop is not None:
                    self.loop.request_read()       # read the board now; the tracker commits what it sees
            elif gesture == PASS:
                service.pass_turn(actor=actor, player=seat)
            elif gesture == UNDO:
                service.undo(actor=actor)
                self._sync_tracker()
        except CommandRefused as exc:
            self.say(f"tilecam: button {seat + 1}: {exc.reason}")

    def _install_signals(self) -> None:
        """SIGTERM/SIGINT stop the daemon cleanly; the previous handlers come back when run() returns."""
        if threading.current_thread() is not threading.main_thread():
            return

        def handler(signum: int, _frame: Any) -> None:
            self.say(f"tilecam: {signal.Signals(signum).name}: stopping")
            self.stop()

        for signum in (signal.SIGTERM, signal.SIGINT):
            self._old_handlers[signum] = signal.signal(signum, handler)

    def _restore_signals(self) -> None:
        for signum, old in self._old_handlers.items():
            signal.signal(signum, old)
        self._old_handlers.clear()

    def _notify_ready(self) -> None:
        from tilecam.firmware import sdnotify

        pinger = getattr(sdnotify, "WatchdogPinger", None)
        self._watchdog = pinger() if pinger else None
        sdnotify.ready("watching the board")

    @staticmethod
    def _notify_stopping() -> None:
        from tilecam.firmware import sdnotify

        stopping = getattr(sdnotify, "stopping", None)
        if stopping:
            stopping()
