"""tilecam doctor: each check finds what it should and says what to fix; run_checks never raises for a finding."""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import threading
import types
from pathlib import Path

import numpy as np

import pytest

from tilecam.firmware import doctor
from tilecam.firmware.cli import main as cli_main
from tilecam.firmware.doctor import Check, DoctorSettings
from tilecam.vision.classify import packaged_model


def test_check_round_trips_through_a_dict() -> None:
    check = Check("disk", False, "50 MiB free", "free space", essential=False)
    assert Check.from_dict(check.to_dict()) == check
    assert Check.from_dict(json.loads(json.dumps(check.to_dict()))) == check


# ------------------------------------------------------------------------------------------ settings from config


def test_settings_from_a_toml_mapping() -> None:
    config = {"data_dir": "/srv/games", "camera": {"source": "webcam:1"}, "web": {"port": 9000},
              "game": {"tileset": "german", "lexicon": "/etc/tilecam/words.txt"}}
    s = DoctorSettings.from_config(config)
    assert (s.source, s.data_dir, s.port, s.tileset, s.lexicon) == (
        "webcam:1", "/srv/games", 9000, "german", "/etc/tilecam/words.txt")


def test_settings_from_a_config_tree_and_from_nothing() -> None:
    tree = types.SimpleNamespace(data_dir=None, camera=types.SimpleNamespace(source="demo"),
                                 web=types.SimpleNamespace(host="127.0.0.1", port=8123), game=None)
    s = DoctorSettings.from_config(tree)
    assert (s.source, s.data_dir, s.host, s.port) == ("demo", "", "127.0.0.1", 8123)
    assert DoctorSettings.from_config(None) == DoctorSettings()


def test_settings_from_the_device_config_file() -> None:
    from tilecam.firmware import config as config_module

    config = config_module.load_config(Path(__file__).resolve().parents[1] / "deploy" / "config.toml")
    s = DoctorSettings.from_config(config)
    assert (s.source, s.data_dir, s.port) == ("auto", "/var/lib/tilecam", config.web.port)


# ------------------------------------------------------------------------------------------ store


def test_store_not_created_yet_is_fine_when_the_parent_is_writable(tmp_path: Path) -> None:
    check = doctor.check_store(DoctorSettings(data_dir=str(tmp_path / "new" / "games")))
    assert check.ok and "created on the first run" in check.detail
    assert not (tmp_path / "new").exists(), "the doctor must not create the data folder"


def test_store_under_a_file_fails_with_a_fix(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    check = doctor.check_store(DoctorSettings(data_dir=str(tmp_path / "afile" / "games")))
    assert not check.ok and check.essential and "install -d" in check.fix


def test_store_reads_an_existing_database_read_only(tmp_path: Path) -> None:
    from tilecam.core import store

    with store.GameStore(tmp_path) as games:
        games.create_game(["Ann", "Ben"])
    db = tmp_path / store.DB_FILENAME
    before = db.stat().st_mtime_ns
    check = doctor.check_store(DoctorSettings(data_dir=str(tmp_path)))
    assert check.ok, check
    assert f"schema {store.SCHEMA_VERSION}, 1 game(s), integrity ok" in check.detail
    assert db.stat().st_mtime_ns == before


def test_store_from_a_newer_tilecam_fails(tmp_path: Path) -> None:
    from tilecam.core import store

    conn = sqlite3.connect(tmp_path / store.DB_FILENAME)
    conn.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 5}")
    conn.close()
    check = doctor.check_store(DoctorSettings(data_dir=str(tmp_path)))
    assert not check.ok and "upgrade tilecam" in check.fix


def test_store_that_is_not_a_database_fails(tmp_path: Path) -> None:
    from tilecam.core import store

    (tmp_path / store.DB_FILENAME).write_bytes(b"this is not SQLite" * 100)
    check = doctor.check_store(DoctorSettings(data_dir=str(tmp_path)))
    assert not check.ok and "damaged" in check.fix


# ------------------------------------------------------------------------------------------ disk


@pytest.mark.parametrize(("free", "ok", "essential"), [
    (50 * 1024**2, False, True),      # SQLite would soon fail: essential
    (500 * 1024**2, False, False),    # low: a warning
    (5 * 1024**3, True, True),
])
def test_disk_thresholds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, free: int, ok: bool,
                         essential: bool) -> None:
    monkeypatch.setattr(doctor.shutil, "disk_usage", lambda path: types.SimpleNamespace(free=free))
    check = doctor.check_disk(DoctorSettings(data_dir=str(tmp_path)))
    assert (check.ok, check.essential) == (ok, essential)


# ------------------------------------------------------------------------------------------ temperature


def _thermal(root: Path, zones: dict[str, int]) -> Path:
    for i, (kind, milli) in enumerate(zones.items()):
        zone = root / f"thermal_zone{i}"
        zone.mkdir(parents=True)
        (zone / "type").write_text(kind + "\n")
        (zone / "temp").write_text(f"{milli}\n")
    return root


def test_temperature_prefers_the_cpu_zone(tmp_path: Path) -> None:
    root = _thermal(tmp_path, {"gpu-thermal": 30000, "cpu-thermal": 61500})
    assert doctor.read_temperature(str(root)) == 61.5
    check = doctor.check_temperature(DoctorSettings(), str(root), run=lambda cmd: None)
    assert check.ok and not check.essential and "61.5 °C" in check.detail


def test_hot_pi_is_a_warning_with_a_fix(tmp_path: Path) -> None:
    root = _thermal(tmp_path, {"cpu-thermal": 83000})
    check = doctor.check_temperature(DoctorSettings(), str(root), run=lambda cmd: "throttled=0x80008\n")
    assert not check.ok and not check.essential
    assert "soft temperature limit now" in check.detail and "heatsink" in check.fix


def test_under_voltage_says_power_supply(tmp_path: Path) -> None:
    root = _thermal(tmp_path, {"cpu-thermal": 50000})
    check = doctor.check_temperature(DoctorSettings(), str(root), run=lambda cmd: "throttled=0x50005\n")
    assert not check.ok and "power supply" in check.fix and "under-voltage now" in check.detail


def test_no_sensor_is_not_a_failure(tmp_path: Path) -> None:
    check = doctor.check_temperature(DoctorSettings(), str(tmp_path / "none"), run=lambda cmd: None)
    assert check.ok and "no temperature sensor" in check.detail


# ------------------------------------------------------------------------------------------ lexicon


def test_lexicon_from_a_word_list(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("QI\nZA\nXU\n")
    check = doctor.check_lexicon(DoctorSettings(lexicon=str(words)))
    assert check.ok and "3 words" in check.detail


def test_missing_or_bad_word_list_fails(tmp_path: Path) -> None:
    check = doctor.check_lexicon(DoctorSettings(lexicon=str(tmp_path / "nope.txt")))
    assert not check.ok and "does not exist" in check.detail
    bad = tmp_path / "bad.txt"
    bad.write_text("QI\nZA9\n")
    check = doctor.check_lexicon(DoctorSettings(lexicon=str(bad)))
    assert not check.ok and "line 2" in check.detail


# ------------------------------------------------------------------------------------------ camera


class _FakeSource:
    def __init__(self, name: str, image: np.ndarray | None = None, error: Exception | None = None,
                 block: threading.Event | None = None) -> None:
        self.name, self.live, self._image, self._error, self._block = name, True, image, error, block
        self.closed = False

    def open(self) -> None:
        if self._error is not None:
            raise self._error

    def read(self) -> types.SimpleNamespace:
        if self._block is not None:
            self._block.wait(5)
        return types.SimpleNamespace(full=lambda: self._image)

    def close(self) -> None:
        self.closed = True


def _fake_sources(monkeypatch: pytest.MonkeyPatch, source: _FakeSource, reason: str = "as asked") -> list[str]:
    asked: list[str] = []

    def open_source_spec(spec: str, **kwargs: object) -> types.SimpleNamespace:
        asked.append(spec)
        return types.SimpleNamespace(source=source, reason=reason)

    from tilecam.firmware import sources

    monkeypatch.setattr(sources, "open_source_spec", open_source_spec)
    return asked


def test_camera_reads_one_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    source = _FakeSource("webcam:0", image=np.zeros((720, 1280, 3), np.uint8))
    asked = _fake_sources(monkeypatch, source)
    check = doctor.check_camera(DoctorSettings(source="webcam"))
    assert check.ok and "1280x720" in check.detail
    assert asked == ["webcam"] and source.closed


def test_camera_error_says_what_to_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_sources(monkeypatch, _FakeSource("picamera", error=RuntimeError("Failed to acquire camera: busy")))
    check = doctor.check_camera(DoctorSettings(source="picamera"))
    assert not check.ok and check.essential and "systemctl stop tilecam" in check.fix


def test_auto_falling_back_to_the_demo_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_sources(monkeypatch, _FakeSource("demo", image=np.zeros((10, 10, 3), np.uint8)),
                  reason="auto: no camera found; playing the bundled demo game")
    check = doctor.check_camera(DoctorSettings(source="auto"))
    assert not check.ok and "no camera found" in check.detail and "ribbon" in check.fix


def test_a_hung_camera_times_out(monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    _fake_sources(monkeypatch, _FakeSource("webcam:0", image=np.zeros((4, 4, 3), np.uint8), block=release))
    monkeypatch.setattr(doctor, "CAMERA_TIMEOUT_S", 0.2)
    try:
        check = doctor.check_camera(DoctorSettings(source="webcam"))
    finally:
        release.set()
    assert not check.ok and "no frame within" in check.detail


def test_a_missing_path_source_fails_before_opening(tmp_path: Path) -> None:
    check = doctor.check_camera(DoctorSettings(source=str(tmp_path / "nothing.mp4")))
    assert not check.ok and "no such file" in check.detail


def test_the_demo_source_for_real() -> None:
    from tilecam.firmware import sources

    if not Path(sources.DEMO_CLIP).is_file():
        pytest.skip("the demo clip is not built yet")
    check = doctor.check_camera(DoctorSettings(source="demo"))
    assert check.ok, check


# ------------------------------------------------------------------------------------------ model


def test_missing_model_is_reported_not_raised(tmp_path: Path) -> None:
    check = doctor.check_model(DoctorSettings(model=str(tmp_path / "tiles.onnx")))
    assert not check.ok and check.detail.startswith("not available")


def test_bundled_model_is_checked_by_reading_a_board() -> None:
    check = doctor.check_model(DoctorSettings())
    assert check.ok and "read 225 cells" in check.detail, check


def test_broken_model_file_is_a_failed_check(tmp_path: Path) -> None:
    broken = tmp_path / "tiles.onnx"
    broken.write_bytes(b"not an onnx file")
    check = doctor.check_model(DoctorSettings(model=str(broken)))
    assert not check.ok and check.detail.startswith("cannot read the model description")
    shutil.copy(packaged_model().with_suffix(".json"), broken.with_suffix(".json"))
    check = doctor.check_model(DoctorSettings(model=str(broken)))
    assert not check.ok and check.detail.startswith(f"onnxruntime cannot load {broken}")


# ------------------------------------------------------------------------------------------ run_checks, CLI


def test_run_checks_turns_a_crashing_check_into_a_failed_one(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(settings: DoctorSettings) -> Check:
        raise OSError("the sensor fell off")

    monkeypatch.setitem(doctor.CHECKS, "temperature", broken)
    (check,) = doctor.run_checks(None, only=["temperature"])
    assert not check.ok and "the sensor fell off" in check.detail


def test_run_checks_rejects_unknown_names() -> None:
    with pytest.raises(ValueError, match="unknown check"):
        doctor.run_checks(None, only=["camera", "flux"])


def test_health_checks_do_not_touch_the_camera(tmp_path: Path) -> None:
    checks = doctor.run_checks({"data_dir": str(tmp_path)}, only=doctor.HEALTH_CHECKS)
    assert [c.name for c in checks] == list(doctor.HEALTH_CHECKS)
    assert "camera" not in doctor.HEALTH_CHECKS and doctor.all_essential_ok(checks)


def test_essential_decides() -> None:
    assert doctor.all_essential_ok([Check("a", True, ""), Check("b", False, "", essential=False)])
    assert not doctor.all_essential_ok([Check("a", False, ""), Check("b", True, "")])


def test_cli_json_and_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["doctor", "--json", "--only", "python,store", "--data-dir", str(tmp_path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and [c["name"] for c in out["checks"]] == ["python", "store"]
    (tmp_path / "afile").write_text("")
    assert cli_main(["doctor", "--only", "store", "--data-dir", str(tmp_path / "afile" / "x")]) == 1
    text = capsys.readouterr().out
    assert "FAIL" in text and "fix:" in text and "NOT READY" in text


def test_cli_reads_the_config_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{tmp_path / "games"}"\n[camera]\nsource = "demo"\n')
    assert cli_main(["doctor", "--json", "--only", "store", "--config", str(config)]) == 0
    detail = json.loads(capsys.readouterr().out)["checks"][0]["detail"]
    assert str(tmp_path / "games") in detail


def test_cli_bad_config_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[camera\nsource = 1\n")
    assert cli_main(["doctor", "--config", str(config)]) == 2
    assert str(config) in capsys.readouterr().err
    assert cli_main(["doctor", "--config", str(tmp_path / "missing.toml")]) == 2


# ------------------------------------------------------------------------------------------ packages


@pytest.fixture()
def fake_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Modules for the import probe: one fine, one raising like a numpy ABI mismatch, one crashing Python."""
    (tmp_path / "finemod.py").write_text("__version__ = '1.2.3'\n")
    (tmp_path / "abimod.py").write_text(
        "raise ImportError('A module that was compiled using NumPy 1.x cannot be run in NumPy 2.4.6')\n")
    (tmp_path / "crashmod.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    return tmp_path


def test_packages_reports_versions_and_import_errors(fake_modules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor, "PROBED_MODULES", (("finemod", "fine"),))
    check = doctor.check_packages(DoctorSettings())
    assert check.ok and check.detail == "fine 1.2.3"
    monkeypatch.setattr(doctor, "PROBED_MODULES", (("finemod", "fine"), ("abimod", "abi")))
    check = doctor.check_packages(DoctorSettings())
    assert not check.ok and "abi: ImportError: A module that was compiled using NumPy 1.x" in check.detail
    assert "constraints-pi.txt" in check.fix


def test_a_crashing_import_is_reported_and_the_checks_that_import_it_are_skipped(
        fake_modules: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(doctor, "PROBED_MODULES", (("finemod", "fine"), ("crashmod", "onnxruntime")))
    monkeypatch.setitem(doctor.CHECKS, "model", lambda settings: pytest.fail("the model check ran after a crash"))
    packages, model, disk = doctor.run_checks(None, only=["packages", "model", "disk"])
    assert not packages.ok and packages.detail.startswith("crashed: importing onnxruntime killed Python (signal 11)")
    assert not model.ok and model.detail.startswith("not run")
    assert disk.name == "disk"


def test_buttons_only_matter_when_configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert doctor.check_buttons(DoctorSettings(), dev=str(tmp_path)).ok
    settings = DoctorSettings.from_config({"buttons": {"pins": [17, 27]}})
    assert settings.button_pins == (17, 27)
    monkeypatch.setattr(doctor, "_importable", lambda module: True)
    check = doctor.check_buttons(settings, dev=str(tmp_path))
    assert not check.ok and not check.essential and "gpiochip" in check.detail
    (tmp_path / "gpiochip0").write_text("")
    check = doctor.check_buttons(settings, dev=str(tmp_path))
    assert check.ok and "17, 27" in check.detail
    monkeypatch.setattr(doctor, "_importable", lambda module: False)
    check = doctor.check_buttons(settings, dev=str(tmp_path))
    assert not check.ok and "python3-gpiozero" in check.fix


def test_a_german_game_has_no_english_lexicon_to_check() -> None:
    check = doctor.check_lexicon(DoctorSettings(tileset="german", lexicon="enable1"))
    assert check.ok and "none for a german game" in check.detail
