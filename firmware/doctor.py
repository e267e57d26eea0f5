"""Health checks for a tilecam installation: camera, model, lexicon, store, free disk, temperature.

One pure entry point, :func:`run_checks`, returns a list of :class:`Check` values and never raises for the thing it
diagnoses: a missing camera, model or package is a failed check that says what to fix, not a traceback. It is used
by ``tilecam doctor`` (the command line, :mod:`tilecam.firmware.cmd_doctor`) and by the web app's ``/health``,
which runs only the cheap checks that do not touch the camera (:data:`HEALTH_CHECKS`): the running scorekeeper holds
the camera itself, so a second process opening it would only report "busy".

``config`` is whatever the device's configuration loader gives (a tree of dataclasses), a plain mapping as read from
the TOML file (``[camera] source``, ``[store] data_dir``, ``[game] lexicon`` …), or ``None`` for the defaults; the
doctor reads only the few values it needs (:class:`DoctorSettings`).

A check that fails in an unexpected way (a package that will not import, a broken file) is reported by
:func:`run_checks` as a failed check naming the exception, never as a traceback.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tilecam.web.server import DEFAULT_PORT  # the one default port, shared by run and serve

MIN_PYTHON = (3, 11)
DISK_FAIL_BYTES = 100 * 1024**2   # below this SQLite writes start failing soon: the game would be lost
DISK_WARN_BYTES = 1024**3         # below this, warn: logs and debug frames fill a card quickly
TEMP_WARN_C = 80.0                # the Pi firmware starts soft-throttling at 80 °C (hard limit 85 °C)
CAMERA_TIMEOUT_S = 15.0           # a V4L2 read can block forever on a bad USB webcam; the doctor must not


@dataclass(frozen=True, slots=True)
class Check:
    """The outcome of one check. ``essential`` checks decide the exit status of ``tilecam doctor``; the others
    (temperature, spare disk, the address) are warnings. ``fix`` says what to do when ``ok`` is false."""

    name: str
    ok: bool
    detail: str
    fix: str = ""
    essential: bool = True

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Check":
        return cls(
            name=str(data["name"]),
            ok=bool(data["ok"]),
            detail=str(data["detail"]),
            fix=str(data.get("fix", "")),
            essential=bool(data.get("essential", True)),
        )


@dataclass(frozen=True, slots=True)
class DoctorSettings:
    """The few configuration values the checks read, with the defaults of an installed Pi."""

    source: str = "auto"
    data_dir: str = ""  # empty: the store's own default (platformdirs' user data folder)
    lexicon: str = ""   # empty or "enable1": the bundled ENABLE list; else a word list's path
    tileset: str = "english"
    model: str = ""
    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    button_pins: tuple[int, ...] = ()

    @classmethod
    def from_config(cls, config: Any) -> "DoctorSettings":
        """Pick the values from a config tree (attributes), a TOML mapping, or ``None`` (defaults)."""
        if isinstance(config, DoctorSettings):
            return config
        default = cls()

        def value(section: str, key: str, fallback: Any) -> Any:
            part = _lookup(config, section)
            found = _lookup(part, key)
            return fallback if found is None or found == "" else found

        top_data_dir = _lookup(config, "data_dir")  # the device config keeps data_dir at the top level
        return cls(
            source=str(value("camera", "source", default.source)),
            data_dir=str(top_data_dir or value("store", "data_dir", default.data_dir)),
            lexicon=str(value("game", "lexicon", default.lexicon)),
            tileset=str(value("game", "tileset", value("game", "tiles", default.tileset))),
            model=str(value("vision", "model", default.model)),
            host=str(value("web", "host", default.host)),
            port=int(value("web", "port", default.port)),
            button_pins=tuple(int(p) for p in value("buttons", "pins", default.button_pins)),
        )


def _lookup(obj: Any, key: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


# ------------------------------------------------------------------------------------------------- the checks


def check_python(settings: DoctorSettings) -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < MIN_PYTHON:
        return Check("python", False, f"Python {version} at {sys.executable}",
                     "tilecam needs Python 3.11 or newer: Raspberry Pi OS Bookworm (64-bit) or Debian 12 ship it")
    return Check("python", True, f"Python {version} at {sys.executable}")


# Imported by the probe in this order; (module, label shown). picamera2's two only where picamera2 is installed.
PROBED_MODULES = (("numpy", "numpy"), ("cv2", "opencv"), ("onnxruntime", "onnxruntime"))
PICAMERA_MODULES = (("simplejpeg", "simplejpeg"), ("picamera2", "picamera2"))
_PROBE = """
import importlib, json, sys
for module in sys.argv[1:]:
    print(json.dumps({"start": module}), flush=True)
    try:
        mod = importlib.import_module(module)
    except Exception as exc:
        print(json.dumps({"module": module, "error": f"{type(exc).__name__}: {exc}"}), flush=True)
    else:
        print(json.dumps({"module": module, "version": str(getattr(mod, "__version__", "ok"))}), flush=True)
"""
CRASHED = "crashed"  # a packages check whose detail starts with this: importing took the process down


def check_packages(settings: DoctorSettings) -> Check:
    """numpy, OpenCV and onnxruntime import, and picamera2 (where installed) still works with the numpy we got.

    The imports are tried in a child process first: a native library that crashes on import (a numpy ABI
    mismatch, onnxruntime on a CPU it does not know) would otherwise take the doctor down with it.

    The Pi trap: apt's picamera2 and simplejpeg are built against Bookworm's numpy 1.24; a numpy 2 that pip put
    into the venv shadows it and those modules fail to import. deploy/constraints-pi.txt prevents that.
    """
    modules = list(PROBED_MODULES) + (list(PICAMERA_MODULES) if _importable("picamera2") else [])
    labels = dict(modules)
    import json

    try:
        done = subprocess.run([sys.executable, "-c", _PROBE, *labels], capture_output=True, text=True, timeout=120,
                              check=False)
    except subprocess.TimeoutExpired:
        return Check("packages", False, "importing numpy, OpenCV and onnxruntime took over 120 s",
                     "check the SD card (a failing card makes reads crawl) and free memory")
    versions: list[str] = []
    problems: list[str] = []
    started = None
    for line in done.stdout.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if "start" in item:
            started = item["start"]
        elif "error" in item:
            problems.append(f"{labels[item['module']]}: {item['error']}")
            started = None
        else:
            versions.append(f"{labels[item['module']]} {item['version']}")
            started = None
    fix = ("reinstall with `sudo deploy/install.sh`: it pins numpy, opencv-python-headless and onnxruntime to "
           "versions that work with apt's picamera2 (deploy/constraints-pi.txt)")
    if done.returncode != 0 and started is not None:
        how = f"signal {-done.returncode}" if done.returncode < 0 else f"exit status {done.returncode}"
        return Check("packages", False, f"{CRASHED}: importing {labels.get(started, started)} killed Python ({how})"
                     + (f"; {done.stderr.strip().splitlines()[-1]}" if done.stderr.strip() else ""), fix)
    if problems:
        return Check("packages", False, "; ".join(problems), fix)
    return Check("packages", True, ", ".join(versions))


def _importable(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def check_camera(settings: DoctorSettings) -> Check:
    """Open the configured frame source and read one frame (within :data:`CAMERA_TIMEOUT_S`)."""
    source = settings.source.strip() or "auto"
    kind = source.split(":", 1)[0]
    if kind not in ("auto", "picamera", "webcam", "demo"):
        path = Path(source).expanduser()
        if not path.exists():
            return Check("camera", False, f"source {source!r}: no such file or folder",
                         "give --source auto|picamera|webcam[:N]|demo or an existing image, video or folder")
    from tilecam.firmware import sources

    return _probe_source(sources, source)


def _probe_source(sources: Any, spec: str) -> Check:
    """Open the source through the device's own code and read one full frame, in a thread so that a hung camera
    is reported instead of hanging the doctor."""
    result: dict[str, Any] = {}

    def probe() -> None:
        try:
            choice = sources.open_source_spec(spec, realtime_demo=False)
            result["name"] = str(choice.source.name)
            result["reason"] = str(choice.reason)
            choice.source.open()
            try:
                result["frame"] = choice.source.read().full()
            finally:
                choice.source.close()
        except Exception as exc:  # noqa: BLE001 — any failure of the camera stack is the finding, not a crash
            result["error"] = exc

    thread = threading.Thread(target=probe, name="doctor-camera", daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(CAMERA_TIMEOUT_S)
    elapsed = time.monotonic() - started
    if thread.is_alive():
        return Check("camera", False, f"source {spec!r}: no frame within {CAMERA_TIMEOUT_S:.0f} s",
                     _camera_fix(spec, busy=True))
    if "error" in result:
        exc = result["error"]
        busy = "busy" in str(exc).lower() or isinstance(exc, PermissionError)
        return Check("camera", False, f"source {spec!r}: {type(exc).__name__}: {exc}", _camera_fix(spec, busy=busy))
    frame = result.get("frame")
    shape = getattr(frame, "shape", None)
    name = result.get("name", spec)
    if frame is None or not shape or len(shape) < 2:
        return Check("camera", False, f"source {spec!r} ({name}) opened but gave no image",
                     _camera_fix(spec, busy=False))
    if spec.strip() in ("", "auto") and name == "demo":
        return Check("camera", False, f"{result.get('reason') or 'auto: no camera found'}",
                     _camera_fix("auto", busy=False))
    return Check("camera", True, f"{name}: one {shape[1]}x{shape[0]} frame in {elapsed:.1f} s "
                                 f"({result.get('reason') or spec})")


def _camera_fix(spec: str, *, busy: bool) -> str:
    if busy:
        return ("the camera may be held by the running scorekeeper: `sudo systemctl stop tilecam`, then run the "
                "doctor again (or check http://tilecam.local:8000/health); unplug and replug a USB webcam")
    if spec.startswith(("picamera", "auto")):
        return ("Pi camera: power off, reseat the ribbon cable (contacts towards the board on a Pi 4, the "
                "connector latch closed), check `rpicam-hello --list-cameras`; the user running tilecam must be in "
                "the `video` group. USB webcam: check `ls /dev/video*`. No camera at all: use --source demo")
    if spec.strip() == "demo":
        return "the bundled demo clip is missing from this build: upgrade tilecam (deploy/install.sh)"
    if spec.startswith("webcam"):
        return "check `ls -l /dev/video*` and that the user is in the `video` group; try another index (webcam:1)"
    return "check the source path or use --source demo"


def check_model(settings: DoctorSettings) -> Check:
    """The tile classifier loads and answers one batch."""
    from tilecam.vision import classify

    path = Path(settings.model) if settings.model else classify.packaged_model()
    if not path.is_file():
        return Check("model", False, f"not available: the tile model {path} is missing",
                     "upgrade tilecam (deploy/install.sh) — the shipped package carries models/tiles.onnx")
    import numpy as np

    from tilecam.vision.warp import CROP_PX

    started = time.monotonic()
    try:
        classifier = classify.TileClassifier.load(path)
    except classify.ModelError as exc:
        return Check("model", False, str(exc), "reinstall tilecam (deploy/install.sh) to restore models/tiles.onnx")
    loaded = time.monotonic()
    # One whole board's worth of crops, cut as the reader cuts them: the time is what one reading costs here.
    crops = np.full((225, CROP_PX, CROP_PX, 3), 200, dtype=np.uint8)
    labels, _probs = classifier.classify(crops)
    done = time.monotonic()
    return Check("model", True, f"{path.name}: loaded in {(loaded - started) * 1000:.0f} ms, read 225 cells "
                                f"in {(done - loaded) * 1000:.0f} ms ({len(labels)} labels)")


def check_lexicon(settings: DoctorSettings) -> Check:
    """The word list the game core picks for the configured game (core/lexicons.py) loads."""
    from tilecam.core.lexicons import LexiconChoiceError, lexicon_for

    started = time.monotonic()
    try:
        lex = lexicon_for(settings.tileset, settings.lexicon or None)
    except LexiconChoiceError as exc:  # no such list, unreadable, characters outside the tile set's
        fix = ("set [game] lexicon in the config to an existing word list (one word a line), to enable1 for the "
               "bundled English one, or to none")
        return Check("lexicon", False, str(exc), fix)
    if lex is None:
        return Check("lexicon", True, f"none for a {settings.tileset} game ({settings.lexicon or 'enable1'}): the "
                                      "players decide challenges")
    if len(lex) == 0:
        return Check("lexicon", False, f"{lex.source or 'the bundled word list'} has no words",
                     "point [game] lexicon at a word list with one word per line")
    ms = (time.monotonic() - started) * 1000
    return Check("lexicon", True, f"{lex.source or 'bundled ENABLE'}: {len(lex)} words, loaded in {ms:.0f} ms")


def data_dir_of(settings: DoctorSettings) -> Path:
    """The configured data folder, or the one the store uses when none is configured."""
    if settings.data_dir:
        return Path(settings.data_dir).expanduser()
    from tilecam.core import store

    return Path(store.default_path()).parent


def check_store(settings: DoctorSettings) -> Check:
    """The data folder is writable and the game database (if there is one yet) is readable and not too new.

    The doctor opens the database read-only and never creates it: run as root, it would otherwise leave a file the
    service user cannot write.
    """
    data_dir = data_dir_of(settings)
    user_fix = (f"create it for the service user: `sudo install -d -o tilecam -g tilecam {data_dir}`, or pass "
                "--data-dir to a folder you can write; run the doctor as that user: `sudo -u tilecam tilecam doctor`")
    if not data_dir.is_dir():
        parent = data_dir.parent
        while not parent.exists() and parent != parent.parent:
            parent = parent.parent
        if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
            return Check("store", True, f"{data_dir} does not exist yet; it is created on the first run")
        return Check("store", False, f"data folder {data_dir} does not exist and {parent} is not writable", user_fix)
    try:
        with tempfile.NamedTemporaryFile(dir=data_dir, prefix=".doctor-"):
            pass
    except OSError as exc:
        return Check("store", False, f"cannot write in {data_dir}: {exc.strerror or exc}", user_fix)
    from tilecam.core import store

    db = data_dir / store.DB_FILENAME
    if not db.exists():
        return Check("store", True, f"{data_dir} is writable; no games yet (the database is created on first run)")
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            games = _count_games(conn)
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return Check("store", False, f"{db}: {exc}",
                     f"the database may be damaged: stop the service, copy {db} aside and start again")
    if version > store.SCHEMA_VERSION:
        return Check("store", False, f"{db} has schema version {version}, this tilecam knows up to "
                                     f"{store.SCHEMA_VERSION}", "upgrade tilecam (deploy/install.sh)")
    if verdict != "ok":
        return Check("store", False, f"{db}: integrity check says {verdict}",
                     f"stop the service and keep a copy of {db}; `sqlite3 {db} .recover` may save the games")
    return Check("store", True, f"{db}: schema {version}, {games} game(s), integrity ok")


def _count_games(conn: sqlite3.Connection) -> int | str:
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:  # an empty database from before the first migration
        return 0


def check_disk(settings: DoctorSettings) -> Check:
    path = data_dir_of(settings)
    while not path.exists() and path != path.parent:
        path = path.parent
    free = shutil.disk_usage(path).free
    detail = f"{_human(free)} free at {path}"
    if free < DISK_FAIL_BYTES:
        return Check("disk", False, detail, "free space on the SD card: `sudo apt clean`, `sudo journalctl "
                                            "--vacuum-size=50M`, or move old games away")
    if free < DISK_WARN_BYTES:
        return Check("disk", False, detail + " (less than 1 GiB)", "free some space soon: `sudo apt clean`, "
                     "`sudo journalctl --vacuum-size=50M`", essential=False)
    return Check("disk", True, detail)


def _human(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")


# Bits of `vcgencmd get_throttled` (Raspberry Pi firmware): now, and since boot.
THROTTLE_BITS = {
    0x1: "under-voltage now", 0x2: "ARM frequency capped now", 0x4: "throttled now", 0x8: "soft temperature limit now",
    0x10000: "under-voltage since boot", 0x40000: "throttled since boot", 0x80000: "soft temperature limit since boot",
}


def check_temperature(settings: DoctorSettings, thermal_root: str = "/sys/class/thermal",
                      run: Callable[[list[str]], str | None] | None = None) -> Check:
    """SoC temperature (and, on a Pi, the firmware's throttling flags). A warning, never essential."""
    celsius = read_temperature(thermal_root)
    flags = _throttle_flags(run or _run_quiet)
    if celsius is None and flags is None:
        return Check("temperature", True, "no temperature sensor here (not a Raspberry Pi?)", essential=False)
    parts = [f"{celsius:.1f} °C" if celsius is not None else "temperature unknown"]
    problems = [text for bit, text in THROTTLE_BITS.items() if flags and flags & bit]
    if problems:
        parts.append("firmware reports: " + ", ".join(problems))
    detail = "; ".join(parts)
    if any("under-voltage" in p for p in problems):
        return Check("temperature", False, detail, "use the official power supply (5 V 3 A for a Pi 4, 5 V 5 A "
                     "for a Pi 5) and a short cable; under-voltage slows the Pi and corrupts SD cards",
                     essential=False)
    if (celsius is not None and celsius >= TEMP_WARN_C) or problems:
        return Check("temperature", False, detail, "the Pi is throttling: add a heatsink or the active cooler, "
                     "keep the case out of the lamp's heat and direct sun", essential=False)
    return Check("temperature", True, detail, essential=False)


def read_temperature(thermal_root: str = "/sys/class/thermal") -> float | None:
    """The CPU's temperature in °C from the kernel's thermal zones (``cpu-thermal`` preferred), or ``None``."""
    zones = sorted(Path(thermal_root).glob("thermal_zone*"))
    readings: list[tuple[bool, float]] = []
    for zone in zones:
        try:
            milli = int((zone / "temp").read_text().strip())
            kind = (zone / "type").read_text().strip() if (zone / "type").exists() else ""
        except (OSError, ValueError):
            continue
        readings.append(("cpu" in kind or "soc" in kind, milli / 1000))
    if not readings:
        return None
    preferred = [c for is_cpu, c in readings if is_cpu]
    return (preferred or [c for _, c in readings])[0]


def _throttle_flags(run: Callable[[list[str]], str | None]) -> int | None:
    out = run(["vcgencmd", "get_throttled"])
    if not out or "=" not in out:
        return None
    try:
        return int(out.strip().split("=", 1)[1], 16)
    except ValueError:
        return None


def _run_quiet(cmd: list[str]) -> str | None:
    if shutil.which(cmd[0]) is None:
        return None
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=5, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def check_buttons(settings: DoctorSettings, dev: str = "/dev") -> Check:
    """The clock buttons, when pins are configured: gpiozero importable and the GPIO chip usable by this user.

    The pins themselves are not claimed: the running scorekeeper holds them.
    """
    if not settings.button_pins:
        return Check("buttons", True, "no buttons configured ([buttons] pins = [])", essential=False)
    pins = ", ".join(map(str, settings.button_pins))
    if not _importable("gpiozero"):
        return Check("buttons", False, f"pins {pins} configured but gpiozero is not installed",
                     "sudo apt install python3-gpiozero python3-lgpio (the venv sees apt's packages)", essential=False)
    chips = sorted(glob.glob(os.path.join(dev, "gpiochip*")))
    if not chips:
        return Check("buttons", False, f"pins {pins} configured but there is no {dev}/gpiochip* (not a Pi?)",
                     "remove the pins from [buttons] in the config, or run on a Raspberry Pi", essential=False)
    usable = [c for c in chips if os.access(c, os.R_OK | os.W_OK)]
    if not usable:
        return Check("buttons", False, f"pins {pins}: {', '.join(chips)} not readable and writable by this user",
                     "add the service user to the gpio group: sudo usermod -a -G gpio tilecam", essential=False)
    return Check("buttons", True, f"pins {pins}; gpiozero installed; {usable[0]} usable", essential=False)


def check_address(settings: DoctorSettings) -> Check:
    """Where phones will find the scoreboard: the LAN address the QR code carries, and tilecam.local."""
    ip = local_ip()
    host = socket.gethostname()
    if ip is None:
        return Check("address", False, "no network address (not connected?)",
                     "connect the Pi to the Wi-Fi the phones use (`sudo nmtui`) or plug in Ethernet", essential=False)
    mdns = "avahi running" if Path("/run/avahi-daemon/pid").exists() else "avahi not running: .local names won't work"
    return Check("address", True, f"http://{ip}:{settings.port}/ (host {host}; {mdns})", essential=False)


def local_ip() -> str | None:
    """The address of the interface that routes outwards (no packet is sent: UDP connect only picks a route)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere, only used to choose an interface
            ip = sock.getsockname()[0]
    except OSError:
        return None
    return None if ip.startswith("0.") else ip


# name -> check, in the order they run and print (cheap ones first).
CHECKS: dict[str, Callable[[DoctorSettings], Check]] = {
    "python": check_python,
    "packages": check_packages,
    "store": check_store,
    "disk": check_disk,
    "temperature": check_temperature,
    "lexicon": check_lexicon,
    "model": check_model,
    "camera": check_camera,
    "buttons": check_buttons,
    "address": check_address,
}

# Checks that import numpy/OpenCV/onnxruntime in this process; not run when importing those crashed the probe.
NEEDS_NATIVE_PACKAGES = ("model", "camera")

# What the web's /health runs: fast, and nothing that competes with the running loop for the camera.
HEALTH_CHECKS = ("python", "store", "disk", "temperature")


def health_checks(data_dir: str | Path) -> list[dict[str, Any]]:
    """The cheap checks (:data:`HEALTH_CHECKS`) on a data folder, as the web's ``/health`` shows them."""
    return [c.to_dict() for c in run_checks({"data_dir": str(data_dir)}, only=HEALTH_CHECKS)]


def run_checks(config: Any = None, only: Iterable[str] | None = None) -> list[Check]:
    """Run the checks (all, or the names in ``only``) against ``config``; never raises for what it finds.

    >>> [c.name for c in run_checks({"store": {"data_dir": "/nonexistent"}}, only=["python", "store"])]
    ['python', 'store']
    """
    settings = DoctorSettings.from_config(config)
    names = list(CHECKS) if only is None else list(only)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown check(s) {', '.join(unknown)}; known: {', '.join(CHECKS)}")
    results = []
    crashed: Check | None = None
    for name in names:
        if crashed is not None and name in NEEDS_NATIVE_PACKAGES:
            results.append(Check(name, False, "not run: it would import the package that crashed (see packages)",
                                 crashed.fix))
            continue
        try:
            results.append(CHECKS[name](settings))
        except Exception as exc:  # noqa: BLE001 — a doctor reports what broke; it must not die of the illness
            results.append(Check(name, False, f"the check itself failed: {type(exc).__name__}: {exc}",
                                 "report this with the output of `tilecam doctor --json`"))
        if name == "packages" and results[-1].detail.startswith(CRASHED):
            crashed = results[-1]
    return results


def all_essential_ok(checks: Iterable[Check]) -> bool:
    return all(c.ok for c in checks if c.essential)
