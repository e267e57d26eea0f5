"""One rule decides a game's word list (core/lexicons.py), and serve, run and replay all use it: a German game is
never judged with ENABLE."""

from __future__ import annotations

import numpy as np
import pytest

from tilecam.core.lexicons import LexiconChoiceError, lexicon_for, lexicon_for_settings
from tilecam.core.service import CommandRefused, GameService
from tilecam.core.store import GameSettings, GameStore
from tilecam.engine.move import Placement
from tilecam.firmware import cmd_replay, daemon as daemon_mod
from tilecam.firmware.config import Config
from tilecam.firmware.sources import EndOfStream, frame_from_image
from tilecam.vision.moves.events import DetectedEvent
from tilecam.web.app import create_app

GERMAN = GameSettings(tileset="german")  # the lexicon setting left at its default, "enable1"
GERMAN_WORD = "HAUS"                     # a German word ENABLE does not hold


def test_the_rule():
    assert GERMAN_WORD not in lexicon_for("english", "enable1")
    assert lexicon_for("german", "enable1") is None
    assert lexicon_for("german", None) is None
    assert lexicon_for_settings(GERMAN) is None
    assert lexicon_for_settings({"tileset": "german"}) is None
    assert lexicon_for("english", "none") is None
    assert "QUANT" in lexicon_for_settings(GameSettings())


def test_a_word_list_file_judges_any_tile_set(tmp_path):
    words = tmp_path / "deutsch.txt"
    words.write_text("HAUS\nÄRGER\n", encoding="utf-8")
    lex = lexicon_for("german", str(words))
    assert "ÄRGER" in lex and GERMAN_WORD in lex and "QUANT" not in lex


def test_an_unknown_lexicon_is_refused(tmp_path):
    with pytest.raises(LexiconChoiceError, match="unknown lexicon"):
        lexicon_for("english", "csw-not-shipped")
    service = GameService(GameStore(tmp_path), lexicon=lexicon_for_settings)
    with pytest.raises(CommandRefused, match="missing.txt does not exist"):
        service.new_game(["Ann", "Ben"], GameSettings(lexicon=str(tmp_path / "missing.txt")))
    assert service.store.games() == []


def _judged_in_german(service: GameService) -> None:
    """The current game (German) takes HAUS unflagged, and a challenge needs the players' word."""
    service.play(f"8E {GERMAN_WORD}", actor="test")
    assert "phony" not in service.state()["moves"][-1]["flags"]
    with pytest.raises(CommandRefused, match="no lexicon"):
        service.challenge("test")


def test_serve_judges_a_german_game_without_enable(tmp_path):
    app = create_app({"DATA_DIR": str(tmp_path), "TESTING": True})
    service = app.extensions["tilecam.service"]
    service.new_game(["Ann", "Ben"], GERMAN)
    _judged_in_german(service)
    service.new_game(["Ann", "Ben"], GameSettings())  # the same server, an English game: ENABLE judges it
    service.play(f"8E {GERMAN_WORD}", actor="test")
    assert "phony" in service.state()["moves"][-1]["flags"]
    assert service.challenge("test").payload["valid"] is False


class _OnePlay:
    """A tracker that sees one play of HAUS at the first frame."""

    fed = 0

    def feed(self, image, t):
        self.fed += 1
        return [DetectedEvent("play", placement=Placement.from_gcg("8E", GERMAN_WORD), t=t)] if self.fed == 1 else []

    def sync(self, rows):
        pass


class _Frames:
    name, live = "frames", False

    def __init__(self):
        self.i = 0

    def open(self):
        pass

    def read(self):
        if self.i >= 3:
            raise EndOfStream("done")
        self.i += 1
        return frame_from_image(np.zeros((60, 80, 3), np.uint8), self.i - 1, self.i / 10)

    def close(self):
        pass


@pytest.mark.parametrize("tileset", ["german", "english"])
def test_run_judges_a_german_game_without_enable(tmp_path, monkeypatch, tileset):
    given = {}

    def fake_make_tracker(factory, rows, tiles, stills=False, rack_size=7, lexicon=None, data_dir=None):
        given.update(tileset=tiles, lexicon=lexicon)
        return _OnePlay()

    monkeypatch.setattr(daemon_mod, "make_tracker", fake_make_tracker)
    cfg = Config().replace(data_dir=str(tmp_path)).replace("web", enabled=False).replace("camera", realtime=False)
    cfg = cfg.replace("game", tileset=tileset)
    daemon = daemon_mod.Daemon(cfg, say=lambda line: None, source=_Frames())
    assert daemon.run(max_seconds=20) == 0
    assert given["tileset"] == tileset
    with GameStore(tmp_path) as store:
        [move] = store.moves(store.games()[0].id)
    assert move.word == GERMAN_WORD
    if tileset == "german":
        assert given["lexicon"] is None          # the camera's tracker does not read German through ENABLE
        assert daemon.service._fold.lexicon is None and "phony" not in move.flags
    else:
        assert "QUANT" in given["lexicon"] and daemon.service._fold.lexicon is given["lexicon"]
        assert "phony" in move.flags


def test_replay_judges_a_german_game_without_enable():
    assert cmd_replay.load_lexicon(None, "german") is None
    assert cmd_replay.load_lexicon("enable1", "german") is None
    assert "QUANT" in cmd_replay.load_lexicon(None, "english")
    assert cmd_replay.load_lexicon("none", "english") is None
