"""``tilecam bench vision --scrabscrap-v2``: the driver that times ScrabScrap v2's reader, and the side-by-side table.

A stand-in "ScrabScrap" checkout is written in tmp_path (config.py, processing.py, scrabble.py, defaults/scrabble.ini):
nothing here needs the real one.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tilecam.models import bench_vision

DRIVER = Path(bench_vision.__file__).with_name("scrabscrap_timing.py")

STANDIN = {
    "config.py": '''
class _Config:
    ini = None
    def reload(self, ini_file=None, clean=True):
        self.ini = ini_file
config = _Config()
''',
    "scrabble.py": '''
class Game:
    def __init__(self, nicknames):
        self.moves = []
''',
    "processing.py": '''
import time
from config import config
def _image_processing(waitfor, game, img):
    assert config.ini is not None and config.ini.endswith("scrabble.ini"), "configuration not loaded"
    assert game.moves == [], "a new game for every frame"
    if img is None:
        raise ValueError("no image")
    time.sleep(0.002)
    return img, {(7, 7): ("A", 95), (8, 7): ("B", 91)}
''',
}


@pytest.fixture()
def standin(tmp_path: Path) -> Path:
    """A stand-in checkout's python/src folder; its defaults/scrabble.ini beside it."""
    src = tmp_path / "checkout" / "python" / "src"
    src.mkdir(parents=True)
    for name, text in STANDIN.items():
        (src / name).write_text(text.lstrip(), encoding="utf-8")
    (src.parent / "defaults").mkdir()
    (src.parent / "defaults" / "scrabble.ini").write_text("[board]\nlayout = custom\n", encoding="utf-8")
    return src


@pytest.fixture()
def frames(tmp_path: Path) -> Path:
    """Two games' photos, named so that only a natural sort orders them right."""
    root = tmp_path / "frames"
    image = np.full((40, 40, 3), 128, np.uint8)
    for game, numbers in (("game01", (1, 2, 10)), ("game02", (1,))):
        (root / game).mkdir(parents=True)
        for n in numbers:
            cv2.imwrite(str(root / game / f"image-{n}.jpg"), image)
    return root


def driver(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(DRIVER), *args], capture_output=True, text=True, timeout=120)


# --- the driver's arguments --------------------------------------------------------------------------------------

def test_folders_stand_for_their_photos_in_natural_order(standin, frames):
    from tilecam.models.scrabscrap_timing import parse_args

    args = parse_args(["--src", str(standin), "warm", str(frames)])
    assert [f"{f.parent.name}/{f.name}" for f in args.frames] == [
        "game01/image-1.jpg", "game01/image-2.jpg", "game01/image-10.jpg", "game02/image-1.jpg"]
    assert args.ini == standin.parent / "defaults" / "scrabble.ini"
    assert args.warmup == 1


def test_a_photo_named_is_kept_as_given(standin, frames):
    from tilecam.models.scrabscrap_timing import parse_args

    photo = frames / "game01" / "image-2.jpg"
    assert parse_args(["--src", str(standin), "warm", str(photo)]).frames == [photo]
    assert parse_args(["--src", str(standin), "once", str(photo)]).photo == photo


@pytest.mark.parametrize("case", ["no-processing", "missing-ini", "missing-photo", "empty-folder", "no-mode",
                                  "missing-once-photo"])
def test_bad_arguments_are_refused(standin, frames, tmp_path, case, capsys):
    from tilecam.models.scrabscrap_timing import parse_args

    (tmp_path / "empty").mkdir()
    argv = {
        "no-processing": ["--src", str(tmp_path), "warm", str(frames)],
        "missing-ini": ["--src", str(standin), "--ini", str(tmp_path / "nope.ini"), "warm", str(frames)],
        "missing-photo": ["--src", str(standin), "warm", str(tmp_path / "nope.jpg")],
        "empty-folder": ["--src", str(standin), "warm", str(tmp_path / "empty")],
        "no-mode": ["--src", str(standin)],
        "missing-once-photo": ["--src", str(standin), "once", str(tmp_path / "nope.jpg")],
    }[case]
    with pytest.raises(SystemExit) as exc:
        parse_args(argv)
    assert exc.value.code == 2
    assert "error" in capsys.readouterr().err


def test_without_defaults_beside_src_no_ini_is_loaded(standin, frames):
    from tilecam.models.scrabscrap_timing import parse_args

    (standin.parent / "defaults" / "scrabble.ini").unlink()
    assert parse_args(["--src", str(standin), "warm", str(frames)]).ini is None


# --- the driver run as ScrabScrap's process ----------------------------------------------------------------------

def test_warm_times_every_frame_in_one_process(standin, frames):
    out = driver("--src", str(standin), "warm", str(frames))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["frames"] == 4 and result["failed"] == []
    assert len(result["times_ms"]) == 4
    assert 1.5 < result["median_ms"] < 1000


def test_a_frame_the_reader_fails_on_is_counted_not_timed(standin, frames):
    (frames / "game02" / "image-2.jpg").write_text("not a jpeg")      # cv2.imread gives None: the stand-in raises
    out = driver("--src", str(standin), "warm", str(frames))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["frames"] == 5 and len(result["times_ms"]) == 4
    assert result["failed"] == [str(frames / "game02" / "image-2.jpg")]


def test_once_reads_one_photo(standin, frames):
    out = driver("--src", str(standin), "once", str(frames / "game01" / "image-1.jpg"))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1])["tiles"] == 2


# --- the bench's side ---------------------------------------------------------------------------------------------

def test_bench_runs_the_driver_with_the_interpreter_given(standin, frames):
    from tilecam.models.scrabscrap_timing import frames_of

    warm = bench_vision.scrabscrap_warm(sys.executable, standin, frames_of([frames]))
    assert warm["frames"] == 4 and warm["median_ms"] > 1.5
    assert warm["median_cpu_ms"] >= 0
    cold, cold_cpu = bench_vision.scrabscrap_cold_times(sys.executable, standin, frames / "game01" / "image-1.jpg",
                                                        repeats=2)
    assert cold > warm["median_ms"]                          # a whole process: start-up and imports too
    assert cold_cpu > 0


def test_bench_says_why_the_driver_failed(standin, frames, tmp_path):
    (standin / "processing.py").write_text("raise ImportError('no cv2 here')\n", encoding="utf-8")
    with pytest.raises(RuntimeError, match="no cv2 here"):
        bench_vision.scrabscrap_warm(sys.executable, standin, [frames / "game01" / "image-1.jpg"])
    with pytest.raises(RuntimeError, match="cold read failed"):
        bench_vision.scrabscrap_cold_times(sys.executable, standin, frames / "game01" / "image-1.jpg", repeats=1)


def test_the_table_puts_both_readers_side_by_side_with_the_ratio():
    table = bench_vision.scrabscrap_table(100.0, 400.0, 2000.0, 1000.0, 107, "game03/image-20.jpg", 2)
    lines = table.splitlines()
    assert lines[0].split() == ["tilecam", "ScrabScrap", "v2", "v2", "/", "tilecam"]
    assert lines[1].startswith("warm whole-board read, median of 107 frames")
    assert lines[1].split()[-5:] == ["100", "ms", "400", "ms", "4.00x"]
    assert lines[2].startswith("cold read of game03/image-20.jpg as a new process, median of 3")
    assert lines[2].split()[-5:] == ["2000", "ms", "1000", "ms", "0.50x"]
    assert "threads 2" in lines[3] and "cores" in lines[3]
    assert len({line.index("ms") for line in lines[1:3]}) == 1            # the columns line up


def test_bench_vision_option_prints_the_table(standin, frames, tmp_path, monkeypatch, capsys):
    shared = tmp_path / "shared"
    (shared / "game03").mkdir(parents=True)
    cv2.imwrite(str(shared / "game03" / "image-20.jpg"), np.zeros((8, 8, 3), np.uint8))
    monkeypatch.setattr(bench_vision, "SHARED_BOARDS", shared)
    monkeypatch.setattr(bench_vision, "run_evaluation", lambda *a, **k: 0)
    monkeypatch.setattr(bench_vision, "warm_read_times", lambda *a, **k: {"total": 50.0})
    monkeypatch.setattr(bench_vision, "cold_read_times", lambda *a, **k: (900.0, 800.0))
    seen = {}

    def fake_frames(frame_list, threads, model):
        seen["frames"] = [f.name for f in frame_list]
        return {"frames": len(frame_list), "failed": [], "median_ms": 40.0, "median_cpu_ms": 70.0}

    monkeypatch.setattr(bench_vision, "warm_read_frames_ms", fake_frames)
    status = bench_vision.main(["--renders", "0", "--scrabscrap-v2", str(standin),
                                "--scrabscrap-python", sys.executable, "--scrabscrap-frames", str(frames)])
    out = capsys.readouterr().out
    assert status == 0
    assert seen["frames"] == ["image-1.jpg", "image-2.jpg", "image-10.jpg", "image-1.jpg"]
    assert "warm read (previous location reused)" in out and "cold read (tilecam read image-20.jpg" in out
    assert "speed beside ScrabScrap v2" in out
    assert "cold read (tilecam read image-20.jpg as a new process), threads 2: 900 ms median of 3" in out
    for row in ("warm whole-board read, median of 4 frames: wall", "warm whole-board read, median of 4 frames: CPU",
                "cold read of game03/image-20.jpg as a new process, median of 3: wall",
                "cold read of game03/image-20.jpg as a new process, median of 3: CPU"):
        assert row in out


def test_the_table_can_carry_cpu_times_under_the_wall_times():
    table = bench_vision.scrabscrap_table(100.0, 400.0, 2000.0, 1000.0, 3, "g/p.jpg", 2, (150.0, 600.0, 1800.0, 900.0))
    rows = [line.split(":", 1)[1].split() for line in table.splitlines()[1:5]]
    assert [row[0] for row in rows] == ["wall", "CPU", "wall", "CPU"]
    assert [row[-1] for row in rows] == ["4.00x", "4.00x", "0.50x", "0.50x"]


def test_bench_vision_refuses_a_folder_without_processing(tmp_path, monkeypatch):
    monkeypatch.setattr(bench_vision, "run_evaluation", lambda *a, **k: pytest.fail("ran before checking"))
    with pytest.raises(SystemExit) as exc:
        bench_vision.main(["--renders", "0", "--scrabscrap-v2", str(tmp_path)])
    assert exc.value.code == 2
