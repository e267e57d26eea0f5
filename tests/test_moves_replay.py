"""``tilecam replay``: events files, frame order, stills (one photo per turn) with withdrawals, GCG output; the
ScrabScrap game03 record rebuilt from its labelled boards; and an end-to-end run on real photos when the tile model
is there."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecam.engine.gcg import load_gcg, read_gcg
from tilecam.engine.rules import Rules
from tilecam.firmware import cli
from tilecam.firmware.cmd_replay import EventsFileError, list_frames, parse_events
from tilecam.vision.moves import reader as reader_module
from tilecam.vision.moves.reading import Reading
from tilecam.vision.moves.replay import GameRecorder, replay_frames
from tilecam.vision.moves.tracker import MoveTracker, TrackerConfig

ROOT = Path(__file__).resolve().parents[1]


def test_parse_events_and_its_errors():
    text = '{"frame": 3, "event": "pass", "player": 1}\n\n# a comment\n{"frame": 7, "event": "exchange", "count": 4}\n'
    evs = parse_events(text)
    assert [(e.frame, e.kind, e.player, e.count) for e in evs] == [(3, "pass", 1, 0), (7, "exchange", None, 4)]
    for bad, why in [('{"frame": 0, "event": "pass"}', "frame"), ('{"frame": 2, "event": "skip"}', "event"),
                     ("not json", "not JSON"), ('{"frame": 2, "event": "pass", "who": 1}', "unknown"),
                     ('{"frame": 2, "event": "pass", "player": -1}', "player")]:
        with pytest.raises(EventsFileError, match=why) as info:
            parse_events('{"frame": 1, "event": "clock"}\n' + bad)
        assert info.value.line_no == 2


def test_frames_in_natural_order(tmp_path):
    for name in ["image-10.jpg", "image-2.jpg", "image-1.jpg", "notes.txt", "frame_000003.png"]:
        (tmp_path / name).write_bytes(b"x")
    assert [p.name for p in list_frames(tmp_path)] == ["frame_000003.png", "image-1.jpg", "image-2.jpg",
                                                       "image-10.jpg"]
    for name in ["frame_000010.jpg", "frame_000009.jpg", "frame_000100.jpg"]:
        (tmp_path / name).write_bytes(b"x")
    names = [p.name for p in list_frames(tmp_path) if p.name.startswith("frame_")]
    assert names == ["frame_000003.png", "frame_000009.jpg", "frame_000010.jpg", "frame_000100.jpg"]


def _label_reading(path: Path) -> Reading:
    rows = path.read_text(encoding="utf-8").split()
    return Reading.from_rows(["".join("?" if ch.islower() else ch for ch in row) for row in rows])


def _compare(history, record) -> list[tuple]:
    """(kind, squares+letters) of the rebuilt game and of the record, blanks as squares only."""
    def key(kind, position, word):
        if kind not in ("play", "withdraw"):
            return ("scoreless",)
        from tilecam.engine.move import Placement
        p = Placement.from_gcg(position, word)
        return (kind, tuple((r, c, t.letter if not t.is_blank else "?") for r, c, t in p.new_tiles()))
    return [key(e.kind, e.position, e.word) for e in history]


def test_game03_rebuilt_from_its_labelled_boards(shared_dir):
    folder = shared_dir / "data/real-boards/scrabscrap/game03"
    photos = list_frames(folder)
    readings = ((i, _label_reading(p.with_name(p.stem + ".board.txt"))) for i, p in enumerate(photos))
    tracker = MoveTracker("german", config=TrackerConfig.for_stills())
    recorder = GameRecorder(["Johannes", "Stefan"], Rules(tileset="german", max_scoreless_turns=None))
    replay_frames(readings, tracker, recorder, stills=True)
    record = load_gcg(next(folder.glob("*.gcg")), orientation="lettered-rows")
    rebuilt = recorder.game.history
    # the record replayed: its plays' new tiles (letters written out over played-through squares are not new)
    board_game = record.replay(Rules(tileset="german", max_scoreless_turns=None))
    want = _compare(board_game.history, record)
    got = _compare(rebuilt, record)
    # blanks: the labels show which squares hold a blank, not the letter (no lexicon): compare squares
    assert len(got) == len(want) == 30
    for g, w in zip(got, want):
        assert g[0] == w[0]
        if g[0] != "scoreless":
            assert [(r, c) for r, c, _ in g[1]] == [(r, c) for r, c, _ in w[1]]
            assert [x for *_, x in g[1]] == [x for *_, x in w[1]]
    assert [e.kind for e in rebuilt].count("withdraw") == 2
    assert recorder.problems == []


def _coded_image(index: int) -> np.ndarray:
    img = np.zeros((24, 24, 3), np.uint8)
    img[:, :, 1] = index * 10
    return img


def test_replay_command_end_to_end_with_a_stand_in_reader(tmp_path, monkeypatch, capsys):
    boards = [["." * 15] * 15]
    rows = [list("." * 15) for _ in range(15)]
    for c, ch in zip(range(7, 10), "CAT"):
        rows[7][c] = ch
    boards.append(["".join(r) for r in rows])
    rows[8][7] = "O"             # phony-or-not, no lexicon: CO
    boards.append(["".join(r) for r in rows])
    rows[8][7] = "."
    boards.append(["".join(r) for r in rows])        # taken back
    boards.append(["".join(r) for r in rows])        # unchanged: a scoreless turn (pass/exchange)
    frames = tmp_path / "frames"
    frames.mkdir()
    for i, _ in enumerate(boards, 1):
        cv2.imwrite(str(frames / f"image-{i}.png"), _coded_image(i))

    def fake_reader(_tileset, model=None, size=15, tile_height=0.0):
        return lambda image: Reading.from_rows(boards[int(image[0, 0, 1]) // 10 - 1])

    monkeypatch.setattr(reader_module, "default_reader", fake_reader)
    events = tmp_path / "events.jsonl"
    # the game checks whose turn it is: after the withdrawal, Player2's
    events.write_text(json.dumps({"frame": 5, "event": "exchange", "player": 1, "count": 2}) + "\n")
    out = tmp_path / "game.gcg"
    status = cli.main(["replay", str(frames), "--gcg", str(out), "--stills", "--lexicon", "none",
                       "--events", str(events)])
    assert status == 0
    game = read_gcg(out.read_text())
    assert [p.name for p in game.players] == ["Player1", "Player2"]
    assert [(e.kind, e.position, e.word) for e in game.events] == [
        ("pass", "", ""), ("play", "8H", "CAT"), ("play", "H8", ".O"), ("withdraw", "", ""), ("exchange", "", "")]
    assert "CAT" in capsys.readouterr().out


def test_replay_of_a_nine_tile_game_takes_a_play_of_nine_tiles(tmp_path, monkeypatch):
    """``--variant nine-tile``: the tracker holds racks of nine, as the device's does (with the classic rack of
    seven it read nine new tiles as no move)."""
    empty = "." * 15
    boards = [[empty] * 7 + ["...RETAINING..."] + [empty] * 7]
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "image-1.png"), _coded_image(1))
    monkeypatch.setattr(reader_module, "default_reader", lambda _tileset, model=None, size=15, tile_height=0.0:
                        lambda image: Reading.from_rows(boards[int(image[0, 0, 1]) // 10 - 1]))
    out = tmp_path / "game.gcg"
    assert cli.main(["replay", str(frames), "--gcg", str(out), "--stills", "--lexicon", "none",
                     "--variant", "nine-tile"]) == 0
    assert [(e.kind, e.position, e.word) for e in read_gcg(out.read_text()).events] == [("play", "8D", "RETAINING")]


def test_replay_says_why_nothing_was_recorded(tmp_path, monkeypatch, capsys):
    """Frames in which no board is found: the summary counts them with the reader's reason, never silence."""
    frames = tmp_path / "frames"
    frames.mkdir()
    for i in (1, 2, 3):
        cv2.imwrite(str(frames / f"image-{i}.png"), _coded_image(i))

    def no_board(_tileset, model=None, size=15, tile_height=0.0):
        def read(image):
            raise ValueError("no board found: too few grid lines")
        return read

    monkeypatch.setattr(reader_module, "default_reader", no_board)
    assert cli.main(["replay", str(frames), "--gcg", str(tmp_path / "o.gcg"), "--lexicon", "none"]) == 0
    out = capsys.readouterr().out
    assert "3 frames without a board found (no board found: too few grid lines ×3)" in out
    assert "the board never settled (tracker: unreadable" in out


def test_replay_command_rejects_a_bad_events_file(tmp_path, capsys):
    (tmp_path / "e.jsonl").write_text('{"frame": "x", "event": "pass"}\n')
    assert cli.main(["replay", str(tmp_path), "--gcg", str(tmp_path / "o.gcg"), "--events",
                     str(tmp_path / "e.jsonl")]) == 2
    assert "line 1" in capsys.readouterr().err


def test_replay_stills_on_real_photos(shared_dir, tmp_path):
    """Three real photos of game03 through the whole pipeline (needs the vision reader and the tile model)."""
    if not (ROOT / "models" / "tiles.onnx").is_file():
        pytest.skip("models/tiles.onnx is not trained yet")
    src = shared_dir / "data/real-boards/scrabscrap/game03"
    for n in (1, 2, 3):
        (tmp_path / f"image-{n}.jpg").write_bytes((src / f"image-{n}.jpg").read_bytes())
    out = tmp_path / "game.gcg"
    assert cli.main(["replay", str(tmp_path), "--gcg", str(out), "--stills", "--tiles", "german",
                     "--lexicon", "none", "--lettered-rows"]) == 0
    game = read_gcg(out.read_text())
    assert [(e.kind, e.position, e.word) for e in game.events] == [
        ("pass", "", ""), ("play", "8D", "MÜHST"), ("play", "G6", "NI.SIGER")]
