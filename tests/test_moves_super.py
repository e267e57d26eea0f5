"""A Super Scrabble game on camera: rendered 21x21 boards read by the vision pipeline through the one tracker, and
through ``tilecam run --variant super``; the plays are found on the 21x21 board and scored on its layout."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from boards import EMPTY, rows_with
from tilecam.engine.game import Game
from tilecam.engine.variants import rules_for
from tilecam.vision.moves.change import changed_squares, signature
from tilecam.vision.moves.events import TrackerError
from tilecam.vision.moves.tracker import make_tracker
from tilecam.vision.warp import CELL_PX, MARGIN_PX, board_px

SEED = 4242                   # one scene (board design, camera, light) for every frame of a test
EMPTY21 = ["." * 21] * 21
ZEBRAS = rows_with(("11K", "ZEBRAS"), base=EMPTY21)   # across the centre star K11 to P11: off a classic board
ASK = rows_with(("P10", "A.K"), base=ZEBRAS)           # down column P through the S, A on P10 and K on P12
NEW_TILES = [[(10, 10 + i, ch) for i, ch in enumerate("ZEBRAS")], [(9, 15, "A"), (11, 15, "K")]]
#: On the super21 layout: ZEBRAS's A on a double letter, the word doubled on the star; A.K's A and K on double
#: letters (P10 and P12: squares a classic board does not have).
SCORES = [36, 13]


@pytest.fixture(scope="module")
def render():
    from tilecam.models.bench_super import SAME_SQUARE_FRAME
    from tilecam.vision.classify import packaged_model

    if not packaged_model().is_file():
        pytest.skip("models/tiles.onnx is not there")
    synth = pytest.importorskip("tilecam.models.synth")
    scene = synth.sample_scene(np.random.default_rng(SEED), "english-super")

    def frame(rows):
        return np.asarray(synth.render_board(list(rows), seed=SEED, scene=scene, tileset="english-super",
                                             layout="super21", size=SAME_SQUARE_FRAME).image)

    return frame


def rectified(size: int, tiles=()) -> np.ndarray:
    """A rectified board of ``size`` squares a side (``warp``'s layout), a cream tile with a dark stroke on each of
    ``tiles``."""
    img = np.full((board_px(size), board_px(size), 3), (60, 120, 70), np.float32)
    for r, c in tiles:
        y, x = MARGIN_PX + r * CELL_PX, MARGIN_PX + c * CELL_PX
        img[y + 2:y + CELL_PX - 2, x + 2:x + CELL_PX - 2] = (200, 225, 235)
        img[y + 8:y + 24, x + 12:x + 17] = (30, 30, 30)
    img += np.random.default_rng(size).normal(0, 2, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_the_signature_of_a_rectified_super_board_has_its_21_by_21_squares():
    before = signature(rectified(21))
    assert before.size == 21 and before.colour.shape == (21, 21, 3) and before.spread.shape == (21, 21)
    after = signature(rectified(21, [(10, 10), (20, 20)]))
    assert [tuple(map(int, rc)) for rc in np.argwhere(changed_squares(before, after))] == [(10, 10), (20, 20)]
    assert signature(rectified(15)).size == 15 and signature(rectified(21), size=21).pattern.shape[:2] == (21, 21)


def test_the_trackers_board_is_the_games_size_and_layout():
    super_tracker = make_tracker(EMPTY21, "english-super")
    assert super_tracker.board.size == 21 and super_tracker.board.layout.name == "super21"
    assert make_tracker(EMPTY, "english").board.layout.name == "standard15"
    assert make_tracker(EMPTY, "english", layout="wordswithfriends15").board.layout.name == "wordswithfriends15"
    with pytest.raises(TrackerError):
        make_tracker(["." * 17] * 17, "english")
    with pytest.raises(ValueError):
        super_tracker.sync(EMPTY)          # a classic board's rows for a Super Scrabble game


def test_a_super_game_on_camera_is_read_at_21_by_21_and_scored_on_the_super_board(render):
    tracker = make_tracker(EMPTY21, "english-super")       # its own reader: the vision pipeline, 21x21
    events = []
    for t, rows in enumerate((EMPTY21, ZEBRAS, ASK)):
        events += tracker.feed(render(rows), float(t))
    assert [str(e) for e in events] == ["play 11K ZEBRAS", "play P10 A.K"], tracker.status
    assert [[(r, c, str(tile)) for r, c, tile in e.placement.new_tiles()] for e in events] == NEW_TILES
    reader = tracker.reader
    assert reader.size == 21 and reader.squares_read[0] == 21 * 21
    assert reader.squares_read[-1] < 20                     # the second play: only the squares that changed
    game = Game(["Ann", "Ben"], rules_for("super"))
    assert [game.play(e.placement).score for e in events] == SCORES


def test_tilecam_run_variant_super_keeps_the_score_of_a_game_on_camera(tmp_path, render):
    """What ``tilecam run`` does with its flags (``cmd_run.run``, less its logging set-up): the config, the
    daemon."""
    from tilecam.core.store import GameStore
    from tilecam.firmware.cli import build_parser
    from tilecam.firmware.cmd_run import build_config
    from tilecam.firmware.daemon import Daemon

    frames = tmp_path / "frames"
    frames.mkdir()
    for i, rows in enumerate((ZEBRAS, ASK)):               # one photo per turn (a clock-button rig)
        cv2.imwrite(str(frames / f"{i}.png"), render(rows))
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    args = build_parser().parse_args(["run", "--variant", "super", "--source", str(frames), "--stills", "--no-web",
                                      "--fast", "--data-dir", str(tmp_path / "data"), "--config",
                                      str(tmp_path / "config.toml"), "--players", "Ann,Ben"])
    lines: list[str] = []
    assert Daemon(build_config(args), say=lines.append).run(max_seconds=60) == 0
    with GameStore(tmp_path / "data") as store:
        game = store.games()[0]
        assert game.settings.layout == "super21"
        moves = [(m.kind, m.player, m.position, m.word, m.score) for m in store.moves(game.id)]
    assert moves == [("play", 0, "11K", "ZEBRAS", SCORES[0]), ("play", 1, "P10", "A.K", SCORES[1])], lines


def test_the_scorekeeper_reads_a_super_board_without_the_classic_boards_calibration(tmp_path, caplog):
    from tilecam.firmware.daemon import make_tracker as device_tracker
    from tilecam.vision.classify import packaged_model
    from tilecam.vision.profile import BoardProfileFile, save_profile

    if not packaged_model().is_file():
        pytest.skip("models/tiles.onnx is not there")
    corners = np.array([[10, 10], [490, 10], [490, 490], [10, 490]], np.float32)
    save_profile(BoardProfileFile(np.zeros((225, 40, 40, 3), np.uint8), corners), tmp_path)
    tracker = device_tracker("", EMPTY21, "english-super", data_dir=tmp_path)
    assert tracker.reader.size == 21 and tracker.reader.profile is None
    assert "a 15x15 board, not 21x21: reading without it" in caplog.text
    classic = device_tracker("", EMPTY, "english", data_dir=tmp_path)
    assert classic.reader.size == 15 and classic.reader.profile is not None


def test_tilecam_calibrate_size_21_records_a_super_board_that_a_super_game_then_reads_against(tmp_path, render,
                                                                                              capsys):
    """``tilecam calibrate --size 21``: the empty Super board's 441 squares; a Super game's reader takes them."""
    import cv2

    from tilecam.firmware.cli import main
    from tilecam.firmware.daemon import make_tracker as device_tracker
    from tilecam.vision.profile import load_profile

    photo = tmp_path / "empty.png"
    cv2.imwrite(str(photo), render(EMPTY21))
    assert main(["calibrate", str(photo), "--size", "21", "--data-dir", str(tmp_path / "data")]) == 0
    assert "the empty 21x21 board's 441 squares" in capsys.readouterr().out
    profile = load_profile(tmp_path / "data")
    assert profile.size == 21 and len(profile.references) == 441
    tracker = device_tracker("", EMPTY21, "english-super", data_dir=tmp_path / "data")
    assert tracker.reader.size == 21 and tracker.reader.profile is not None


def test_the_calibration_page_of_a_super_game_finds_and_draws_the_21x21_grid(tmp_path, render):
    """The phone's calibration page (``CalibrationView``) of a Super game, before the reader has read: the frame
    located as a 21x21 board (a 15x15 locate finds no grid confirmed by its premiums there)."""
    from types import SimpleNamespace

    from tilecam.firmware.calibration import CalibrationView

    frame = render(EMPTY21)
    view = CalibrationView(tmp_path, size=21)
    view.frame_seen(SimpleNamespace(full=lambda: frame))
    jpeg, info = view.render({"source": "file"}, "", 0.0)
    assert info["board"]["found"] and info["board"]["from"] == "locate" and jpeg[:2] == b"\xff\xd8"
    from tilecam.vision.locate import LocateConfig, locate_board

    scale = info["image"]["width"] / frame.shape[1]
    expected = locate_board(frame, LocateConfig(size=21)).corners * scale
    assert np.abs(np.asarray(info["board"]["corners"]) - expected).max() < 0.2     # the 21x21 grid's corners


def test_a_super_game_started_from_the_phone_while_the_camera_runs_gets_a_tracker_of_its_size(tmp_path):
    """The scorekeeper made its tracker for the classic game it started with; a Super Scrabble game (or a German
    one) started later from the web page is read at its own size and with its own letters from the next sync."""
    from tilecam.core.lexicons import lexicon_for_settings
    from tilecam.core.service import GameService
    from tilecam.core.store import GameStore
    from tilecam.firmware.cli import build_parser
    from tilecam.firmware.cmd_run import build_config
    from tilecam.firmware.daemon import Daemon
    from tilecam.vision.classify import packaged_model

    if not packaged_model().is_file():
        pytest.skip("models/tiles.onnx is not there")
    (tmp_path / "config.toml").write_text("", encoding="utf-8")
    args = build_parser().parse_args(["run", "--no-web", "--data-dir", str(tmp_path / "data"), "--config",
                                      str(tmp_path / "config.toml")])
    lines: list[str] = []
    daemon = Daemon(build_config(args), say=lines.append)
    with GameStore(tmp_path / "data") as store:
        daemon.service = service = GameService(store, lexicon=lexicon_for_settings)
        service.new_game(["Ann", "Ben"], {"variant": "tournament"}, actor="daemon")
        daemon.tracker = daemon._tracker_for_game()
        daemon._sync_tracker()
        assert daemon.tracker.board.size == 15 and not lines          # the game it was made for: kept
        service.new_game(["Ann", "Ben"], {"variant": "super"})
        daemon._sync_tracker()
        assert daemon.tracker.board.size == 21 and daemon.tracker.tileset.name == "english-super"
        assert daemon.tracker.reader.size == 21 and "a new game of a 21x21 board" in lines[-1]
        service.new_game(["Ann", "Ben"], {"variant": "tournament", "tileset": "german"})
        daemon._sync_tracker()
        assert daemon.tracker.board.size == 15 and daemon.tracker.tileset.name == "german"


def test_tilecam_replay_variant_super_rebuilds_a_super_game_from_its_photos(tmp_path, render, capsys):
    """``tilecam replay FOLDER --stills --variant super``: the game read at 21x21, scored on the Super board, written
    as GCG with the Super board's pragma; an unknown variant is refused before any frame is read."""
    from tilecam.firmware.cli import main

    frames = tmp_path / "frames"
    frames.mkdir()
    for i, rows in enumerate((ZEBRAS, ASK)):
        cv2.imwrite(str(frames / f"{i}.png"), render(rows))
    out = tmp_path / "game.gcg"
    assert main(["replay", str(frames), "--stills", "--variant", "super", "--gcg", str(out)]) == 0
    gcg = out.read_text(encoding="utf-8")
    assert "#board-layout SuperCrosswordGame" in gcg
    plays = [line.split()[2:5] for line in gcg.splitlines() if line.startswith(">")]
    assert plays == [["11K", "ZEBRAS", f"+{SCORES[0]}"], ["P10", "A.K", f"+{SCORES[1]}"]], gcg
    assert main(["replay", str(frames), "--variant", "chess", "--gcg", str(out)]) == 2
    assert "unknown variant 'chess'" in capsys.readouterr().err
