"""``tilecam serve``: the web app over a store, in waitress, without a camera."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

from tilecam.firmware.cli import main


def test_serve_runs_waitress_prints_the_pin_and_answers(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "tilecam.firmware.cli", "serve", "--data-dir", str(tmp_path),
                             "--host", "127.0.0.1", "--port", "0", "--threads", "16"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        second = proc.stdout.readline()
        port = int(re.search(r":(\d+)/", first).group(1))
        pin = re.search(r"PIN (\d{6})", second).group(1)
        assert (tmp_path / "web_pin").read_text().strip() == pin
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as r:
            assert r.headers["Server"] == "tilecam" and json.loads(r.read())["ok"] is True
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as r:
            assert json.loads(r.read())["status"] == "none"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_refuses_a_bad_port(tmp_path, capsys):
    assert main(["serve", "--data-dir", str(tmp_path), "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def test_serve_reads_run_s_config_file_for_its_data_folder_and_port(tmp_path):
    from tilecam.firmware.config import Config
    from tilecam.web.server import DEFAULT_PORT

    assert Config().web.port == DEFAULT_PORT == 8000  # one default port for run, serve and the Pi install
    data = tmp_path / "var-lib-tilecam"
    config = tmp_path / "config.toml"
    config.write_text(f'data_dir = "{data}"\n[web]\nhost = "127.0.0.1"\nport = 0\n', encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "tilecam.firmware.cli", "serve", "--config", str(config),
                             "--threads", "16"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        first = proc.stdout.readline()
        assert f"(data: {data})" in first, first
        port = int(re.search(r":(\d+)/", first).group(1))
        assert port != 0 and (data / "web_pin").is_file()   # the service's store, not the user data folder
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=10) as r:
            assert json.loads(r.read())["ok"] is True
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_serve_refuses_a_config_it_cannot_read(tmp_path, capsys):
    assert main(["serve", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err
